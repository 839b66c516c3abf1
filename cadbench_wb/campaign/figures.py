# SPDX-License-Identifier: LGPL-2.1-or-later
"""How a campaign's figures are read (seeds 000 and 004), from one row per scoring.

- Delivery rate is its own figure; means are over delivered candidates only and always
  stand beside it (missing deliveries do not lower the means).
- Passed (reachable) is the headline, passed (formal) beside it.
- NOT CHECKED leaves the denominator: "32 of 44", never folded into pass or fail. A scoring
  whose scorer was lost counts there, as does a case verdict nobody could evaluate.
- Anchoring and independent cases apart: the independent ones are the clean test.
- Repeated runs give ranges (min / median / max), per system and per case.
Metrics are whatever the results carry: a metric added to the scorer appears here by itself.
"""

import collections
import statistics

from cadbench_wb.campaign.manifest import group_of
from cadbench_wb.metrics import registry, result_rows
from cadbench_wb.metrics.verdicts import FAIL, NOT_APPLICABLE, NOT_CHECKED, NOT_RUN, PASS
from cadbench_wb.results import result as results

# Per-case ceilings and floors reported beside the metrics (seed 000's internal names).
CASE_FIGURES = registry.CASE_FIGURES
# Located recall beside dimensionRecall (never a verdict): each target counted only on the
# geometry that carries it. A scoring where it differs from the value match is flagged.
LOCATED_FIGURES = ("dimensionRecallLocated", "referenceCoverageLocated")
LABELS = {name: label.lower() for name, label in registry.LABELS.items()}


def ordered_metrics(names) -> list[str]:
    """Known metrics in the scorer's order, then any newer ones alphabetically."""
    names = set(names)
    known = [m for m in results.METRICS if m in names]
    return known + sorted(names - set(known))


def row_of(submission, case, result: dict | None, unchecked: dict | None = None) -> dict:
    """One scoring as the reports show it: internal metric names at the top level."""
    row = {
        "system": submission.system,
        "run": submission.run,
        "case": case.id,
        "group": group_of(case),
        "anchoring": case.anchoring,
        "candidate": submission.name if submission.path else None,
    }
    if result is None:
        row.update(
            checked=False,
            notChecked=unchecked or {"reason": "not_scored", "detail": "no result"},
            delivered=None,
            failure=None,
            verdicts={},
            verdict={"formal": NOT_CHECKED, "reachable": NOT_CHECKED},
        )
        return row
    row.update(checked=True, notChecked=None)
    row["delivered"] = result["delivered"]
    row["failure"] = result.get("failure")
    row["candidateSha256"] = (result.get("candidate") or {}).get("sha256")
    if (result.get("candidate") or {}).get("identicalToReference"):
        row["identicalToReference"] = True  # the reference's own bytes, delivered
    for metric in ordered_metrics(result.get("verdicts", {})):
        value = result.get(metric, result["verdicts"][metric].get("value"))
        row[metric] = value if isinstance(value, (int, float)) or value is None else None
    for name in CASE_FIGURES + LOCATED_FIGURES:
        if name in result:
            row[name] = result[name]
    if isinstance(result.get("dimensionLocated"), dict):
        row["locatedDiffers"] = bool(result["dimensionLocated"].get("differs"))
    row["verdicts"] = result.get("verdicts", {})
    row["verdict"] = result["verdict"]
    for name in ("metricFingerprint", "drawingFingerprint"):
        if result.get(name):
            row[name] = result[name]
    from cadbench_wb.campaign.field import field_row  # noqa: PLC0415 - heavy: loaded on first use

    row.update(field_row(result))  # the field's figures: reported, never in a verdict
    return row


def rows_metrics(rows) -> list[str]:
    return ordered_metrics(m for r in rows for m in r["verdicts"])


def _fraction(count: int, of: int) -> dict:
    return {"count": count, "of": of, "rate": results.rounded(count / of) if of else None}


def pass_figure(rows, key: str) -> dict:
    """Passed k of n, n = PASS + FAIL; NOT CHECKED counted apart (seed 004)."""
    values = [r["verdict"][key] for r in rows]
    passed, failed = values.count(PASS), values.count(FAIL)
    figure = _fraction(passed, passed + failed)
    figure["notChecked"] = len(values) - passed - failed
    return figure


def _metric_row(row, metric) -> result_rows.MetricRow:
    return result_rows.metric_rows(row, [metric])[0]


def _applicable(row, metric) -> bool:
    return _metric_row(row, metric).status != NOT_APPLICABLE


def metric_values(rows, metric) -> list[float]:
    return [
        r[metric]
        for r in rows
        if r["checked"] and r["delivered"] and r.get(metric) is not None and _applicable(r, metric)
    ]


