# SPDX-License-Identifier: LGPL-2.1-or-later
"""Point-in-mesh classification by ray casting, and a seeded sampling estimate of IoU.

This is the independent witness for the exact booleans (seed 000's safeguard): it shares
nothing with OpenCASCADE's boolean code but the tessellation. Rays run along +z; each
triangle is binned into an xy grid so a point is tested only against the triangles above
its own cell, which keeps the cost near-linear in points + triangles.
"""

import math

import numpy as np


def inside_mesh(points: np.ndarray, vertices: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Boolean array: which points lie inside the closed triangle mesh (odd crossings)."""
    points = np.asarray(points, dtype=np.float64)
    tri = np.asarray(vertices, dtype=np.float64)[np.asarray(triangles, dtype=np.int64)]
    result = np.zeros(len(points), dtype=bool)
    if len(tri) == 0 or len(points) == 0:
        return result
    # Triangles parallel to the ray project to zero area and can never be crossed.
    area2 = (tri[:, 1, 0] - tri[:, 0, 0]) * (tri[:, 2, 1] - tri[:, 0, 1]) - (
        tri[:, 2, 0] - tri[:, 0, 0]
    ) * (tri[:, 1, 1] - tri[:, 0, 1])
    scale = np.abs(tri[:, :, :2]).max() + 1.0
    tri = tri[np.abs(area2) > 1e-14 * scale * scale]
    lo = tri[:, :, :2].min(axis=1)
    hi = tri[:, :, :2].max(axis=1)
    origin = np.minimum(lo.min(axis=0), points[:, :2].min(axis=0))
    extent = np.maximum(hi.max(axis=0), points[:, :2].max(axis=0)) - origin
    cells = max(1, int(math.sqrt(len(tri)) / 2))
    size = np.maximum(extent / cells, 1e-12)
    cell_lo = np.clip(((lo - origin) / size).astype(np.int64), 0, cells - 1)
    cell_hi = np.clip(((hi - origin) / size).astype(np.int64), 0, cells - 1)
    point_cell = np.clip(((points[:, :2] - origin) / size).astype(np.int64), 0, cells - 1)
    point_key = point_cell[:, 0] * cells + point_cell[:, 1]
    # Expand each triangle into the cells its bbox covers.
    spans = (cell_hi[:, 0] - cell_lo[:, 0] + 1) * (cell_hi[:, 1] - cell_lo[:, 1] + 1)
    tri_index = np.repeat(np.arange(len(tri)), spans)
    offsets = np.arange(spans.sum()) - np.repeat(np.cumsum(spans) - spans, spans)
    width = np.repeat(cell_hi[:, 1] - cell_lo[:, 1] + 1, spans)
    cx = np.repeat(cell_lo[:, 0], spans) + offsets // width
    cy = np.repeat(cell_lo[:, 1], spans) + offsets % width
    tri_key = cx * cells + cy
    order = np.argsort(tri_key, kind="stable")
    tri_key, tri_index = tri_key[order], tri_index[order]
    point_order = np.argsort(point_key, kind="stable")
    sorted_keys = point_key[point_order]
    unique_keys, starts = np.unique(sorted_keys, return_index=True)
    ends = np.append(starts[1:], len(sorted_keys))
    t_starts = np.searchsorted(tri_key, unique_keys, side="left")
    t_ends = np.searchsorted(tri_key, unique_keys, side="right")
    crossings = np.zeros(len(points), dtype=np.int64)
    for key_i in range(len(unique_keys)):
        if t_starts[key_i] == t_ends[key_i]:
            continue
        pidx = point_order[starts[key_i] : ends[key_i]]
        tidx = tri_index[t_starts[key_i] : t_ends[key_i]]
        crossings[pidx] += _crossings(points[pidx], tri[tidx])
    result[:] = crossings % 2 == 1
    return result


def _crossings(points: np.ndarray, tri: np.ndarray, chunk: int = 4_000_000) -> np.ndarray:
    """How many triangles each point's +z ray crosses (points x triangles, chunked)."""
    total = np.zeros(len(points), dtype=np.int64)
    step = max(1, chunk // max(1, len(tri)))
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    for start in range(0, len(points), step):
        p = points[start : start + step, None, :]
        # Barycentric coordinates in the xy projection; half-open edges so that a ray
        # through a shared edge is counted once.
        d = (b[:, 1] - c[:, 1]) * (a[:, 0] - c[:, 0]) + (c[:, 0] - b[:, 0]) * (a[:, 1] - c[:, 1])
        l1 = (
            (b[:, 1] - c[:, 1]) * (p[..., 0] - c[:, 0])
            + (c[:, 0] - b[:, 0]) * (p[..., 1] - c[:, 1])
        ) / d
        l2 = (
            (c[:, 1] - a[:, 1]) * (p[..., 0] - c[:, 0])
            + (a[:, 0] - c[:, 0]) * (p[..., 1] - c[:, 1])
        ) / d
        l3 = 1.0 - l1 - l2
        hit = (l1 >= 0) & (l2 >= 0) & (l3 > 0)
        z = l1 * a[:, 2] + l2 * b[:, 2] + l3 * c[:, 2]
        total[start : start + step] = np.count_nonzero(hit & (z > p[..., 2]), axis=1)
    return total


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def sampled_iou(mesh_a, mesh_b, points: int, seed: int) -> dict:
    """IoU of two closed meshes estimated from seeded uniform points in their joint box.

    mesh_a and mesh_b are (vertices, triangles). Returns the estimate, its standard error
    and a 95 % Wilson interval; the union points are the trials, the common ones successes.
    """
    va, ta = mesh_a
    vb, tb = mesh_b
    lo = np.minimum(va.min(axis=0), vb.min(axis=0))
    hi = np.maximum(va.max(axis=0), vb.max(axis=0))
    rng = np.random.default_rng(seed)
    samples = lo + rng.random((points, 3)) * (hi - lo)
    in_a = inside_mesh(samples, va, ta)
    in_b = inside_mesh(samples, vb, tb)
    union = int(np.count_nonzero(in_a | in_b))
    common = int(np.count_nonzero(in_a & in_b))
    box_volume = float(np.prod(hi - lo))
    iou = common / union if union else 0.0
    stderr = math.sqrt(iou * (1 - iou) / union) if union else 1.0
    low, high = wilson_interval(common, union)
    return {
        "iou": iou,
        "stderr": stderr,
        "interval95": [low, high],
        "points": points,
        "unionPoints": union,
        "commonPoints": common,
        "volumeA": box_volume * np.count_nonzero(in_a) / points,
        "volumeB": box_volume * np.count_nonzero(in_b) / points,
        "seed": seed,
    }
