# SPDX-License-Identifier: LGPL-2.1-or-later
"""Section A-A where a hole hides its depth: expected figures from the construction.

A 60 x 40 x 20 block with a Ø6.6 hole counterbored Ø11 x 6.4 deep from the top (ISO 273 /
ISO 4762 for M6, as the plate_counterbored case): the plain views hide the counterbore's
floor, the section through the hole's axis prints the depth 6.4.
"""

import pytest

from cadbench_wb import standard

DEPTH = 6.4


def _counterbored(fc, part, holes=((20, 20),), depth=DEPTH):
    block = part.makeBox(60, 40, 20)
    for x, y in holes:
        block = block.cut(part.makeCylinder(3.3, 20, fc.Vector(x, y, 0)))
        block = block.cut(part.makeCylinder(5.5, depth, fc.Vector(x, y, 20 - depth)))
    return block


def test_counterbore_and_blind_hole_hide_a_depth_a_through_hole_does_not(fc, part):
    from cadbench_wb.app.drawing import section as drawing_section

    through = part.makeBox(60, 40, 20).cut(part.makeCylinder(3.3, 20, fc.Vector(20, 20, 0)))
    blind = part.makeBox(60, 40, 20).cut(part.makeCylinder(4, 10, fc.Vector(20, 20, 10)))
    assert drawing_section.hidden_depth_holes(through) == []
    assert len(drawing_section.hidden_depth_holes(blind)) == 1
    found = drawing_section.hidden_depth_holes(_counterbored(fc, part))
    assert len(found) == 1  # the bore and its counterbore are one hole
    axis, point, profile = found[0]
    assert profile == ((3.3, 5.5), False)
    assert abs(abs(axis.z) - 1) < 1e-9
    assert (point.x, point.y) == pytest.approx((20, 20))


def test_cutting_plane_holds_the_most_holes_and_looks_as_the_front_view(fc, part):
    from cadbench_wb.app.drawing import section as drawing_section

    # Two holes at y = 12, one at y = 30, all alike: one section, on the plane y = 12.
    shape = _counterbored(fc, part, holes=((15, 12), (45, 12), (30, 30)))
    ((normal, point, base),) = drawing_section.section_planes(shape)
    assert (normal.x, normal.y, normal.z) == pytest.approx((0, -1, 0))
    assert point.y == pytest.approx(12)
    assert base == "Top"  # the holes are circles there: the cutting plane is marked there


def test_a_second_kind_of_hole_on_another_plane_gets_section_b(fc, part):
    from cadbench_wb.app.drawing import section as drawing_section

    # a counterbored hole at y = 12 and a blind hole at y = 30: two kinds, two planes
    shape = _counterbored(fc, part, holes=((15, 12),))
    shape = shape.cut(part.makeCylinder(4, 10, fc.Vector(40, 30, 10)))
    planes = drawing_section.section_planes(shape)
    assert sorted(round(point.y, 6) for _normal, point, _base in planes) == [12, 30]
    assert len(planes) <= standard.DRAWING["section"]["max_sections"]


def test_section_prints_the_counterbore_depth(fc, part, tmp_path):
    from cadbench_wb.app.drawing import techdraw as drawing
    from cadbench_wb.drafting import readback as drawing_readback

    class Target:
        def __init__(self, id, kind, value):
            self.id, self.kind, self.value, self.tolerance = id, kind, value, 0.05

    targets = [Target("DEPTH", "length", DEPTH), Target("CB", "diameter", 11)]

    class Case:
        dimensions = targets

    made = drawing.make_drawing(_counterbored(fc, part), str(tmp_path), case=Case())
    read = drawing_readback.read_back(str(tmp_path), made)
    assert "Section" in made["views"]
    match = drawing_readback.target_match(targets, read["displayed"])
    depth = match["dimensions"][0]
    assert depth["found"] and depth["view"] == "Section", match
    assert depth["displayed"] == "6.4"
    assert read["layoutChecks"]["ok"], read["layoutChecks"]
    assert read["crossCheck"]["agree"], read["crossCheck"]


def test_no_section_without_a_hidden_depth(fc, part, tmp_path):
    from cadbench_wb.app.drawing import techdraw as drawing

    through = part.makeBox(60, 40, 20).cut(part.makeCylinder(3.3, 20, fc.Vector(20, 20, 0)))
    made = drawing.make_drawing(through, str(tmp_path))
    assert "Section" not in made["views"]
