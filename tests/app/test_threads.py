# SPDX-License-Identifier: LGPL-2.1-or-later
"""Thread detection on real threaded parts, cosmetic threads read as data, threadMatch."""

import os

import pytest
from conftest import REALWORLD, score_json

from cadbench_wb.app.cases import thread_models
from cadbench_wb.app.model import loading, thread_flanks
from cadbench_wb.app.recognition import threads
from cadbench_wb.app.scoring import score_files


def load(relative):
    return loading.load_model(os.path.join(REALWORLD, relative), "reference")


def test_real_bolt_thread_is_m8_coarse_right_hand_external():
    bolt = load("step/partcad/bolt.step")
    assert thread_flanks.has_modeled_thread(bolt.shape)
    (thread,) = threads.modeled_threads(bolt.shape)
    assert thread.kind == "external" and thread.hand == "right" and thread.modeled
    assert thread.pitch == pytest.approx(1.25, abs=1e-3)
    assert thread.major_diameter == pytest.approx(8.0, abs=1e-3)
    # ISO 68-1 / 898: the external minor (root) diameter d3 = d - 1.226869 P.
    assert thread.minor_diameter == pytest.approx(8.0 - 1.226869 * 1.25, abs=0.01)
    assert thread.designation == "M8"
    assert thread.axis == pytest.approx([0, 0, 1], abs=1e-6)
    # Partial thread from the tip (z -7.1) to about z 14.8 (MANIFEST.md): about 22 long.
    assert thread.start[2] == pytest.approx(-7.1, abs=0.1)
    assert thread.length == pytest.approx(22.0, abs=0.5)


@pytest.mark.parametrize(
    "relative",
    [
        "fcstd/assembly4/Screw_CHC.fcstd",
        "fcstd/freepdm/ISO4762_M8x16_lib.FCStd",
        "fcstd/freepdm/0001.FCStd",
        "step/occt/screw.step",
    ],
)
def test_plain_screws_and_parts_have_no_modeled_thread(relative):
    model = load(relative)
    assert not thread_flanks.has_modeled_thread(model.shape)
    assert threads.modeled_threads(model.shape) == []


def test_a_hole_with_a_thread_size_but_threaded_off_is_no_thread():
    model = load("fcstd/freepdm/0001.FCStd")
    hole = next(o for o in model.document_objects if o.type == "PartDesign::Hole")
    assert hole.properties["Threaded"] is False and hole.properties["ThreadSize"] == 16
    assert threads.cosmetic_threads(model.document_objects, model.shape) == []


def test_fasteners_screw_without_modeled_thread_is_cosmetic_m8():
    model = load("fcstd/freepdm/ISO4762_M8x16_lib.FCStd")
    (thread,) = threads.cosmetic_threads(model.document_objects, model.shape)
    assert not thread.modeled and thread.kind == "external"
    assert thread.designation == "M8" and thread.pitch == 1.25


def test_iso_table_designations():
    assert threads.iso_designation(8.0, 1.25) == "M8"
    assert threads.iso_designation(8.0, 1.0) == "M8x1"
    assert threads.iso_designation(24.0, 3.0) == "M24"
    assert threads.iso_designation(10.03, 1.5) == "M10"
    assert threads.iso_designation(8.0, 1.1) is None
    assert threads.parse_designation("M10x1.25") == (10.0, 1.25)
    assert threads.parse_designation("M12") == (12.0, 1.75)
    names = {row[0] for row in threads.iso_table()}
    assert {f"M{d}" for d in (3, 4, 5, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24)} <= names


@pytest.fixture(scope="module")
def bolts(fc, tmp_path_factory):
    """Right- and left-hand PartDesign M8 x 1.25 bolts as STEP (about 1 s each)."""
    folder = tmp_path_factory.mktemp("bolts")
    paths = {}
    for name, left in (("right", False), ("left", True)):
        paths[name] = str(folder / f"{name}.step")
        thread_models.bolt(left=left).exportStep(paths[name])
    return paths


def test_partdesign_bolt_threads_by_hand(bolts):
    right = threads.modeled_threads(loading.load_model(bolts["right"]).shape)
    left = threads.modeled_threads(loading.load_model(bolts["left"]).shape)
    assert [(t.hand, t.designation, t.kind) for t in right] == [("right", "M8", "external")]
    assert [(t.hand, t.designation, t.kind) for t in left] == [("left", "M8", "external")]
    # The thread runs from the tip to 22 mm up the shank.
    assert right[0].end[2] == pytest.approx(22.0, abs=1.25)


def test_wrong_hand_gives_thread_match_zero(bolts):
    # Only the hand differs: pitch, diameter, position and thread volume all agree.
    other = score_files(bolts["right"], bolts["left"], {"only": ["threads"], "no_align": True})
    assert other["threadMatch"] == 0.0
    checks = other["threads"]["pairs"][0]["checks"]
    assert not checks["hand"]["ok"] and checks["pitch"]["ok"] and checks["volume"]["ok"]
    assert other["verdicts"]["threadMatch"]["verdict"] == "FAIL"


def test_cosmetic_nut_thread_is_read_from_the_document(fc, tmp_path):
    path = thread_models.save_cosmetic_nut(str(tmp_path / "nut.FCStd"))
    model = loading.load_model(path)
    assert threads.modeled_threads(model.shape) == []
    (thread,) = threads.cosmetic_threads(model.document_objects, model.shape)
    assert thread.kind == "internal" and not thread.modeled
    assert thread.designation == "M10" and thread.pitch == 1.5 and thread.hand == "right"
    assert thread.minor_diameter == pytest.approx(8.5)  # carried by the Ø8.5 tap-drill hole
    assert thread.length == pytest.approx(thread_models.NUT["height"])


def test_part_without_thread_reports_thread_match_null(models):
    result = score_json(models["holed"], models["holed_moved"], "--only", "threads")
    assert result["threadMatch"] is None
    verdict = result["verdicts"]["threadMatch"]
    assert verdict["verdict"] == verdict["reachable"] == "not applicable"
    assert result["threads"]["applicable"] is False
    assert result["verdict"]["formal"] == "NOT CHECKED"  # nothing applicable was checked


@pytest.mark.slow
def test_thread_cases_score_as_built():
    """Every sample of the two thread cases gives what its case.yaml expects."""
    from conftest import ROOT

    from cadbench_wb.app.cases import build as case_build
    from cadbench_wb.case_model import cases

    for name in ("thread_bolt_m8", "thread_nut_m10"):
        case = cases.load_case(os.path.join(ROOT, "cases", name))
        case_build.build_missing(case)
        for candidate in case.candidates:
            options = {"only": ["shape", "dimensions", "features", "threads"]}
            result = score_files(case.reference_path, candidate.path, options, case)
            expect = candidate.expected(result["freecadVersion"])
            assert cases.expectation_failures(expect, result) == [], candidate.file
