# SPDX-License-Identifier: LGPL-2.1-or-later
"""Threads made by generators other than FreeCAD read as one record each, as constructed.

The truth is tests/data/threads/manifest.json: the parameters tools/thread_fixtures.py gave
bd_warehouse's and cq_warehouse's IsoThread (and, for the partcad bolt, an independent
measurement). Tolerances, from the generators' construction:
- pitch within PITCH_REL: bd_warehouse's loops are lofted B-splines that follow the helix
  to about 1e-3 of the pitch (their screw residual is 1.3e-3), cq_warehouse's are exact;
- major diameter within MAJOR_ABS: the lofted crests overshoot by up to 0.007 mm;
- each end within half a pitch of the constructed one: the thread form ends one tooth
  wide, and wherever the end falls inside that tooth (a fade-out drops it to nothing over a
  quarter turn, P/4 along the axis; a square or chamfered end cuts it), the last flank
  point lies within half the tooth's root width (3P/8 external, 7P/16 internal) < P/2.
  On a thread of N starts the quarter turn of the fade is L/4 = N P/4 along the axis, not
  P/4: each end is within P/2 + (L - P)/4, the length within twice that.
"""

import json
import math
import os

import numpy as np
import pytest
from conftest import ROOT

from cadbench_wb import standard
from cadbench_wb.app.model import thread_flanks
from cadbench_wb.app.recognition import threads

DATA = os.path.join(ROOT, "tests", "data", "threads")
PITCH_REL = 2e-3
MAJOR_ABS = 0.02


def manifest() -> dict:
    with open(os.path.join(DATA, "manifest.json"), encoding="utf-8") as handle:
        return json.load(handle)


def expected_by_file() -> dict:
    found = {}
    for record in manifest()["threads"]:
        found.setdefault(record["file"], []).append(record)
    return {name: sorted(rs, key=lambda r: r["start_z"]) for name, rs in sorted(found.items())}


EXPECTED = expected_by_file()


@pytest.fixture(scope="module")
def shapes(fc):
    import Part

    return {name: Part.read(os.path.join(DATA, name)) for name in EXPECTED}


def test_fixtures_cover_the_issue():
    """At least two generators other than FreeCAD, M3 to M12, coarse and fine, both hands,
    fade, square and chamfered ends, internal and external, a part with two threads, and
    threads of two and three starts."""
    records = [r for rs in EXPECTED.values() for r in rs]
    assert {"bd_warehouse", "cq_warehouse"} <= {r["generator"] for r in records}
    assert {3.0, 12.0} <= {r["major_diameter"] for r in records}
    assert {"x" in r["designation"] for r in records} == {True, False}
    assert {r["hand"] for r in records} == {"right", "left"}
    assert {r["kind"] for r in records} == {"internal", "external"}
    assert {"fade", "square", "chamfer"} <= {e for r in records for e in r["end_finishes"]}
    assert max(len(rs) for rs in EXPECTED.values()) == 2
    assert {2, 3} <= {r["starts"] for r in records}
    size = sum(os.path.getsize(os.path.join(DATA, name)) for name in os.listdir(DATA))
    assert size < 6e6


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_thread_reads_as_one_record_as_constructed(shapes, name):
    shape = shapes[name]
    assert thread_flanks.has_modeled_thread(shape)
    found = sorted(threads.modeled_threads(shape), key=lambda t: t.start[2])
    expected = EXPECTED[name]
    assert len(found) == len(expected), [(t.designation, t.pitch, t.hand) for t in found]
    for thread, truth in zip(found, expected, strict=True):
        pitch = truth["pitch"]
        end_tolerance = pitch / 2 + (truth["starts"] - 1) * pitch / 4
        assert thread.modeled and thread.kind == truth["kind"]
        assert thread.hand == truth["hand"] and thread.starts == truth["starts"]
        assert thread.pitch == pytest.approx(pitch, rel=PITCH_REL)
        assert thread.designation == truth["designation"]
        assert thread.major_diameter == pytest.approx(truth["major_diameter"], abs=MAJOR_ABS)
        assert np.array(thread.axis) == pytest.approx(truth["axis"], abs=1e-3)
        assert thread.start[:2] == pytest.approx([0.0, 0.0], abs=0.01)
        assert thread.start[2] == pytest.approx(truth["start_z"], abs=end_tolerance)
        end = truth["start_z"] + truth["length"]
        assert thread.end[2] == pytest.approx(end, abs=end_tolerance)
        single = truth["starts"] == 1  # (the single-start bound P/2 was met on both ends)
        length_tolerance = pitch / 2 if single else 2 * end_tolerance
        assert thread.length == pytest.approx(truth["length"], abs=length_tolerance)