def spread(values) -> dict | None:
    """min / median / max (and n) of what was measured; None when nothing was."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    return results.rounded(
        {
            "min": min(values),
            "median": statistics.median(values),
            "max": max(values),
            "n": len(values),
        }
    )


def located_rows(rows) -> list:
    """Delivered scorings with located figures (cases with targets)."""
    return [
        r
        for r in rows
        if r["checked"] and r["delivered"] and r.get("dimensionRecallLocated") is not None
    ]


def located_block(rows) -> dict | None:
    """Located recall beside dimensionRecall, both as means over the same scorings, and how
    many of them differ; None when no scoring has located figures."""
    located = located_rows(rows)
    if not located:
        return None
    means = {}
    for name in ("dimensionRecall", *LOCATED_FIGURES):
        values = [r[name] for r in located if r.get(name) is not None]
        means[name] = {
            "mean": results.rounded(sum(values) / len(values)) if values else None,
            "n": len(values),
        }
    return {
        "means": means,
        "differs": _fraction(sum(r.get("locatedDiffers", False) for r in located), len(located)),
    }


def _metric_verdicts(rows, metric) -> dict:
    """Each status's count over the rows (a metric not run is in none of them)."""
    counts = {"pass": 0, "fail": 0, "notChecked": 0, "notApplicable": 0, "passReachable": 0}
    keys = {PASS: "pass", FAIL: "fail", NOT_CHECKED: "notChecked", NOT_APPLICABLE: "notApplicable"}
    for row in rows:
        shown = _metric_row(row, metric)
        if shown.status != NOT_RUN:
            counts[keys[shown.status]] += 1
            counts["passReachable"] += shown.reachable == PASS
    return counts


def block(rows, metrics) -> dict:
    """The figures of a set of scorings."""
    checked = [r for r in rows if r["checked"]]
    delivered = [r for r in checked if r["delivered"]]
    failures = collections.Counter(r["failure"]["reason"] for r in checked if not r["delivered"])
    means = {}
    for metric in metrics:
        values = metric_values(rows, metric)
        means[metric] = {
            "mean": results.rounded(sum(values) / len(values)) if values else None,
            "n": len(values),
        }
    return {
        "scorings": len(rows),
        "notScored": len(rows) - len(checked),
        "delivery": _fraction(len(delivered), len(checked)),
        "failures": dict(sorted(failures.items())),
        "passedReachable": pass_figure(rows, "reachable"),
        "passedFormal": pass_figure(rows, "formal"),
        "means": means,
        "metricVerdicts": {m: _metric_verdicts(rows, m) for m in metrics},
        "located": located_block(rows),
    }


def system_summary(rows, metrics) -> dict:
    summary = block(rows, metrics)
    summary["independent"] = block([r for r in rows if not r["anchoring"]], metrics)
    summary["anchoring"] = block([r for r in rows if r["anchoring"]], metrics)
    by_group = collections.defaultdict(list)
    for row in rows:
        by_group[row["group"]].append(row)
    summary["groups"] = {
        group: {
            "cases": len({r["case"] for r in grouped}),
            "passedReachable": pass_figure(grouped, "reachable"),
            "passedFormal": pass_figure(grouped, "formal"),
        }
        for group, grouped in sorted(by_group.items())
    }
    runs = sorted({r["run"] for r in rows})
    per_run = {run: block([r for r in rows if r["run"] == run], metrics) for run in runs}
    summary["runs"] = {
        run: {k: b[k] for k in ("delivery", "passedReachable", "passedFormal", "means")}
        for run, b in per_run.items()
    }
    summary["ranges"] = {
        "deliveryRate": spread(b["delivery"]["rate"] for b in per_run.values()),
        "passedReachable": spread(b["passedReachable"]["rate"] for b in per_run.values()),
        "passedFormal": spread(b["passedFormal"]["rate"] for b in per_run.values()),
        "means": {m: spread(b["means"][m]["mean"] for b in per_run.values()) for m in metrics},
    }
    by_case = collections.defaultdict(list)
    for row in rows:
        by_case[row["case"]].append(row)
    summary["cases"] = {
        case: {
            "runs": len(case_rows),
            "delivered": sum(1 for r in case_rows if r["checked"] and r["delivered"]),
            "passedReachable": pass_figure(case_rows, "reachable"),
            "passedFormal": pass_figure(case_rows, "formal"),
            "ranges": {m: spread(metric_values(case_rows, m)) for m in metrics},
            "located": _case_located(case_rows),
        }
        for case, case_rows in sorted(by_case.items())
    }
    return summary


