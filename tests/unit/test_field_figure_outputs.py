# SPDX-License-Identifier: LGPL-2.1-or-later
"""The field's figures (issue 30: chamferDistance, voxelIoU64 per scoring, invalidRate per
system) through every output -- the `cadbench score` summary, results.csv, junit.xml,
report.html, the `cadbench run` text and the workbench panel -- each with the same value,
each named with its protocol, and none of them in a verdict.

The results are test_verdict_outputs.py's: the mixed one carries figures written there
(FIELD), the undelivered one has none (its delivery failed), the one stored under schema /1
was written before they existed. The expected benchmarks are the issue's (chamferDistance
is CAD-Recode's, voxelIoU64 BenchCAD's), the expected invalid rates follow from which
candidate was delivered."""

import copy
import csv
import html.parser
import io
import re
import xml.etree.ElementTree as ElementTree

from test_verdict_outputs import (
    EXPECTED,
    FIELD,
    RESULTS,
    _document,
    _mixed,
    batch_statuses,
    cli_statuses,
    count_statuses,
    csv_statuses,
    gui_statuses,
    junit_statuses,
)

from cadbench_wb.campaign import field, reports
from cadbench_wb.gui import panel_model
from cadbench_wb.metrics import registry, result_rows
from cadbench_wb.metrics.field_figures import PROTOCOLS
from cadbench_wb.results import report
from cadbench_wb.results import result as results

SOURCES = {"chamferDistance": "CAD-Recode", "voxelIoU64": "BenchCAD"}
# result name -> {figure: value}; {} where the output shows none.
SHOWN = {
    "mixed": dict(FIELD),
    "undelivered": {"chamferDistance": None, "voxelIoU64": None},
    "old": {},
}
# result name -> (invalid, of): only the undelivered one has no valid solid.
INVALID = {"mixed": (0, 1), "undelivered": (1, 1), "old": (0, 1)}
SCORING_TIMEOUT, CODE_TIMEOUT = 600.0, 60.0


def _value(text: str):
    return None if text in ("", "-") else float(text)


def _campaign(named: dict) -> dict:
    document = _document(copy.deepcopy(named))
    document["fieldFigures"] = field.campaign_field_figures(
        document["scorings"], SCORING_TIMEOUT, CODE_TIMEOUT
    )
    return document


# ---- each output, read back as {figure: (value, benchmark)} -------------------------------

CLI_FIELD = re.compile(r"(\w+) (\S+) \(([\w-]+) protocol\)")


def cli_field(result: dict) -> dict:
    lines = [
        line
        for line in report.summary_text(result).splitlines()
        if line.startswith("field figures (not verdicts): ")
    ]
    assert len(lines) <= 1
    if not lines:
        return {}
    found = CLI_FIELD.findall(lines[0].split(": ", 1)[1])
    return {name: (_value(value), source) for name, value, source in found}


def csv_field(document: dict) -> dict:
    found = {}
    for line in csv.DictReader(io.StringIO(reports.csv_text(document))):
        found[line["system"]] = {}
        for column, text in line.items():
            name, _, source = column.partition(".")
            if name in SOURCES and source and text:
                found[line["system"]][name] = (_value(text), source)
    return found


def junit_field(document: dict) -> tuple[dict, dict]:
    """({system: {figure: (value, protocol)}}, {system: {suite property: value}})."""
    tree = ElementTree.fromstring(reports.junit_text(document))
    cases, suites = {}, {}
    for suite in tree.iter("testsuite"):
        suites[suite.get("name")] = {
            p.get("name"): p.get("value") for p in suite.find("properties").iter("property")
        }
        for case in suite.iter("testcase"):
            properties = case.find("properties")
            values = {}
            if properties is not None:
                values = {p.get("name"): p.get("value") for p in properties.iter("property")}
            cases[suite.get("name")] = {
                name: (_value(values[name]), values[f"{name}.protocol"])
                for name in SOURCES
                if name in values
            }
    return cases, suites


class _FieldTable(html.parser.HTMLParser):
    """The header and cell texts of report.html's per-scoring field table."""

    def __init__(self):
        super().__init__()
        self.inside, self.cell, self.header, self.rows = False, None, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.inside = dict(attrs).get("id") == "table-field"
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("th", "td"):
            self.cell = []

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)

    def handle_endtag(self, tag):
        if self.inside and tag in ("th", "td"):
            (self.header if tag == "th" else self.rows[-1]).append("".join(self.cell).strip())
            self.cell = None
        elif tag == "table":
            self.inside = False


def html_field(document: dict) -> dict:
    parser = _FieldTable()
    parser.feed(reports.html_text(document))
    found = {}
    for cells in (c for c in parser.rows if c):
        row = dict(zip(parser.header, cells, strict=True))
        found[row["system"]] = {}
        for header, text in row.items():
            match = re.fullmatch(r"(\w+) \(([\w-]+) protocol\)", header)
            if match:
                found[row["system"]][match.group(1)] = (_value(text), match.group(2))
    return found


GUI_TITLE = re.compile(r"(\w+) \(([\w-]+) protocol, not a verdict\)")


def gui_field(result: dict) -> dict:
    found = {}
    for row in panel_model.shape_rows(result):
        match = GUI_TITLE.fullmatch(row.cells[0])
        if match:
            assert row.state == "" and row.colour is None  # no verdict, so no verdict colour
            assert PROTOCOLS[match.group(1)] in row.tooltip
            found[match.group(1)] = (_value(row.cells[1]), match.group(2))
    return found