def test_bd_warehouse_stud_is_not_two_spurious_threads(shapes):
    """The issue's case: an M6 x 1 stud once read as RH pitch 2.36 plus LH pitch 0.36 (the
    exact fits of its two fade-out tips) and a square-ended one as no thread at all."""
    (faded,) = threads.modeled_threads(shapes["bd_m6x1_stud_rh_fade.step"])
    (square,) = threads.modeled_threads(shapes["bd_m6x1_stud_lh_square.step"])
    assert (faded.designation, faded.hand) == ("M6", "right")
    assert (square.designation, square.hand) == ("M6", "left")


def test_fade_tips_fit_screws_of_their_own_but_never_seed_a_thread(shapes):
    """bd_warehouse's fade-out tips fit a screw almost exactly (lead 2.36 and -0.36 for an
    M6 x 1) and so stay as flanks of their own; they cover a quarter turn, so go_round
    refuses them alone, and joined to the thread's flanks they are the run-out."""
    shape = shapes["bd_m6x1_stud_rh_fade.step"]
    faces = thread_flanks.free_form_samples(shape, standard.THREADS["grid"])
    tips = []
    for samples in faces:
        own = thread_flanks.own_fit(samples)
        if own is not None and abs(abs(own.lead) - 1.0) > 0.1:
            tips.append((samples, own))
    assert len(tips) == 4  # two faces at each end
    for samples, own in tips:
        assert not thread_flanks.goes_round(own, [samples])
    (thread,) = threads.modeled_threads(shape)
    assert {f"Face{s.index + 1}" for s, _ in tips} <= set(thread.faces)


def helicoid_samples(lead: float, tilt: float, seed: int = 7):
    """Points and normals of the ruled helicoid z = lead theta / 2 pi + (r - 4) tan 30
    (a 60-degree flank, radius 3 to 4, one turn), normals tilted by `tilt` rad about a
    random tangent direction."""
    rng = np.random.default_rng(seed)
    theta = rng.uniform(0, 2 * math.pi, 200)
    radius = rng.uniform(3.0, 4.0, 200)
    slope, per_radian = math.tan(math.radians(30)), lead / (2 * math.pi)
    points = np.column_stack(
        [radius * np.cos(theta), radius * np.sin(theta), per_radian * theta + slope * radius]
    )
    d_theta = np.column_stack(
        [-radius * np.sin(theta), radius * np.cos(theta), np.full(200, per_radian)]
    )
    d_radius = np.column_stack([np.cos(theta), np.sin(theta), np.full(200, slope)])
    normals = np.cross(d_theta, d_radius)
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    tangent = d_theta / np.linalg.norm(d_theta, axis=1)[:, None]
    sign = rng.choice([-1.0, 1.0], 200)[:, None]
    normals = np.cos(tilt) * normals + sign * np.sin(tilt) * tangent
    return points, normals


def test_screw_fit_reads_lead_and_hand_of_an_exact_helicoid():
    for lead in (1.25, -0.7):
        screw = thread_flanks.screw_fit(*helicoid_samples(lead, 0.0))
        assert screw.lead == pytest.approx(lead, rel=1e-9)
        assert abs(screw.axis[2]) == pytest.approx(1.0, abs=1e-9)
        assert screw.residual < 1e-9


def test_fit_residual_boundary():
    """fit_residual (0.01) is the rms angle between a flank and the screw's motion: normals
    tilted by 0.008 rad still fit, by 0.012 rad no longer (a tilt along the helix direction
    is exactly what the residual measures, whatever the size)."""
    bound = standard.THREADS["fit_residual"]
    assert bound == 0.01
    for scale in (0.3, 1.0, 10.0):  # M3-like to M80-like: the residual is dimensionless
        points, normals = helicoid_samples(1.0, 0.8 * bound)
        near = thread_flanks.screw_fit(points * scale, normals)
        assert near is not None and 0.7 * bound < near.residual <= bound
        points, normals = helicoid_samples(1.0, 1.2 * bound)
        far = thread_flanks.screw_fit(points * scale, normals)
        assert far is not None and far.residual > bound
        assert thread_flanks.own_fit(thread_flanks.FaceSamples(None, 0, points, normals)) is None


