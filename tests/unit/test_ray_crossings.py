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


def _fan_prism(sides=60, height=1.0, turn=0.37):
    """A prism on a regular polygon of radius 10, its top and bottom triangulated as a fan
    from one corner: long slivers whose boxes each cover many cells of the grid, as a
    plate's top and bottom tessellate."""
    angles = turn + 2 * np.pi * np.arange(sides) / sides
    ring = np.column_stack([10 * np.cos(angles), 10 * np.sin(angles)])
    vertices = np.vstack(
        [np.column_stack([ring, np.zeros(sides)]), np.column_stack([ring, np.full(sides, height)])]
    )
    fan = [(0, i, i + 1) for i in range(1, sides - 1)]
    walls = [
        t
        for i in range(sides)
        for t in (
            (i, (i + 1) % sides, sides + i),
            ((i + 1) % sides, sides + (i + 1) % sides, sides + i),
        )
    ]
    triangles = (
        [(a, c, b) for a, b, c in fan]
        + [(sides + a, sides + b, sides + c) for a, b, c in fan]
        + walls
    )
    return vertices, np.array(triangles), ring


def test_the_inside_test_lists_a_sliver_in_the_cells_it_overlaps_only():
    # Every cell that holds a point of a sliver is listed (points drawn inside it), and
    # most cells of its box are not: the pairs tested drop, not the crossings found.
    vertices, triangles, _ring = _fan_prism()
    test = sampling.InsideTest(vertices, triangles)
    tri = sampling._projectable(vertices[triangles])
    rng = np.random.default_rng(5)
    listed = set(zip(test.index.tolist(), test.key.tolist(), strict=True))
    boxes = 0
    for number in range(len(tri)):
        r1, r2 = np.sqrt(rng.random(400))[:, None], rng.random(400)[:, None]
        a, b, c = tri[number, :, :2]
        points = (1 - r1) * a + r1 * (1 - r2) * b + r1 * r2 * c
        cells = np.minimum(((points - test.origin) / test.size).astype(np.int64), test.cells - 1)
        for key in set((cells[:, 0] * test.cells[1] + cells[:, 1]).tolist()):
            assert (number, key) in listed
        low, high = tri[number, :, :2].min(axis=0), tri[number, :, :2].max(axis=0)
        boxes += int(
            np.prod(
                np.floor((high - test.origin) / test.size)
                - np.floor((low - test.origin) / test.size)
                + 1
            )
        )
    assert len(test.key) < boxes / 2


def test_the_inside_test_of_a_fan_prism_answers_as_the_prism_does():
    """Expected answers from the construction: inside the convex polygon (every edge's
    half-plane) and between the two ends; points kept off the faces. inside_mesh (every
    cell of each triangle's box) gives the same answers."""
    vertices, triangles, ring = _fan_prism()
    rng = np.random.default_rng(11)
    points = rng.random((20000, 3)) * np.array([22.0, 22.0, 1.4]) - np.array([11.0, 11.0, 0.2])
    edges = np.roll(ring, -1, axis=0) - ring
    # Signed distance to each edge's line, positive inside (counter-clockwise polygon).
    distance = (
        edges[:, 0] * (points[:, None, 1] - ring[:, 1])
        - edges[:, 1] * (points[:, None, 0] - ring[:, 0])
    ) / np.hypot(edges[:, 0], edges[:, 1])
    clear = (
        (np.abs(distance).min(axis=1) > 1e-6)
        & (np.abs(points[:, 2]) > 1e-6)
        & (np.abs(points[:, 2] - 1) > 1e-6)
    )
    points = points[clear]
    expected = np.all(distance[clear] > 0, axis=1) & (points[:, 2] > 0) & (points[:, 2] < 1)
    answers = sampling.InsideTest(vertices, triangles)(points)
    assert np.array_equal(answers, expected)
    assert np.array_equal(answers, sampling.inside_mesh(points, vertices, triangles))
    assert 0 < expected.sum() < len(expected)
