# SPDX-License-Identifier: LGPL-2.1-or-later
"""The same results through all five outputs (CLI summary, CSV and JUnit, report.html, the
campaign's counts, the workbench panel): each shows every metric and item with the same
status. The expected statuses come from the construction (a value above or below its
metric's threshold, None, a metric that does not apply, one never requested), not from the
code under test; a result stored under schema /1 shows as the same result of schema /2.
The mixed result carries the field's figures too, which change no status."""

import copy
import csv
import html.parser
import io
import re
import xml.etree.ElementTree as ElementTree

from cadbench_wb import standard
from cadbench_wb.campaign import figures, reports
from cadbench_wb.campaign.layout import Submission
from cadbench_wb.case_model.cases import Case
from cadbench_wb.gui import detail_rows, panel_model
from cadbench_wb.metrics import registry, result_rows, verdicts
from cadbench_wb.metrics.field_figures import PROTOCOLS
from cadbench_wb.metrics.verdicts import FAIL, NOT_APPLICABLE, NOT_CHECKED, NOT_RUN, PASS
from cadbench_wb.results import report
from cadbench_wb.results import result as results

# Written here, not computed: each output only has to show them as they are (4 decimals).
FIELD = {"chamferDistance": 0.1234, "voxelIoU64": 0.9721}


def _threshold(metric):
    return registry.threshold_of(metric, standard.THRESHOLDS)


def _mixed() -> dict:
    """shapeIoU above its threshold, dimensionRecall below it but at the case's ceiling,
    semanticMatch unevaluated, threadMatch not applicable, drawingMatch not requested; with
    dimensions, features and threads of every per-item kind."""
    low = _threshold("dimensionRecall") - 0.2
    result = results.base_result("/r/reference.step", "/c/candidate.step", {})
    result["shapeIoU"] = _threshold("shapeIoU") + 0.05
    result["dimensionRecall"] = low
    result["semanticMatch"] = None
    result["threadMatch"] = None
    result["verdicts"] = {
        "shapeIoU": verdicts.verdict("shapeIoU", result["shapeIoU"]),
        "dimensionRecall": verdicts.verdict("dimensionRecall", low, ceiling=low),
        "semanticMatch": verdicts.verdict("semanticMatch", None, reason="no B-rep"),
        "threadMatch": verdicts.not_applicable("threadMatch", "the reference has no thread"),
    }
    result["dimensions"] = [
        {"id": "D1", "kind": "length", "target": 40.0, "found": 40.0, "status": "found"},
        {"id": "D2", "kind": "diameter", "target": 11.0, "found": None, "status": "not_found"},
        {"id": "D3", "kind": "length", "target": 45.0, "status": "not_measurable_on_reference"},
    ]
    result["features"] = {
        "reference": [{"id": "F1", "type": "hole", "faces": ["Face7"]},
                      {"id": "F2", "type": "hole", "faces": ["Face8"]},
                      {"id": "F3", "type": "chamfer", "faces": ["Face2"]}],
        "candidate": [{"id": "G1", "type": "hole", "faces": ["Face9"]},
                      {"id": "G2", "type": "hole", "faces": ["Face3"]},
                      {"id": "G3", "type": "boss", "faces": ["Face4"]}],
        "matched": [{"reference": "F1", "candidate": "G1", "credit": 1.0, "type": "hole"},
                    {"reference": "F2", "candidate": "G2", "credit": 0.5, "type": "hole"}],
        "missing": [{"id": "F3"}],
        "extra": [{"id": "G3"}],
        "unrecognised": {"reference": [{"id": "R1", "type": "region"}], "candidate": []},
    }  # fmt: skip
    result["threads"] = {
        "reference": [{"designation": "M8", "faces": ["Face3"]},
                      {"designation": "M6", "faces": ["Face5"]}],
        "candidate": [{"designation": "M8", "faces": ["Face4"]},
                      {"designation": "M6", "faces": ["Face6"]},
                      {"designation": "M5", "faces": []}],
        "pairs": [{"reference": 0, "candidate": 0, "checks": {"pitch": {"ok": True}}},
                  {"reference": 1, "candidate": 1, "checks": {"pitch": {"ok": False}}}],
    }  # fmt: skip
    # The field's figures (another benchmark's protocol each): shown by every output, in no
    # verdict (tests/unit/test_field_figure_outputs.py reads them back).
    result["fieldFigures"] = {
        name: {"value": value, "protocol": PROTOCOLS[name]} for name, value in FIELD.items()
    }
    return results.finish(result)


