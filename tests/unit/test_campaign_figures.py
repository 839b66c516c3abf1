# SPDX-License-Identifier: LGPL-2.1-or-later
"""How campaign figures are read (seeds 000 and 004), from results built by the real verdict
and result functions."""

import pytest

from cadbench_wb.campaign import figures
from cadbench_wb.campaign.layout import Submission
from cadbench_wb.case_model.cases import Case
from cadbench_wb.metrics import verdicts
from cadbench_wb.results import result as results

CASE = Case(id="c1", title="one", path="/cases/c1", reference="r.step", group="g1")
ANCHOR = Case(id="c2", title="two", path="/cases/c2", reference="r.step", anchoring=True)


def scored(values: dict, ceilings: dict | None = None) -> dict:
    """A delivered result with the given metric values (None: NOT CHECKED)."""
    result = {"delivered": True, "failure": None, "verdicts": {}, "metricFingerprint": "f" * 16}
    for metric, value in values.items():
        result[metric] = value
        ceiling = (ceilings or {}).get(metric)
        result["verdicts"][metric] = verdicts.verdict(metric, value, ceiling=ceiling)
    return results.finish(result)


def missing(metrics=("shapeIoU",)) -> dict:
    failed = results.failure_result("r.step", "c.step", {}, "missing_candidate", "none", metrics)
    return results.finish(failed)


def row(result, run="r1", case=CASE, system="s", unchecked=None):
    return figures.row_of(Submission(system, run, case.id, "/x/c.step"), case, result, unchecked)


def test_not_checked_leaves_the_denominator():
    rows = [
        row(scored({"shapeIoU": 0.95})),
        row(scored({"shapeIoU": 0.50}), run="r2"),
        row(scored({"shapeIoU": None}), run="r3"),  # nobody could evaluate it
        row(None, run="r4", unchecked={"reason": "worker_lost", "detail": "killed"}),
    ]
    figure = figures.block(rows, ["shapeIoU"])
    assert figure["passedReachable"] == {"count": 1, "of": 2, "rate": 0.5, "notChecked": 2}
    assert figure["notScored"] == 1
    assert figure["delivery"] == {"count": 3, "of": 3, "rate": 1.0}
    assert figure["metricVerdicts"]["shapeIoU"] == {
        "pass": 1, "fail": 1, "notChecked": 2, "notApplicable": 0, "passReachable": 1,
    }  # fmt: skip


def test_reachable_passes_at_the_case_ceiling_formal_does_not():
    result = scored({"dimensionRecall": 0.8125}, ceilings={"dimensionRecall": 0.8125})
    figure = figures.block([row(result)], ["dimensionRecall"])
    assert figure["passedReachable"]["count"] == 1
    assert figure["passedFormal"]["count"] == 0 and figure["passedFormal"]["of"] == 1


def test_means_are_over_delivered_candidates_beside_the_delivery_rate():
    rows = [row(scored({"shapeIoU": 0.8})), row(scored({"shapeIoU": 1.0}), run="r2")]
    rows.append(row(missing(), run="r3"))
    figure = figures.block(rows, ["shapeIoU"])
    assert figure["means"]["shapeIoU"] == {"mean": pytest.approx(0.9), "n": 2}
    assert figure["delivery"]["count"] == 2 and figure["delivery"]["of"] == 3
    assert figure["passedReachable"]["of"] == 3  # a missing delivery is a failed case
    assert figure["failures"] == {"missing_candidate": 1}


def test_a_metric_that_does_not_apply_is_outside_means_and_verdicts():
    result = scored({"shapeIoU": 0.95})
    result["threadMatch"] = None
    result["verdicts"]["threadMatch"] = dict(
        verdicts.verdict("threadMatch", None, reason="no thread"), applicable=False
    )
    figure = figures.block([row(result)], ["shapeIoU", "threadMatch"])
    assert figure["metricVerdicts"]["threadMatch"]["notApplicable"] == 1
    assert figure["means"]["threadMatch"] == {"mean": None, "n": 0}
    assert figure["passedReachable"]["count"] == 1


def test_a_metric_added_to_the_scorer_appears_by_itself():
    result = scored({"shapeIoU": 0.95})
    result["edgeMatch"] = 0.5
    result["verdicts"]["edgeMatch"] = {"verdict": "FAIL", "reachable": "FAIL", "value": 0.5}
    rows = [row(result)]
    assert figures.rows_metrics(rows) == ["shapeIoU", "edgeMatch"]
    summary = figures.campaign_summary(rows)
    assert summary["s"]["means"]["edgeMatch"] == {"mean": 0.5, "n": 1}


