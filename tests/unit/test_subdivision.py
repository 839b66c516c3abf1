# SPDX-License-Identifier: LGPL-2.1-or-later
"""Triangle subdivision: area kept, every edge within the bound, the budget respected."""

import numpy as np

from cadbench_wb.geometry.subdivision import subdivided


def _areas(triangles):
    a, b, c = (triangles[:, k] for k in range(3))
    return np.linalg.norm(np.cross(b - a, c - a), axis=1) / 2


def test_a_long_triangle_is_split_until_every_edge_is_within_the_bound():
    # A 20 x 1 right triangle, as a cylinder wall's deflection mesh has them.
    corners = np.array([[[0, 0, 0], [20, 0, 0], [0, 1, 0]]], dtype=float)
    split = subdivided(corners, 1.0)
    edges = np.linalg.norm(split - np.roll(split, -1, axis=1), axis=2)
    assert edges.max() <= 1.0
    assert _areas(split).sum() == np.float64(10.0)  # midpoint splits keep the area exactly
    # The hypotenuse is 20.02 long: 5 halvings bring it to 0.63, 4 leave 1.25 > 1.
    assert len(split) == 4**5


def test_short_triangles_are_kept_and_the_budget_stops_the_splitting():
    small = np.array([[[0, 0, 0], [0.5, 0, 0], [0, 0.5, 0]]], dtype=float)
    assert np.array_equal(subdivided(small, 1.0), small)
    big = np.array([[[0, 0, 0], [100, 0, 0], [0, 100, 0]]], dtype=float)
    assert len(subdivided(big, 0.01, max_triangles=1000)) <= 1000
