# SPDX-License-Identifier: LGPL-2.1-or-later
"""Report files (CSV, JUnit XML, one-file HTML, results.json) and `compare`'s refusals."""

import copy
import csv
import io
import xml.etree.ElementTree as ElementTree

import pytest

from cadbench_wb.campaign import comparison, figures, reports
from cadbench_wb.campaign.layout import Submission
from cadbench_wb.case_model.cases import Case
from cadbench_wb.metrics import verdicts
from cadbench_wb.results import result as results

CASES = [
    Case(id="k1", title="one", path="/c/k1", reference="r.step", group="g"),
    Case(id="k2", title="two", path="/c/k2", reference="r.step", group="g", anchoring=True),
]


def scored(value):
    result = {"delivered": True, "failure": None, "metricFingerprint": "f" * 16}
    result["shapeIoU"] = value
    not_applicable = verdicts.verdict("threadMatch", None, "the reference has no thread")
    not_applicable["applicable"] = False
    result["verdicts"] = {
        "shapeIoU": verdicts.verdict("shapeIoU", value),
        "threadMatch": not_applicable,
    }
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


def test_html_flags_a_delivery_that_is_the_reference_itself():
    # Issue 31: a copy of the reference's bytes is scored (shapeIoU 1.0) but named as such
    # in the page's delivery column, not only in results.json.
    document = document_of(VALUES)
    assert "identicalToReference" not in reports.html_text(document)
    first = document["scorings"][0]
    assert first["delivered"]
    first["identicalToReference"] = True
    assert "own bytes (identicalToReference)" in reports.html_text(document)


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
    # One inline script (sorting and filtering), nothing fetched from anywhere.
    assert "src='http" not in page and "<script src" not in page and "http" not in page.lower()


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


def with_located(document, figures_by_case, path):
    """The document's delivered k1 and k2 scorings as dimension scorings: (dimensionRecall,
    dimensionRecallLocated, referenceCoverageLocated) per case; None: scored before located
    recall existed."""
    for row in document["scorings"]:
        if row["case"] in figures_by_case and row["delivered"]:
            recall, located, coverage = figures_by_case[row["case"]]
            row["dimensionRecall"] = recall
            row["verdicts"] = dict(row["verdicts"])
            row["verdicts"]["dimensionRecall"] = verdicts.verdict("dimensionRecall", recall)
            if located is not None:
                row["dimensionRecallLocated"] = located
                row["referenceCoverageLocated"] = coverage
                row["locatedDiffers"] = located != recall
    document["metrics"] = figures.rows_metrics(document["scorings"])
    document["summary"] = figures.campaign_summary(document["scorings"])
    document["path"] = path
    return document


def test_compare_shows_located_means_beside_dimension_recall_when_both_carry_them():
    # Only (s, r1, k1) and (s, r1, k2) are delivered: means over those two.
    a = with_located(document_of(VALUES), {"k1": (1.0, 0.75, 1.0), "k2": (0.5, 0.5, 0.9)}, "a")
    b = with_located(document_of(VALUES), {"k1": (1.0, 1.0, 1.0), "k2": (1.0, 0.5, 0.9)}, "b")
    text = comparison.comparison_text(comparison.compared(a, b))
    rows = {line.split()[1]: line.split() for line in text.splitlines() if " mean " in line}
    assert rows["dimensionRecall"][4:9] == ["0.7500", "(2)", "1.0000", "(2)", "+0.2500"]
    # located: (0.75 + 0.5) / 2 = 0.625 in A, (1 + 0.5) / 2 = 0.75 in B
    assert rows["dimensionRecallLocated"][4:9] == ["0.6250", "(2)", "0.7500", "(2)", "+0.1250"]
    assert rows["referenceCoverageLocated"][4:9] == ["0.9500", "(2)", "0.9500", "(2)", "+0.0000"]
    lines = text.splitlines()
    recall = next(i for i, line in enumerate(lines) if " dimensionRecall mean" in line)
    assert "dimensionRecallLocated" in lines[recall + 1]  # beside it, not at the end
    # A campaign scored before located recall: no located rows, dimensionRecall as it was.
    old = with_located(document_of(VALUES), {"k1": (1.0, None, None), "k2": (1, None, None)}, "o")
    text = comparison.comparison_text(comparison.compared(a, old))
    assert "dimensionRecallLocated" not in text and " dimensionRecall mean" in text


