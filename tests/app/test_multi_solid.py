# SPDX-License-Identifier: LGPL-2.1-or-later
"""Files of several solids: united without losing or adding material, self-scores of 1.

Every expected volume comes from the construction (boxes and cylinders placed so that
their overlaps are halves of cylinders or nothing at all)."""

import math

import pytest
from conftest import score_json

from cadbench_wb.app.model import solid_union
from cadbench_wb.app.model.loading import load_model


def _write(part, solids, path):
    part.makeCompound(solids).exportStep(str(path))
    return str(path)


@pytest.fixture(scope="module")
def grid36(fc, part, tmp_path_factory):
    """36 blocks 10.3 x 7.7 x 5.1 touching face to face in a 6 x 6 grid."""
    blocks = [
        part.makeBox(10.3, 7.7, 5.1, fc.Vector(10.3 * i, 7.7 * j, 0))
        for i in range(6)
        for j in range(6)
    ]
    return _write(part, blocks, tmp_path_factory.mktemp("multi") / "grid36.step")


@pytest.fixture(scope="module")
def body_with_crests(fc, part, tmp_path_factory):
    """A 40 x 30 x 10 body and 7 cylinders r 1.5, 3.5 apart, standing on its x = 0 face with
    their axes in that face: each sticks half out (and misses its neighbours by 0.5), like
    thread solids exported beside their body."""
    body = part.makeBox(40, 30, 10)
    crests = [part.makeCylinder(1.5, 10, fc.Vector(0, 3.5 * (k + 1), 0)) for k in range(7)]
    return _write(part, [body, *crests], tmp_path_factory.mktemp("multi") / "crests.step")


def test_touching_blocks_unite_into_one_solid_of_their_total_volume(fc, grid36):
    model = load_model(grid36)
    assert model.solids == 36
    assert len(model.shape.Solids) == 1
    assert model.shape.isValid()
    assert model.shape.Volume == pytest.approx(36 * 10.3 * 7.7 * 5.1, rel=1e-9)
    # Faces merged: the union of a grid of boxes is one box of six faces.
    assert len(model.shape.Faces) == 6
    assert any("united into 1 solid" in note for note in model.notes)


def test_overlapping_solids_count_shared_material_once(fc, body_with_crests):
    model = load_model(body_with_crests)
    expected = 40 * 30 * 10 + 7 * (math.pi * 1.5**2 * 10) / 2
    assert model.solids == 8
    assert model.shape.isValid()
    assert model.shape.Volume == pytest.approx(expected, rel=1e-9)


def test_disjoint_solids_stay_apart(fc, part):
    shape, notes = solid_union.united(
        [part.makeBox(10, 10, 10), part.makeBox(5, 5, 5, fc.Vector(20, 0, 0))]
    )
    assert len(shape.Solids) == 2
    assert shape.Volume == pytest.approx(1125, rel=1e-12)
    assert "disjoint" in notes[0]


def test_a_fuse_whose_volume_is_off_is_never_used(fc, part):
    # The check itself, at its boundary: a valid solid whose volume is off by more than the
    # tolerance is refused, one within it is accepted.
    box = part.makeBox(10, 10, 10)
    assert solid_union._problem(box, 1000.0 + 0.02, 0.01) is not None
    assert solid_union._problem(box, 1000.0 + 0.005, 0.01) is None


@pytest.mark.parametrize("fixture", ["grid36", "body_with_crests"])
def test_multi_solid_file_against_itself_scores_exactly_one(request, fixture):
    path = request.getfixturevalue(fixture)
    result = score_json(path, path)
    assert result["shapeIoU"] == 1.0
    assert result["shape"]["method"] == "exact"


def test_document_of_36_touching_boxes_scores_itself_exactly_one(fc, tmp_path):
    # A FreeCAD document as a user saves it: 36 Part::Box features side by side, each a
    # visible final result, so all 36 are scored and must unite into one block.
    doc = fc.newDocument("grid36")
    try:
        for i in range(6):
            for j in range(6):
                box = doc.addObject("Part::Box", f"Box{i}{j}")
                box.Length, box.Width, box.Height = 10.3, 7.7, 5.1
                box.Placement.Base = fc.Vector(10.3 * i, 7.7 * j, 0)
        doc.recompute()
        path = str(tmp_path / "grid36.FCStd")
        doc.saveAs(path)
    finally:
        fc.closeDocument(doc.Name)
    result = score_json(path, path, "--only", "shape")
    assert result["reference"]["solids"] == 36
    assert result["shapeIoU"] == 1.0
    assert result["shape"]["method"] == "exact"
    assert result["shape"]["volumeA"] == pytest.approx(36 * 10.3 * 7.7 * 5.1, rel=1e-9)
