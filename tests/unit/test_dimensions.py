# SPDX-License-Identifier: LGPL-2.1-or-later
"""Matching, recall, coverage and randomHitRate on hand-made spectra (no FreeCAD)."""

import math

import numpy as np
import pytest

from cadbench_wb import standard
from cadbench_wb.case_model.cases import Dimension
from cadbench_wb.geometry import spectrum_geometry as geo
from cadbench_wb.metrics import dimension_matching as dims


def spectrum(mode="default", **families):
    """A spectrum with one block per family; geometry Face<i> in order of the values."""
    blocks = []
    for family, values in families.items():
        values = np.asarray(values, float)
        indices = np.arange(len(values)).reshape(-1, 1)
        blocks.append(dims.Block(family, f"test_{family}", values, ("Face",), indices))
    return dims.Spectrum(blocks, mode)


def test_matching_is_family_aware():
    s = spectrum(length=[10.0, 25.0], diameter=[8.0])
    assert dims.match(Dimension("t", "length", 10.0), s).value == 10.0
    assert dims.match(Dimension("d", "diameter", 10.0), s) is None  # a thickness is no Ø
    assert dims.match(Dimension("r", "radius", 4.0), s) is None  # Ø8 is not listed as R4
    assert dims.match(Dimension("d8", "diameter", 8.0), s).family == "diameter"


def test_tolerance_edges_follow_seed_001():
    # 0.5 % of 40 = 0.2 beats 0.05: 40.2 is in, 40.21 is out.
    assert dims.match(Dimension("a", "length", 40.0), spectrum(length=[40.2])) is not None
    assert dims.match(Dimension("a", "length", 40.0), spectrum(length=[40.21])) is None
    # Small values: the 0.05 floor.
    assert dims.match(Dimension("b", "length", 2.0), spectrum(length=[2.05])) is not None
    assert dims.match(Dimension("b", "length", 2.0), spectrum(length=[2.06])) is None
    # Angles: 0.25 degrees.
    slope = math.degrees(math.atan(0.5))
    assert dims.match(Dimension("c", "angle", 26.565), spectrum(angle=[slope])) is not None
    assert dims.match(Dimension("c", "angle", 26.565), spectrum(angle=[26.9])) is None
    # An explicit tol wins.
    assert dims.match(Dimension("e", "length", 40.0, tol=1.0), spectrum(length=[40.9]))


def test_the_closest_measurement_and_its_geometry_are_reported():
    s = spectrum(length=[39.9, 40.05, 40.1, 80.0])
    found = dims.match(Dimension("a", "length", 40.0), s)
    assert found.value == pytest.approx(40.05)
    assert found.geometry == ("Face2",)
    assert found.source == "test_length"


def test_recall_and_coverage_count_per_dimension():
    targets = [
        Dimension("a", "length", 10.0),
        Dimension("b", "diameter", 6.0),
        Dimension("c", "length", 45.0, spectrum="extended"),
    ]
    reference = spectrum(length=[10.0], diameter=[6.0])
    candidate = spectrum(length=[10.0], diameter=[6.5])
    outcomes = dims.outcomes(targets, candidate, reference)
    assert [o.status for o in outcomes] == ["found", "not_found", "not_measurable_on_reference"]
    assert dims.recall(outcomes) == pytest.approx(1 / 3)
    assert dims.coverage(outcomes) == pytest.approx(2 / 3)
    entry = outcomes[0].as_dict()
    assert entry["candidateGeometry"] == ["Face1"] and entry["referenceGeometry"] == ["Face1"]
    assert entry["status"] == "found" and entry["found"] == 10.0 and entry["deviation"] == 0.0
    assert outcomes[1].as_dict()["found"] is None
    assert dims.recall([]) is None and dims.coverage([]) is None


def test_hit_interval_is_exact_at_both_ends():
    for v in (1.0, 9.0, 10.0, 150.0):
        low, high = dims.linear_hit_intervals(np.array([v]))[0]
        for x in (low, high):
            tol = max(standard.LINEAR_TOLERANCE_ABS_MM, standard.LINEAR_TOLERANCE_REL * x)
            assert abs(abs(x - v) - tol) < 1e-9


def test_covered_share_merges_overlaps_and_clips():
    intervals = np.array([[1.0, 3.0], [2.0, 4.0], [6.0, 7.0], [9.5, 12.0]])
    assert dims.covered_share(intervals, 0.0, 10.0) == pytest.approx((3 + 1 + 0.5) / 10)
    assert dims.covered_share(np.zeros((0, 2)), 0.0, 10.0) == 0.0
    assert dims.covered_share(intervals, 5.0, 5.0) == 0.0