def _stored_under_schema_1() -> dict:
    """What cadbench wrote before schema /2: a not-applicable metric as NOT CHECKED with
    applicable: false, beside a failing shapeIoU."""
    low = _threshold("shapeIoU") - 0.3
    old = verdicts.verdict("threadMatch", None, reason="the reference has no thread")
    old["applicable"] = False
    return {
        "schema": "cadbench.score/1",
        "reference": {"path": "/r/reference.step", "sha256": None},
        "candidate": {"path": "/c/old.step", "sha256": None},
        "delivered": True,
        "failure": None,
        "metricFingerprint": "f" * 16,
        "shapeIoU": low,
        "threadMatch": None,
        "verdicts": {"shapeIoU": verdicts.verdict("shapeIoU", low), "threadMatch": old},
        "verdict": {"formal": FAIL.value, "reachable": FAIL.value},
    }


def _undelivered() -> dict:
    requested = ("shapeIoU", "dimensionRecall", "drawingMatch")
    failed = results.failure_result("/r", "/c/none.step", {}, "empty_file", "0 bytes", requested)
    return results.finish(failed)


def _not_run(**statuses) -> dict:
    return {m: statuses.get(m, (NOT_RUN, NOT_RUN)) for m in registry.NAMES}


# (formal, reachable) per metric, from the construction above.
EXPECTED = {
    "mixed": _not_run(
        shapeIoU=(PASS, PASS),
        dimensionRecall=(FAIL, PASS),
        semanticMatch=(NOT_CHECKED, NOT_CHECKED),
        threadMatch=(NOT_APPLICABLE, NOT_APPLICABLE),
    ),
    "old": _not_run(shapeIoU=(FAIL, FAIL), threadMatch=(NOT_APPLICABLE, NOT_APPLICABLE)),
    "undelivered": _not_run(
        shapeIoU=(FAIL, FAIL), dimensionRecall=(FAIL, FAIL), drawingMatch=(FAIL, FAIL)
    ),
}
RESULTS = {"mixed": _mixed, "old": _stored_under_schema_1, "undelivered": _undelivered}
STATUSES = sorted((s.value for s in verdicts.Status), key=len, reverse=True)


def _leading_status(text: str) -> str:
    return next(s for s in STATUSES if text.startswith(s))


# ---- the five outputs, each read back as {metric: (formal, reachable)} -------------------


def cli_statuses(result: dict) -> dict:
    lines = report.summary_text(result).splitlines()
    found = {}
    for metric in registry.NAMES:
        title = f"{registry.LABELS[metric]} ({metric})"
        (line,) = [line for line in lines if line.startswith(title)]
        shown = line[62:]  # the verdict column: after metric (40), value (8), threshold (10)
        formal = _leading_status(shown)
        reachable = re.search(r"\(reachable ([A-Z ]+)\)", shown)
        found[metric] = (formal, reachable.group(1) if reachable else formal)
    return found


def _document(named: dict) -> dict:
    case = Case(id="k1", title="one", path="/c/k1", reference="r.step", group="g")
    rows = [
        figures.row_of(Submission(name, "r1", "k1", "/s/x.step"), case, result)
        for name, result in named.items()
    ]
    return {
        "schema": "cadbench.campaign/1",
        "metricFingerprint": "f" * 16,
        "drawingFingerprint": "d" * 16,
        "options": {},
        "thresholds": dict(standard.THRESHOLDS),
        "metrics": figures.rows_metrics(rows),
        "campaign": {"cases": 1, "groups": {"g": 1}, "anchoringCases": [], "systems": {n: ["r1"] for n in named},
                     "scorings": len(rows), "unmatchedFiles": [], "ignoredFiles": []},
        "cases": [{"id": "k1"}],
        "summary": figures.campaign_summary(rows),
        "scorings": rows,
    }  # fmt: skip


def csv_statuses(document: dict) -> dict:
    lines = csv.DictReader(io.StringIO(reports.csv_text(document)))
    return {
        line["system"]: {m: (line[f"{m}.verdict"], line[f"{m}.reachable"]) for m in registry.NAMES}
        for line in lines
    }


JUNIT_LINE = re.compile(
    r"^(\w+): (?:(not run|not applicable)|\S+ \(threshold \S+\) "
    r"(PASS|FAIL|NOT CHECKED), reachable (PASS|FAIL|NOT CHECKED))"
)


def junit_statuses(document: dict) -> dict:
    tree = ElementTree.fromstring(reports.junit_text(document))
    found = {}
    for case in tree.iter("testcase"):
        body = case.find("failure")
        body = body if body is not None else case.find("skipped")
        statuses = {}
        for line in body.text.splitlines():
            match = JUNIT_LINE.match(line)
            if match:
                metric, phrase, formal, reachable = match.groups()
                statuses[metric] = (phrase, phrase) if phrase else (formal, reachable)
        found[case.get("classname").split(".")[0]] = statuses
    return found


