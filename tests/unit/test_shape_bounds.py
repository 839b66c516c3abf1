# SPDX-License-Identifier: LGPL-2.1-or-later
"""No figure outside [0, 1]: a step past a bound within the method's noise is the bound,
one further out is not checked; a NOT CHECKED reason names each method's outcome."""

from cadbench_wb import standard
from cadbench_wb.metrics import crosscheck

PARAMS = standard.CROSS_CHECK
SAMPLED = {"iou": 0.5, "stderr": 0.004, "interval95": [0.49, 0.51], "points": 20000, "seed": 1}


def _exact_decision(common, union):
    volumes = {"a": 1.0, "b": 1.0, "common": common, "union": union, "missing": 0, "extra": 0}
    decision = {"checked": True, "method": "exact", "crossCheck": {"meshTolerance": 0.003}}
    return volumes, decision


def test_a_figure_past_one_by_less_than_the_noise_is_one():
    noise = PARAMS["inclusion_exclusion_rel"]
    figures = {"iou": 1 + noise / 2, "dice": 1.0, "precision": 1.0, "recall": 1.0}
    _, decision = _exact_decision(1, 1)
    assert crosscheck.bounded(figures, decision, PARAMS)["checked"] is True
    assert figures["iou"] == 1.0


def test_a_figure_past_one_by_more_than_the_noise_is_not_checked():
    noise = PARAMS["inclusion_exclusion_rel"]
    figures = {"iou": 1 + 2 * noise, "dice": 1.0, "precision": 1.0, "recall": 1.0}
    _, decision = _exact_decision(1, 1)
    bounded = crosscheck.bounded(figures, decision, PARAMS)
    assert bounded["checked"] is False
    assert "outside [0, 1]" in bounded["reason"]


def test_not_checked_names_what_each_method_gave():
    volumes = {"a": 1.0, "b": 1.0, "common": 0.9, "union": 1.1, "missing": 0.1, "extra": 0.1}
    failure = "tessellation of the candidate refused as non-manifold, also repaired and finer"
    decision = crosscheck.decide(volumes, None, SAMPLED, PARAMS, None, failure)
    assert decision["checked"] is False
    assert "exact booleans 0.8182, refuted" in decision["reason"]
    assert failure in decision["reason"]
    assert "point sampling 0.5000" in decision["reason"]