RUN_INFO = {
    "timestamp": "2026-12-01T10:00:00",
    "hostname": "ci-7",
    "seconds": [1.5, 2.25, None, 4.0],
}


def test_junit_carries_each_scorings_time_the_timestamp_and_the_host():
    tree = ElementTree.fromstring(reports.junit_text(document_of(VALUES), RUN_INFO))
    times = [c.get("time") for c in tree.iter("testcase")]
    # Report order is the document's: (s, r1, k1), (s, r1, k2), (s, r2, k1) lost, (s, r2, k2).
    assert times == ["1.500", "2.250", "0.000", "4.000"]
    suite = tree.find("testsuite")
    # The campaign's start, in UTC (batch.py), with its zone as ISO 8601 writes it.
    assert suite.get("timestamp") == "2026-12-01T10:00:00+00:00"
    assert suite.get("hostname") == "ci-7"
    assert suite.get("time") == "7.750" and tree.get("time") == "7.750"


def test_junit_counts_a_job_shared_by_two_scorings_once():
    """k1 of runs r1 and r2 is one file: scored once (4 s), each testcase shows half and
    the suite counts the 4 s once, beside k2's 1 s."""
    document = document_of({("s", "r1", "k1"): 0.95, ("s", "r1", "k2"): 0.5,
                            ("s", "r2", "k1"): 0.95})  # fmt: skip
    for row in document["scorings"]:
        row["candidateSha256"] = "a" * 64 if row["case"] == "k1" else "b" * 64
    info = {"timestamp": "2026-12-01T10:00:00+01:00", "hostname": "h", "seconds": [4.0, 1.0, 4.0]}
    tree = ElementTree.fromstring(reports.junit_text(document, info))
    assert [c.get("time") for c in tree.iter("testcase")] == ["2.000", "1.000", "2.000"]
    assert tree.get("time") == "5.000"
    assert tree.find("testsuite").get("timestamp") == "2026-12-01T10:00:00+01:00"


def test_junit_without_run_info_has_no_times_so_it_is_byte_stable():
    text = reports.junit_text(document_of(VALUES))
    assert " time=" not in text and "timestamp" not in text
    assert text == reports.junit_text(copy.deepcopy(document_of(VALUES)))


def test_junit_failure_has_a_body_with_every_metric_value_and_threshold():
    tree = ElementTree.fromstring(reports.junit_text(document_of(VALUES), RUN_INFO))
    cases = {(c.get("classname"), c.get("name")): c for c in tree.iter("testcase")}
    body = cases["s.r1", "k2"].find("failure").text
    assert "candidate: s/r1/x.step" in body
    assert "shapeIoU: 0.5000 (threshold 0.9000) FAIL, reachable FAIL" in body
    assert "threadMatch: not applicable (the reference has no thread)" in body
    missing = cases["s.r2", "k2"].find("failure").text
    assert "not delivered: missing_candidate" in missing


def test_csv_says_not_applicable_where_the_report_does_never_not_checked():
    lines = list(csv.DictReader(io.StringIO(reports.csv_text(document_of(VALUES)))))
    first = lines[0]
    assert first["threadMatch.verdict"] == verdicts.NOT_APPLICABLE
    assert first["threadMatch.reachable"] == verdicts.NOT_APPLICABLE
    assert first["threadMatch"] == ""
    assert not any("NOT CHECKED" in (line["threadMatch.verdict"] or "") for line in lines[:2])


def test_report_page_sorts_filters_and_links_each_scorings_json():
    page = reports.html_text(document_of(VALUES))
    assert "class='sortable'" in page and "<input class='filter' data-table='scorings'" in page
    assert "href='scores/s/r1/k1.json'" in page
    # The lost scoring has no JSON to link.
    assert "href='scores/s/r2/k1.json'" not in page
    assert page.count(verdicts.NOT_APPLICABLE) >= 2