def _case_located(rows) -> dict | None:
    located = located_rows(rows)
    if not located:
        return None
    return {
        "dimensionRecallLocated": spread(r["dimensionRecallLocated"] for r in located),
        "differs": sum(r.get("locatedDiffers", False) for r in located),
    }


def campaign_summary(rows) -> dict:
    metrics = rows_metrics(rows)
    systems = sorted({r["system"] for r in rows})
    return {s: system_summary([r for r in rows if r["system"] == s], metrics) for s in systems}


# ---- plain-text tables -------------------------------------------------------------------


def percent(figure: dict) -> str:
    """'32/44  72.7%' ('-' when nothing could be counted)."""
    if not figure or not figure["of"]:
        return f"{figure['count'] if figure else 0}/0      -"
    return f"{figure['count']}/{figure['of']} {100 * figure['rate']:5.1f}%"


def number(value) -> str:
    return "-" if value is None else f"{value:.4f}"


def spread_text(entry, scale: float = 1.0, digits: int = 3) -> str:
    if not entry:
        return "-"
    return " / ".join(f"{scale * entry[k]:.{digits}f}" for k in ("min", "median", "max"))


# Terminals and CI logs are read at this width; wider tables are split into column groups.
TABLE_WIDTH = 120


def _lines_of(header: list[str], lines: list[list[str]]) -> list[str]:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *lines, strict=False)]
    return [
        "  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=False)).rstrip()
        for row in [header, *lines]
    ]


def _column_groups(header, lines, width: int) -> list[list[int]]:
    """Column indices per printed block: the first (row label) column leads every block and
    the others follow in order while the block stays within the width."""
    widths = [max(len(str(x)) for x in column) for column in zip(header, *lines, strict=False)]
    groups, current, used = [], [], widths[0]
    for index in range(1, len(widths)):
        if current and used + 2 + widths[index] > width:
            groups.append(current)
            current, used = [], widths[0]
        current.append(index)
        used += 2 + widths[index]
    return groups + [current] if current else groups or [[]]


def table(header: list[str], lines: list[list[str]], width: int = TABLE_WIDTH) -> list[str]:
    """Plain columns; a table wider than the width prints as several blocks, each led by
    the first column, so no line wraps in a terminal or a CI log."""
    groups = _column_groups(header, lines, width)
    out = []
    for number, group in enumerate(groups):
        keep = [0, *group]
        if number:
            out.append("")
        out += _lines_of([header[i] for i in keep], [[row[i] for i in keep] for row in lines])
    return out


def closing_line(document: dict, seconds: float | None = None) -> str:
    """pytest's closing line for a campaign, over every scoring's reachable verdict:
    '== 3 passed, 1 failed, 2 not checked in 12.3s =='."""
    values = [r["verdict"]["reachable"] for r in document["scorings"]]
    parts = [f"{values.count(PASS)} passed", f"{values.count(FAIL)} failed"]
    if values.count(NOT_CHECKED):
        parts.append(f"{values.count(NOT_CHECKED)} not checked")
    took = f" in {seconds:.1f}s" if seconds is not None else ""
    return f"== {', '.join(parts)}{took} =="


def systems_below(document: dict, rate: float) -> dict:
    """Systems whose passed (reachable) rate is below the rate (`run --fail-under`), with their
    rate; a system with nothing checked counts as below (nothing was shown to pass)."""
    below = {}
    for system, summary in document["summary"].items():
        figure = summary["passedReachable"]
        if figure["rate"] is None or figure["rate"] < rate - 1e-12:
            below[system] = figure["rate"]
    return below


