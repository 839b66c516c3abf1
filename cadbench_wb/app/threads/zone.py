# SPDX-License-Identifier: LGPL-2.1-or-later
"""The material volume in a thread's zone, measured in the thread's own frame.

The zone is the tube between the thread's minor and major diameters over its length. Its
material is integrated along columns parallel to the thread axis: rays cast on a polar grid
of the zone (midpoint rings and sectors, in a frame whose z is the axis and whose origin is
the thread's start), each ray's inside length between the zone's two ends weighted by its
ring's area. Nothing of the world frame enters but the mesh, so a copy in any pose that is
brought back onto its original gives the original's figure to within the two tessellations'
difference; and a ray needs no manifold, only a closed surface along itself: the
tessellation cracks manifold3d refuses (two faces' edges meshed 2e-5 mm apart on a
bd_warehouse M3 stud) change no column, where the manifold intersection gave no volume at
all and threadMatch read "thread volume differs" on a perfect copy.

A column is tested only against the triangles whose polar extent (rings and sectors of the
zone's grid) reaches it: a thread's flank triangles are long and thin, and an xy grid over
the zone's square listed each in nine cells (2.3 million ray-triangle tests for 0.29 million
crossings on the M8 bolt, 785,000 in the polar grid). The extent is conservative and the
test is sampling's own, so every column crosses the same triangles at the same heights.
"""

import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.geometry import sampling


