# SPDX-License-Identifier: LGPL-2.1-or-later
"""Rigid motions as plain numpy: proper rotations only (a mirror image is never a pose)."""

import itertools
import math

import numpy as np


def rotation_about(axis, angle_rad: float) -> np.ndarray:
    """Rotation matrix about a unit axis (Rodrigues)."""
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    x, y, z = axis
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + math.sin(angle_rad) * k + (1 - math.cos(angle_rad)) * (k @ k)


def small_rotation(rx: float, ry: float, rz: float) -> np.ndarray:
    """Rotation by the vector (rx, ry, rz) in radians (axis-angle)."""
    vec = np.array([rx, ry, rz], dtype=float)
    angle = float(np.linalg.norm(vec))
    return np.eye(3) if angle == 0 else rotation_about(vec / angle, angle)


def angle_between(r1: np.ndarray, r2: np.ndarray) -> float:
    """Geodesic distance of two rotations, in degrees."""
    cos = (np.trace(r1.T @ r2) - 1) / 2
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def is_proper_rotation(r: np.ndarray, tol: float = 1e-6) -> bool:
    return bool(np.allclose(r.T @ r, np.eye(3), atol=tol) and abs(np.linalg.det(r) - 1) < tol)


def principal_frame(inertia: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues (ascending) and eigenvectors (columns) of a symmetric inertia tensor,
    with the frame made right-handed."""
    values, vectors = np.linalg.eigh(np.asarray(inertia, dtype=float))
    if np.linalg.det(vectors) < 0:
        vectors[:, 2] *= -1
    return values, vectors


def sign_flips() -> list[np.ndarray]:
    """The four diagonal sign matrices with determinant +1."""
    flips = []
    for signs in itertools.product((1, -1), repeat=3):
        if signs[0] * signs[1] * signs[2] == 1:
            flips.append(np.diag(signs).astype(float))
    return flips


def degeneracy(values: np.ndarray, gap: float) -> str:
    """'distinct', 'axial' (two equal moments; index of the unique one encoded) or 'full'."""
    scale = max(abs(values).max(), 1e-30)
    equal01 = abs(values[1] - values[0]) <= gap * scale
    equal12 = abs(values[2] - values[1]) <= gap * scale
    if equal01 and equal12:
        return "full"
    if equal01:
        return "axial2"  # the unique axis is column 2
    if equal12:
        return "axial0"  # the unique axis is column 0
    return "distinct"


def frame_from_directions(first, second) -> np.ndarray | None:
    """Right-handed orthonormal frame with x along first and y in the first-second plane."""
    x = np.asarray(first, dtype=float)
    x = x / np.linalg.norm(x)
    y = np.asarray(second, dtype=float) - np.dot(second, x) * x
    norm = np.linalg.norm(y)
    if norm < 1e-6:
        return None
    y = y / norm
    return np.column_stack([x, y, np.cross(x, y)])


def transform_matrix(rotation: np.ndarray, translation: np.ndarray) -> np.ndarray:
    """3x4 matrix [R | t]."""
    return np.column_stack([rotation, translation])


def axis_rotations() -> list[np.ndarray]:
    """The 24 proper rotations that map the coordinate axes onto themselves (signed
    permutation matrices of determinant +1), identity first."""
    result = []
    for order in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            matrix = np.zeros((3, 3))
            for row, column in enumerate(order):
                matrix[row, column] = signs[row]
            if np.linalg.det(matrix) > 0:
                result.append(matrix)
    return result


def kabsch(source: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The proper rigid motion (R, t) minimising sum |R source + t - target|^2."""
    centre_s, centre_t = source.mean(axis=0), target.mean(axis=0)
    u, _, vt = np.linalg.svd((source - centre_s).T @ (target - centre_t))
    fix = np.diag([1.0, 1.0, np.sign(np.linalg.det(vt.T @ u.T)) or 1.0])
    rotation = vt.T @ fix @ u.T
    return rotation, centre_t - rotation @ centre_s
