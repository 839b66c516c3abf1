# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reference-side work kept by mesh content (geometry/kept.py), and the inside-test whose grid
it keeps: a kept object is the one the same call makes again, never another mesh's."""

import numpy as np
import pytest

from cadbench_wb.geometry import kept, rigid, sampling
from cadbench_wb.metrics import field_figures


def _box(size=(1.0, 1.0, 1.0), shift=(0.0, 0.0, 0.0)):
    """A closed, outward box mesh: 8 corners, two triangles per side."""
    corners = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    vertices = corners * np.array(size) + np.array(shift)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    triangles = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return vertices, np.array(triangles)


@pytest.fixture(autouse=True)
def _empty_store():
    kept.clear()
    yield
    kept.clear()


def test_the_same_content_in_new_arrays_is_the_kept_object_and_a_change_is_not():
    made = []

    def make():
        made.append(1)
        return np.arange(3.0)

    vertices, triangles = _box()
    first = kept.kept("k", (vertices, triangles), (1,), make)
    again = kept.kept("k", (vertices.copy(), triangles.copy()), (1,), make)
    assert again is first and len(made) == 1
    # Other params, another kind, or one coordinate changed in place: made anew.
    kept.kept("k", (vertices, triangles), (2,), make)
    kept.kept("other", (vertices, triangles), (1,), make)
    vertices[0, 0] += 1e-12
    kept.kept("k", (vertices, triangles), (1,), make)
    assert len(made) == 4
    # What is kept cannot be written into (the next job would read it).
    with pytest.raises(ValueError):
        first[0] = 5.0


def test_the_store_drops_the_oldest_used_past_its_count_and_its_bytes(monkeypatch):
    monkeypatch.setattr(kept, "LIMIT", 3)
    meshes = [_box(shift=(k, 0, 0)) for k in range(4)]
    for mesh in meshes:
        kept.kept("k", mesh, (), lambda: np.zeros(1))
    assert len(kept._KEPT) == 3  # the first one went
    marker = np.zeros(1)
    assert kept.kept("k", meshes[0], (), lambda: marker) is marker
    # 800 bytes against a budget of 1,000: one such entry at a time.
    monkeypatch.setattr(kept, "BUDGET", 1000)
    kept.kept("big", meshes[1], (), lambda: np.zeros(100))
    kept.kept("big", meshes[2], (), lambda: np.zeros(100))
    assert len(kept._KEPT) == 1
    # An entry larger than the whole budget is returned, never kept.
    kept.kept("huge", meshes[3], (), lambda: np.zeros(200))
    assert len(kept._KEPT) == 0


def test_under_a_memory_limit_the_store_keeps_at_most_an_eighth_of_it(monkeypatch):
    import resource

    # The smallest limit a scoring runs under (standard.MIN_MEMORY_MB): 128 MB kept at most,
    # so what a worker kept can never be what makes its next job run out of memory.
    limit = 1024 * 1024 * 1024
    monkeypatch.setattr(resource, "getrlimit", lambda which: (limit, resource.RLIM_INFINITY))
    assert kept.budget_bytes() == limit // 8 == 128 * 1024 * 1024
    limit = 64 * 1024 * 1024 * 1024  # a generous limit: BUDGET
    assert kept.budget_bytes() == kept.BUDGET
    monkeypatch.setattr(resource, "getrlimit", lambda which: (resource.RLIM_INFINITY,) * 2)
    assert kept.budget_bytes() == kept.BUDGET


def test_the_inside_test_of_a_turned_box_answers_as_the_box_does():
    """Expected answers from the construction: a point is inside the turned box where,
    turned back, it lies inside the axis-aligned one (points kept off its faces)."""
    vertices, triangles = _box((3.0, 2.0, 1.0))
    turn = rigid.small_rotation(0.3, -0.5, 0.7)
    rng = np.random.default_rng(7)
    local = rng.random((4000, 3)) * np.array([4.0, 3.0, 2.0]) - 0.5
    near_face = np.any(
        (np.abs(local) < 1e-6) | (np.abs(local - np.array([3.0, 2.0, 1.0])) < 1e-6), axis=1
    )
    local = local[~near_face]
    expected = np.all((local > 0) & (local < np.array([3.0, 2.0, 1.0])), axis=1)
    test = sampling.InsideTest(vertices @ turn.T, triangles)
    assert np.array_equal(test(local @ turn.T), expected)
    assert 0 < expected.sum() < len(expected)


