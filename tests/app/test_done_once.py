# SPDX-License-Identifier: LGPL-2.1-or-later
"""Work a threaded pair's scoring now does once, or all at once, gives what doing it again
or one piece at a time gave (issue 11, "a threaded pair under 10 s"): ICP's closest points
over all neighbour facets in one pass, and a mesh's manifold built once per content."""

import os

import numpy as np
import pytest
from conftest import ROOT

from cadbench_wb.app.model import meshing
from cadbench_wb.geometry import icp

NUT = os.path.join(ROOT, "tests", "data", "threads", "bd_m8_nut_rh_chamfer.step")


def _closest_one_neighbour_at_a_time(matcher, points):
    """The closest points as ICP took them before: each point's neighbour facets in turn,
    a facet kept when strictly nearer than the best so far."""
    _, index = matcher.tree.query(points, k=matcher.neighbours)
    index = index.reshape(len(points), -1)
    best_distance = np.full(len(points), np.inf)
    best_point, best_normal = np.zeros_like(points), np.zeros_like(points)
    for column in range(index.shape[1]):
        facets = index[:, column]
        found = icp.closest_points_on_triangles(points, matcher.tri[facets])
        distance = np.linalg.norm(found - points, axis=1)
        better = distance < best_distance
        best_distance[better] = distance[better]
        best_point[better] = found[better]
        best_normal[better] = matcher.normals[facets[better]]
    return best_distance, best_point, best_normal


def test_closest_points_in_one_pass_are_those_found_one_neighbour_at_a_time(fc, part):
    """Bit for bit, on a real thread's mesh (bd_warehouse nut), for seeded points near its
    surface and far from it, and for a point that lies on a mesh vertex (ties)."""
    solid = part.read(NUT).Solids[0]
    vertices, triangles = meshing.mesh_of(solid, 0.0005 * solid.BoundBox.DiagonalLength)
    matcher = icp.PlaneMatcher(vertices, triangles)
    rng = np.random.default_rng(7)
    near = vertices[rng.choice(len(vertices), 1500)] + rng.normal(0.0, 0.2, (1500, 3))
    far = vertices.mean(axis=0) + rng.normal(0.0, 20.0, (200, 3))
    points = np.vstack([near, far, vertices[:1]])
    for got, expected in zip(
        matcher.closest(points), _closest_one_neighbour_at_a_time(matcher, points), strict=True
    ):
        assert np.array_equal(got, expected)
    assert matcher.closest(points)[0][-1] == 0.0  # the vertex lies on its own facets


def test_a_mesh_manifold_is_built_once_per_content(fc, part):
    """The same vertices and triangles (even other arrays of them) give the same manifold;
    vertices changed in place give a new one, of the changed volume (a 10 mm cube, then
    stretched to 20 mm along x: 1000 and 2000 mm3 by construction)."""
    vertices, triangles = meshing.mesh_of(part.makeBox(10, 10, 10), 0.01)
    first = meshing.manifold_of(vertices, triangles)
    assert meshing.manifold_of(vertices.copy(), triangles.copy()) is first
    assert first.volume() == pytest.approx(1000.0, rel=1e-12)
    vertices[:, 0] *= 2.0
    stretched = meshing.manifold_of(vertices, triangles)
    assert stretched is not first
    assert stretched.volume() == pytest.approx(2000.0, rel=1e-12)