def text_summary(document: dict) -> str:
    """The tables an operator reads at the end of a run (and `cadbench compare` reuses)."""
    campaign, summary = document["campaign"], document["summary"]
    metrics = document["metrics"]
    groups = ", ".join(f"{g} {n}" for g, n in campaign["groups"].items())
    out = [
        f"campaign: {campaign['cases']} cases ({groups}); "
        + "; ".join(f"{s}: {len(r)} run(s)" for s, r in campaign["systems"].items()),
        f"metricFingerprint {document['metricFingerprint']}  "
        f"drawingFingerprint {document.get('drawingFingerprint') or '-'}",
        "",
        "Headline: passed (reachable), with passed (formal) beside it; NOT CHECKED is outside",
        "the denominator. Means are over delivered candidates only: read them with the",
        "delivery rate.",
    ]
    header = ["system", "passed (reachable)", "passed (formal)", "NOT CHECKED", "delivery"]
    header += [f"{m} mean (n)" for m in metrics]
    lines = []
    for system, s in summary.items():
        line = [
            system,
            percent(s["passedReachable"]),
            percent(s["passedFormal"]),
            str(s["passedReachable"]["notChecked"]),
            percent(s["delivery"]),
        ]
        line += [f"{number(s['means'][m]['mean'])} ({s['means'][m]['n']})" for m in metrics]
        lines.append(line)
    out += table(header, lines)
    out += ["", "Independent vs anchoring cases, passed (reachable) / (formal):"]
    lines = [
        [
            system,
            f"{percent(s['independent']['passedReachable'])} / "
            f"{percent(s['independent']['passedFormal'])}",
            f"{percent(s['anchoring']['passedReachable'])} / "
            f"{percent(s['anchoring']['passedFormal'])}",
        ]
        for system, s in summary.items()
    ]
    out += table(["system", "independent", "anchoring"], lines)
    out += ["", "Ranges over runs, min / median / max:"]
    header = ["system", "runs", "passed reachable %", "passed formal %", "delivery %"]
    header += [f"{m} mean" for m in metrics]
    lines = []
    for system, s in summary.items():
        r = s["ranges"]
        line = [
            system,
            str(len(s["runs"])),
            spread_text(r["passedReachable"], 100, 1),
            spread_text(r["passedFormal"], 100, 1),
            spread_text(r["deliveryRate"], 100, 1),
        ]
        line += [spread_text(r["means"][m]) for m in metrics]
        lines.append(line)
    out += table(header, lines)
    out += located_text(document)
    failures = {s: v["failures"] for s, v in summary.items() if v["failures"]}
    unscored = {s: v["notScored"] for s, v in summary.items() if v["notScored"]}
    if failures:
        out += [
            "",
            "Delivery failures: "
            + "; ".join(
                f"{s}: " + ", ".join(f"{k} {n}" for k, n in f.items()) for s, f in failures.items()
            ),
        ]
    if unscored:
        out += [
            "",
            "Not scored (scorer lost or reference broken; rerun to retry): "
            + ", ".join(f"{s} {n}" for s, n in unscored.items()),
        ]
    return "\n".join(out)


# Differing scorings listed by name in the terminal summary; the rest are counted.
LOCATED_LISTED = 12


def differing_rows(document: dict) -> list:
    return [r for r in located_rows(document["scorings"]) if r.get("locatedDiffers")]


def located_text(document: dict) -> list[str]:
    """Located recall beside dimensionRecall per system (means over the same delivered
    scorings), and the scorings where the two differ; nothing without located figures."""
    summary = document["summary"]
    blocks = {s: v.get("located") for s, v in summary.items() if v.get("located")}
    if not blocks:
        return []
    out = [
        "",
        "Located dimension recall beside dimensionRecall (verdicts use dimensionRecall; means",
        "over the same delivered candidates). DIFFERS: a value found, but not on the geometry",
        "that carries it, or a pattern member wrong:",
    ]
    header = ["system", "dimensionRecall", "dimensionRecallLocated", "referenceCoverageLocated"]
    header.append("DIFFERS")
    lines = [
        [system]
        + [
            f"{number(b['means'][n]['mean'])} ({b['means'][n]['n']})"
            for n in ("dimensionRecall", *LOCATED_FIGURES)
        ]
        + [f"{b['differs']['count']} of {b['differs']['of']}"]
        for system, b in blocks.items()
    ]
    out += table(header, lines)
    differing = differing_rows(document)
    for row in differing[:LOCATED_LISTED]:
        out.append(
            f"  DIFFERS {row['system']}/{row['run']}/{row['case']}: dimensionRecall "
            f"{number(row.get('dimensionRecall'))}, located {number(row['dimensionRecallLocated'])}"
            f" (coverage {number(row.get('referenceCoverage'))}, located "
            f"{number(row.get('referenceCoverageLocated'))})"
        )
    if len(differing) > LOCATED_LISTED:
        out.append(f"  ... and {len(differing) - LOCATED_LISTED} more (report.html lists all)")
    return out


def case_table(document: dict, metric: str) -> list[str]:
    """Per case and system: min / median / max of one metric over delivered runs."""
    summary = document["summary"]
    systems = list(summary)
    cases = sorted({c for s in summary.values() for c in s["cases"]})
    lines = []
    for case in cases:
        line = [case]
        for system in systems:
            entry = summary[system]["cases"].get(case)
            if entry is None:
                line.append("-")
                continue
            text = spread_text(entry["ranges"].get(metric))
            line.append(f"{text} ({entry['delivered']}/{entry['runs']} delivered)")
        lines.append(line)
    return table([f"case ({metric})"] + systems, lines)