def test_field_figures_follow_the_reference_mesh_s_content_not_a_kept_one():
    """voxelIoU64 scales each mesh into the unit box on its own: a cube fills it (64^3
    voxels), a 2 x 1 x 1 box fills 1 x 1/2 x 1/2 of it (32 of the 64 voxel centres across
    each short side), so the pair's IoU is 1/4 exactly. The reference is then made that
    same box in place, in the same arrays: its figures must be the box's (IoU 1, Chamfer
    a tenth of the cube's at most), not the cube's kept ones."""
    vertices, triangles = _box()
    candidate = _box((2.0, 1.0, 1.0))
    first = field_figures.figures(
        ((vertices, triangles), candidate), ((vertices, triangles), candidate)
    )
    assert first["voxelIoU64"]["value"] == 0.25
    assert first["chamferDistance"]["value"] > 1.0
    vertices *= np.array([2.0, 1.0, 1.0])
    after = field_figures.figures(
        ((vertices, triangles), candidate), ((vertices, triangles), candidate)
    )
    assert after["voxelIoU64"]["value"] == 1.0
    # (The two sides draw their points with their own seeds: the same box is not 0 apart.)
    assert after["chamferDistance"]["value"] < first["chamferDistance"]["value"] / 10
    # Kept or made afresh, the same figures.
    again = field_figures.figures(
        ((vertices, triangles), candidate), ((vertices, triangles), candidate)
    )
    kept.clear()
    fresh = field_figures.figures(
        ((vertices, triangles), candidate), ((vertices, triangles), candidate)
    )
    assert again == fresh == after


def _sphere(radius: float, rings: int, segments: int):
    """A closed UV-sphere mesh about the origin: two poles and rings x segments vertices."""
    polar = np.pi * np.arange(1, rings + 1) / (rings + 1)
    azimuth = 2 * np.pi * np.arange(segments) / segments
    p, a = np.meshgrid(polar, azimuth, indexing="ij")
    ring = np.column_stack([np.sin(p.ravel()) * np.cos(a.ravel()),
                            np.sin(p.ravel()) * np.sin(a.ravel()), np.cos(p.ravel())])  # fmt: skip
    vertices = radius * np.vstack([[0, 0, 1], ring, [0, 0, -1]])
    index = 1 + np.arange(rings * segments).reshape(rings, segments)
    nxt = np.roll(index, -1, axis=1)
    bottom = len(vertices) - 1
    triangles = [np.column_stack([np.zeros(segments, int), index[0], nxt[0]])]
    for r in range(rings - 1):
        triangles.append(np.column_stack([index[r], index[r + 1], nxt[r + 1]]))
        triangles.append(np.column_stack([index[r], nxt[r + 1], nxt[r]]))
    triangles.append(np.column_stack([index[-1], np.full(segments, bottom), nxt[-1]]))
    return vertices, np.vstack(triangles)


def test_an_inside_test_for_its_points_answers_as_the_full_grid_and_the_sphere_do():
    """InsideTest.for_points keeps only the triangles over cells its points fall in: every
    point meets the same triangles of its cell, so the answers are the full grid's, on
    random points and on the mesh's own vertices (rays through edges and corners). Points
    off the sphere by more than its chord error (1 - cos(pi / 96) < 6e-4) are inside
    exactly where |p| < 1: the expected answers of the construction."""
    vertices, triangles = _sphere(1.0, 95, 192)
    rng = np.random.default_rng(11)
    points = rng.random((20000, 3)) * 2.4 - 1.2
    points = points[np.abs(np.linalg.norm(points, axis=1) - 1.0) > 1e-3]
    lazy = sampling.InsideTest.for_points(vertices, triangles, points)
    assert np.array_equal(lazy(points), np.linalg.norm(points, axis=1) < 1.0)
    # Fewer ray-triangle entries than the full grid: most cells hold none of the points.
    full = sampling.InsideTest(vertices, triangles)
    few = points[:200]
    assert len(sampling.InsideTest.for_points(vertices, triangles, few).key) < len(full.key) / 4
    hard = np.vstack([vertices, few, vertices[:50] + 1e-17])
    assert np.array_equal(
        sampling.InsideTest.for_points(vertices, triangles, hard)(hard), full(hard)
    )
    assert np.array_equal(lazy(points), full(points))
