# SPDX-License-Identifier: LGPL-2.1-or-later
"""semanticMatch and threadMatch rules on hand-made feature records (no FreeCAD)."""

import pytest

from cadbench_wb import standard
from cadbench_wb.metrics import feature_matching as fm
from cadbench_wb.metrics import thread_matching as tm

SETTINGS = fm.settings_for(standard.FEATURES, 0.05, 0.005, 0.25, 100.0)


def hole(x, y, diameter=10.0, kind="through", depth=20.0):
    return {
        "type": "hole",
        "kind": kind,
        "attributes": {"head": "plain", "bottom": "none" if kind == "through" else "flat"},
        "params": {"diameter": diameter, "depth": depth},
        "location": [x, y, 10.0],
        "axis": [0.0, 0.0, 1.0],
    }


def chamfer(x):
    return {
        "type": "chamfer",
        "kind": "straight",
        "attributes": {},
        "params": {"distance1": 1.0, "distance2": 1.0},
        "location": [x, 0.5, 19.5],
        "axis": [1.0, 0.0, 0.0],
    }


FIVE = [hole(10, 10), hole(30, 10), hole(50, 10), hole(70, 10), hole(90, 10)]


def test_identical_lists_score_one():
    result = fm.match_features(FIVE, [dict(h) for h in FIVE], SETTINGS)
    assert result["value"] == 1.0
    assert result["missing"] == [] and result["extra"] == []


def test_missing_hole_loses_exactly_that_hole():
    candidate = FIVE[:2] + FIVE[3:]
    result = fm.match_features(FIVE, candidate, SETTINGS)
    assert result["value"] == pytest.approx(4 / 5)
    assert result["missing"] == [2]
    assert result["extra"] == []
    assert all(p["credit"] == 1.0 for p in result["matched"])


def test_extra_feature_counts_in_the_denominator():
    result = fm.match_features(FIVE, FIVE + [hole(50, 40)], SETTINGS)
    assert result["value"] == pytest.approx(5 / 6)
    assert result["extra"] == [5]


def test_wrong_diameter_earns_partial_credit():
    candidate = FIVE[:4] + [hole(90, 10, diameter=12.0)]
    result = fm.match_features(FIVE, candidate, SETTINGS)
    assert result["value"] == pytest.approx((4 + standard.FEATURES["partial_credit"]) / 5)
    pair = next(p for p in result["matched"] if p["reference"] == 4)
    assert pair["credit"] == standard.FEATURES["partial_credit"]
    assert "diameter" in pair["differences"][0]


def test_blind_for_through_is_a_partial_match():
    result = fm.match_features([hole(10, 10)], [hole(10, 10, kind="blind")], SETTINGS)
    assert result["value"] == standard.FEATURES["partial_credit"]


def test_types_never_pair_and_far_features_never_pair():
    assert fm.match_features([hole(10, 10)], [chamfer(10)], SETTINGS)["value"] == 0.0
    far = hole(10 + SETTINGS["gate"] * 1.5, 10)
    result = fm.match_features([hole(10, 10)], [far], SETTINGS)
    assert result["value"] == 0.0 and result["missing"] == [0] and result["extra"] == [0]


def test_tolerances_are_seed_001s():
    inside = hole(10, 10, diameter=10.0 + 0.049)
    outside = hole(10, 10, diameter=10.0 + 0.051)
    assert fm.match_features([hole(10, 10)], [inside], SETTINGS)["value"] == 1.0
    assert fm.match_features([hole(10, 10)], [outside], SETTINGS)["value"] < 1.0


def test_assignment_is_optimal_not_greedy():
    # The first target's nearest candidate is the only one the second target can take;
    # a greedy nearest-first pairing would leave one unmatched.
    gate = SETTINGS["gate"]
    target = [hole(0, 0), hole(0.9 * gate, 0)]
    candidate = [hole(0.45 * gate, 0), hole(-0.5 * gate, 0)]
    result = fm.match_features(target, candidate, SETTINGS)
    assert len(result["matched"]) == 2
    assert result["missing"] == [] and result["extra"] == []


def test_no_features_on_either_side_is_a_full_match():
    assert fm.match_features([], [], SETTINGS)["value"] == 1.0
    assert fm.match_features([], [hole(0, 0)], SETTINGS)["value"] == 0.0