def test_random_hit_rate_is_analytic():
    diagonal = 100.0
    s = spectrum(length=[100.0], angle=[90.0, 90.0])
    rate = dims.random_hit_rate(s, diagonal)
    r = standard.LINEAR_TOLERANCE_REL
    low, high = dims.random_ranges(diagonal)["length"]
    assert (low, high) == (0.5, 150.0)
    assert rate["length"] == pytest.approx((100 / (1 - r) - 100 / (1 + r)) / (high - low))
    assert rate["angle"] == pytest.approx(0.5 / 180)
    # Diameters and radii are lengths for chance: they widen the same union.
    wider = dims.random_hit_rate(spectrum(length=[100.0], diameter=[50.0]), diagonal)
    assert wider["length"] > rate["length"]
    assert dims.random_hit_rate(spectrum(), diagonal) == {"length": 0.0, "angle": 0.0}


def test_spectrum_order_is_deterministic():
    a = spectrum(length=[5.0, 1.0, 5.0, 3.0])
    assert list(a.values("length")) == [1.0, 3.0, 5.0, 5.0]
    assert a.measurement("length", 2).geometry == ("Face1",)  # the first of equal values
    assert a.counts() == {"length": 4, "diameter": 0, "radius": 0, "angle": 0}
    with pytest.raises(ValueError):
        dims.Spectrum([], "sideways")


def test_direction_groups_join_parallel_and_antiparallel_normals():
    normals = np.array(
        [
            [0, 0, 1],
            [0, 0, -1],
            [1e-9, 0, 1],
            [1, 0, 0],
            [math.sqrt(0.5), -math.sqrt(0.5) + 1e-12, 0],
            [-math.sqrt(0.5), math.sqrt(0.5), 0],
            [0, 0.001, 1],  # 0.057 deg off: a different direction
        ]
    )
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    labels, reps, signs = geo.direction_groups(normals)
    assert labels[0] == labels[1] == labels[2]
    assert labels[4] == labels[5] != labels[3]
    assert labels[6] != labels[0]
    assert len(reps) == 4
    assert list(signs[:3]) == [1.0, -1.0, 1.0]


def test_levels_merge_equal_offsets_and_keep_the_first_face():
    values, first = geo.levels(np.array([5.0, 0.0, 5.0 + 1e-9, 12.0]), np.array([7, 3, 2, 9]))
    assert list(values) == [0.0, 5.0 + 1e-9, 12.0]
    assert list(first) == [3, 2, 9]


def test_level_pairs_are_all_pairs_when_few_and_near_linear_when_many():
    i, j = geo.level_pairs(5)
    assert len(i) == 10 and np.all(i < j)
    many = 5000
    window = standard.SPECTRUM["neighbour_window"]
    i, j = geo.level_pairs(many)
    assert len(i) <= many * (window + 2)
    assert np.all(i < j)
    pairs = set(zip(i.tolist(), j.tolist(), strict=True))
    assert (0, many - 1) in pairs and (many - 2, many - 1) in pairs and (100, 100 + window) in pairs
    assert (100, 100 + window + 1) not in pairs


def test_point_pairs_use_nearest_neighbours_beyond_the_limit():
    grid = np.array([(x, y, 0.0) for x in range(30) for y in range(30)], float)
    i, j = geo.point_pairs(grid)
    k = standard.SPECTRUM["axis_neighbours"]
    assert len(i) <= len(grid) * k
    distances = np.linalg.norm(grid[i] - grid[j], axis=1)
    assert distances.min() == pytest.approx(1.0)
    few = grid[:5]
    i, j = geo.point_pairs(few)
    assert len(i) == 10


def test_a_missed_target_reports_the_candidates_nearest_value_of_its_family():
    candidate = spectrum(length=[10.0, 25.0], diameter=[8.0, 12.0, 30.0])
    reference = spectrum(diameter=[10.0])
    (outcome,) = dims.outcomes([Dimension("HOLE", "diameter", 10.0)], candidate, reference)
    entry = outcome.as_dict()
    assert entry["status"] == "not_found"
    # 8 and 12 are both 2 away: the lower (first in sorted order) is reported, determinism.
    assert entry["nearestValue"] == 8.0 and entry["nearestGeometry"] == ["Face1"]
    (hit,) = dims.outcomes([Dimension("L", "length", 25.0)], candidate, reference)
    assert "nearestValue" not in hit.as_dict()  # found: the found value says it all
    (none,) = dims.outcomes([Dimension("R", "radius", 3.0)], candidate, reference)
    assert "nearestValue" not in none.as_dict()  # no radius at all on the candidate
