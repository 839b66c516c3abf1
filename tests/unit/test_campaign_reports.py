# SPDX-License-Identifier: LGPL-2.1-or-later
"""Report files (CSV, JUnit XML, one-file HTML, results.json) and `compare`'s refusals."""

import copy
import csv
import io
import xml.etree.ElementTree as ElementTree

import pytest

from cadbench_wb import result as results
from cadbench_wb.campaign import comparison, figures, reports
from cadbench_wb.campaign.layout import Submission
from cadbench_wb.cases import Case
from cadbench_wb.metrics import verdicts

CASES = [
    Case(id="k1", title="one", path="/c/k1", reference="r.step", group="g"),
    Case(id="k2", title="two", path="/c/k2", reference="r.step", group="g", anchoring=True),
]


def scored(value):
    result = {"delivered": True, "failure": None, "metricFingerprint": "f" * 16}
    result["shapeIoU"] = value
    result["verdicts"] = {"shapeIoU": verdicts.verdict("shapeIoU", value)}
    return results.finish(result)


def document_of(values: dict) -> dict:
    """values: (system, run, case) -> IoU, 'missing' or 'lost'."""
    rows = []
    for (system, run, case_id), value in sorted(values.items()):
        case = next(c for c in CASES if c.id == case_id)
        submission = Submission(system, run, case_id, None if value == "missing" else "/s/x.step")
        if value == "lost":
            rows.append(
                figures.row_of(
                    submission, case, None, {"reason": "worker_lost", "detail": "killed"}
                )
            )
        elif value == "missing":
            failed = results.failure_result(
                "r", "c", {}, "missing_candidate", "no file", ("shapeIoU",)
            )
            rows.append(figures.row_of(submission, case, results.finish(failed)))
        else:
            rows.append(figures.row_of(submission, case, scored(value)))
    return {
        "schema": "cadbench.campaign/1",
        "metricFingerprint": "f" * 16,
        "drawingFingerprint": "d" * 16,
        "options": {"only": ["shape"]},
        "thresholds": {"shapeIoU": 0.9},
        "metrics": figures.rows_metrics(rows),
        "campaign": {
            "cases": 2, "groups": {"g": 2}, "anchoringCases": ["k2"],
            "systems": {"s": ["r1", "r2"]}, "scorings": len(rows), "unmatchedFiles": [],
            "ignoredFiles": ["s/r1/k1.stl"],
        },
        "cases": [{"id": c.id} for c in CASES],
        "summary": figures.campaign_summary(rows),
        "scorings": rows,
    }  # fmt: skip


VALUES = {
    ("s", "r1", "k1"): 0.95,
    ("s", "r1", "k2"): 0.5,
    ("s", "r2", "k1"): "lost",
    ("s", "r2", "k2"): "missing",
}


def test_junit_has_one_testcase_per_scoring_fail_and_not_checked_apart():
    tree = ElementTree.fromstring(reports.junit_text(document_of(VALUES)))
    assert [tree.get(k) for k in ("tests", "failures", "skipped")] == ["4", "2", "1"]
    cases = {(c.get("classname"), c.get("name")): c for c in tree.iter("testcase")}
    assert cases["s.r2", "k1"].find("skipped").get("message") == "NOT CHECKED: killed"
    assert "missing_candidate" in cases["s.r2", "k2"].find("failure").get("message")
    assert "0.5000 < 0.9" in cases["s.r1", "k2"].find("failure").get("message")
    assert cases["s.r1", "k1"].find("failure") is None


def test_csv_has_a_line_per_scoring_with_the_internal_names():
    lines = list(csv.DictReader(io.StringIO(reports.csv_text(document_of(VALUES)))))
    assert len(lines) == 4
    first = lines[0]
    assert first["shapeIoU"] == "0.95" and first["shapeIoU.verdict"] == "PASS"
    assert lines[2]["scored"] == "false" and lines[2]["notChecked"] == "worker_lost"


def test_html_is_one_offline_file_with_tables_and_plots():
    page = reports.html_text(document_of(VALUES))
    assert page.count("<img") == 3 and "data:image/png;base64," in page
    for phrase in (
        "passed (reachable)",
        "NOT CHECKED",
        "delivery rate",
        "Ranges over runs",
        "Independent and anchoring",
        "s/r1/k1.stl",
    ):
        assert phrase in page
    assert "src='http" not in page and "<script" not in page


def test_results_json_is_byte_stable(tmp_path):
    document = document_of(VALUES)
    first = reports.as_json(document)
    assert reports.as_json(copy.deepcopy(document)) == first
    assert '"timing"' not in first


def comparable(values, path):
    document = document_of(values)
    document["path"] = path
    return document


def test_compare_refuses_mixed_fingerprints():
    a = comparable(VALUES, "a")
    b = comparable(VALUES, "b")
    b["metricFingerprint"] = "0" * 16
    with pytest.raises(comparison.FingerprintMismatch, match="not comparable"):
        comparison.compared(a, b)


def test_compare_side_by_side_on_the_shared_cases():
    a = comparable(VALUES, "a")
    later = dict(VALUES)
    later["s", "r1", "k2"] = 0.97
    b = comparable(later, "b")
    b["cases"] = b["cases"] + [{"id": "k3"}]
    result = comparison.compared(a, b)
    assert result["onlyInB"] == ["k3"] and result["commonCases"] == 2
    pair = result["systems"]["s"]
    assert pair["a"]["passedReachable"]["count"] == 1 and pair["b"]["passedReachable"]["count"] == 2
    text = comparison.comparison_text(result)
    assert "only in B: k3" in text and "+33.3 pts" in text
