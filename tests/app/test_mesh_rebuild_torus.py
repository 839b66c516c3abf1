# SPDX-License-Identifier: LGPL-2.1-or-later
"""A toroidal face rebuilt from triangles (app/mesh_rebuild/mesh_brep.py _bounded): a shaft
standing on a flange with its root filleted, the fillet's band split in halves as the
rebuild splits every face that goes round its axis, in turned poses. A wire bounds two
faces on a torus; OpenCASCADE 7.8 (FreeCAD 1.0) took the complement of half the band (the
rest of the torus) in such poses. Expected figures from the construction: the volume of
two cylinders plus the fillet's ring by Pappus (the square-minus-quarter-circle section,
area r^2 (1 - pi/4), its centroid r (10 - 3 pi) / (3 (4 - pi)) from the corner)."""

import math

import pytest
from conftest import mesh_arrays

SHAFT, FLANGE, FILLET = 10.0, 20.0, 2.0  # radii
SHAFT_H, FLANGE_H = 20.0, 5.0


def _analytic_volume() -> float:
    section = FILLET**2 * (1 - math.pi / 4)
    centroid = FILLET * (10 - 3 * math.pi) / (3 * (4 - math.pi))
    ring = 2 * math.pi * (SHAFT + centroid) * section
    return math.pi * (FLANGE**2 * FLANGE_H + SHAFT**2 * SHAFT_H) + ring


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fillet_torus_band_turned_rebuilds_as_the_band(fc, seed):
    import FreeCAD
    import MeshPart
    import Part
    from scipy.spatial.transform import Rotation

    from cadbench_wb.app.mesh_rebuild import mesh_brep

    flange = Part.makeCylinder(FLANGE, FLANGE_H)
    shaft = Part.makeCylinder(SHAFT, SHAFT_H, FreeCAD.Vector(0, 0, FLANGE_H))
    solid = flange.fuse(shaft).removeSplitter()
    root = [
        e
        for e in solid.Edges
        if isinstance(e.Curve, Part.Circle)
        and abs(e.Curve.Radius - SHAFT) < 1e-9
        and abs(e.Vertexes[0].Point.z - FLANGE_H) < 1e-9
    ]
    solid = solid.makeFillet(FILLET, root)
    assert solid.Volume == pytest.approx(_analytic_volume(), rel=1e-9)  # the construction
    x, y, z, w = Rotation.random(random_state=seed).as_quat()
    solid.Placement = FreeCAD.Placement(FreeCAD.Vector(), FreeCAD.Rotation(x, y, z, w))
    mesh = MeshPart.meshFromShape(
        Shape=solid, LinearDeflection=0.05, AngularDeflection=0.2, Relative=False
    )
    vertices, triangles = mesh_arrays(mesh)
    rebuilt, summary = mesh_brep.rebuilt_solid(vertices, triangles, mesh.Volume)
    tori = [f for f in rebuilt.Faces if isinstance(f.Surface, Part.Toroid)]
    assert tori and all(f.Surface.MinorRadius == pytest.approx(FILLET, abs=1e-5) for f in tori)
    # The band's area: 2 pi r (pi R / 2 - r) for this concave quarter turn, R = SHAFT + r
    # the tube's centre circle (212 mm2); the rest of the torus is 4 pi^2 R r minus that
    # (735 mm2). Within 1 %: where the band meets the shaft and the flange tangentially the
    # surfaces lie within the fit tolerance of each other over a strip about
    # sqrt(2 r tolerance) wide, so the rebuilt edges may sit anywhere in it.
    band = 2 * math.pi * FILLET * (math.pi * (SHAFT + FILLET) / 2 - FILLET)
    assert sum(f.Area for f in tori) == pytest.approx(band, rel=0.01)
    assert rebuilt.isValid()
    # Turned, the split between the band's halves runs across the facets (a zigzag that
    # becomes a B-spline, not an arc of the tube), which leaves the volume off the
    # construction's by up to 1.8 mm3 in 12623 here: within the rebuild's own volume check
    # (the facets' chords: 144 mm3), below what the torus's other part would change (its
    # whole tube is 2 pi^2 R r^2 = 947 mm3).
    chords = summary["deflection"] * rebuilt.Area
    assert rebuilt.Volume == pytest.approx(_analytic_volume(), abs=chords)
    assert chords < 2 * math.pi**2 * (SHAFT + FILLET) * FILLET**2 / 4