def test_a_cylinder_fits_no_unique_screw():
    rng = np.random.default_rng(3)
    theta, z = rng.uniform(0, 2 * math.pi, 100), rng.uniform(0, 5, 100)
    points = np.column_stack([4 * np.cos(theta), 4 * np.sin(theta), z])
    normals = np.column_stack([np.cos(theta), np.sin(theta), np.zeros(100)])
    assert thread_flanks.screw_fit(points, normals) is None


def test_a_helical_spring_is_no_thread(fc, part):
    """A round wire swept along a helix is helical too, but its tube faces every way: the
    mean outward share of its normals is about 0, not the 0.5 of 60-degree flanks, so it
    stays below min_radial_share (0.2)."""
    helix = part.makeHelix(3.0, 9.0, 5.0)
    start = helix.Edges[0].valueAt(helix.Edges[0].FirstParameter)
    tangent = helix.Edges[0].tangentAt(helix.Edges[0].FirstParameter)
    circle = part.Wire(part.makeCircle(0.8, start, tangent))
    sweep = part.Wire(helix.Edges).makePipeShell([circle], True, True)
    assert sweep.isValid() and sweep.Volume > 0
    assert thread_flanks.has_modeled_thread(sweep)  # helical faces: exact booleans are skipped
    assert threads.modeled_threads(sweep) == []


def test_square_ended_thread_pair_takes_the_thread_route():
    """The issue's M6 stud pair (right-hand faded, left-hand squared) once went to exact
    booleans (53 s, and an empty common): both are modeled threads, so the mesh route."""
    from cadbench_wb.app.scoring import score_files

    faded = os.path.join(DATA, "bd_m6x1_stud_rh_fade.step")
    square = os.path.join(DATA, "bd_m6x1_stud_lh_square.step")
    result = score_files(faded, square, {"only": ["shape", "threads"], "no_align": True})
    assert result["shape"]["method"] == "mesh"
    assert result["threadMatch"] == 0.0
    (pair,) = result["threads"]["pairs"]
    assert not pair["checks"]["hand"]["ok"] and pair["checks"]["pitch"]["ok"]
    same = score_files(faded, faded, {"only": ["threads"], "no_align": True})
    assert same["threadMatch"] == 1.0


@pytest.mark.parametrize("name", ["nist_ctc_02_blends.brep", "nist_ftc_07_blends.brep"])
def test_blends_that_fit_a_screw_are_no_thread(fc, name):
    """Blend faces of unthreaded NIST parts each fit a screw within fit_residual, with
    thread-like leads (+-1.85 at radius 13), but over a fraction of a turn, alone or
    together: the thread rule must not take them for a thread (exact booleans would be
    skipped on a part that needs them)."""
    import Part

    shape = Part.Shape()
    shape.read(os.path.join(DATA, name))
    faces = thread_flanks.free_form_samples(shape, 5)
    assert faces and all(thread_flanks.own_fit(s) is not None for s in faces)
    assert not thread_flanks.has_modeled_thread(shape)
    assert threads.modeled_threads(shape) == []


@pytest.mark.parametrize(("degrees", "round_"), [(320.0, False), (340.0, True), (720.0, True)])
def test_goes_round_boundary(fc, part, degrees, round_):
    """turn_sectors (12): flanks go round when they leave no angular gap over 30 degrees.
    A ruled flank between helices at radius 3 and 4 (60-degree flank, pitch 1) over 340
    degrees leaves 20: a thread's; over 320 it leaves 40: an end tip's or a stray loop's."""
    assert standard.THREADS["turn_sectors"] == 12
    pitch, height = 1.0, degrees / 360.0
    inner = part.makeHelix(pitch, height, 3.0)
    outer = part.makeHelix(pitch, height, 4.0)
    outer.translate(fc.Vector(0, 0, math.tan(math.radians(30))))
    face = part.makeRuledSurface(inner.Edges[0], outer.Edges[0]).Faces[0]
    samples = thread_flanks.face_samples(face, 0, 7)
    screw = thread_flanks.own_fit(samples)
    assert screw is not None and screw.lead == pytest.approx(pitch, rel=1e-3)
    assert thread_flanks.goes_round(screw, [samples]) is round_
