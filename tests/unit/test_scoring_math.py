# SPDX-License-Identifier: LGPL-2.1-or-later
"""Pure figures: cross-check decisions, sampling, verdicts, rounding, fingerprints."""

import numpy as np
import pytest

from cadbench_wb import standard
from cadbench_wb.geometry import rigid, sampling
from cadbench_wb.metrics import crosscheck, verdicts
from cadbench_wb.results import fingerprint
from cadbench_wb.results.result import rounded

PARAMS = standard.CROSS_CHECK


def _exact(a, b, common):
    union = a + b - common
    return {
        "a": a,
        "b": b,
        "common": common,
        "union": union,
        "missing": a - common,
        "extra": b - common,
    }


def _sampled(iou, stderr=0.004):
    return {
        "iou": iou,
        "stderr": stderr,
        "interval95": [iou - 2 * stderr, iou + 2 * stderr],
        "points": 20000,
        "seed": 1,
    }


def test_exact_confirmed_by_an_independent_method_is_reported():
    exact = _exact(100.0, 100.0, 90.0)
    mesh = {"a": 100.0, "b": 100.0, "common": 90.0, "union": 110.0}
    decision = crosscheck.decide(exact, mesh, _sampled(90 / 110), PARAMS)
    assert decision["method"] == "exact" and decision["checked"]


def test_consistent_but_refuted_exact_falls_back_to_the_agreeing_witnesses():
    # The M8 bolt pair of issue 2: exact says 0.943 and is self-consistent, mesh 0.841,
    # sampling 0.848 +- 0.013.
    a, b = 1000.0, 1000.0
    common = 2 * a * 0.943 / 1.943
    mesh_common = 2 * a * 0.841 / 1.841
    mesh = {"a": a, "b": b, "common": mesh_common, "union": 2 * a - mesh_common}
    decision = crosscheck.decide(_exact(a, b, common), mesh, _sampled(0.848, 0.0043), PARAMS)
    assert decision["method"] == "mesh"
    assert decision["checked"] is True
    assert "refuted" in decision["reason"]
    assert crosscheck.figures_from(decision["volumes"])["iou"] == pytest.approx(0.841)


def test_no_two_methods_agreeing_is_not_checked():
    mesh = {"a": 100.0, "b": 100.0, "common": 50.0, "union": 150.0}
    decision = crosscheck.decide(_exact(100.0, 100.0, 90.0), mesh, _sampled(0.6), PARAMS)
    assert decision["checked"] is False and decision["method"] == "none"


def test_inconsistent_exact_booleans_are_never_reported():
    exact = _exact(100.0, 100.0, 90.0)
    exact["union"] = 120.0  # breaks inclusion-exclusion
    decision = crosscheck.decide(exact, None, _sampled(0.818), PARAMS)
    assert decision["method"] != "exact"


def test_exact_consistency_alone_follows_decides_rule():
    """exact_consistent (the shape stage's shortcut to Part's finer tessellation) says what
    decide's exactConsistent says, with no estimate: inclusion-exclusion off by 0.2 of a+b
    (union 150 for a = b = 100, common 90) is inconsistent, the constructed volumes are not,
    nor volumes with a boolean missing."""
    sampled = _sampled(0.8182)
    good, bad = _exact(100.0, 100.0, 90.0), dict(_exact(100.0, 100.0, 90.0), union=150.0)
    failed = dict(good, common=None)
    for volumes, expected in ((good, True), (bad, False), (failed, False)):
        assert crosscheck.exact_consistent(volumes, PARAMS) is expected
        if volumes["common"] is not None:
            decided = crosscheck.decide(volumes, None, sampled, PARAMS)
            assert decided["crossCheck"]["exactConsistent"] is expected


def test_ray_casting_classifies_a_cube():
    v = np.array(
        [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
        dtype=float,
    )
    t = np.array(
        [
            [0, 2, 1],
            [0, 3, 2],
            [4, 5, 6],
            [4, 6, 7],
            [0, 1, 5],
            [0, 5, 4],
            [1, 2, 6],
            [1, 6, 5],
            [2, 3, 7],
            [2, 7, 6],
            [3, 0, 4],
            [3, 4, 7],
        ]
    )
    rng = np.random.default_rng(3)
    points = rng.random((5000, 3)) * 2 - 0.5
    expected = np.all((points > 0) & (points < 1), axis=1)
    assert np.array_equal(sampling.inside_mesh(points, v, t), expected)


def test_wilson_interval_contains_the_proportion():
    low, high = sampling.wilson_interval(848, 1000)
    assert low < 0.848 < high and high - low < 0.05


def test_verdicts_three_answers_and_reachable():
    assert verdicts.verdict("shapeIoU", 0.95)["verdict"] == "PASS"
    assert verdicts.verdict("shapeIoU", 0.85)["verdict"] == "FAIL"
    unchecked = verdicts.verdict("shapeIoU", None, reason="methods disagree")
    assert unchecked["verdict"] == "NOT CHECKED"
    capped = verdicts.verdict("dimensionRecall", 13 / 16, ceiling=13 / 16)
    assert capped["verdict"] == "FAIL" and capped["reachable"] == "PASS"
    assert (
        verdicts.case_verdict({"a": {"verdict": "PASS"}, "b": {"verdict": "NOT CHECKED"}})
        == "NOT CHECKED"
    )
    assert (
        verdicts.case_verdict({"a": {"verdict": "FAIL"}, "b": {"verdict": "NOT CHECKED"}}) == "FAIL"
    )


def test_rounding_is_stable_and_drops_negative_zero():
    assert rounded(0.1 + 0.2) == rounded(0.3)
    assert str(rounded(-0.0)) == "0.0"
    assert rounded({"x": [1 / 3]}) == {"x": [0.3333333333]}


def test_fingerprint_is_stable_and_changes_with_the_standard(monkeypatch):
    first = fingerprint.metric_fingerprint()
    assert first == fingerprint.metric_fingerprint() and len(first) == 16
    monkeypatch.setitem(standard.THRESHOLDS, "shapeIoU", 0.85)
    assert fingerprint.metric_fingerprint() != first
    assert (
        fingerprint.metric_fingerprint({"spectrum": "extended"}) != fingerprint.metric_fingerprint()
    )


def test_proper_rotations_only():
    for flip in rigid.sign_flips():
        assert np.linalg.det(flip) == pytest.approx(1.0)
    assert len(rigid.sign_flips()) == 4
    assert rigid.is_proper_rotation(rigid.rotation_about([1, 2, 3], 0.7))


def test_json_never_prints_a_negative_zero():
    from cadbench_wb.results import result as results

    data = {"a": -0.0, "b": [0.0, -0.0, (-0.0, 1.5)], "c": {"d": -0.0}, "e": -2.0}
    text = results.to_json(data) + results.dumps(data)
    assert "-0.0" not in text and "-2.0" in text
