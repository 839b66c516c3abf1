# SPDX-License-Identifier: LGPL-2.1-or-later
"""Pure numpy geometry behind the measurement spectrum: parallel-direction groups, plane
levels, and which pairs of levels are measured (pruned so the spectrum stays near-linear).

Why pruning exists: a part with k parallel planes has k(k-1)/2 plane distances. Up to
``all_pairs_max`` levels per direction every pair is measured (drawings chain dimensions
between any two faces); beyond that only neighbours within a window and the pairs with the
two extreme levels are (a drawing dimensions a face from its neighbour or from a datum,
and the extreme faces are the datums), which keeps the count at O(k * window).
"""

import numpy as np

from cadbench_wb import standard

_NEIGHBOUR_OFFSETS = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]


def direction_groups(normals: np.ndarray, tolerance_rad: float | None = None):
    """Group unit vectors that are parallel or anti-parallel within a tolerance.

    Returns (labels, representatives, signs): the group of each vector, one unit vector per
    group (the first member's, so the result does not depend on hashing order), and +1/-1
    telling whether each vector points along or against its group's representative.
    Hashing on a grid of the tolerance's size and looking in the 27 neighbouring cells of
    both v and -v finds every partner in O(n), whatever the sign of the input normals.
    """
    tol = tolerance_rad or standard.SPECTRUM["parallel_rad"]
    normals = np.asarray(normals, float).reshape(-1, 3)
    n = len(normals)
    labels = np.full(n, -1, dtype=np.int64)
    cells: dict[tuple, int] = {}
    representatives: list[np.ndarray] = []
    plus = np.floor(normals / tol).astype(np.int64).tolist()
    minus = np.floor(-normals / tol).astype(np.int64).tolist()
    for index in range(n):
        group = _group_in_cells(cells, (plus[index], minus[index]))
        if group < 0 or not _parallel(normals[index], representatives[group], tol):
            group = len(representatives)
            representatives.append(normals[index])
        labels[index] = group
        cells.setdefault(tuple(plus[index]), group)
    reps = np.array(representatives).reshape(-1, 3)
    if not n:
        return labels, reps, np.zeros(0)
    signs = np.where(np.einsum("ij,ij->i", normals, reps[labels]) >= 0, 1.0, -1.0)
    return labels, reps, signs


def _group_in_cells(cells: dict, keys) -> int:
    for key in keys:  # the exact cell first: almost every partner is found there
        found = cells.get(tuple(key))
        if found is not None:
            return found
    for key in keys:
        x, y, z = key
        for dx, dy, dz in _NEIGHBOUR_OFFSETS:
            found = cells.get((x + dx, y + dy, z + dz))
            if found is not None:
                return found
    return -1


def _parallel(a: np.ndarray, b: np.ndarray, tol: float) -> bool:
    return float(np.linalg.norm(np.cross(a, b))) <= 2 * tol


def levels(offsets: np.ndarray, members: np.ndarray, tolerance: float | None = None):
    """Distinct levels of signed offsets along one direction.

    Returns (values, first_member): sorted level values and, per level, the smallest member
    index at it (its offset is the level's value, so names and values stay consistent).
    """
    tol = tolerance or standard.SPECTRUM["same_level_mm"]
    offsets = np.asarray(offsets, float)
    members = np.asarray(members, np.int64)
    if not len(offsets):
        return np.zeros(0), np.zeros(0, np.int64)
    order = np.lexsort((members, offsets))
    sorted_offsets = offsets[order]
    new_level = np.empty(len(order), bool)
    new_level[0] = True
    new_level[1:] = np.diff(sorted_offsets) > tol
    level_of = np.cumsum(new_level) - 1
    count = level_of[-1] + 1
    first = np.full(count, np.iinfo(np.int64).max)
    np.minimum.at(first, level_of, members[order])
    values = np.empty(count)
    by_member = dict(zip(members.tolist(), offsets.tolist(), strict=True))
    for level in range(count):
        values[level] = by_member[int(first[level])]
    return values, first


def level_pairs(count: int, all_pairs_max: int | None = None, window: int | None = None):
    """Index pairs (i < j) of sorted levels to measure: all of them for few levels, else
    neighbours within a window plus every pair with the lowest or highest level."""
    limit = all_pairs_max or standard.SPECTRUM["all_pairs_max"]
    window = window or standard.SPECTRUM["neighbour_window"]
    if count < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if count <= limit:
        i, j = np.triu_indices(count, k=1)
        return i.astype(np.int64), j.astype(np.int64)
    firsts, seconds = [], []
    for step in range(1, min(window, count - 1) + 1):
        firsts.append(np.arange(count - step))
        seconds.append(np.arange(step, count))
    firsts.append(np.zeros(count - 1, np.int64))
    seconds.append(np.arange(1, count))
    firsts.append(np.arange(count - 1))
    seconds.append(np.full(count - 1, count - 1))
    pairs = np.unique(np.stack([np.concatenate(firsts), np.concatenate(seconds)], axis=1), axis=0)
    return pairs[:, 0], pairs[:, 1]


def point_pairs(
    points: np.ndarray, all_pairs_max: int | None = None, neighbours: int | None = None
):
    """Index pairs (i < j) of points (axis feet) to measure: all for few points, else each
    point's nearest neighbours (scipy's k-d tree keeps it O(n log n))."""
    limit = all_pairs_max or standard.SPECTRUM["all_pairs_max"]
    k = neighbours or standard.SPECTRUM["axis_neighbours"]
    n = len(points)
    if n < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if n <= limit:
        i, j = np.triu_indices(n, k=1)
        return i.astype(np.int64), j.astype(np.int64)
    from scipy.spatial import cKDTree  # noqa: PLC0415 - heavy: loaded on first use

    _, found = cKDTree(points).query(points, k=min(k + 1, n))
    i = np.repeat(np.arange(n), found.shape[1])
    j = found.reshape(-1)
    keep = i != j
    pairs = np.unique(np.sort(np.stack([i[keep], j[keep]], axis=1), axis=1), axis=0)
    return pairs[:, 0], pairs[:, 1]


def unsigned_angles_deg(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Angle between two lines (0..90 deg) for paired unit vectors a[i], b[i]."""
    cosines = np.abs(np.einsum("ij,ij->i", a, b))
    return np.degrees(np.arccos(np.clip(cosines, 0.0, 1.0)))


def perpendicular_feet(points: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Points projected onto the plane through the origin normal to a unit direction."""
    points = np.asarray(points, float).reshape(-1, 3)
    return points - np.outer(points @ direction, direction)