class _Cells(html.parser.HTMLParser):
    """The data-status of every metric cell in report.html's scorings table, per row."""

    def __init__(self):
        super().__init__()
        self.inside, self.rows = False, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.inside = attrs.get("id") == "table-scorings"
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and "data-status" in attrs:
            self.rows[-1].append(attrs["data-status"])


def html_statuses(document: dict) -> dict:
    parser = _Cells()
    parser.feed(reports.html_text(document))
    rows = [cells for cells in parser.rows if cells]  # the header row has none
    return {
        row["system"]: dict(zip(document["metrics"], cells, strict=True))
        for row, cells in zip(document["scorings"], rows, strict=True)
    }


COUNT_KEYS = {
    "pass": PASS,
    "fail": FAIL,
    "notChecked": NOT_CHECKED,
    "notApplicable": NOT_APPLICABLE,
}


def count_statuses(document: dict) -> dict:
    """One scoring per system: the one status its counts hold (none counted: not run)."""
    found = {}
    for system, summary in document["summary"].items():
        found[system] = {}
        for metric in registry.NAMES:
            counts = summary["metricVerdicts"].get(metric) or {}
            counted = [COUNT_KEYS[k] for k in COUNT_KEYS if counts.get(k)]
            assert len(counted) <= 1, (system, metric, counts)
            formal = counted[0] if counted else NOT_RUN
            reachable = PASS if counts.get("passReachable") else formal
            found[system][metric] = (formal, reachable if formal in (PASS, FAIL) else formal)
    return found


def gui_statuses(result: dict) -> dict:
    rows = {r.key: r for r in panel_model.metric_rows(result)}
    found = {}
    for metric in registry.NAMES:
        row = rows[metric]
        assert row.state == row.cells[3], metric  # the colour says what the cell says
        reachable = row.cells[4] if row.state in (PASS, FAIL, NOT_CHECKED) else row.state
        found[metric] = (row.state, reachable)
    return found


def batch_statuses(result: dict) -> dict:
    """The batch row's cell per metric: 'value STATUS', 'not applicable' or '-' (not run)."""
    cells = panel_model.batch_row("x.step", {"result": result}).cells
    shown = dict(zip(panel_model.BATCH_COLUMNS, cells, strict=True))
    found = {}
    for metric in registry.NAMES:
        text = shown[metric]
        if text in ("-", NOT_APPLICABLE):
            found[metric] = NOT_RUN if text == "-" else NOT_APPLICABLE
        else:
            found[metric] = _leading_status(text.split(" ", 1)[1])
    return found


# ---- the tests ---------------------------------------------------------------------------


def test_every_output_shows_the_same_status_for_the_same_result():
    named = {name: make() for name, make in RESULTS.items()}
    document = _document(copy.deepcopy(named))
    assert document["metrics"] == list(registry.NAMES)  # each judged by one result at least
    by_output = {
        "csv": csv_statuses(document),
        "junit": junit_statuses(document),
        "counts": count_statuses(document),
        "html": {
            s: {m: (f, None) for m, f in c.items()} for s, c in html_statuses(document).items()
        },
    }
    for name, result in named.items():
        expected = EXPECTED[name]
        assert cli_statuses(copy.deepcopy(result)) == expected, name
        assert gui_statuses(copy.deepcopy(result)) == expected, name
        assert batch_statuses(copy.deepcopy(result)) == {m: f for m, (f, _) in expected.items()}
        assert by_output["csv"][name] == expected, name
        assert by_output["counts"][name] == expected, name
        assert by_output["html"][name] == {m: (f, None) for m, (f, _) in expected.items()}, name
        # JUnit writes a body only for a case that did not pass (all three here).
        assert by_output["junit"][name] == expected, name


def test_the_batch_tooltip_lists_what_kept_the_case_from_passing_and_nothing_else():
    tip = panel_model.batch_row("x.step", {"result": _mixed()}).tooltip
    assert "dimensionRecall:" in tip and "semanticMatch: no B-rep" in tip
    assert "threadMatch" not in tip and "shapeIoU" not in tip and "drawingMatch" not in tip


def test_a_result_of_schema_1_reads_as_schema_2_with_the_same_figures():
    old = _stored_under_schema_1()
    new = results.upgraded(copy.deepcopy(old))
    assert new["schema"] == results.SCHEMA == "cadbench.score/2"
    entry = new["verdicts"]["threadMatch"]
    assert "applicable" not in entry
    assert entry == verdicts.not_applicable("threadMatch", "the reference has no thread")
    assert new["verdicts"]["shapeIoU"] == old["verdicts"]["shapeIoU"]
    assert {k: v for k, v in new.items() if k not in ("schema", "verdicts")} == {
        k: v for k, v in old.items() if k not in ("schema", "verdicts")
    }
    assert results.upgraded(copy.deepcopy(new)) == new  # /2 comes back as it is
    # Both forms show the same in every output.
    assert cli_statuses(old) == cli_statuses(new) == EXPECTED["old"]
    assert gui_statuses(old) == gui_statuses(new)
    assert verdicts.case_verdict(old["verdicts"]) == verdicts.case_verdict(new["verdicts"]) == FAIL


