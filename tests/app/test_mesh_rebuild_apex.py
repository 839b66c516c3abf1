# SPDX-License-Identifier: LGPL-2.1-or-later
"""A blind drilled hole's own STL rebuilds (app/mesh_rebuild/mesh_brep.py): the drill point is a
cone that ends in its apex, whose two halves meet along a chain rim - apex - rim. Before,
that chain became one B-spline through the kink and the half faces would not close at the
apex (the faces sewed into an open shell: not applicable); NIST CTC-01's and FTC-06's
drill points are such cones. Expected figures come from the construction: a 60 mm cube,
a hole of radius r and depth 20 ending in a 118-degree point, so the rebuilt volume is
the cube's less the cylinder's and the cone's, and the features are the reference's own."""

import math

import pytest
from conftest import own_mesh

DEPTH = 20.0
POINT_HALF_ANGLE = math.radians(59.0)  # a 118-degree twist drill


def _drilled_cube(radius: float):
    import FreeCAD as App
    import Part

    cube = Part.makeBox(60, 60, 60, App.Vector(-30, -30, -30))
    down = App.Vector(0, 0, -1)
    mouth = App.Vector(0, 0, 30)
    floor = App.Vector(0, 0, 30 - DEPTH)
    tip = radius / math.tan(POINT_HALF_ANGLE)
    bore = Part.makeCylinder(radius, DEPTH + 1, mouth + App.Vector(0, 0, 1), down)
    point = Part.makeCone(radius, 0, tip, floor, down)
    return cube.cut(bore.fuse(point)).Solids[0], tip


# 3.175 mm is FTC-06's drill (the radius that failed before); 5 mm rebuilt before too.
@pytest.mark.parametrize("radius", [3.175, 5.0])
def test_a_drilled_blind_holes_own_stl_rebuilds_and_reads_its_hole(fc, radius, tmp_path):
    from cadbench_wb.app.scoring import score_files

    solid, tip = _drilled_cube(radius)
    volume = 60.0**3 - math.pi * radius**2 * DEPTH - math.pi * radius**2 * tip / 3
    assert solid.Volume == pytest.approx(volume, rel=1e-9)  # the construction itself
    reference = str(tmp_path / "drilled.step")
    solid.exportStep(reference)
    stl = str(tmp_path / "drilled.stl")
    own_mesh(solid).write(stl)
    result = score_files(reference, stl, {"only": ["features"]})
    rebuilt = result["features"]["mesh"]
    assert rebuilt["rebuilt"] is True, rebuilt
    # Six planes, the bore and the point (each possibly in halves round its axis).
    assert rebuilt["surfaces"]["plane"] == 6
    assert 1 <= rebuilt["surfaces"]["cone"] <= 2
    assert 1 <= rebuilt["surfaces"]["cylinder"] <= 2
    # The facets cut the bore's and the point's chords: at most their area times the
    # deflection each way.
    curved = 2 * math.pi * radius * DEPTH + math.pi * radius * math.hypot(radius, tip)
    assert abs(rebuilt["volume"] - volume) <= 2 * curved * rebuilt["deflection"]
    assert result["semanticMatch"] == 1.0, (
        result["features"]["missing"],
        result["features"]["extra"],
    )
