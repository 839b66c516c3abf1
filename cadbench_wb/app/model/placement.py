# SPDX-License-Identifier: LGPL-2.1-or-later
"""A shape moved rigidly: what scoring does to the aligned candidate and the drawing child
to the same file, with the same function, so the two get the same shape bit for bit.

A module of its own, importing neither the mesh modules nor the metrics: the drawing child
(app/drawing/ahead.py) imports what it draws with, and scipy, which the mesh modules bring
in, cost it 0.2-0.35 s of CPU per scoring for nothing.
"""

import sys

import FreeCAD
import numpy as np


def placed(shape, rotation: np.ndarray, translation: np.ndarray):
    """A copy of shape moved by x -> R x + t (a triangle mesh: its vertices moved). R is
    made exactly orthonormal first: OCC refuses to move a B-rep by a matrix whose scale
    differs from 1 by more than ~1e-14 ("Moving with scaling transformation is
    forbidden"), and a rotation read back from JSON carries its printed digits only."""
    rotation = proper_rotation(rotation)
    if _is_triangles(shape):
        return shape.moved(rotation, translation)

    moved = shape.copy()
    moved.transformShape(matrix_of(rotation, translation))
    return moved


def matrix_of(rotation, translation):
    """FreeCAD's matrix of x -> R x + t with R as given (placed() and the workbench pass
    proper_rotation's: a second SVD of an orthonormal R would move its last digits, and
    the aligned candidate with them)."""
    r, t = np.asarray(rotation, dtype=float), [float(v) for v in translation]
    return FreeCAD.Matrix(
        r[0, 0], r[0, 1], r[0, 2], t[0],
        r[1, 0], r[1, 1], r[1, 2], t[1],
        r[2, 0], r[2, 1], r[2, 2], t[2],
        0, 0, 0, 1,
    )  # fmt: skip


def proper_rotation(rotation) -> np.ndarray:
    """The rotation nearest to a 3x3 matrix (its polar factor, by SVD), exactly orthonormal
    to rounding: a rotation written to ten digits has R^T R - I of 1e-10."""
    u, _, vt = np.linalg.svd(np.asarray(rotation, dtype=float).reshape(3, 3))
    return u @ np.diag([1.0, 1.0, np.sign(np.linalg.det(u @ vt)) or 1.0]) @ vt


def _is_triangles(shape) -> bool:
    """Whether shape is a mesh_solid.TriangleSolid: there is none while that module has not
    been imported (so it is not imported to ask)."""
    module = sys.modules.get("cadbench_wb.app.model.mesh_solid")
    return module is not None and module.is_triangles(shape)
