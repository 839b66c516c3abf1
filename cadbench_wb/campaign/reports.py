# SPDX-License-Identifier: LGPL-2.1-or-later
"""The campaign's report files (docs/campaigns.md lists them and their fields):

- results.json: the whole campaign, machine-readable, seed 000's internal names; no timings,
  no machine paths, so the same inputs give the same bytes however the run was interrupted;
- timings.json: what results.json leaves out (this run's counts, seconds per scoring);
- results.csv: one line per system x run x case;
- junit.xml: one test case per case x system x run (headline verdict: reachable), with each
  scoring's seconds, the run's timestamp and host, as CI viewers expect (timings aside, the
  same inputs give the same file);
  results.csv and junit.xml carry the field's figures (result_rows.field_rows), named with
  their protocol and never in a verdict;
- report.html: one self-contained page (tables and embedded plots), readable offline;
- scores/<system>/<run>/<case_id>.json: every full score result, for drill-down.
"""

import csv
import datetime
import io
import json
import os
import xml.etree.ElementTree as ElementTree

from cadbench_wb.campaign import figures
from cadbench_wb.campaign.report_page import html_text
from cadbench_wb.errors import UsageError
from cadbench_wb.metrics import result_rows
from cadbench_wb.metrics.verdicts import FAIL, NOT_APPLICABLE, NOT_CHECKED, NOT_RUN

FILES = ("results.json", "timings.json", "results.csv", "junit.xml", "report.html")


