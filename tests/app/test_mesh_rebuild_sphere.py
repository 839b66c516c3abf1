# SPDX-License-Identifier: LGPL-2.1-or-later
"""A spherical face rebuilt from triangles where a sphere's parametrisation is awkward
(app/mesh_rebuild/mesh_brep.py _sphere): a quarter ball whose curved face runs across the
default seam meridian (+x) and round the default pole (+z), as the rounded corners of NIST
FTC-08's STL do. Expected figures from the construction: a quarter of a ball of radius R,
V = pi R^3 / 3, and one sphere of radius R centred at the origin."""

import math

import numpy as np
import pytest
from conftest import mesh_arrays

RADIUS = 12.0


@pytest.mark.parametrize("turned_deg", [0.0, 90.0, 180.0])
def test_a_quarter_ball_across_the_seam_and_round_the_pole_rebuilds(fc, turned_deg):
    import FreeCAD
    import MeshPart
    import Part

    from cadbench_wb.app.mesh_rebuild import mesh_brep

    ball = Part.makeSphere(RADIUS)
    # x >= 0 and z >= 0: azimuths -90..90 deg about z (across the seam at 0) up to the pole.
    quarter = ball.common(Part.makeBox(RADIUS, 2 * RADIUS, RADIUS, FreeCAD.Vector(0, -RADIUS, 0)))
    quarter.rotate(FreeCAD.Vector(), FreeCAD.Vector(0, 0, 1), turned_deg)
    mesh = MeshPart.meshFromShape(
        Shape=quarter, LinearDeflection=0.02, AngularDeflection=0.2, Relative=False
    )
    vertices, triangles = mesh_arrays(mesh)
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


@pytest.mark.parametrize("margin_deg", [-1.0, 1.0])
def test_a_caps_pole_moves_to_its_middle_once_every_side_pole_is_within_half_seed_deg(
    fc, margin_deg
):
    # A cap round +z reaching polar angle theta: its seam goes opposite (-z) and its pole
    # square to that, on the equator, 90 - theta from the cap's rim. The pole moves to the
    # cap's middle (+z) when that is within seed_deg / 2 of a vertex (mesh_brep._sphere):
    # a hemisphere's rim (NIST FTC-06's pocket) is on every side pole.
    from cadbench_wb import standard
    from cadbench_wb.app.mesh_rebuild import mesh_brep
    from cadbench_wb.geometry import surface_fitting

    theta = math.radians(90.0 - standard.MESH_FEATURES["seed_deg"] / 2 + margin_deg)
    azimuths = np.radians(np.arange(0.0, 360.0, 1.0))
    rings = [np.array([0.0, 0.0, 1.0])[None]]
    for polar in np.linspace(theta / 4, theta, 4):
        rings.append(
            np.column_stack(
                [
                    np.sin(polar) * np.cos(azimuths),
                    np.sin(polar) * np.sin(azimuths),
                    np.full_like(azimuths, np.cos(polar)),
                ]
            )
        )
    points = RADIUS * np.vstack(rings)
    surface = surface_fitting.Surface("sphere", np.zeros(3), np.array([0.0, 0, 1]), RADIUS)
    pole = np.array(tuple(mesh_brep._sphere(surface, points).Axis))
    if margin_deg > 0:  # every side pole within seed_deg / 2 of the rim: moved to +z
        assert pole @ np.array([0.0, 0, 1]) == pytest.approx(1.0, abs=1e-9)
    else:  # the best side pole is further: it stays on the equator
        assert abs(pole @ np.array([0.0, 0, 1])) < 1e-9