def thread_frame(axis, origin) -> np.ndarray:
    """3x4 matrix [x y z origin] taking +z to axis and the origin to origin; x is read off
    the axis alone (the same for every thread of the same axis)."""
    z = np.asarray(axis, dtype=float)
    z = z / np.linalg.norm(z)
    x = np.cross(z, [1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.cross(z, [0.0, 1.0, 0.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return np.column_stack([x, y, z, np.asarray(origin, dtype=float)])


def zone_rays(inner: float, outer: float) -> tuple[np.ndarray, np.ndarray]:
    """The zone's columns: their (x, y) in the thread frame and the area each stands for
    (ring width x arc at the ring's mid radius, so the areas add up to the annulus exactly)."""
    params = standard.THREADS
    rings, sectors = params["zone_rings"], params["zone_sectors"]
    width, turn = (outer - inner) / rings, 2 * math.pi / sectors
    radius, angle = np.meshgrid(
        inner + (np.arange(rings) + 0.5) * width, (np.arange(sectors) + 0.5) * turn, indexing="ij"
    )
    rays = np.column_stack([(radius * np.cos(angle)).ravel(), (radius * np.sin(angle)).ravel()])
    return rays, (radius * width * turn).ravel()


def zone_volume(mesh, thread) -> float | None:
    """Material volume of a closed triangle mesh (vertices, triangles) inside the thread's
    zone (a threads.Thread, the reference thread's for both parts), or None where the zone
    is not defined or the mesh is open along more than zone_odd_rays_max of the columns.

    A column that crosses the surface an odd number of times (a ray through a crack, or
    grazing an edge) takes the mean of the even columns of its ring: the zone is a screw's,
    so a ring's columns differ only by where the thread's ends cut them."""
    if None in (thread.major_diameter, thread.minor_diameter, thread.axis, thread.start):
        return None
    vertices, triangles = mesh
    if len(triangles) == 0 or not thread.length:
        return None
    frame = thread_frame(thread.axis, thread.start)
    local = (np.asarray(vertices, dtype=float) - frame[:, 3]) @ frame[:, :3]
    outer = thread.major_diameter / 2
    rays, areas = zone_rays(thread.minor_diameter / 2, outer)
    # Only triangles over the zone's square can meet a column (a bolt's head and shank
    # beyond it are most of its mesh): the columns' crossings are the same without the rest.
    flat = local[np.asarray(triangles, dtype=np.int64)][:, :, :2]
    over = np.all(flat.min(axis=1) <= outer, axis=1) & np.all(flat.max(axis=1) >= -outer, axis=1)
    corners = sampling._projectable(local[np.asarray(triangles, dtype=np.int64)[over]])
    heights = _column_heights(rays, corners, thread.minor_diameter / 2, outer)
    length = float(thread.length)
    crossings = np.count_nonzero(np.isfinite(heights), axis=1)
    odd = crossings % 2 == 1
    if np.count_nonzero(odd) > standard.THREADS["zone_odd_rays_max"] * len(rays):
        return None
    even = heights.shape[1] - heights.shape[1] % 2
    clipped = np.clip(heights, 0.0, length)  # +inf padding clips to the zone's far end
    inside = (clipped[:, 1:even:2] - clipped[:, 0:even:2]).sum(axis=1)
    if odd.any():
        by_ring = inside.reshape(standard.THREADS["zone_rings"], -1)
        good = ~odd.reshape(by_ring.shape)
        counts = np.maximum(good.sum(axis=1), 1)
        means = np.where(good, by_ring, 0.0).sum(axis=1) / counts
        inside = np.where(good, by_ring, means[:, None]).ravel()
    return float(inside @ areas)


# Slack of the polar extent: far above the rounding of an angle or a radius, far below a
# column's spacing (a column just outside a triangle's extent is tested, never one inside).
_SLACK_RAD = 1e-7
_SLACK_REL = 1e-7


def _column_heights(rays, corners, inner: float, outer: float) -> np.ndarray:
    """sampling.crossing_heights of the zone's columns (zone_rays' order, ring-major)
    through triangles (n, 3, 3) in the thread frame: the sorted heights of each column's
    crossings, padded with +inf, from the same pair test on fewer pairs."""
    rings, sectors = standard.THREADS["zone_rings"], standard.THREADS["zone_sectors"]
    first_ring, ring_count, first_sector, sector_count = _polar_extent(
        corners[:, :, :2], inner, outer, (rings, sectors)
    )
    pairs = ring_count * sector_count
    hit_ray, hit_z = [], []
    ends = np.cumsum(pairs)
    start = 0
    while start < len(corners):
        reach = (ends[start - 1] if start else 0) + sampling.PAIR_CHUNK
        stop = max(int(np.searchsorted(ends, reach, side="right")), start + 1)
        chunk = np.arange(start, stop)
        counts = pairs[chunk]
        pair_tri = np.repeat(chunk, counts)
        offset = np.arange(len(pair_tri)) - np.repeat(np.cumsum(counts) - counts, counts)
        across = sector_count[pair_tri]
        ring = first_ring[pair_tri] + offset // across
        sector = np.mod(first_sector[pair_tri] + offset % across, sectors)
        pair_ray = ring * sectors + sector
        z, hit = sampling._pair_heights(rays[pair_ray], corners[pair_tri])
        hit_ray.append(pair_ray[hit])
        hit_z.append(z[hit])
        start = stop
    return sampling.heights_table(hit_ray, hit_z, len(rays))


def _polar_extent(xy, inner: float, outer: float, grid: tuple) -> tuple:
    """Per triangle (its corners' xy, (n, 3, 2)): the first ring and the number of rings,
    the first sector (unwrapped) and the number of sectors whose columns can cross it.

    Radially from its distance to the axis (0 where it covers the axis) to its farthest
    corner; around the axis from its corners' angles, unwrapped from its first corner (a
    triangle clear of the axis sees it under less than half a turn), or every sector where
    it covers the axis or comes closer to it than the innermost ring."""
    rings, sectors = grid
    width, turn = (outer - inner) / rings, 2 * math.pi / sectors
    radii = np.linalg.norm(xy, axis=2)
    near = _distance_to_origin(xy)
    slack = _SLACK_REL * outer
    low = np.ceil((near - slack - inner) / width - 0.5)
    high = np.floor((radii.max(axis=1) + slack - inner) / width - 0.5)
    first_ring = np.clip(low, 0, None).astype(np.int64)
    last_ring = np.clip(high, None, rings - 1).astype(np.int64)
    ring_count = np.maximum(last_ring - first_ring + 1, 0)
    angles = np.arctan2(xy[:, :, 1], xy[:, :, 0])
    unwrapped = np.mod(angles - angles[:, :1] + math.pi, 2 * math.pi) - math.pi
    low_angle = angles[:, 0] + unwrapped.min(axis=1) - _SLACK_RAD
    high_angle = angles[:, 0] + unwrapped.max(axis=1) + _SLACK_RAD
    first_sector = np.ceil(low_angle / turn - 0.5).astype(np.int64)
    sector_count = np.floor(high_angle / turn - 0.5).astype(np.int64) - first_sector + 1
    around = (near <= 0.5 * inner) | (sector_count >= sectors)
    first_sector = np.where(around, 0, first_sector)
    sector_count = np.where(around, sectors, np.maximum(sector_count, 0))
    return first_ring, ring_count, first_sector, sector_count


def _distance_to_origin(xy: np.ndarray) -> np.ndarray:
    """Distance from the axis (the origin of xy) to each triangle: 0 where the triangle
    covers it, else to its nearest edge."""
    nearest = np.full(len(xy), np.inf)
    for k in range(3):
        p, q = xy[:, k], xy[:, (k + 1) % 3]
        edge = q - p
        length2 = np.einsum("ij,ij->i", edge, edge)
        t = np.clip(-np.einsum("ij,ij->i", p, edge) / np.where(length2 > 0, length2, 1.0), 0, 1)
        nearest = np.minimum(nearest, np.linalg.norm(p + t[:, None] * edge, axis=1))
    cross = [
        xy[:, k, 0] * xy[:, (k + 1) % 3, 1] - xy[:, k, 1] * xy[:, (k + 1) % 3, 0] for k in range(3)
    ]
    covers = np.all([c >= 0 for c in cross], axis=0) | np.all([c <= 0 for c in cross], axis=0)
    return np.where(covers, 0.0, nearest)
