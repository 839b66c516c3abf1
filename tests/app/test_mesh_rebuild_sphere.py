# SPDX-License-Identifier: LGPL-2.1-or-later
"""A spherical face rebuilt from triangles where a sphere's parametrisation is awkward
(app/features/mesh_brep.py _sphere): a quarter ball whose curved face runs across the
default seam meridian (+x) and round the default pole (+z), as the rounded corners of NIST
FTC-08's STL do. Expected figures from the construction: a quarter of a ball of radius R,
V = pi R^3 / 3, and one sphere of radius R centred at the origin."""

import math

import numpy as np
import pytest

RADIUS = 12.0


@pytest.mark.parametrize("turned_deg", [0.0, 90.0, 180.0])
def test_a_quarter_ball_across_the_seam_and_round_the_pole_rebuilds(fc, turned_deg):
    import FreeCAD
    import MeshPart
    import Part

    from cadbench_wb.app.features import mesh_brep

    ball = Part.makeSphere(RADIUS)
    # x >= 0 and z >= 0: azimuths -90..90 deg about z (across the seam at 0) up to the pole.
    quarter = ball.common(Part.makeBox(RADIUS, 2 * RADIUS, RADIUS, FreeCAD.Vector(0, -RADIUS, 0)))
    quarter.rotate(FreeCAD.Vector(), FreeCAD.Vector(0, 0, 1), turned_deg)
    mesh = MeshPart.meshFromShape(
        Shape=quarter, LinearDeflection=0.02, AngularDeflection=0.2, Relative=False
    )
    vertices = np.array([tuple(p) for p in mesh.Topology[0]], dtype=float)
    triangles = np.array(mesh.Topology[1], dtype=np.int64)
    solid, summary = mesh_brep.rebuilt_solid(vertices, triangles, mesh.Volume)
    spheres = [f.Surface for f in solid.Faces if isinstance(f.Surface, Part.Sphere)]
    assert summary["surfaces"].get("sphere") == 1 and len(spheres) == 1
    assert spheres[0].Radius == pytest.approx(RADIUS, abs=1e-6)
    assert spheres[0].Center.Length == pytest.approx(0.0, abs=1e-6)
    # The rebuilt faces lie on surfaces fitted within the fit tolerance, so the solid's
    # volume is the analytic quarter ball's within its area times that tolerance (the
    # mesh's own volume is short by the facets' chords: 0.08 % here).
    assert solid.isValid()
    allowed = solid.Area * summary["fitTolerance"]
    assert solid.Volume == pytest.approx(math.pi * RADIUS**3 / 3, abs=allowed)
    assert abs(mesh.Volume - math.pi * RADIUS**3 / 3) > 10 * allowed
