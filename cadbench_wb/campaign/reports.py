# SPDX-License-Identifier: LGPL-2.1-or-later
"""The campaign's report files (docs/campaigns.md lists them and their fields):

- results.json: the whole campaign, machine-readable, seed 000's internal names; no timings,
  no machine paths, so the same inputs give the same bytes however the run was interrupted;
- timings.json: what results.json leaves out (this run's counts, seconds per scoring);
- results.csv: one line per system x run x case;
- junit.xml: one test case per case x system x run (headline verdict: reachable);
- report.html: one self-contained page (tables and embedded plots), readable offline;
- scores/<system>/<run>/<case_id>.json: every full score result, for drill-down.
"""

import csv
import io
import json
import os
import xml.etree.ElementTree as ElementTree

from cadbench_wb.campaign.report_page import html_text
from cadbench_wb.metrics.verdicts import FAIL, NOT_CHECKED

FILES = ("results.json", "timings.json", "results.csv", "junit.xml", "report.html")


def _write(path: str, text: str) -> None:
    """Whole or not at all: a kill while writing leaves the previous file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)


def as_json(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_reports(out_dir: str, document: dict, stats: dict, full_results: list) -> dict:
    """Every report file; returns their paths by name."""
    paths = {name: os.path.join(out_dir, name) for name in FILES}
    _write(paths["results.json"], as_json(document))
    _write(paths["timings.json"], as_json(stats))
    _write(paths["results.csv"], csv_text(document))
    _write(paths["junit.xml"], junit_text(document))
    _write(paths["report.html"], html_text(document))
    for row, result in zip(document["scorings"], full_results, strict=True):
        if result is not None:
            target = os.path.join(
                out_dir, "scores", row["system"], row["run"], f"{row['case']}.json"
            )
            _write(target, as_json(result))
    return paths


# ---- CSV -------------------------------------------------------------------------------


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def csv_text(document: dict) -> str:
    metrics = document["metrics"]
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
        for metric in metrics:
            entry = row["verdicts"].get(metric, {})
            line += [row.get(metric), entry.get("verdict"), entry.get("reachable")]
        rates = row.get("randomHitRate") if isinstance(row.get("randomHitRate"), dict) else {}
        line += [
            row.get("referenceCoverage"),
            row.get("drawingSelfTest"),
            rates.get("length"),
            rates.get("angle"),
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
        f"{metric} {entry.get('reason', entry['verdict'])}"
        for metric, entry in row["verdicts"].items()
        if entry.get("reachable") == FAIL
    ]
    return "; ".join(parts) or "FAIL"


def junit_text(document: dict) -> str:
    """One <testcase> per case x system x run; FAIL = failure, NOT CHECKED = skipped."""
    suites = ElementTree.Element("testsuites", name="cadbench campaign")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for system in document["summary"]:
        rows = [r for r in document["scorings"] if r["system"] == system]
        suite = ElementTree.SubElement(suites, "testsuite", name=system)
        properties = ElementTree.SubElement(suite, "properties")
        for name in ("metricFingerprint", "drawingFingerprint"):
            ElementTree.SubElement(properties, "property", name=name, value=str(document[name]))
        counts = {"tests": len(rows), "failures": 0, "skipped": 0}
        for row in rows:
            case = ElementTree.SubElement(
                suite, "testcase", classname=f"{system}.{row['run']}", name=row["case"]
            )
            verdict = row["verdict"]
            if verdict["reachable"] == FAIL:
                counts["failures"] += 1
                ElementTree.SubElement(case, "failure", message=_why_failed(row), type="FAIL")
            elif verdict["reachable"] == NOT_CHECKED:
                counts["skipped"] += 1
                why = (row["notChecked"] or {}).get("detail") or "a metric could not be evaluated"
                ElementTree.SubElement(case, "skipped", message=f"NOT CHECKED: {why}")
            out = ElementTree.SubElement(case, "system-out")
            out.text = (
                f"passed reachable: {verdict['reachable']}; formal: {verdict['formal']}; "
                f"candidate: {row['candidate'] or '-'}"
            )
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("errors", "0")
    for key, value in totals.items():
        suites.set(key, str(value))
    suites.set("errors", "0")
    ElementTree.indent(suites)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        + ElementTree.tostring(suites, encoding="unicode")
        + "\n"
    )


__all__ = ["FILES", "as_json", "csv_text", "html_text", "junit_text", "write_reports"]