def test_plot_axis_zooms_in_when_every_value_sits_high_and_not_otherwise():
    from cadbench_wb.campaign import plots

    # Lowest point 0.9 (the threshold): 0.88 rounded down to 0.05 gives 0.85.
    assert plots.axis_start([0.93, 0.99, 1.0], 0.9) == pytest.approx(0.85)
    # A value of 0.4 needs the whole axis.
    assert plots.axis_start([0.4, 0.99], 0.9) == 0.0


def located_scored(recall, located, differs):
    """A scoring with dimension figures: value-matched recall, located recall (coverage 1
    on both), and whether the scorer found them to differ."""
    result = {"delivered": True, "failure": None, "metricFingerprint": "f" * 16}
    result.update(dimensionRecall=recall, referenceCoverage=1.0)
    result.update(dimensionRecallLocated=located, referenceCoverageLocated=1.0)
    result["dimensionLocated"] = {"differs": differs, "membersFound": 3, "membersTotal": 4}
    result["verdicts"] = {"dimensionRecall": verdicts.verdict("dimensionRecall", recall)}
    return results.finish(result)


def located_document():
    """k1: the value match finds 1.0, located 0.75 (a value found elsewhere); k2: both 0.5."""
    rows = [
        figures.row_of(Submission("s", "r1", "k1", "/s/x.step"), CASES[0],
                       located_scored(1.0, 0.75, True)),
        figures.row_of(Submission("s", "r1", "k2", "/s/y.step"), CASES[1],
                       located_scored(0.5, 0.5, False)),
    ]  # fmt: skip
    document = document_of(VALUES)
    document.update(
        scorings=rows,
        metrics=figures.rows_metrics(rows),
        thresholds={"dimensionRecall": 0.95},
        summary=figures.campaign_summary(rows),
    )
    return document


def test_located_recall_is_summarised_beside_dimension_recall_over_the_same_scorings():
    located = located_document()["summary"]["s"]["located"]
    means = {k: v["mean"] for k, v in located["means"].items()}
    assert means == {
        "dimensionRecall": 0.75,
        "dimensionRecallLocated": 0.625,
        "referenceCoverageLocated": 1.0,
    }
    assert located["differs"] == {"count": 1, "of": 2, "rate": 0.5}
    cases = located_document()["summary"]["s"]["cases"]
    assert cases["k1"]["located"]["differs"] == 1 and cases["k2"]["located"]["differs"] == 0
    # Without located figures (shape only) there is no located block.
    assert document_of(VALUES)["summary"]["s"]["located"] is None


def test_terminal_summary_lists_the_scorings_where_located_recall_differs():
    text = figures.text_summary(located_document())
    assert "Located dimension recall beside dimensionRecall" in text
    assert "0.7500 (2)" in text and "0.6250 (2)" in text and "1 of 2" in text
    assert "DIFFERS s/r1/k1: dimensionRecall 1.0000, located 0.7500" in text
    assert "s/r1/k2:" not in text
    assert "Located dimension recall" not in figures.text_summary(document_of(VALUES))


def test_csv_and_junit_carry_the_located_figures_and_the_flag():
    document = located_document()
    lines = list(csv.DictReader(io.StringIO(reports.csv_text(document))))
    assert [(x["dimensionRecallLocated"], x["locatedDiffers"]) for x in lines] == [
        ("0.75", "true"),
        ("0.5", "false"),
    ]
    tree = ElementTree.fromstring(reports.junit_text(document))
    cases = {c.get("name"): c for c in tree.iter("testcase")}
    body = cases["k2"].find("failure").text  # 0.5 < 0.95 fails
    assert "dimensionRecallLocated: 0.5000" in body and "DIFFERS" not in body


def test_report_page_has_a_located_section_and_flags_each_differing_scoring():
    page = reports.html_text(located_document())
    assert "<h2 id='located-recall'>Located dimension recall</h2>" in page
    # Right after the dimensionRecall section, before the list of every scoring.
    assert page.index("id='located-recall'") < page.index("<h2>Every scoring</h2>")
    assert page.count("<img") == 3 + 1  # pass rates, dimensionRecall's two, the scatter
    assert "data-table='located'" in page and page.count("href='scores/s/r1/k1.json'") == 2
    assert "0.7500 <span class='DIFF'>DIFFERS</span>" in page
    assert "0.5000 <span class='DIFF'>" not in page
    assert "id='located-recall'" not in reports.html_text(document_of(VALUES))
