# SPDX-License-Identifier: LGPL-2.1-or-later
"""Triangles split until no edge is longer than a bound (pure numpy).

A deflection tessellation meets the surface only at its vertices, and a cylinder wall gets
vertices on its two rims alone; anything that samples a surface at mesh vertices (the
deviation colours, FreeCAD's Inspection) needs vertices inside the faces too. Each round
splits every triangle with an edge over the bound into four at its edge midpoints; the
others are kept as they are (the T-junctions that leaves do not matter to point sampling).
"""

import numpy as np


def subdivided(corners: np.ndarray, max_edge: float, max_triangles: int = 200_000) -> np.ndarray:
    """corners (m, 3, 3): triangles by their corner points. Returns the split triangles,
    stopping early rather than exceeding max_triangles."""
    triangles = np.asarray(corners, dtype=np.float64).reshape(-1, 3, 3)
    while len(triangles):
        edges = np.linalg.norm(triangles - np.roll(triangles, -1, axis=1), axis=2)
        long = edges.max(axis=1) > max_edge
        if not long.any() or len(triangles) + 3 * int(long.sum()) > max_triangles:
            break
        a, b, c = (triangles[long, k] for k in range(3))
        ab, bc, ca = (a + b) / 2, (b + c) / 2, (c + a) / 2
        split = np.stack(
            [
                np.stack([a, ab, ca], axis=1),
                np.stack([ab, b, bc], axis=1),
                np.stack([ca, bc, c], axis=1),
                np.stack([ab, bc, ca], axis=1),
            ]
        ).reshape(-1, 3, 3)
        triangles = np.concatenate([triangles[~long], split])
    return triangles
