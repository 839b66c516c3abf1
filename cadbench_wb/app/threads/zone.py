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
    corners = local[np.asarray(triangles, dtype=np.int64)][:, :, :2]
    over = np.all(corners.min(axis=1) <= outer, axis=1) & np.all(
        corners.max(axis=1) >= -outer, axis=1
    )
    heights = sampling.crossing_heights(rays, local, np.asarray(triangles)[over])
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
