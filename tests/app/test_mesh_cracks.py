# SPDX-License-Identifier: LGPL-2.1-or-later
"""A tessellation manifold3d refuses for a crack (two faces' meshes of one edge that do not
meet) is closed before the mesh route gives up (meshing.closed_cracks and
manifold_for); an open loop wider than a crack can be is a hole and stays refused."""

import os

import numpy as np
import pytest
from conftest import ROOT

from cadbench_wb import standard
from cadbench_wb.app.model import meshing

THREADS = os.path.join(ROOT, "tests", "data", "threads")


def _slit_cube(width: float):
    """A unit cube's mesh whose top is three strips (x 0 to 0.5, 0.5 to 0.5 + width, to 1),
    the middle strip's two triangles left out: one open loop, 1 x width."""
    w = 0.5 + width
    bottom = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    top = [(0, 0, 1), (0.5, 0, 1), (w, 0, 1), (1, 0, 1), (1, 1, 1), (w, 1, 1), (0.5, 1, 1)]
    vertices = np.array(bottom + top + [(0, 1, 1)], dtype=float)
    b0, b1, b2, b3, t0, s0, s1, t1, t2, s2, s3, t3 = range(12)
    polygons = [
        [b0, b3, b2, b1],
        [t0, s0, s3, t3],
        [s1, t1, t2, s2],
        [b0, b1, t1, s1, s0, t0],
        [b1, b2, t2, t1],
        [b2, b3, t3, s3, s2, t2],
        [b3, b0, t0, t3],
    ]
    triangles = []
    for polygon in polygons:  # convex: a fan, each triangle turned outward
        for k in range(1, len(polygon) - 1):
            tri = [polygon[0], polygon[k], polygon[k + 1]]
            a, b, c = vertices[tri]
            if np.cross(b - a, c - a) @ ((a + b + c) / 3 - 0.5) < 0:
                tri = tri[::-1]
            triangles.append(tri)
    return vertices, np.array(triangles, dtype=np.int64)


@pytest.mark.parametrize(("deflection", "closed"), [(0.0050, True), (0.0049, False)])
def test_crack_closing_boundary(deflection, closed):
    """A loop 1 long and 0.01 wide is 2 x 0.01 / 2.02 = 0.0099 wide as the rule measures it
    (twice its area over its perimeter): a crack for a deflection of 0.0050 (two polylines
    each within it of one edge are at most 0.0100 apart), a hole for 0.0049 (0.0098)."""
    vertices, triangles = _slit_cube(0.01)
    assert meshing.manifold_of(vertices, triangles) is None
    found = meshing.closed_cracks(vertices, triangles, deflection)
    if not closed:
        assert found is None
        return
    closed_vertices, closed_triangles, count = found
    assert count == 1
    solid = meshing.manifold_of(closed_vertices, closed_triangles)
    assert solid is not None and solid.volume() == pytest.approx(1.0, abs=1e-12)


def test_a_closed_mesh_has_no_cracks():
    vertices, triangles = _slit_cube(0.01)
    strip = [(5, 6, 9), (5, 9, 10)]  # the middle strip's own two triangles, outward
    whole = np.vstack([triangles, strip])
    assert meshing.manifold_of(vertices, whole) is not None
    assert meshing.closed_cracks(vertices, whole, 1e-3)[2] == 0


def test_a_real_crack_is_closed_by_the_mesh_route(fc):
    """bd_warehouse's M3 stud tessellated at the cross-check's deflection has an open loop
    of five triangle edges (two faces' meshes of one edge 2e-5 mm apart): refused by
    manifold3d, closed it is the stud within a third of mesh_tolerance_floor (what
    crosscheck.decide allows a mesh's own volume error)."""
    import Part

    stud = Part.read(os.path.join(THREADS, "bd_m3_stud_lh_chamfer.step"))
    diagonal = stud.BoundBox.DiagonalLength
    mesh = meshing.mesh_of(stud.copy(), standard.CROSS_CHECK["mesh_deflection_rel"] * diagonal)
    assert meshing.manifold_of(*mesh) is None
    closed = meshing.closed_cracks(*mesh, standard.CROSS_CHECK["mesh_deflection_rel"] * diagonal)
    assert closed is not None and closed[2] >= 1
    solid, steps, replacement = meshing.manifold_for(mesh, stud, diagonal)
    assert steps == ["its tessellation is not a manifold", "with its cracks closed it is one"]
    assert replacement is None  # sampling and the thread zones keep the tessellation
    error = abs(solid.volume() - stud.Volume) / stud.Volume
    assert error < standard.CROSS_CHECK["mesh_tolerance_floor"] / 3
