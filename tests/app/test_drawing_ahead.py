# SPDX-License-Identifier: LGPL-2.1-or-later
"""The drawings made in a child while shape and features are measured (app/drawing/ahead.py)
give the very result the drawing stage gives when it draws them itself; a child that dies
costs only time. Real kernel, real TechDraw, real files."""

import os
import textwrap

import pytest

TARGETS = {"W": ("length", 40), "D": ("length", 30), "H": ("length", 20), "HOLE": ("diameter", 10)}


@pytest.fixture(scope="module")
def moved_case(fc, part, tmp_path_factory):
    """A case of a chiral holed block and a copy turned 23 degrees about a skew axis and
    moved: the candidate's drawing is of a placed shape, not of the file as read."""
    from conftest import chiral_block

    from cadbench_wb.case_model import cases

    folder = tmp_path_factory.mktemp("ahead")
    case_dir = folder / "case"
    case_dir.mkdir()
    block = chiral_block(fc, part)
    block.exportStep(str(case_dir / "reference.step"))
    lines = [f"  - {{id: {i}, kind: {k}, value: {v}}}" for i, (k, v) in TARGETS.items()]
    header = textwrap.dedent(
        """\
        id: ahead_test
        title: drawing ahead test part
        reference: reference.step
        dimensions:
        """
    )
    (case_dir / "case.yaml").write_text(header + "\n".join(lines) + "\n")
    moved = block.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
    moved.translate(fc.Vector(5, 7, 9))
    candidate = str(folder / "moved.step")
    moved.exportStep(candidate)
    return cases.load_case(str(case_dir)), candidate


def _scored(case, candidate, folder, monkeypatch, serial: bool, fault: str = ""):
    from cadbench_wb.app import scoring
    from cadbench_wb.app.drawing import ahead

    monkeypatch.setenv(ahead.SERIAL_VARIABLE, "1" if serial else "0")
    monkeypatch.setenv("CADBENCH_FAULT", fault)
    # A cache of its own: every run draws the reference afresh.
    options = {"drawing_cache": str(folder / "cache"), "drawing_dir": str(folder / "drawing")}
    result = scoring.score_files(case.reference_path, candidate, options, case=case)
    timing = result.pop("timing")
    for name in ("candidate", "reference"):
        assert open(folder / "drawing" / name / "drawing.dxf").read().count("DIMENSION") > 0
    return result, timing


@pytest.fixture(scope="module")
def serial(moved_case, tmp_path_factory):
    monkeypatch = pytest.MonkeyPatch()
    try:
        return _scored(*moved_case, tmp_path_factory.mktemp("serial"), monkeypatch, serial=True)
    finally:
        monkeypatch.undo()


def test_the_drawings_made_ahead_give_the_result_drawn_in_process(
    moved_case, serial, tmp_path, monkeypatch
):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: the drawings are made in process")
    result, timing = _scored(*moved_case, tmp_path, monkeypatch, serial=False)
    # The child drew both bodies, and nothing was drawn again here.
    assert {"drawing_candidate_ahead", "drawing_reference_ahead"} <= set(timing)
    assert not {"drawing_candidate", "drawing_reference"} & set(timing)
    assert "drawing_candidate" in serial[1]
    assert result["drawingMatch"] == 1.0  # four targets, all printed on a perfect copy
    assert result == serial[0]


def test_a_drawing_child_that_dies_is_drawn_in_process_with_the_same_result(
    moved_case, serial, tmp_path, monkeypatch
):
    from cadbench_wb.app.drawing import ahead

    result, timing = _scored(*moved_case, tmp_path, monkeypatch, serial=False, fault=ahead.FAULT)
    assert {"drawing_candidate", "drawing_reference"} <= set(timing)
    assert not any(key.endswith("_ahead") for key in timing)
    assert result == serial[0]


def test_a_mesh_candidate_is_not_drawn_and_the_reference_is_drawn_once(
    moved_case, serial, part, tmp_path, monkeypatch
):
    """drawingMatch does not apply to a mesh: the child draws the reference only (its
    ceiling is the B-rep scoring's), and nothing is drawn in this process."""
    import Mesh

    from cadbench_wb.app import scoring
    from cadbench_wb.app.drawing import ahead, stage

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: the drawings are made in process")
    case, candidate = moved_case
    stl = str(tmp_path / "moved.stl")
    Mesh.Mesh(part.read(candidate).tessellate(0.01)).write(stl)
    drawn_here = []
    original = stage._drawn
    monkeypatch.setattr(
        stage, "_drawn", lambda *a, **k: drawn_here.append(a[3]) or original(*a, **k)
    )
    monkeypatch.setenv(ahead.SERIAL_VARIABLE, "0")
    options = {"drawing_cache": str(tmp_path / "cache")}
    result = scoring.score_files(case.reference_path, stl, options, case=case)
    assert result["drawingMatch"] is None
    assert result["verdicts"]["drawingMatch"]["verdict"] == "not applicable"
    assert result["drawingSelfTest"] == serial[0]["drawingSelfTest"] == 1.0
    assert "drawing_reference_ahead" in result["timing"]
    assert "drawing_candidate_ahead" not in result["timing"]
    assert drawn_here == []


@pytest.mark.slow
def test_a_public_part_draws_the_same_in_process_after_the_other_stages(tmp_path, monkeypatch):
    """NIST FTC-06 (public domain, cases/nist_ftc_06): drawn in the scoring process after
    the shape stage meshed it, the reference printed 19 of its 21 targets; drawn in a child
    from its file, 20 -- so drawingSelfTest moved with the machine's free cores. The
    drawing stage draws a copy without the triangulation; both ways now agree."""
    from conftest import ROOT

    from cadbench_wb.app import scoring
    from cadbench_wb.app.drawing import ahead
    from cadbench_wb.case_model import cases

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: the drawings are made in process")
    case = cases.load_case(os.path.join(ROOT, "cases", "nist_ftc_06"))
    figures = []
    for serial in ("1", "0"):
        monkeypatch.setenv(ahead.SERIAL_VARIABLE, serial)
        folder = tmp_path / f"serial{serial}"
        options = {"drawing_cache": str(folder / "cache"), "drawing_dir": str(folder / "drawing")}
        result = scoring.score_files(case.reference_path, case.reference_path, options, case=case)
        figures.append((result["drawingSelfTest"], result["drawingMatch"]))
    assert figures[0] == figures[1]