def test_ranges_over_runs_and_anchoring_apart():
    rows = [row(scored({"shapeIoU": v}), run=f"r{i}") for i, v in enumerate((0.5, 0.95, 0.7))]
    rows += [row(scored({"shapeIoU": 0.99}), run=f"r{i}", case=ANCHOR) for i in range(3)]
    summary = figures.system_summary(rows, ["shapeIoU"])
    assert summary["cases"]["c1"]["ranges"]["shapeIoU"] == {
        "min": 0.5, "median": 0.7, "max": 0.95, "n": 3,
    }  # fmt: skip
    assert summary["independent"]["passedReachable"]["count"] == 1
    assert summary["anchoring"]["passedReachable"]["count"] == 3
    # Per run: r0 passes 1 of 2, r1 2 of 2, r2 1 of 2.
    assert summary["ranges"]["passedReachable"] == {"min": 0.5, "median": 0.5, "max": 1.0, "n": 3}
    assert summary["groups"]["g1"]["cases"] == 1
    assert summary["groups"]["(ungrouped)"]["passedReachable"]["count"] == 3


def test_text_summary_prints_the_headline_and_its_companions():
    rows = [row(scored({"shapeIoU": 0.95})), row(missing(), run="r2")]
    document = {
        "campaign": {"cases": 1, "groups": {"g1": 1}, "systems": {"s": ["r1", "r2"]}},
        "summary": figures.campaign_summary(rows),
        "metrics": ["shapeIoU"],
        "metricFingerprint": "f" * 16,
    }
    text = figures.text_summary(document)
    assert "passed (reachable)" in text and "passed (formal)" in text
    assert "1/2  50.0%" in text  # delivery rate beside the means
    assert "0.9500 (1)" in text  # mean over the one delivered candidate
    assert "Delivery failures: s: missing_candidate 1" in text


FIVE = {
    "shapeIoU": 0.95,
    "dimensionRecall": 0.9,
    "semanticMatch": 0.97,
    "threadMatch": 1.0,
    "drawingMatch": 0.5,
}


def campaign_document(rows) -> dict:
    return {
        "campaign": {"cases": 1, "groups": {"g1": 1}, "systems": {"a-long-system-name": ["r1"]}},
        "metricFingerprint": "f" * 16,
        "metrics": figures.rows_metrics(rows),
        "summary": figures.campaign_summary(rows),
        "scorings": rows,
    }


def test_no_summary_line_is_wider_than_a_terminal_and_no_cell_is_lost():
    rows = [row(scored(FIVE), system="a-long-system-name", run=f"r{i}") for i in range(3)]
    text = figures.text_summary(campaign_document(rows))
    assert max(len(line) for line in text.splitlines()) <= figures.TABLE_WIDTH
    for metric in FIVE:  # every column still printed, in a later block if need be
        assert f"{metric} mean (n)" in text


def test_a_table_just_within_the_width_stays_one_block_one_more_column_splits_it():
    header = ["label"] + [f"c{i}" for i in range(5)]
    cells = [["x" * 10] + ["y" * 10] * 5]
    # 10 + 5 * (2 + 10) = 70 columns: within 70, one block (header plus one row).
    assert len(figures.table(header, cells, width=70)) == 2
    # At 69 the last column moves to a second block led by the label column again.
    split = figures.table(header, cells, width=69)
    assert len(split) == 5 and split[3].startswith("label") and split[4].startswith("x" * 10)


def test_closing_line_counts_reachable_verdicts_like_pytest():
    rows = [
        row(scored({"shapeIoU": 0.95})),
        row(scored({"shapeIoU": 0.5}), run="r2"),
        row(None, run="r3", unchecked={"reason": "worker_lost", "detail": "killed"}),
    ]
    document = campaign_document(rows)
    assert (
        figures.closing_line(document, 12.34) == "== 1 passed, 1 failed, 1 not checked in 12.3s =="
    )


def test_fail_under_boundary_is_inclusive():
    rows = [row(scored({"shapeIoU": 0.95})), row(scored({"shapeIoU": 0.5}), run="r2")]
    document = campaign_document(rows)  # 1 of 2 passed: rate 0.5
    assert figures.systems_below(document, 0.5) == {}
    assert figures.systems_below(document, 0.51) == {"s": 0.5}