def test_the_case_verdict_leaves_out_what_does_not_apply():
    # The mixed result: dimensionRecall fails formally (FAIL), and reachably only the
    # unevaluated semanticMatch is left (NOT CHECKED); threadMatch counts in neither.
    assert _mixed()["verdict"] == {"formal": FAIL, "reachable": NOT_CHECKED}
    only = {"threadMatch": verdicts.not_applicable("threadMatch", "no thread")}
    assert verdicts.case_verdict(only) == NOT_CHECKED  # nothing applied: nobody looked
    only["shapeIoU"] = verdicts.verdict("shapeIoU", 1.0)
    assert verdicts.case_verdict(only) == PASS


def test_per_item_rows_carry_the_cores_status_into_the_panel():
    result = _mixed()
    expected = {
        "dimensions": [("D1", PASS), ("D2", FAIL), ("D3", NOT_CHECKED)],
        "features": [PASS, FAIL, FAIL, FAIL, NOT_CHECKED],  # matched, in part, missing, extra,
        "threads": [PASS, FAIL, FAIL],  # matched, differs (pitch), extra M5     unrecognised
    }
    core = result_rows.item_rows(result)
    assert [(i.key, i.status) for i in core["dimensions"]] == expected["dimensions"]
    assert [i.status for i in core["features"]] == expected["features"]
    assert [i.status for i in core["threads"]] == expected["threads"]
    dimensions = detail_rows.dimension_rows(result)
    assert [(r.key, r.state) for r in dimensions] == expected["dimensions"]
    assert [r.cells[4] for r in dimensions] == ["found", "not found", "not measurable on reference"]
    features = detail_rows.feature_rows(result["features"])
    assert [r.state for r in features] == expected["features"]
    assert [r.cells[1] for r in features] == [
        "matched", "differs (credit 0.5)", "missing", "extra", "unrecognised (reference)"
    ]  # fmt: skip
    threads = detail_rows.thread_rows(result["threads"])
    assert [(r.cells[0], r.cells[1], r.state) for r in threads] == [
        ("M8", "matched", PASS), ("M6", "differs: pitch", FAIL), ("M5", "extra", FAIL)
    ]  # fmt: skip
    # Each state is one of the core's, coloured as the metric rows are.
    assert all(r.colour == panel_model.COLOURS[r.state] for r in dimensions + features + threads)


def test_an_item_code_the_stages_do_not_write_gets_no_status_instead_of_a_guess():
    # 'pitch_wrong' holds "wrong", which the panel once read as FAIL; "ok_not" holds "ok".
    rows = detail_rows.entry_rows({"items": [{"name": "M8", "status": "pitch_wrong"}]})
    assert rows[0].state == "" and rows[0].colour is None
    assert result_rows.item_status("ok_not") is None
    assert result_rows.item_status("not_found") == FAIL


def test_a_campaign_store_of_schema_1_results_loads_them_as_schema_2(tmp_path):
    from cadbench_wb.campaign import store

    old = _stored_under_schema_1()
    kept = store.Store(str(tmp_path / "scores.sqlite"))
    kept.put("k", "k1", "c" * 64, "d" * 64, old, 1.0)
    read = kept.get("k")
    kept.close()
    assert read == results.upgraded(copy.deepcopy(old))
    assert read["verdicts"]["threadMatch"]["verdict"] == NOT_APPLICABLE
    assert read["shapeIoU"] == old["shapeIoU"] and read["verdict"] == old["verdict"]


def test_the_panel_hands_qt_plain_text():
    result = _mixed()
    rows = panel_model.metric_rows(result) + detail_rows.dimension_rows(result)
    rows.append(panel_model.batch_row("x.step", {"result": result}))
    values = [v for r in rows for v in [*r.cells, r.state] if isinstance(v, str)]
    assert values and all(type(v) is str for v in values)


def test_an_entry_without_a_readable_verdict_is_not_checked_never_a_pass():
    assert verdicts.status_of({"verdict": None}) == NOT_CHECKED
    assert verdicts.status_of({"verdict": "maybe"}) == NOT_CHECKED
    assert verdicts.status_of(None) == NOT_RUN
    assert verdicts.status_of({"verdict": "FAIL", "reachable": "PASS"}, "reachable") == PASS
