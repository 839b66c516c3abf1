# SPDX-License-Identifier: LGPL-2.1-or-later
"""The field's own figures, computed as the papers compute them, beside cadbench's (pure).

Never used in a verdict: they are there so that a figure of cadbench's can be set beside a
paper's. Each comes with its protocol (PROTOCOLS), which a result carries next to the value.

- chamferDistance (CAD-Recode / cadrille convention): each mesh centred on its bounding
  box's centre and scaled so its longest bounding-box side is 1; CHAMFER_POINTS points drawn
  uniformly (by area) on each surface with fixed seeds; squared nearest-neighbour distances,
  the mean each way, the two means summed (not halved), times 1000; no alignment.
- voxelIoU64 (BenchCAD convention): each shape tessellated at 0.05, scaled by its longest
  bounding-box side into the unit box (its bounding box centred in it, never rotated), and
  voxelised at 64^3 (a voxel is full when its centre lies inside the closed mesh); IoU of
  the two voxel sets.
"""

import numpy as np
from scipy.spatial import cKDTree

from cadbench_wb.geometry import kept, sampling

CHAMFER_POINTS = 8192
CHAMFER_SEED = 20240  # the reference's points use [seed, 0], the candidate's [seed, 1]
CHAMFER_SCALE = 1000.0
VOXEL_RESOLUTION = 64
VOXEL_TESSELLATION = 0.05  # model units (mm), BenchCAD's tessellation tolerance
COLUMN_NUDGE = np.array([np.sqrt(2.0), np.sqrt(3.0)]) * 1e-9
PROTOCOLS = {
    "chamferDistance": (
        "CAD-Recode: bbox-centred, longest bbox side scaled to 1, 8192 points uniform on each "
        "surface (fixed seed), mean squared NN distance each way, summed, x1000, no alignment"
    ),
    "voxelIoU64": (
        "BenchCAD: tessellated at 0.05, longest bbox side scaled to 1 in the unit box (fixed "
        "orientation, bbox centred), 64^3 voxels by centre-inside, IoU"
    ),
}


def _empty(vertices, triangles) -> bool:
    return len(np.asarray(triangles)) == 0 or len(np.asarray(vertices)) == 0


def surface_points(vertices, triangles, count: int, rng) -> np.ndarray:
    """count points uniform by area on the triangle mesh (triangle by area, then a uniform
    point in it by the square-root rule)."""
    tri = np.asarray(vertices, dtype=np.float64)[np.asarray(triangles, dtype=np.int64)]
    areas = 0.5 * np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    chosen = rng.choice(len(tri), size=count, p=areas / areas.sum())
    r1 = np.sqrt(rng.random(count))[:, None]
    r2 = rng.random(count)[:, None]
    a, b, c = tri[chosen, 0], tri[chosen, 1], tri[chosen, 2]
    return (1 - r1) * a + r1 * (1 - r2) * b + r1 * r2 * c


def normalized(vertices) -> np.ndarray:
    """Vertices centred on their bounding box's centre, its longest side scaled to 1."""
    v = np.asarray(vertices, dtype=np.float64)
    lo, hi = v.min(axis=0), v.max(axis=0)
    return (v - (lo + hi) / 2) / max(float((hi - lo).max()), 1e-300)


def chamfer_distance(reference: tuple, candidate: tuple, points: int = CHAMFER_POINTS) -> float:
    """CAD-Recode's Chamfer distance x1000 of two meshes (vertices, triangles)."""
    # The reference's cloud and tree as the last job against it made them (kept.py).
    reference_cloud, reference_tree = kept.kept(
        "chamfer cloud",
        reference,
        (points, CHAMFER_SEED),
        lambda: _tree(_cloud(reference, 0, points)),
    )
    candidate_cloud = _cloud(candidate, 1, points)
    to_candidate, _ = cKDTree(candidate_cloud).query(reference_cloud, k=1)
    to_reference, _ = reference_tree.query(candidate_cloud, k=1)
    return float((np.mean(to_candidate**2) + np.mean(to_reference**2)) * CHAMFER_SCALE)


def _cloud(mesh: tuple, index: int, points: int) -> np.ndarray:
    """The chamfer points of a mesh, the reference's (index 0) or the candidate's (1)."""
    rng = np.random.default_rng([CHAMFER_SEED, index])
    return surface_points(normalized(mesh[0]), mesh[1], points, rng)


def _tree(cloud: np.ndarray) -> tuple:
    return cloud, cKDTree(cloud)


def voxels(vertices, triangles, resolution: int = VOXEL_RESOLUTION) -> np.ndarray:
    """The (resolution^3,) occupancy of a closed mesh scaled into the unit box, indexed
    [x, y, z]: one vertical ray per (x, y) column of voxel centres, a centre inside where
    an odd number of the ray's crossings lie above it."""
    unit = normalized(vertices) + 0.5  # centred in [0, 1]^3, longest side spanning it
    centres = (np.arange(resolution) + 0.5) / resolution
    columns = np.stack(np.meshgrid(centres, centres, indexing="ij"), axis=-1).reshape(-1, 2)
    # Off the grid by a hair (1e-9 of the box): a column through a face's diagonal, shared
    # by its two triangles, would otherwise cross both or neither (a box 12 x 20 x 30 lost
    # five columns so).
    columns = columns + COLUMN_NUDGE
    heights = sampling.crossing_heights(columns, unit, triangles)  # (columns, crossings)
    above = np.count_nonzero(heights[:, None, :] > centres[None, :, None], axis=2)
    return (above % 2 == 1).reshape(-1)


def voxel_iou(
    reference: tuple, candidate: tuple, resolution: int = VOXEL_RESOLUTION
) -> float | None:
    """IoU of the two voxel sets; None when neither fills a voxel (a part thinner than a
    64th of its length: the protocol has no figure for it)."""
    a = kept.kept("voxels", reference, (resolution,), lambda: voxels(*reference, resolution))
    b = voxels(*candidate, resolution)
    union = np.count_nonzero(a | b)
    return float(np.count_nonzero(a & b) / union) if union else None


def figures(chamfer_meshes: tuple, voxel_meshes: tuple) -> dict:
    """{"chamferDistance": {...}, "voxelIoU64": {...}} of (reference, candidate) meshes: each
    {value, protocol}; value None where a mesh is empty."""
    out = {}
    for name, meshes, function in (
        ("chamferDistance", chamfer_meshes, chamfer_distance),
        ("voxelIoU64", voxel_meshes, voxel_iou),
    ):
        value = None if any(_empty(*mesh) for mesh in meshes) else function(*meshes)
        out[name] = {"value": value, "protocol": PROTOCOLS[name]}
    return out


def not_delivered() -> dict:
    """The field figures of a failed delivery: no value (papers count it in invalidRate)."""
    return {name: {"value": None, "protocol": text} for name, text in PROTOCOLS.items()}
