# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mesh vertices moved onto the fitted surfaces they lie between, before edges are built.

An STL stores float32 coordinates: a part delivered in any pose but its modelling frame
carries rounding of about 1e-7 of its size in every vertex (4e-6 mm on a 150 mm part). The
fits absorb that (their tolerance is three times larger), but edges drawn through such
vertices stray off the fitted plane they bound by as much, and OpenCASCADE builds a planar
face only from wires coplanar to 1e-7 mm ("Wires are not coplanar"). So every vertex on a
region boundary is moved to the nearest point lying on all its regions' surfaces at once
(the model's edge or corner it was sampled from), by Gauss-Newton steps on the surfaces'
signed distances; the minimum-norm step keeps a vertex between tangent surfaces (a fillet
and its face) where it is. No module here imports FreeCAD.
"""

import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.geometry import mesh_segments, surface_fitting

RECOGNITION = standard.FEATURES["recognition"]

# Gauss-Newton converges quadratically from a start within the fit tolerance; eight steps
# leave nothing but float rounding (not tuned: two already reach 1e-12 mm on a plane and a
# cylinder meeting square).
_STEPS = 8


def snapped_vertices(vertices: np.ndarray, triangles: np.ndarray, regions: list) -> np.ndarray:
    """A copy of vertices in which each vertex shared by two or more regions lies on every
    one of their distinct surfaces, where the nearest such point is found (converged, and
    closer than a tenth of the vertex's shortest mesh edge: a guard that keeps the facets
    as they were, not a tuned bound); other vertices are unchanged."""
    surfaces, surface_of_region = _distinct_surfaces(regions)
    regions_of = mesh_segments.triangle_labels(regions, len(triangles))
    labels = np.where(regions_of >= 0, np.array(surface_of_region + [-1])[regions_of], -1)
    pairs = np.unique(
        np.column_stack([triangles.ravel(), np.repeat(labels, 3)]), axis=0
    )  # (vertex, surface), sorted by vertex
    pairs = pairs[pairs[:, 1] >= 0]
    vertex_ids, starts, counts = np.unique(pairs[:, 0], return_index=True, return_counts=True)
    shared = counts >= 2
    reach = _shortest_edges(vertices, triangles) / 10
    found = vertices.copy()
    combos: dict = {}
    for vertex, start, count in zip(
        vertex_ids[shared], starts[shared], counts[shared], strict=True
    ):
        combos.setdefault(tuple(pairs[start : start + count, 1]), []).append(int(vertex))
    for combo in sorted(combos):
        chosen = np.array(combos[combo])
        moved, converged = _on_all(vertices[chosen], [surfaces[s] for s in combo])
        near = np.linalg.norm(moved - vertices[chosen], axis=1) < reach[chosen]
        keep = converged & near
        found[chosen[keep]] = moved[keep]
    return found


def _distinct_surfaces(regions: list) -> tuple[list, list]:
    """(the distinct surface objects, each region's index into them): the two halves of a
    region round its axis share one surface, and a vertex between them lies on one."""
    surfaces, index, of_region = [], {}, []
    for region in regions:
        key = id(region.surface)
        if key not in index:
            index[key] = len(surfaces)
            surfaces.append(region.surface)
        of_region.append(index[key])
    return surfaces, of_region


def _shortest_edges(vertices: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    shortest = np.full(len(vertices), np.inf)
    for a, b in ((0, 1), (1, 2), (2, 0)):
        lengths = np.linalg.norm(vertices[triangles[:, a]] - vertices[triangles[:, b]], axis=1)
        np.minimum.at(shortest, triangles[:, a], lengths)
        np.minimum.at(shortest, triangles[:, b], lengths)
    return shortest


def _on_all(points: np.ndarray, surfaces: list) -> tuple[np.ndarray, np.ndarray]:
    """(the points moved onto their surfaces, whether each converged): Gauss-Newton on the
    signed distances with the pseudo-inverse step (minimum norm: no slide along the edge).
    At each point only surfaces that cross the ones taken before are held (planes first):
    a surface tangent to another there (a slot's round end and its side) adds an
    ill-conditioned equation whose solution drifts along the face, and it lies on the point
    already to second order."""
    x = points.astype(float).copy()
    held = _crossing(x, surfaces)
    size = max(float(np.abs(points).max(initial=0.0)), 1.0)
    steps = 0
    while True:
        distances, normals = _equations(x, surfaces, held)
        # Converged: on every held surface to float rounding of the coordinates.
        converged = np.abs(distances).max(axis=1) <= 1e-12 * size
        if converged.all() or steps == _STEPS:
            return x, converged
        step = np.linalg.pinv(normals, rcond=1e-9) @ distances[:, :, None]  # (n, 3, 1)
        x -= step[:, :, 0]
        steps += 1


def _equations(x: np.ndarray, surfaces: list, held: np.ndarray) -> tuple:
    distances = np.stack([surface_fitting.signed_distances(s, x) for s in surfaces], axis=1)
    normals = np.stack([surface_fitting.normals_at(s, x) for s in surfaces], axis=1)
    return distances * held, normals * held[:, :, None]


def _crossing(points: np.ndarray, surfaces: list) -> np.ndarray:
    """(points, surfaces) mask of the surfaces held at each point: in order, planes first,
    each one whose normal keeps the held normals' smallest singular value above that of
    two faces meeting at the recognition's smooth_deg (the angle below which it calls
    faces tangent: sqrt(1 - cos) for two unit normals)."""
    order = sorted(range(len(surfaces)), key=lambda k: (surfaces[k].kind != "plane", k))
    normals = np.stack([surface_fitting.normals_at(s, points) for s in surfaces], axis=1)
    least = math.sqrt(1 - math.cos(math.radians(RECOGNITION["smooth_deg"])))
    held = np.zeros((len(points), len(surfaces)))
    rows = np.arange(len(points))
    for k in order:
        taken = held.sum(axis=1).astype(int)  # the trial's smallest nonzero value's index
        trial = held.copy()
        trial[:, k] = 1.0
        values = np.linalg.svd(normals * trial[:, :, None], compute_uv=False)
        # Three crossing surfaces fix a point: a fourth can only disagree with them.
        keep = (taken < 3) & (values[rows, np.minimum(taken, 2)] >= least)
        held[keep, k] = 1.0
    return held
