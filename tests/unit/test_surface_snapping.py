# SPDX-License-Identifier: LGPL-2.1-or-later
"""Boundary vertices moved onto the fitted surfaces they lie between
(geometry/surface_snapping.py): the expected points are the constructions' own (a circle
where a plane cuts a cylinder, the line two planes share), and the one threshold it reads,
recognition's smooth_deg, at its boundary."""

import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.geometry import surface_snapping
from cadbench_wb.geometry.surface_fitting import Surface

SMOOTH_DEG = standard.FEATURES["recognition"]["smooth_deg"]
Z = np.array([0.0, 0.0, 1.0])


def _noisy(points, seed=0, size=4e-6):
    """Points off their construction by float32-sized rounding (4e-6 mm, seeded)."""
    return points + np.random.default_rng(seed).uniform(-size, size, points.shape)


def test_a_rim_vertex_lands_on_the_circle_a_plane_cuts_from_a_cylinder():
    angles = np.linspace(0.0, 2 * math.pi, 12, endpoint=False)
    circle = np.column_stack([5 * np.cos(angles), 5 * np.sin(angles), np.zeros_like(angles)])
    plane = Surface("plane", np.zeros(3), Z)
    cylinder = Surface("cylinder", np.zeros(3), Z, radius=5.0)
    moved, converged = surface_snapping._on_all(_noisy(circle), [plane, cylinder])
    assert converged.all()
    # On both surfaces: z = 0 and radius 5, to float rounding.
    assert np.abs(moved[:, 2]).max() < 1e-12
    assert np.abs(np.hypot(moved[:, 0], moved[:, 1]) - 5.0).max() < 1e-12
    # The nearest such point: the construction's own, within the noise that was added.
    assert np.abs(moved - circle).max() < 1e-5


def test_a_vertex_between_tangent_surfaces_is_held_to_the_plane_alone():
    """A slot's round end (radius 5 about z) tangent to its side (the plane y = 5): the
    cylinder adds no equation there, so the vertex moves square to the plane only."""
    line = np.column_stack([np.zeros(5), np.full(5, 5.0), np.linspace(0, 8, 5)])
    start = _noisy(line, seed=1)
    plane = Surface("plane", np.array([0.0, 5.0, 0.0]), np.array([0.0, 1.0, 0.0]))
    cylinder = Surface("cylinder", np.zeros(3), Z, radius=5.0)
    held = surface_snapping._crossing(start, [cylinder, plane])
    assert held.tolist() == [[0.0, 1.0]] * 5  # the plane first, the cylinder not held
    moved, converged = surface_snapping._on_all(start, [cylinder, plane])
    assert converged.all()
    assert np.abs(moved[:, 1] - 5.0).max() < 1e-12
    assert np.array_equal(moved[:, [0, 2]], start[:, [0, 2]])


def test_two_planes_are_both_held_from_smooth_deg():
    """Planes through the x axis at an angle just below and just above smooth_deg: below it
    they are tangent (one held), above it they cross (both held, the vertex on their line)."""
    line = np.column_stack([np.linspace(0, 10, 4), np.zeros(4), np.zeros(4)])
    held_counts = []
    for share in (0.9, 1.1):
        tilt = math.radians(share * SMOOTH_DEG)
        first = Surface("plane", np.zeros(3), Z)
        second = Surface("plane", np.zeros(3), np.array([0.0, -math.sin(tilt), math.cos(tilt)]))
        start = _noisy(line, seed=2, size=1e-7)
        held = surface_snapping._crossing(start, [first, second])
        held_counts.append(held.sum(axis=1).tolist())
        if share > 1:
            moved, converged = surface_snapping._on_all(start, [first, second])
            assert converged.all()
            assert np.abs(moved[:, 1:]).max() < 1e-12  # on the x axis, both planes' line
    assert held_counts == [[1.0] * 4, [2.0] * 4]