def _write(path: str, text: str) -> None:
    """Whole or not at all: a kill while writing leaves the previous file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)


def inside_out(out_dir: str, *parts: str) -> str:
    """out_dir joined with parts, which must stay inside out_dir once every symlink is
    resolved: case ids are validated names (cases.CASE_ID_PATTERN) and system and run names
    are folder names, so this is the backstop that no name ever writes elsewhere."""
    root = os.path.realpath(out_dir)
    target = os.path.realpath(os.path.join(root, *parts))
    if any(os.sep in p or p in ("", ".", "..") for p in parts) or (
        os.path.commonpath([root, target]) != root
    ):
        shown = "/".join(parts)
        raise UsageError(f"{shown}: a report path that leaves the campaign folder {out_dir}")
    return target


def as_json(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_reports(
    out_dir: str, document: dict, stats: dict, full_results: list, run_info: dict | None = None
) -> dict:
    """Every report file; returns their paths by name. run_info: this run's 'timestamp',
    'hostname' and 'seconds' (one entry per scoring, None where unknown) for junit.xml."""
    paths = {name: os.path.join(out_dir, name) for name in FILES}
    _write(paths["results.json"], as_json(document))
    _write(paths["timings.json"], as_json(stats))
    _write(paths["results.csv"], csv_text(document))
    _write(paths["junit.xml"], junit_text(document, run_info))
    _write(paths["report.html"], html_text(document))
    for row, result in zip(document["scorings"], full_results, strict=True):
        if result is not None:
            target = inside_out(out_dir, "scores", row["system"], row["run"], f"{row['case']}.json")
            _write(target, as_json(result))
    return paths


# ---- CSV -------------------------------------------------------------------------------


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def field_columns() -> list[str]:
    """results.csv's columns of the field's figures, named with their protocol's benchmark
    ('chamferDistance.CAD-Recode', 'voxelIoU64.BenchCAD'), the same for every document
    (read off the rows of a result whose figures are all missing)."""
    return [shown.column for shown in result_rows.field_rows({"fieldFigures": {}})]


def csv_text(document: dict) -> str:
    metrics = document["metrics"]
    fields = field_columns()
    header = [
        "system",
        "run",
        "case",
        "group",
        "anchoring",
        "candidate",
        "scored",
        "notChecked",
        "delivered",
        "failure",
        "verdictReachable",
        "verdictFormal",
    ]
    for metric in metrics:
        header += [metric, f"{metric}.verdict", f"{metric}.reachable"]
    header += [
        "referenceCoverage",
        "drawingSelfTest",
        "randomHitRate.length",
        "randomHitRate.angle",
        "dimensionRecallLocated",
        "referenceCoverageLocated",
        "locatedDiffers",
        *fields,
        "candidateSha256",
        "metricFingerprint",
    ]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in document["scorings"]:
        line = [
            row["system"],
            row["run"],
            row["case"],
            row["group"],
            row["anchoring"],
            row["candidate"],
            row["checked"],
            (row["notChecked"] or {}).get("reason"),
            row["delivered"],
            (row["failure"] or {}).get("reason"),
            row["verdict"]["reachable"],
            row["verdict"]["formal"],
        ]
        for shown in result_rows.metric_rows(row, metrics):
            line += [
                row.get(shown.metric),
                shown.status.value,
                shown.reachable.value,
            ]
        rates = row.get("randomHitRate") if isinstance(row.get("randomHitRate"), dict) else {}
        field = {shown.column: shown.value for shown in result_rows.field_rows(row)}
        line += [
            row.get("referenceCoverage"),
            row.get("drawingSelfTest"),
            rates.get("length"),
            rates.get("angle"),
            row.get("dimensionRecallLocated"),
            row.get("referenceCoverageLocated"),
            row.get("locatedDiffers"),
            *[field.get(column) for column in fields],
            row.get("candidateSha256"),
            row.get("metricFingerprint"),
        ]
        writer.writerow([_cell(v) for v in line])
    return buffer.getvalue()


# ---- JUnit XML -------------------------------------------------------------------------


def _why_failed(row: dict) -> str:
    if row["delivered"] is False:
        failure = row["failure"] or {}
        return f"not delivered: {failure.get('reason')}: {failure.get('detail')}"
    parts = [
        f"{shown.metric} {shown.reason or shown.status}"
        for shown in result_rows.metric_rows(row)
        if shown.reachable == FAIL
    ]
    return "; ".join(parts) or "FAIL"


def failure_body(row: dict) -> str:
    """What a CI viewer shows under a failed test: the candidate, then every metric with its
    value, threshold, verdicts and reason, so nobody has to open the JSON to see why."""
    lines = [f"candidate: {row['candidate'] or '-'}"]
    if row["delivered"] is False:
        failure = row["failure"] or {}
        lines.append(f"not delivered: {failure.get('reason')}: {failure.get('detail')}")
    for shown in result_rows.metric_rows(row):
        if shown.status == NOT_RUN:
            lines.append(f"{shown.metric}: {NOT_RUN}")
            continue
        if shown.status == NOT_APPLICABLE:
            lines.append(f"{shown.metric}: {NOT_APPLICABLE} ({shown.reason})")
            continue
        lines.append(
            f"{shown.metric}: {figures.number(shown.value)} (threshold "
            f"{figures.number(shown.threshold)}) {shown.status}, reachable {shown.reachable}: "
            f"{shown.reason}"
        )
    for name in ("referenceCoverage", "drawingSelfTest", *figures.LOCATED_FIGURES):
        if row.get(name) is not None:
            lines.append(f"{name}: {figures.number(row[name])}")
    if row.get("locatedDiffers"):
        lines.append("located recall DIFFERS from dimensionRecall (the verdict uses the latter)")
    return "\n".join(lines)


def _field_properties(parent, rows) -> None:
    """Each field figure as a property, its protocol (said to be no verdict) beside it."""
    if not rows:
        return
    properties = ElementTree.SubElement(parent, "properties")
    for shown in rows:
        ElementTree.SubElement(properties, "property", name=shown.name, value=_cell(shown.value))
        ElementTree.SubElement(
            properties,
            "property",
            name=f"{shown.name}.protocol",
            value=f"{shown.protocol} ({shown.note})",
        )


def _invalid_rate_properties(properties, entry: dict | None) -> None:
    """A system's invalidRate (campaign/field.py) with the timeout it used, never a verdict."""
    invalid = (entry or {}).get("invalidRate")
    if not invalid:
        return
    for key, value in (
        ("invalidRate", invalid["rate"]),
        ("invalidRate.count", invalid["count"]),
        ("invalidRate.of", invalid["of"]),
        ("invalidRate.timeoutSeconds", invalid["timeoutSeconds"]),
        ("invalidRate.timeoutOf", invalid["timeoutOf"]),
        ("invalidRate.protocol", f"{invalid['protocol']} ({result_rows.NOT_A_VERDICT})"),
    ):
        ElementTree.SubElement(properties, "property", name=key, value=_cell(value))