def test_expected_entries_expand_counts_and_compare_only_given_fields():
    entries = [
        {"type": "hole", "kind": "through", "diameter": 10, "count": 2},
        {"type": "chamfer", "distance1": 1.0},
    ]
    recognised = [hole(10, 10), hole(30, 10), chamfer(30)]
    assert fm.check_expected(entries, recognised, SETTINGS)["ok"]
    short = fm.check_expected(entries, recognised[:1] + recognised[2:], SETTINGS)
    assert not short["ok"] and len(short["missing"]) == 1 and short["unexpected"] == []
    more = fm.check_expected(entries, recognised + [hole(50, 10, diameter=6)], SETTINGS)
    assert not more["ok"] and more["unexpected"] == [3]


# --- threadMatch ---------------------------------------------------------------------------

THREAD = {
    "kind": "external",
    "modeled": True,
    "major_diameter": 8.0,
    "pitch": 1.25,
    "hand": "right",
    "axis": [0.0, 0.0, 1.0],
    "start": [0.0, 0.0, 0.0],
    "end": [0.0, 0.0, 22.0],
    "designation": "M8",
}
VOLUMES = {0: (150.0, 150.0)}


def thread(**changes):
    return dict(THREAD, **changes)


def test_same_thread_matches():
    result = tm.match_threads([THREAD], [thread()], standard.THREADS, "reject", VOLUMES)
    assert result["value"] == 1.0 and result["failures"] == []


@pytest.mark.parametrize(
    ("changes", "check"),
    [
        ({"pitch": 1.0}, "pitch"),
        ({"hand": "left"}, "hand"),
        ({"major_diameter": 10.0}, "major"),
        ({"start": [0.5, 0.0, 0.0], "end": [0.5, 0.0, 22.0]}, "axis"),
        ({"start": [0.0, 0.0, 3.0], "end": [0.0, 0.0, 25.0]}, "ends"),
    ],
)
def test_any_difference_fails_the_thread(changes, check):
    result = tm.match_threads([THREAD], [thread(**changes)], standard.THREADS, "reject", VOLUMES)
    assert result["value"] == 0.0
    assert not result["pairs"][0]["checks"][check]["ok"]


def test_volume_outside_tolerance_fails():
    rel = standard.THREADS["volume_rel"]
    near = {0: (150.0, 150.0 * (1 + 0.9 * rel))}
    far = {0: (150.0, 150.0 * (1 + 1.1 * rel))}
    assert tm.match_threads([THREAD], [thread()], standard.THREADS, "reject", near)["value"] == 1
    assert tm.match_threads([THREAD], [thread()], standard.THREADS, "reject", far)["value"] == 0


def test_an_unmeasured_zone_volume_fails_as_not_measurable():
    result = tm.match_threads([THREAD], [thread()], standard.THREADS, "reject", {0: (150.0, None)})
    assert result["value"] == 0.0
    assert result["failures"] == ["thread 1 (M8): thread volume not measurable"]


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_coaxial_threads_pair_by_their_ends(order):
    """A stud threaded at both ends (z 0 to 22 and 30 to 52): each reference thread takes
    the candidate's on its own end, in whatever order the candidate lists them and though
    the far one lies nearer the axis by rounding noise (0.0001 mm against 0.0003)."""
    low = thread(start=[0.0003, 0.0, 0.0], end=[0.0003, 0.0, 22.0])
    high = thread(start=[0.0001, 0.0, 30.0], end=[0.0001, 0.0, 52.0])
    reference = [THREAD, thread(start=[0.0, 0.0, 30.0], end=[0.0, 0.0, 52.0])]
    candidate = [(low, high)[i] for i in order]
    volumes = {0: (150.0, 150.0), 1: (150.0, 150.0)}
    result = tm.match_threads(reference, candidate, standard.THREADS, "reject", volumes)
    assert result["value"] == 1.0, result["failures"]
    assert [p["candidate"] for p in result["pairs"]] == [order.index(0), order.index(1)]


def test_cosmetic_thread_counts_only_where_the_case_accepts_it():
    cosmetic = thread(modeled=False)
    rejected = tm.match_threads([THREAD], [cosmetic], standard.THREADS, "reject", VOLUMES)
    accepted = tm.match_threads([THREAD], [cosmetic], standard.THREADS, "accept", VOLUMES)
    assert rejected["value"] == 0.0 and "cosmetic" in rejected["failures"][0]
    assert accepted["value"] == 1.0


def test_missing_or_other_kind_of_thread_fails():
    assert tm.match_threads([THREAD], [], standard.THREADS)["value"] == 0.0
    internal = thread(kind="internal")
    assert tm.match_threads([THREAD], [internal], standard.THREADS)["value"] == 0.0
