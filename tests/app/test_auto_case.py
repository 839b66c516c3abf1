# SPDX-License-Identifier: LGPL-2.1-or-later
"""Automatic cases (`cadbench case new`, `cadbench score REF CAND` without --case) on the
labelled defects of tests/data/labelled (made with build123d, PROVENANCE.md).

Expected figures come from the generator's constants (the plate is 100 x 60 x 10 with a
Ø10 hole at (30, 30)) and from labels.json (which candidates are correct, which defect
each carries), never from a run.
"""

import json
import os

import pytest
from conftest import ROOT, run_cli

LABELLED = os.path.join(ROOT, "tests", "data", "labelled")
PLATE = os.path.join(LABELLED, "plate_hole", "reference.step")


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """Caches of automatic cases and drawings under tmp_path (never the user's)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return {"XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_case_new_binds_each_drafted_dimension_to_its_faces(own_cache, fc, tmp_path):
    from cadbench_wb.app.cases import auto, build
    from cadbench_wb.case_model import cases

    path = auto.write_case(PLATE, str(tmp_path / "plate"), "plate", "plate")
    first = open(path, "rb").read()
    case = cases.load_case(path)  # `case check`
    import Part

    from cadbench_wb.app.dimensions import location

    solid = Part.read(PLATE)
    # Each target's faces, as scoring resolves its binding (by place: `at:` points).
    bindings = location.bindings_of(case, solid)
    bound = {d.id: b["faces"] for d, b in zip(case.dimensions, bindings, strict=True)}
    assert all(bound.values()) and all("at" in d.geometry for d in case.dimensions)
    by_value = {}
    for d in case.dimensions:
        by_value.setdefault((d.kind, round(d.value, 6)), []).append(d)
    # The overall sizes and the hole, from the generator's constants.
    for size in (100.0, 60.0, 10.0):
        assert ("length", size) in by_value, size
    (hole,) = by_value[("diameter", 10.0)]
    faces = [solid.Faces[i] for i in sorted(bound[hole.id])]
    assert faces and all(f.Surface.TypeId == "Part::GeomCylinder" for f in faces)
    for face in faces:  # the hole at (30, 30), radius 5: no other cylinder
        assert face.Surface.Radius == pytest.approx(5.0)
        assert (face.Surface.Center.x, face.Surface.Center.y) == pytest.approx((30, 30))
    # Its two positions from the datum edges (x 30 and y 30), axis positions: extended.
    positions = by_value[("length", 30.0)]
    assert len(positions) == 2 and {d.spectrum for d in positions} == {"extended"}
    assert case.raw["auto"]["referenceCoverage"] == 1.0
    problems, _notes = build.verify(case)  # `case verify`
    assert problems == []
    # Deterministic: the same reference gives the same case.yaml, byte for byte.
    again = auto.write_case(PLATE, str(tmp_path / "again"), "plate", "plate")
    assert open(again, "rb").read() == first
    # Given with --case, it is scored in the spectrum its targets were measured in (the
    # hole's two positions are axis positions: the default spectrum lacks them).
    moved = os.path.join(LABELLED, "plate_hole", "correct_moved.step")
    args = ("score", "--case", str(tmp_path / "plate"), moved, "--json", "-")
    status, out, err = run_cli(*args, "--only", "dimensions", env=own_cache)
    assert status == 0, err
    result = json.loads(out)
    assert result["options"]["spectrum"] == "extended" and result["targets"] == "case"
    assert result["dimensionRecall"] == 1.0


def test_score_without_a_case_uses_the_automatic_targets(own_cache):
    candidate = os.path.join(LABELLED, "plate_hole", "hole_d9.step")
    status, out, err = run_cli("score", PLATE, candidate, "--json", "-", env=own_cache)
    assert status == 0, err
    result = json.loads(out)
    assert result["targets"] == "auto" and len(result["autoCase"]["fingerprint"]) == 16
    assert result["options"]["spectrum"] == "extended"
    assert result["verdicts"]["dimensionRecall"]["verdict"] == "FAIL"
    (hole,) = [d for d in result["dimensions"] if d["kind"] == "diameter"]
    assert hole["located"]["members"][0]["candidate"]["value"] == pytest.approx(9.0)
    status, out, _ = run_cli("score", PLATE, candidate, "--no-auto-targets", env=own_cache)
    assert status == 0 and "not applicable (no case: no target dimensions)" in out


def test_a_mesh_reference_has_no_automatic_targets_and_says_why(own_cache, fc, tmp_path):
    import Mesh
    import Part

    stl = str(tmp_path / "plate.stl")
    Mesh.Mesh(Part.read(PLATE).tessellate(0.05)).write(stl)
    status, out, err = run_cli(
        "score", stl, stl, "--json", "-", "--only", "shape,dimensions", env=own_cache
    )
    assert status == 0, err
    result = json.loads(out)
    assert result["targets"] is None
    assert result["autoCase"]["failure"]["reason"] == "reference_not_dimensionable"
    assert result["shapeIoU"] == pytest.approx(1.0)  # what applies is still scored
    assert result["verdicts"]["dimensionRecall"]["verdict"] == "not applicable"
    status, out, err = run_cli("score", stl, stl, "--only", "shape,dimensions", env=own_cache)
    assert status == 0, err  # the summary says why there are no targets
    assert "targets    none: reference_not_dimensionable: plate.stl: a triangle mesh" in out


def _labels():
    with open(os.path.join(LABELLED, "labels.json"), encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.slow
@pytest.mark.parametrize("part", sorted(_labels()))
def test_labelled_defects_pass_or_fail_naming_their_defect(own_cache, part):
    """Every correct candidate PASSes, every broken one FAILs, and the text output names
    the defect labels.json gives (each part between '|' in one line)."""
    reference = os.path.join(LABELLED, part, "reference.step")
    for name, label in sorted(_labels()[part].items()):
        candidate = os.path.join(LABELLED, part, f"{name}.step")
        status, out, err = run_cli("score", reference, candidate, env=own_cache)
        assert status == 0, err
        verdict = "PASS" if label["correct"] else "FAIL"
        assert f"case verdict: {verdict} (formal)" in out, (name, out)
        if label["defect"]:
            words = label["defect"].split("|")
            lines = [ln for ln in out.splitlines() if all(w in ln for w in words)]
            assert lines, (name, label["defect"], out)


@pytest.mark.slow
def test_a_campaign_over_references_without_cases(own_cache, tmp_path):
    """`cadbench run --references`: each reference's automatic case made once, stored in
    OUT/auto-cases in group `auto`, the candidates scored against it."""
    import shutil

    refs, run = tmp_path / "refs", tmp_path / "subs" / "sysA" / "run1"
    refs.mkdir()
    run.mkdir(parents=True)
    shutil.copy(PLATE, refs / "plate_hole.step")
    shutil.copy(os.path.join(LABELLED, "plate_hole", "hole_d9.step"), run / "plate_hole.step")
    out = tmp_path / "out"
    args = ("run", "--references", str(refs), "--submissions", str(tmp_path / "subs"))
    status, stdout, err = run_cli(*args, "--out", str(out), "--workers", "1", env=own_cache)
    assert status == 0, err
    assert "plate_hole: automatic case" in stdout and "(auto 1)" in stdout
    assert (out / "auto-cases" / "plate_hole" / "case.yaml").is_file()
    results = json.loads((out / "results.json").read_text())
    (scoring,) = results["scorings"]
    assert scoring["group"] == "auto" and scoring["verdict"]["formal"] == "FAIL"


# A 150 x 100 x 10 plate with 4 x 3 Ø6.65 holes on a 30 mm pitch from (30, 20): far beyond
# the correspondence limit (0.05 x the diagonal, 9.0 mm), so no hole stands in for another.
GRID = [(30.0 + 30.0 * i, 20.0 + 30.0 * j) for j in range(3) for i in range(4)]


def _twelve_hole_plate(fc, part, path, enlarged=None):
    plate = part.makeBox(150, 100, 10)
    for index, (x, y) in enumerate(GRID):
        radius = 7.15 / 2 if index == enlarged else 6.65 / 2
        plate = plate.cut(part.makeCylinder(radius, 10, fc.Vector(x, y, 0)))
    plate.Solids[0].exportStep(path)
    return path


@pytest.mark.slow
def test_one_of_twelve_holes_enlarged_costs_exactly_that_member(own_cache, fc, part, tmp_path):
    """Scored against its automatic case (no case.yaml): the 12X Ø6.65 callout finds 11 of
    its 12 members, the one missed is the enlarged hole (GRID[5]) read as Ø7.15, and every
    other target (sizes, positions, pitches) finds all of its members."""
    reference = _twelve_hole_plate(fc, part, str(tmp_path / "plate.step"))
    candidate = _twelve_hole_plate(fc, part, str(tmp_path / "enlarged.step"), enlarged=5)
    status, out, err = run_cli(
        "score", reference, candidate, "--json", "-", "--only", "dimensions", env=own_cache
    )
    assert status == 0, err
    rows = json.loads(out)["dimensions"]
    (callout,) = [d for d in rows if d["kind"] == "diameter" and d["target"] == 6.65]
    located = callout["located"]
    assert (located["found"], located["total"]) == (11, 12)
    (missed,) = [m for m in located["members"] if m["status"] != "found"]
    assert missed["candidate"]["value"] == pytest.approx(7.15)
    assert missed["reference"]["geometry"][0]["centre"][:2] == pytest.approx(list(GRID[5]))
    others = [d["located"] for d in rows if d is not callout and d["located"]["total"]]
    assert others and all(r["found"] == r["total"] for r in others), others