def _seconds(value) -> str:
    return f"{value or 0.0:.3f}"


def _timestamp(value) -> str:
    """ISO 8601 with its zone. batch.py takes the campaign's start in UTC: a time given
    without a zone is that UTC time and is written "+00:00"."""
    when = value if isinstance(value, datetime.datetime) else None
    if when is None:
        try:
            when = datetime.datetime.fromisoformat(str(value))
        except ValueError:
            return str(value)
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.isoformat(timespec="seconds")


def _shared_seconds(rows: list, seconds: list) -> list:
    """Each scoring's seconds with a job shared by several scorings (the same file for the
    same case, scored once: deduplicated) split evenly among them, so a suite's and the
    campaign's time count that job once."""
    sharing = {}
    for index, row in enumerate(rows):
        if row.get("candidateSha256") and seconds[index] is not None:
            sharing.setdefault((row["case"], row["candidateSha256"]), []).append(index)
    shared = list(seconds)
    for indices in sharing.values():
        for index in indices:
            shared[index] = seconds[index] / len(indices)
    return shared


def junit_text(document: dict, run_info: dict | None = None) -> str:
    """One <testcase> per case x system x run; FAIL = failure, NOT CHECKED = skipped.

    run_info adds what CI viewers read beside the verdicts: per-test 'time' (the scoring's
    seconds from the store, 0 when it was never scored), the suites' 'timestamp' and
    'hostname'. Without it the file holds verdicts only (the same inputs, the same bytes)."""
    run_info = run_info or {}
    seconds = run_info.get("seconds") or [None] * len(document["scorings"])
    seconds = _shared_seconds(document["scorings"], seconds)
    suites = ElementTree.Element("testsuites", name="cadbench campaign")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    total_time = 0.0
    for system in document["summary"]:
        indexed = [(i, r) for i, r in enumerate(document["scorings"]) if r["system"] == system]
        suite = ElementTree.SubElement(suites, "testsuite", name=system)
        if run_info.get("timestamp"):
            suite.set("timestamp", _timestamp(run_info["timestamp"]))
        if run_info.get("hostname"):
            suite.set("hostname", str(run_info["hostname"]))
        properties = ElementTree.SubElement(suite, "properties")
        for name in ("metricFingerprint", "drawingFingerprint"):
            ElementTree.SubElement(properties, "property", name=name, value=str(document[name]))
        _invalid_rate_properties(properties, (document.get("fieldFigures") or {}).get(system))
        counts = {"tests": len(indexed), "failures": 0, "skipped": 0}
        suite_time = 0.0
        for index, row in indexed:
            case = ElementTree.SubElement(
                suite, "testcase", classname=f"{system}.{row['run']}", name=row["case"]
            )
            if run_info:
                case.set("time", _seconds(seconds[index]))
                suite_time += seconds[index] or 0.0
            _field_properties(case, result_rows.field_rows(row))
            verdict = row["verdict"]
            if verdict["reachable"] == FAIL:
                counts["failures"] += 1
                failure = ElementTree.SubElement(
                    case, "failure", message=_why_failed(row), type="FAIL"
                )
                failure.text = failure_body(row)
            elif verdict["reachable"] == NOT_CHECKED:
                counts["skipped"] += 1
                why = (row["notChecked"] or {}).get("detail") or "a metric could not be evaluated"
                skipped = ElementTree.SubElement(case, "skipped", message=f"NOT CHECKED: {why}")
                skipped.text = failure_body(row) if row["checked"] else why
            out = ElementTree.SubElement(case, "system-out")
            out.text = (
                f"passed reachable: {verdict['reachable']}; formal: {verdict['formal']}; "
                f"candidate: {row['candidate'] or '-'}"
            )
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("errors", "0")
        if run_info:
            suite.set("time", _seconds(suite_time))
            total_time += suite_time
    for key, value in totals.items():
        suites.set(key, str(value))
    suites.set("errors", "0")
    if run_info:
        suites.set("time", _seconds(total_time))
    ElementTree.indent(suites)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        + ElementTree.tostring(suites, encoding="unicode")
        + "\n"
    )


__all__ = [
    "FILES", "as_json", "csv_text", "failure_body", "field_columns", "html_text", "junit_text",
    "write_reports",
]  # fmt: skip
