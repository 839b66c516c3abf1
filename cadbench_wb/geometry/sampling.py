# SPDX-License-Identifier: LGPL-2.1-or-later
"""Ray casting on closed triangle meshes: point classification, column occupancy, and a
seeded sampling estimate of IoU.

This is the independent witness for the exact booleans (seed 000's safeguard): it shares
nothing with OpenCASCADE's boolean code but the tessellation. Rays run along +z; each
triangle is binned into an xy grid so a ray is tested only against the triangles over its
own cell, which keeps the cost near-linear in rays + triangles.
"""

import math

import numpy as np

from cadbench_wb.geometry import kept

INF = np.inf


def _projectable(tri: np.ndarray) -> np.ndarray:
    """Triangles whose xy projection has area; the others are parallel to the ray."""
    area2 = (tri[:, 1, 0] - tri[:, 0, 0]) * (tri[:, 2, 1] - tri[:, 0, 1]) - (
        tri[:, 2, 0] - tri[:, 0, 0]
    ) * (tri[:, 1, 1] - tri[:, 0, 1])
    scale = np.abs(tri[:, :, :2]).max() + 1.0
    return tri[np.abs(area2) > 1e-14 * scale * scale]


def crossing_heights(
    rays_xy: np.ndarray, vertices: np.ndarray, triangles: np.ndarray
) -> np.ndarray:
    """For each vertical ray (x, y), the sorted z of its crossings with the mesh, padded
    with +inf to the largest count: an array (rays, max crossings)."""
    rays_xy = np.asarray(rays_xy, dtype=np.float64)
    tri = _projectable(
        np.asarray(vertices, dtype=np.float64)[np.asarray(triangles, dtype=np.int64)]
    )
    if len(tri) == 0 or len(rays_xy) == 0:
        return np.full((len(rays_xy), 0), INF)
    lo = tri[:, :, :2].min(axis=1)
    hi = tri[:, :, :2].max(axis=1)
    origin = np.minimum(lo.min(axis=0), rays_xy.min(axis=0))
    extent = np.maximum(hi.max(axis=0), rays_xy.max(axis=0)) - origin
    # Square cells, about four triangles' worth each: a grid of equal counts per axis over
    # a flat extent (a 200 x 10 plate seen edge-on) has cells 20 times longer than wide,
    # and every wall triangle then lands in a hundred cells (400 MB of index arrays on a
    # plate with 250 holes). Which pairs are tested changes, not which rays hit: a ray
    # inside a triangle is inside its box, so in one of the cells the triangle is listed in.
    side = math.sqrt(max(float(extent[0] * extent[1]), 1e-24) / max(1, len(tri) // 4))
    cells = np.clip(np.ceil(extent / max(side, 1e-12)), 1, max(1, len(tri))).astype(np.int64)
    size = np.maximum(extent / cells, 1e-12)
    cell_lo = np.clip(((lo - origin) / size).astype(np.int64), 0, cells - 1)
    cell_hi = np.clip(((hi - origin) / size).astype(np.int64), 0, cells - 1)
    ray_cell = np.clip(((rays_xy - origin) / size).astype(np.int64), 0, cells - 1)
    ray_key = ray_cell[:, 0] * cells[1] + ray_cell[:, 1]
    # Expand each triangle into the cells its bbox covers that a ray falls in (the others
    # are never looked up: the same pairs per ray, in the same order), then sort by cell.
    # (Temporaries freed as soon as used: they are the peak memory of the whole scoring.)
    tri_key, tri_index = _occupied_cells(cell_lo, cell_hi, cells[1], np.unique(ray_key))
    order = np.argsort(tri_key, kind="stable")
    tri_key = tri_key[order]
    tri_index = tri_index[order]
    del order
    # Every (ray, triangle over the ray's cell) pair, tested at once in chunks of at most
    # PAIR_CHUNK pairs: one Python-level step per cell cost 0.3 ms, 10 s on a real part.
    first = np.searchsorted(tri_key, ray_key, side="left")
    counts = np.searchsorted(tri_key, ray_key, side="right") - first
    hit_ray, hit_z = [], []
    ends = np.cumsum(counts)
    start_ray = 0
    while start_ray < len(rays_xy):
        reach = (ends[start_ray - 1] if start_ray else 0) + PAIR_CHUNK
        stop_ray = max(int(np.searchsorted(ends, reach, side="right")), start_ray + 1)
        rays = np.arange(start_ray, stop_ray)
        ray_counts = counts[rays]
        pair_ray = np.repeat(rays, ray_counts)
        offsets = np.arange(len(pair_ray)) - np.repeat(
            np.cumsum(ray_counts) - ray_counts, ray_counts
        )
        pair_tri = tri_index[np.repeat(first[rays], ray_counts) + offsets]
        z, hit = _pair_heights(rays_xy[pair_ray], tri[pair_tri])
        hit_ray.append(pair_ray[hit])
        hit_z.append(z[hit])
        start_ray = stop_ray
    return heights_table(hit_ray, hit_z, len(rays_xy))


def heights_table(hit_ray: list, hit_z: list, rays: int) -> np.ndarray:
    """(rays, most crossings) heights, each ray's row ascending and padded with inf: the
    crossings found chunk by chunk (lists of arrays of ray index and height)."""
    hit_ray = np.concatenate(hit_ray) if hit_ray else np.zeros(0, dtype=np.int64)
    hit_z = np.concatenate(hit_z) if hit_z else np.zeros(0)
    order = np.lexsort((hit_z, hit_ray))
    hit_ray, hit_z = hit_ray[order], hit_z[order]
    per_ray = np.bincount(hit_ray, minlength=rays)
    result = np.full((rays, int(per_ray.max()) if len(hit_ray) else 0), INF)
    column = np.arange(len(hit_ray)) - np.repeat(np.cumsum(per_ray) - per_ray, per_ray)
    result[hit_ray, column] = hit_z
    return result


# Ray-triangle pairs tested in one vectorised step (about 25 MB of temporaries).
PAIR_CHUNK = 250_000


def _pair_heights(points: np.ndarray, tri: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Height of each ray's crossing with its paired triangle, and whether it crosses."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    d = (b[:, 1] - c[:, 1]) * (a[:, 0] - c[:, 0]) + (c[:, 0] - b[:, 0]) * (a[:, 1] - c[:, 1])
    l1 = (
        (b[:, 1] - c[:, 1]) * (points[:, 0] - c[:, 0])
        + (c[:, 0] - b[:, 0]) * (points[:, 1] - c[:, 1])
    ) / d
    l2 = (
        (c[:, 1] - a[:, 1]) * (points[:, 0] - c[:, 0])
        + (a[:, 0] - c[:, 0]) * (points[:, 1] - c[:, 1])
    ) / d
    l3 = 1.0 - l1 - l2
    # Half-open barycentric test: a ray through an edge shared by two triangles counts once.
    hit = (l1 >= 0) & (l2 >= 0) & (l3 > 0)
    return l1 * a[:, 2] + l2 * b[:, 2] + l3 * c[:, 2], hit


def inside_mesh(points: np.ndarray, vertices: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Boolean array: which points lie inside the closed triangle mesh (odd crossings above)."""
    points = np.asarray(points, dtype=np.float64)
    if len(points) == 0:
        return np.zeros(0, dtype=bool)
    heights = crossing_heights(points[:, :2], vertices, triangles)
    return np.count_nonzero(heights > points[:, 2:3], axis=1) % 2 == 1


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
    # InsideTest: inside_mesh's rule and answers (every bundled and bench pair: the same
    # 20,000 answers) on a grid of fewer ray-triangle pairs, 40 % less CPU on a small plate.
    # mesh_a is the reference's: its full grid where the alignment kept one (kept.py), else
    # a grid for these points alone (for_points), as the candidate's always is.
    test_a = kept.known("inside test", mesh_a, ())
    if test_a is None:
        test_a = InsideTest.for_points(va, ta, samples)
    in_a = test_a(samples)
    in_b = InsideTest.for_points(vb, tb, samples)(samples)
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


class ColumnOccupancy:
    """A solid as columns of inside-intervals: cheap inside-tests for many poses.

    The alignment search scores hundreds of poses; an exact boolean per pose would cost
    seconds. Casting one ray per column once gives the inside intervals of the whole solid,
    after which a point is classified by its column and a count of heights below it. Rays
    run along the solid's longest extent and the columns are square, so a thin plate gets
    fine columns across its thickness instead of a handful.
    """

    def __init__(self, vertices: np.ndarray, triangles: np.ndarray, columns: int):
        extent = vertices.max(axis=0) - vertices.min(axis=0)
        longest = int(np.argmax(extent))
        self.axes = [a for a in range(3) if a != longest] + [longest]
        vertices = vertices[:, self.axes]
        lo, hi = vertices.min(axis=0), vertices.max(axis=0)
        self.lo, self.hi = lo, hi
        side = max(
            np.sqrt(max(extent[self.axes[0]] * extent[self.axes[1]], 1e-24) / columns**2), 1e-9
        )
        self.counts = np.maximum(1, np.ceil((hi[:2] - lo[:2]) / side).astype(np.int64))
        self.cell = np.maximum((hi[:2] - lo[:2]) / self.counts, 1e-12)
        ix, iy = np.meshgrid(np.arange(self.counts[0]), np.arange(self.counts[1]), indexing="ij")
        centres = lo[:2] + (np.column_stack([ix.ravel(), iy.ravel()]) + 0.5) * self.cell
        self.heights = crossing_heights(centres, vertices, triangles)
        self.crossings = np.ascontiguousarray(self.heights.T)  # (crossings, columns)
        finite = np.where(np.isfinite(self.heights), self.heights, 0.0)
        even = finite.shape[1] - finite.shape[1] % 2
        pairs = finite[:, 1:even:2] - finite[:, 0:even:2]
        self.column_length = (
            np.clip(pairs, 0, None).sum(axis=1) if pairs.size else np.zeros(len(centres))
        )
        self.volume = float(self.column_length.sum() * self.cell[0] * self.cell[1])

    def contains(self, points: np.ndarray) -> np.ndarray:
        """Which points lie inside: an odd count of their column's heights at or below them.
        (Heights read crossing-major, a row per crossing: the count over a few long rows
        costs a fifth less than over many short ones, the alignment's proxy asks a hundred
        times a pair.)"""
        points = points[:, self.axes]
        z = points[:, 2]
        cells = np.floor((points[:, :2] - self.lo[:2]) / self.cell).astype(np.int64)
        x, y = cells[:, 0], cells[:, 1]
        inside_box = (x >= 0) & (x < self.counts[0]) & (y >= 0) & (y < self.counts[1])
        inside_box &= (z >= self.lo[2]) & (z <= self.hi[2])
        result = np.zeros(len(points), dtype=bool)
        chosen = np.flatnonzero(inside_box)
        if not len(chosen) or self.heights.shape[1] == 0:
            return result
        index = x[chosen] * self.counts[1] + y[chosen]
        below = np.count_nonzero(self.crossings[:, index] <= z[chosen], axis=0)
        result[chosen] = below % 2 == 1
        return result

    def interior_points(self, count: int, seed: int) -> np.ndarray:
        """Seeded points spread through the solid's volume, on the columns' centre lines."""
        rng = np.random.default_rng(seed)
        total = self.column_length.sum()
        if total <= 0:
            return np.zeros((0, 3))
        chosen = rng.choice(len(self.column_length), size=count, p=self.column_length / total)
        along = rng.random(count) * self.column_length[chosen]
        heights = self.heights[chosen]
        even = heights.shape[1] - heights.shape[1] % 2
        entries = np.where(np.isfinite(heights[:, 0:even:2]), heights[:, 0:even:2], 0.0)
        exits = np.where(np.isfinite(heights[:, 1:even:2]), heights[:, 1:even:2], 0.0)
        lengths = np.clip(exits - entries, 0, None)
        cumulative = np.cumsum(lengths, axis=1)
        segment = np.minimum((cumulative < along[:, None]).sum(axis=1), lengths.shape[1] - 1)
        before = np.where(segment > 0, cumulative[np.arange(count), segment - 1], 0.0)
        z = entries[np.arange(count), segment] + (along - before)
        ix, iy = chosen // self.counts[1], chosen % self.counts[1]
        xy = self.lo[:2] + (np.column_stack([ix, iy]) + 0.5) * self.cell
        permuted = np.column_stack([xy, z])
        result = np.empty_like(permuted)
        result[:, self.axes] = permuted
        return result


class InsideTest:
    """inside_mesh for one closed mesh and many point sets: the grid of triangles over the
    xy plane is made once (rebuilding it took half of each call when the alignment's IoU
    refinement asked a thousand times), and a point only needs the parity of the crossings
    above it. Same rule as inside_mesh (half-open barycentric test), same answers."""

    def __init__(self, vertices: np.ndarray, triangles: np.ndarray, points=None):
        """points: the only points it will be asked about (for_points), or None: any."""
        tri = _projectable(
            np.asarray(vertices, dtype=np.float64)[np.asarray(triangles, dtype=np.int64)]
        )
        self.tri = tri
        if len(tri) == 0:
            return
        lo, hi = tri[:, :, :2].min(axis=1), tri[:, :, :2].max(axis=1)
        self.origin, top = lo.min(axis=0), hi.max(axis=0)
        extent = top - self.origin
        # Cells for two triangles each, not four: the grid is made once and asked often, and
        # a plate's long sliver triangles each cover many cells (3x fewer ray-triangle
        # pairs on a plate with holes, 1,056 triangles: 2.2 ms for 1,000 points, not 6.6).
        side = math.sqrt(max(float(extent[0] * extent[1]), 1e-24) / max(1, 2 * len(tri)))
        self.cells = np.clip(np.ceil(extent / max(side, 1e-12)), 1, max(1, len(tri))).astype(
            np.int64
        )
        self.size = np.maximum(extent / self.cells, 1e-12)
        self.top = top
        cell_lo = np.clip(((lo - self.origin) / self.size).astype(np.int64), 0, self.cells - 1)
        cell_hi = np.clip(((hi - self.origin) / self.size).astype(np.int64), 0, self.cells - 1)
        if points is None:
            key, index = _spanned_cells(cell_lo, cell_hi, self.cells[1])
        else:
            ray_keys = self._ray_cells(np.asarray(points, dtype=np.float64))[1]
            key, index = _occupied_cells(cell_lo, cell_hi, self.cells[1], np.unique(ray_keys))
        # Only the cells a triangle overlaps, not every cell of its box: a plate's long
        # sliver triangles each cover a box of many cells and cross few of them (the bench
        # plate: 29 ray-triangle pairs per point, 5 after).
        cell_x, cell_y = np.divmod(key, self.cells[1])
        over = _cells_overlapped(tri[:, :, :2], index, cell_x, cell_y, self.origin, self.size)
        index, key = index[over], key[over]
        order = np.argsort(key, kind="stable")
        self.key = key[order]
        self.index = index[order]
        self.terms = _triangle_terms(tri)

    @classmethod
    def for_points(cls, vertices: np.ndarray, triangles: np.ndarray, points: np.ndarray):
        """An InsideTest that answers for these points only (as the full one does): the grid
        holds a triangle only in the cells of its span that one of them falls in. Each point
        is tested against the same triangles of its cell in the same order, so the answers
        are the same; on a fine mesh few cells hold one of 20,000 points (NIST CTC-04 at
        Part's tessellation: 0.2 million cell entries instead of 10 million)."""
        return cls(vertices, triangles, points)

    def _ray_cells(self, points: np.ndarray) -> tuple:
        """(the points whose ray can cross a triangle: inside the triangles' xy box, the key
        of each one's cell)."""
        # A ray outside the triangles' xy box crosses none of them.
        near = np.flatnonzero(
            np.all((points[:, :2] >= self.origin) & (points[:, :2] <= self.top), axis=1)
        )
        cell = np.clip(((points[near, :2] - self.origin) / self.size).astype(np.int64), 0, None)
        cell = np.minimum(cell, self.cells - 1)
        return near, cell[:, 0] * self.cells[1] + cell[:, 1]

    def __call__(self, points: np.ndarray) -> np.ndarray:
        points = np.asarray(points, dtype=np.float64)
        result = np.zeros(len(points), dtype=bool)
        if len(self.tri) == 0 or len(points) == 0:
            return result
        near, ray_key = self._ray_cells(points)
        first = np.searchsorted(self.key, ray_key, side="left")
        counts = np.searchsorted(self.key, ray_key, side="right") - first
        pair_ray = np.repeat(np.arange(len(near)), counts)
        offsets = np.arange(len(pair_ray)) - np.repeat(np.cumsum(counts) - counts, counts)
        pair_tri = self.index[np.repeat(first, counts) + offsets]
        rays = points[near[pair_ray]]
        above = _crossed_above(rays, self.terms[pair_tri])
        crossings = np.bincount(pair_ray[above], minlength=len(near))
        result[near] = crossings % 2 == 1
        return result


def _spanned_cells(cell_lo: np.ndarray, cell_hi: np.ndarray, columns: int) -> tuple:
    """(cell key, triangle) for every cell of every triangle's span of cells (cell_lo to
    cell_hi inclusive, keys x * columns + y), triangle by triangle."""
    spans = (cell_hi[:, 0] - cell_lo[:, 0] + 1) * (cell_hi[:, 1] - cell_lo[:, 1] + 1)
    offsets = np.arange(spans.sum()) - np.repeat(np.cumsum(spans) - spans, spans)
    width = np.repeat(cell_hi[:, 1] - cell_lo[:, 1] + 1, spans)
    key = (np.repeat(cell_lo[:, 0], spans) + offsets // width) * columns
    key += np.repeat(cell_lo[:, 1], spans) + offsets % width
    return key, np.repeat(np.arange(len(spans)), spans)


def _occupied_cells(cell_lo, cell_hi, columns: int, occupied: np.ndarray) -> tuple:
    """_spanned_cells restricted to the occupied keys (sorted, unique), triangle by triangle:
    each row of a span is one range of keys, looked up among the occupied ones. A sliver of
    a large planar face spans thousands of cells (10 million pairs on NIST CTC-04's 151,400
    projectable triangles), of which a few hold a sample point."""
    rows = cell_hi[:, 0] - cell_lo[:, 0] + 1
    owner = np.repeat(np.arange(len(rows)), rows)
    x = cell_lo[owner, 0] + np.arange(rows.sum()) - np.repeat(np.cumsum(rows) - rows, rows)
    first = np.searchsorted(occupied, x * columns + cell_lo[owner, 1], side="left")
    last = np.searchsorted(occupied, x * columns + cell_hi[owner, 1], side="right")
    counts = last - first
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    return occupied[np.repeat(first, counts) + offsets], np.repeat(owner, counts)


# How far (in cells) a cell may lie from a triangle and still have it listed: rounding in
# the crossing test accepts points at most ~1e-16 of the part's size outside a triangle,
# and the cell of a point is off by one at most within as much of a cell's border; a
# millionth of a cell is ten orders of magnitude beyond both.
CELL_MARGIN = 1e-6


def _cells_overlapped(tri_xy, index, cell_x, cell_y, origin, size) -> np.ndarray:
    """Which (triangle index[i], cell (cell_x[i], cell_y[i])) entries overlap, up to
    CELL_MARGIN of a cell: the separating-axis test of a triangle and a box in the plane.
    The box's own axes are the triangle's box (every entry passes them); what is left is
    each edge's normal, along which the triangle's three vertices and the cell's four
    corners must project onto overlapping intervals. No orientation is read off the
    vertices, so a sliver's nearly collinear third vertex cannot turn a test around.
    Conservative: a cell a ray in it could cross the triangle from is never left out, so
    the crossings found (and every answer) are the same; fewer pairs are tested."""
    keep = np.ones(len(index), dtype=bool)
    half = size / 2.0
    centre_x = origin[0] + (cell_x + 0.5) * size[0]
    centre_y = origin[1] + (cell_y + 0.5) * size[1]
    slack = CELL_MARGIN * float(size.max())
    for start, end in ((0, 1), (1, 2), (2, 0)):
        nx = tri_xy[:, start, 1] - tri_xy[:, end, 1]
        ny = tri_xy[:, end, 0] - tri_xy[:, start, 0]
        along = nx[:, None] * tri_xy[:, :, 0] + ny[:, None] * tri_xy[:, :, 1]
        margin = slack * np.hypot(nx, ny)
        low, high = along.min(axis=1) - margin, along.max(axis=1) + margin
        radius = np.abs(nx) * half[0] + np.abs(ny) * half[1]
        projected = nx[index] * centre_x + ny[index] * centre_y
        keep &= (projected + radius[index] >= low[index]) & (
            projected - radius[index] <= high[index]
        )
    return keep


def _triangle_terms(tri: np.ndarray) -> np.ndarray:
    """(triangles, 10): the per-triangle factors of _pair_heights (b1 - c1, c0 - b0, c1 - a1,
    a0 - c0, the determinant d, c0, c1, a2, b2, c2), computed once for every call."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    d = (b[:, 1] - c[:, 1]) * (a[:, 0] - c[:, 0]) + (c[:, 0] - b[:, 0]) * (a[:, 1] - c[:, 1])
    columns = (b[:, 1] - c[:, 1], c[:, 0] - b[:, 0], c[:, 1] - a[:, 1], a[:, 0] - c[:, 0], d)
    return np.column_stack([*columns, c[:, 0], c[:, 1], a[:, 2], b[:, 2], c[:, 2]])


def _crossed_above(rays: np.ndarray, terms: np.ndarray) -> np.ndarray:
    """Whether each ray (x, y, z) crosses its paired triangle (terms: _triangle_terms) above
    z: _pair_heights's arithmetic, operation for operation (the same doubles, so the same
    answers), with the factors that belong to the triangle alone taken from the table and
    the height computed only where the ray crosses."""
    dx, dy = rays[:, 0] - terms[:, 5], rays[:, 1] - terms[:, 6]
    d = terms[:, 4]
    l1 = (terms[:, 0] * dx + terms[:, 1] * dy) / d
    l2 = (terms[:, 2] * dx + terms[:, 3] * dy) / d
    l3 = 1.0 - l1 - l2
    hit = np.flatnonzero((l1 >= 0) & (l2 >= 0) & (l3 > 0))
    above = np.zeros(len(rays), dtype=bool)
    l1, l2, l3, t = l1[hit], l2[hit], l3[hit], terms[hit]
    above[hit] = l1 * t[:, 7] + l2 * t[:, 8] + l3 * t[:, 9] > rays[hit, 2]
    return above
