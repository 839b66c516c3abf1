# SPDX-License-Identifier: LGPL-2.1-or-later
"""The tuned drawing numbers that act on FreeCAD shapes, at their boundaries.

Boxes built to sizes just inside and just outside each ratio (reasons in standard.py).
"""

import math

import pytest

from cadbench_wb import standard

POSE = standard.DRAWING["pose"]


def test_a_part_is_squared_up_within_the_square_tolerance(fc, part):
    from cadbench_wb.app.drawing import pose as drawing_pose

    limit = POSE["square_tolerance_deg"]
    for angle, squared in ((0.9 * limit, True), (1.1 * limit, False)):
        box = part.makeBox(40, 30, 20)
        box.rotate(fc.Vector(0, 0, 0), fc.Vector(0, 0, 1), angle)
        _shape, turned = drawing_pose.squared_up(box)
        assert (turned == pytest.approx(angle, abs=1e-6)) is squared, (angle, turned)
        assert (turned == 0.0) is not squared


def test_a_part_lies_down_beyond_the_lying_ratio(fc, part):
    from cadbench_wb.app.drawing import pose as drawing_pose

    ratio = POSE["lying_ratio"]
    _shape, kept = drawing_pose.lying_down(part.makeBox(10, 10 * ratio * 0.99, 5))
    _shape, turned = drawing_pose.lying_down(part.makeBox(10, 10 * ratio * 1.01, 5))
    assert kept is None
    assert turned == "y axis turned to x"


def test_a_plate_faces_the_front_view_beyond_the_facing_ratio(fc, part):
    from cadbench_wb.app.drawing import pose as drawing_pose

    ratio = POSE["facing_ratio"]
    _shape, kept = drawing_pose.facing_front(part.makeBox(100, 20 * ratio * 0.99, 20))
    shape, turned = drawing_pose.facing_front(part.makeBox(100, 20 * ratio * 1.01, 20))
    assert kept is None
    assert turned == "y axis turned to z"
    assert shape.BoundBox.ZLength == pytest.approx(20 * ratio * 1.01)


def test_a_measurement_off_the_plan_beyond_the_tolerance_is_not_drawn():
    from cadbench_wb.app.drawing import techdraw as drawing

    tol = standard.DRAWING["views"]["measure_tolerance_rel"]
    assert drawing.measurement_problem(100 * (1 + 0.9 * tol), 100.0) is None
    assert "measured" in drawing.measurement_problem(100 * (1 + 1.1 * tol), 100.0)
    # below 1 mm the tolerance is absolute
    assert drawing.measurement_problem(0.5 + 0.9 * tol, 0.5) is None
    assert drawing.measurement_problem(0.5 + 1.1 * tol, 0.5) is not None
    assert "no value" in drawing.measurement_problem(math.nan, 45.0)


def test_drawn_text_is_the_layouts_text_height(fc, part, tmp_path):
    """The layout measures labels at TEXT_HEIGHT: TechDraw's DXF must print them so."""
    from cadbench_wb.app.drawing import techdraw as drawing
    from cadbench_wb.drafting import exported_dxf

    made = drawing.make_drawing(part.makeBox(40, 30, 20), str(tmp_path))
    doc = exported_dxf.dxf_document(str(tmp_path / made["files"]["dxf"]))
    heights = {
        round(text.dxf.height, 6)
        for dimension in doc.modelspace().query("DIMENSION")
        for text in doc.blocks.get(dimension.dxf.geometry).query("TEXT")
    }
    assert heights == {standard.DRAWING["layout"]["text_height_mm"]}