# ---- the tests ---------------------------------------------------------------------------


def test_the_core_reads_the_figures_the_field_figures_module_defines():
    assert result_rows.FIELD_FIGURES == tuple(PROTOCOLS)
    shown = result_rows.field_rows(_mixed())
    assert [(r.name, r.value, r.source, r.note) for r in shown] == [
        (name, FIELD[name], SOURCES[name], "not a verdict") for name in SOURCES
    ]
    # A campaign's row keeps the values alone: the protocols are the module's.
    row = {"fieldFigures": {"chamferDistance": 2.5, "voxelIoU64": None}}
    assert [(r.value, r.protocol) for r in result_rows.field_rows(row)] == [
        (2.5, PROTOCOLS["chamferDistance"]),
        (None, PROTOCOLS["voxelIoU64"]),
    ]
    assert result_rows.field_rows({"fieldFigures": {"voxelIoU64": "0.9"}})[1].value is None
    assert result_rows.field_rows({}) == [] and result_rows.field_rows(None) == []


def test_every_output_shows_the_same_field_figures_with_their_protocol():
    named = {name: make() for name, make in RESULTS.items()}
    document = _campaign(named)
    by_csv, by_html = csv_field(document), html_field(document)
    by_junit, _ = junit_field(document)
    for name, result in named.items():
        expected = {figure: (value, SOURCES[figure]) for figure, value in SHOWN[name].items()}
        assert cli_field(copy.deepcopy(result)) == expected, name
        assert gui_field(copy.deepcopy(result)) == expected, name
        assert by_csv[name] == {k: v for k, v in expected.items() if v[0] is not None}, name
        # JUnit names the whole protocol, said to be no verdict.
        assert by_junit.get(name, {}) == {
            figure: (value, f"{PROTOCOLS[figure]} (not a verdict)")
            for figure, value in SHOWN[name].items()
        }, name
        # report.html lists per scoring those that have figures (a delivery failure's: '-').
        assert by_html.get(name, {}) == expected, name
    # The CSV columns are there, named with their benchmark, whether a scoring has figures
    # or not (the old result's and the failed delivery's cells are empty).
    header = next(csv.reader(io.StringIO(reports.csv_text(document))))
    assert {"chamferDistance.CAD-Recode", "voxelIoU64.BenchCAD"} <= set(header)


def test_each_systems_invalid_rate_is_the_same_in_junit_the_run_text_and_the_json():
    document = _campaign({name: make() for name, make in RESULTS.items()})
    _, suites = junit_field(document)
    text = field.field_text(document).splitlines()
    for system, (invalid, of) in INVALID.items():
        entry = document["fieldFigures"][system]["invalidRate"]
        assert (entry["count"], entry["of"], entry["rate"]) == (invalid, of, invalid / of)
        properties = suites[system]
        assert float(properties["invalidRate"]) == invalid / of
        assert (properties["invalidRate.count"], properties["invalidRate.of"]) == (
            str(invalid),
            str(of),
        )
        # Model files, not scripts: the timeout that applied is the scoring's.
        assert float(properties["invalidRate.timeoutSeconds"]) == SCORING_TIMEOUT
        assert properties["invalidRate.timeoutOf"] == "scoring"
        assert properties["invalidRate.protocol"] == f"{field.INVALID_PROTOCOL} (not a verdict)"
        (line,) = [line for line in text if line.startswith(f"{system}  ")]
        assert f"{invalid}/{of} {100 * invalid / of:.1f}% ({SCORING_TIMEOUT:g} s scoring)" in line


def test_no_field_figure_is_in_a_verdict_however_good_or_bad():
    """The mixed result with the best figures a shape can have and with the worst: the same
    verdicts, the same statuses in every output, and no output names them as a metric."""
    variants = {}
    for label, (chamfer, voxel) in {"best": (0.0, 1.0), "worst": (1000.0, 0.0)}.items():
        result = _mixed()
        result["fieldFigures"]["chamferDistance"]["value"] = chamfer
        result["fieldFigures"]["voxelIoU64"]["value"] = voxel
        variants[label] = results.finish(result)
    assert variants["best"]["verdict"] == variants["worst"]["verdict"] == _mixed()["verdict"]
    assert variants["best"]["verdicts"] == variants["worst"]["verdicts"]
    # The undelivered result beside them judges drawingMatch too, so every metric has columns.
    document = _campaign({**variants, "undelivered": RESULTS["undelivered"]()})
    assert document["metrics"] == list(registry.NAMES)
    for output in (csv_statuses, junit_statuses, count_statuses):
        shown = output(document)
        assert shown["best"] == shown["worst"] == EXPECTED["mixed"], output.__name__
    for output in (cli_statuses, gui_statuses):
        assert output(variants["best"]) == output(variants["worst"]) == EXPECTED["mixed"]
    assert batch_statuses(variants["best"]) == batch_statuses(variants["worst"])
    # Never a metric row, a verdict column, a count or a failure's reason.
    assert not {r.metric for r in result_rows.metric_rows(variants["worst"])} & set(SOURCES)
    header = next(csv.reader(io.StringIO(reports.csv_text(document))))
    assert not [c for c in header if c.split(".")[0] in SOURCES and c.endswith("verdict")]
    for summary in document["summary"].values():
        assert not set(SOURCES) & set(summary["metricVerdicts"])
    for failure in ElementTree.fromstring(reports.junit_text(document)).iter("failure"):
        assert not any(name in failure.get("message") + failure.text for name in SOURCES)
    assert set(registry.NAMES).isdisjoint(SOURCES)
