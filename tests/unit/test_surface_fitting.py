# SPDX-License-Identifier: LGPL-2.1-or-later
"""Analytic surfaces fitted to points (geometry/surface_fitting.py): each constructed
surface comes back with its own parameters, the simplest kind wins, and the residual
tolerance holds at its boundary."""

import math

import numpy as np
import pytest

from cadbench_wb import standard
from cadbench_wb.geometry import surface_fitting

TOLERANCE = 1e-5  # mm: what standard.MESH_FEATURES fit_rel gives a part of about 30 mm


def _frame(axis):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    first, second = surface_fitting._frame(axis)
    return axis, first, second


ORIGIN = (4.0, -2.0, 7.0)


def _revolved(meridian, axis=(0.2, -0.3, 1.0), origin=ORIGIN, turns=24):
    """Points and unit normals of the surface swept by meridian (a list of (t, r, nt, nr):
    position along the axis, distance from it, and the meridian normal's components)."""
    axis, first, second = _frame(axis)
    points, normals = [], []
    for k in range(turns):
        angle = 2 * math.pi * k / turns
        radial = math.cos(angle) * first + math.sin(angle) * second
        for t, r, nt, nr in meridian:
            points.append(np.asarray(origin) + t * axis + r * radial)
            normals.append(nt * axis + nr * radial)
    return np.array(points), np.array(normals), axis


def test_a_cylinder_comes_back_with_its_radius_and_axis():
    points, normals, axis = _revolved([(t, 7.5, 0.0, 1.0) for t in (-5, 0, 5)])
    found = surface_fitting.best_fit(points, normals, TOLERANCE)
    assert found.kind == "cylinder"
    assert found.radius == pytest.approx(7.5, abs=1e-9)
    assert abs(float(found.axis @ axis)) == pytest.approx(1.0, abs=1e-12)


def test_a_cone_comes_back_with_its_half_angle():
    semi = math.radians(30)
    meridian = [(t, 3 + t * math.tan(semi), -math.sin(semi), math.cos(semi)) for t in (0, 2, 4)]
    points, normals, _ = _revolved(meridian)
    found = surface_fitting.best_fit(points, normals, TOLERANCE)
    assert found.kind == "cone"
    assert abs(math.degrees(found.semi_angle)) == pytest.approx(30.0, abs=1e-7)


def test_a_torus_comes_back_with_both_radii():
    angles = np.linspace(0.0, math.pi / 2, 5)
    meridian = [(3 * math.sin(a), 20 + 3 * math.cos(a), math.sin(a), math.cos(a)) for a in angles]
    points, normals, _ = _revolved(meridian)
    found = surface_fitting.best_fit(points, normals, TOLERANCE)
    assert found.kind == "torus"
    assert (found.radius, found.minor) == pytest.approx((20.0, 3.0), abs=1e-8)


def test_a_band_on_two_rims_is_a_cylinder_not_the_sphere_through_them():
    # Vertices on two circles only (a short counterbore's facets) lie on a sphere and a
    # torus as well: the simplest kind is the answer.
    points, normals, _ = _revolved([(0.0, 9.0, 0.0, 1.0), (2.0, 9.0, 0.0, 1.0)], turns=12)
    found = surface_fitting.best_fit(points, normals, TOLERANCE)
    assert found.kind == "cylinder" and found.radius == pytest.approx(9.0, abs=1e-9)


@pytest.mark.parametrize("share, fits", [(0.5, True), (2.0, False)])
def test_the_fit_tolerance_holds_at_its_boundary(share, fits):
    """One vertex off the cylinder by half the tolerance still fits; by twice, nothing does
    (a closer-fitting kind would have to bend round one point of 120)."""
    points, normals, axis = _revolved([(t, 7.5, 0.0, 1.0) for t in (-5, -2, 2, 5)], turns=30)
    radial = points[7] - points[7] @ axis * axis
    radial -= np.asarray((4.0, -2.0, 7.0)) - np.asarray((4.0, -2.0, 7.0)) @ axis * axis
    points[7] += share * TOLERANCE * radial / np.linalg.norm(radial)
    found = surface_fitting.best_fit(points, normals, TOLERANCE)
    assert (found is not None and found.kind == "cylinder") == fits


def test_the_standard_fit_tolerance_is_above_float32_rounding_and_below_any_facet():
    # Half an ulp of a float32 coordinate is 2**-24 of it; a facet's sagitta is at least
    # 1e-4 of the diagonal in any exporter (see standard.MESH_FEATURES).
    fit_rel = standard.MESH_FEATURES["fit_rel"]
    assert 2**-24 * 3 < fit_rel < 1e-4 / 100
