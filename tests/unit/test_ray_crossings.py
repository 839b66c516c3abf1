# SPDX-License-Identifier: LGPL-2.1-or-later
"""Vertical ray crossings with a closed mesh, tested pair by pair in vectorised chunks."""

import numpy as np

from cadbench_wb.geometry import sampling


def _cube():
    vertices = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    # Two triangles per side, every side outward (the index is 4x + 2y + z).
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    triangles = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return vertices, np.array(triangles)


def test_rays_through_a_cube_cross_its_bottom_and_top_once_each(monkeypatch):
    vertices, triangles = _cube()
    rng = np.random.default_rng(3)
    inside = rng.random((500, 2)) * 0.98 + 0.01
    outside = inside + 2.0
    rays = np.vstack([inside, outside])
    heights = sampling.crossing_heights(rays, vertices, triangles)
    assert heights.shape == (1000, 2)
    assert np.array_equal(heights[:500], np.tile([0.0, 1.0], (500, 1)))
    assert np.all(np.isinf(heights[500:]))
    # Chunks of any size give the same crossings (here a few pairs at a time).
    monkeypatch.setattr(sampling, "PAIR_CHUNK", 7)
    assert np.array_equal(sampling.crossing_heights(rays, vertices, triangles), heights)
