# SPDX-License-Identifier: LGPL-2.1-or-later
"""report.html: one self-contained page (inline style, plots as embedded PNGs, one small
inline script that sorts and filters the tables, nothing fetched), so it reads the same
offline, attached to a mail or archived with CI. Each scoring links its full JSON
(scores/<system>/<run>/<case>.json beside the page)."""

import base64
import html
import json
import urllib.parse

from cadbench_wb.campaign import figures, plots
from cadbench_wb.metrics import result_rows
from cadbench_wb.metrics.verdicts import FAIL, NOT_APPLICABLE, NOT_RUN, PASS

# Wide tables scroll inside their own box, so the page fits any window (1400 px and less).
STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; max-width: 1400px; color: #222; }
.wide { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .6em 0 1.4em; }
th.key, td.key { position: sticky; z-index: 1; background: #fff; }
th.key { background: #f2f2f2; }
th.sortable { cursor: pointer; } th.sortable::after { content: " \\2195"; color: #999; }
input.filter { margin: .3em 0; padding: .2em .4em; width: 24em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.PASS { color: #1a7f37; } .FAIL { color: #c0392b; } .NC { color: #8a6d00; }
.DIFF { color: #7b1fa2; font-weight: 600; }
.note { color: #555; } img { max-width: 100%; border: 1px solid #eee; margin: .3em 0; }
code { background: #f6f6f6; padding: 0 .2em; }
"""
PASS_HEADER = ["passed (reachable)", "passed (formal)", "NOT CHECKED"]


def _e(value) -> str:
    return html.escape("" if value is None else str(value))


# Click a header to sort by it (numbers as numbers, a rate "4/5 80.0%" or "3 of 4" by its
# rate, "0/0 -" after every rate), type in a filter box to keep the rows that contain the
# text; the key columns (class key: who, which case, the verdicts) stay in view when a wide
# table scrolls sideways. Plain DOM calls: no library, nothing fetched.
SCRIPT = """
function cbKey(cell) {
  var t = cell.textContent.trim(), rate = /^(\\d+)\\s*(?:\\/|of)\\s*(\\d+)/.exec(t);
  if (rate) return +rate[2] ? [0, rate[1] / rate[2]] : [2, 0];
  var n = parseFloat(t.replace('%', ''));
  return isNaN(n) || !/^[-0-9.]/.test(t) ? [1, t.toLowerCase()] : [0, n];
}
function cbPin(table) {
  Array.from(table.rows).forEach(function (row) {
    var left = 0;
    Array.from(row.cells).forEach(function (cell) {
      if (!cell.classList.contains('key')) return;
      cell.style.left = left + 'px'; left += cell.getBoundingClientRect().width;
    });
  });
}
document.querySelectorAll('table.sortable').forEach(cbPin);
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th, column) {
    th.classList.add('sortable');
    th.addEventListener('click', function () {
      var body = table.tBodies[0], rows = Array.from(body.rows);
      var down = th.dataset.order !== 'asc'; th.dataset.order = down ? 'asc' : 'desc';
      rows.sort(function (a, b) {
        var x = cbKey(a.cells[column]), y = cbKey(b.cells[column]);
        var c = x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0);
        return down ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
document.querySelectorAll('input.filter').forEach(function (box) {
  box.addEventListener('input', function () {
    var table = document.getElementById('table-' + box.dataset.table), text = box.value.toLowerCase();
    Array.from(table.tBodies[0].rows).forEach(function (r) {
      r.style.display = r.textContent.toLowerCase().indexOf(text) >= 0 ? '' : 'none';
    });
  });
});
"""


def _table(
    header: list[str],
    rows: list[list[str]],
    numeric_from: int = 1,
    table_id: str | None = None,
    keys: int = 1,
) -> str:
    """Cells are already escaped HTML; columns from numeric_from on are right-aligned, the
    first ``keys`` stay in view when the table scrolls sideways. Every table sorts by a
    click on its header; one with an id (``table-<id>``: headings have ids of their own)
    gets a filter box above it."""

    def css(i: int) -> str:
        names = ("num" if i >= numeric_from else "") + (" key" if i < keys else "")
        return f" class='{names.strip()}'" if names else ""

    head = "".join(
        f"<th class='key'>{_e(h)}</th>" if i < keys else f"<th>{_e(h)}</th>"
        for i, h in enumerate(header)
    )
    body = []
    for row in rows:
        cells = [f"<td{css(i)}>{cell}</td>" for i, cell in enumerate(row)]
        body.append("<tr>" + "".join(cells) + "</tr>")
    filter_box, id_attribute = "", ""
    if table_id:
        id_attribute = f" id='table-{table_id}'"
        filter_box = (
            f"<input class='filter' data-table='{table_id}' placeholder='filter rows "
            "(system, case, verdict, reason...)'>"
        )
    return (
        f"{filter_box}<div class='wide'><table class='sortable'{id_attribute}><thead><tr>{head}"
        f"</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def _css(status: str) -> str:
    return {PASS: "PASS", FAIL: "FAIL", NOT_APPLICABLE: "note", NOT_RUN: "note"}.get(status, "NC")


def _verdict(verdict: str) -> str:
    return f"<span class='{_css(verdict)}'>{_e(verdict)}</span>"


def _img(png: bytes, alt: str) -> str:
    return f"<img alt='{_e(alt)}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>"


def _spread(entry, scale=1.0, digits=3) -> str:
    return _e(figures.spread_text(entry, scale, digits))


def _pass_cells(block: dict) -> list[str]:
    return [
        _e(figures.percent(block["passedReachable"])),
        _e(figures.percent(block["passedFormal"])),
        _e(block["passedReachable"]["notChecked"]),
    ]


def _header(document: dict) -> list[str]:
    campaign = document["campaign"]
    groups = ", ".join(f"{g} {n}" for g, n in campaign["groups"].items())
    return [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>cadbench campaign</title>",
        f"<style>{STYLE}</style></head><body><h1>cadbench campaign</h1>",
        f"<p>{campaign['cases']} cases in {len(campaign['groups'])} group(s) ({_e(groups)}); "
        f"{len(campaign['systems'])} system(s); {campaign['scorings']} scorings. Metric "
        f"fingerprint <code>{_e(document['metricFingerprint'])}</code>, drawing fingerprint "
        f"<code>{_e(document['drawingFingerprint'])}</code>; options "
        f"<code>{_e(json.dumps(document['options'], sort_keys=True))}</code>.</p>",
        "<p class='note'>Headline: <b>passed (reachable)</b> &mdash; each metric above its "
        "threshold or at the case's ceiling; passed (formal) on raw values beside it. NOT "
        "CHECKED (nobody could look) is outside the denominator. Means are over delivered "
        "candidates only: read them beside the delivery rate.</p>",
    ]


def _systems(summary: dict, metrics: list[str]) -> list[str]:
    header = ["system"] + PASS_HEADER + ["delivery rate"]
    header += [f"{m} mean (n delivered)" for m in metrics]
    rows = []
    for system, s in summary.items():
        means = [
            f"{_e(figures.number(s['means'][m]['mean']))} ({s['means'][m]['n']})" for m in metrics
        ]
        rows.append([_e(system)] + _pass_cells(s) + [_e(figures.percent(s["delivery"]))] + means)
    return [
        "<h2>Systems</h2>",
        _table(header, rows),
        _img(plots.pass_rates_png(summary), "pass rates"),
    ]


def _independent_and_anchoring(summary: dict, anchoring_cases: list[str]) -> list[str]:
    rows = [
        [_e(system), label] + _pass_cells(s[label]) + [_e(figures.percent(s[label]["delivery"]))]
        for system, s in summary.items()
        for label in ("independent", "anchoring")
    ]
    return [
        "<h2>Independent and anchoring cases</h2><p class='note'>Anchoring cases shaped the "
        "rules of thumb and are optimistically biased; the independent cases are the clean "
        f"test. Anchoring: {_e(', '.join(anchoring_cases) or 'none')}.</p>",
        _table(["system", "cases"] + PASS_HEADER + ["delivery"], rows, numeric_from=2),
    ]


def _ranges(summary: dict, metrics: list[str]) -> list[str]:
    rows = []
    for system, s in summary.items():
        r = s["ranges"]
        rows.append(
            [_e(system), _e(len(s["runs"]))]
            + [_spread(r[k], 100, 1) for k in ("passedReachable", "passedFormal", "deliveryRate")]
            + [_spread(r["means"][m]) for m in metrics]
        )
    header = ["system", "runs", "passed reachable %", "passed formal %", "delivery %"]
    return [
        "<h2>Ranges over runs</h2><p class='note'>min / median / max of each run's figure; a "
        "single run's figure is not the system's.</p>",
        _table(header + [f"{m} mean" for m in metrics], rows),
    ]


def _groups_and_verdicts(summary: dict, metrics: list[str]) -> list[str]:
    groups = [
        [_e(system), _e(group), _e(g["cases"])] + _pass_cells(g)
        for system, s in summary.items()
        for group, g in s["groups"].items()
    ]
    keys = ("pass", "passReachable", "fail", "notChecked", "notApplicable")
    verdicts = [
        [_e(system), _e(m)] + [_e(s["metricVerdicts"][m][k]) for k in keys]
        for system, s in summary.items()
        for m in metrics
    ]
    failures = [
        [_e(s), _e(reason), _e(n)]
        for s, v in summary.items()
        for reason, n in v["failures"].items()
    ]
    parts = [
        "<h2>Groups</h2>",
        _table(["system", "group", "cases"] + PASS_HEADER, groups, numeric_from=2),
        "<h2>Metric verdicts</h2>",
        _table(
            ["system", "metric", "PASS", "PASS reachable", "FAIL", "NOT CHECKED", "not applicable"],
            verdicts,
            numeric_from=2,
        ),
    ]
    if failures:
        parts += [
            "<h2>Delivery failures</h2>",
            _table(["system", "reason", "count"], failures, numeric_from=2),
        ]
    return parts


def _field_median(over: dict | None) -> str:
    return "-" if not over else _e(f"{figures.number(over['median'])} ({over['n']})")


def _field_figures(document: dict) -> list[str]:
    """The field's figures (campaign/field.py): per system the invalid rate with its timeout
    and the median chamferDistance and voxelIoU64 over the delivered scorings, each protocol
    named; per scoring both values. Nothing for a document written before they existed."""
    systems = document.get("fieldFigures") or {}
    if not systems:
        return []
    header = ["system", "invalidRate", "timeout", "chamferDistance median (n)"]
    header += ["chamferDistance mean", "voxelIoU64 median (n)", "voxelIoU64 mean"]
    rows = []
    for system, entry in systems.items():
        invalid, cd, vox = entry["invalidRate"], entry["chamferDistance"], entry["voxelIoU64"]
        rows.append(
            [
                _e(system),
                _e(figures.percent(invalid)),
                _e(f"{invalid['timeoutSeconds']:g} s ({invalid['timeoutOf']})"),
                _field_median(cd["over"]),
                _e(figures.number((cd["over"] or {}).get("mean"))),
                _field_median(vox["over"]),
                _e(figures.number((vox["over"] or {}).get("mean"))),
            ]
        )
    first = next(iter(systems.values()))
    protocols = "".join(
        f"<li><b>{_e(name)}</b>: {_e(first[name]['protocol'])}</li>"
        for name in ("invalidRate", "chamferDistance", "voxelIoU64")
    )
    pairs = [
        [_e(r["system"]), _e(r["run"]), _e(r["case"]), _e(_delivery_text(r))]
        + [_e(figures.number(shown.value)) for shown in result_rows.field_rows(r)]
        + [_score_link(r)]
        for r in document["scorings"]
        if result_rows.field_rows(r)
    ]
    parts = [
        "<h2 id='field-figures'>Field figures (other benchmarks' protocols)</h2><p class='note'>"
        "Beside cadbench's figures, never in a verdict or a pass rate, so a paper's number can "
        "be set beside them. chamferDistance: lower is closer (&times;10&sup3;; identical "
        "shapes score the sampling floor, not 0); voxelIoU64: 1 is identical. Medians and "
        "means are over the delivered scorings; invalidRate counts the checked ones.</p>",
        _table(header, rows),
        f"<ul class='note'>{protocols}</ul>",
    ]
    if pairs:
        labels = [shown.label for shown in result_rows.field_rows({"fieldFigures": {}})]
        header = ["system", "run", "case", "delivery", *labels, "result"]
        parts += [
            "<h3>Field figures per scoring</h3>",
            _table(header, pairs, numeric_from=4, table_id="field", keys=3),
        ]
    return parts


def _metric(document: dict, metric: str) -> list[str]:
    summary = document["summary"]
    threshold = document["thresholds"].get(metric)
    parts = [f"<h2>{_e(metric)} ({_e(figures.LABELS.get(metric, metric))})</h2>"]
    if not figures.metric_values(document["scorings"], metric):
        return parts + [
            "<p class='note'>No delivered candidate has a value: the metric did not apply to "
            "any scored case, or nobody could evaluate it.</p>"
        ]
    distribution = plots.distribution_png(document["scorings"], metric, list(summary), threshold)
    return parts + [
        _img(distribution, f"{metric} distribution"),
        _img(plots.case_ranges_png(summary, metric, threshold), f"{metric} per-case ranges"),
        "<pre>" + _e("\n".join(figures.case_table(document, metric))) + "</pre>",
    ]


def _located(document: dict) -> list[str]:
    """Located recall beside dimensionRecall: per system, a scatter of the two, and every
    scoring where they differ (nothing when no scoring has located figures)."""
    summary = document["summary"]
    blocks = {s: v.get("located") for s, v in summary.items() if v.get("located")}
    if not blocks:
        return []
    names = ("dimensionRecall", *figures.LOCATED_FIGURES)
    rows = [
        [_e(system)]
        + [_e(f"{figures.number(b['means'][n]['mean'])} ({b['means'][n]['n']})") for n in names]
        + [_e(f"{b['differs']['count']} of {b['differs']['of']}")]
        for system, b in blocks.items()
    ]
    differing = [
        [
            _e(r["system"]),
            _e(r["run"]),
            _e(r["case"]),
            _e(figures.number(r.get("dimensionRecall"))),
            _e(figures.number(r["dimensionRecallLocated"])),
            _e(figures.number(r.get("referenceCoverage"))),
            _e(figures.number(r.get("referenceCoverageLocated"))),
            _score_link(r),
        ]
        for r in figures.differing_rows(document)
    ]
    parts = [
        "<h2 id='located-recall'>Located dimension recall</h2><p class='note'>Beside seed 000's dimensionRecall, "
        "never instead of it (the verdicts use dimensionRecall): <b>dimensionRecallLocated</b> "
        "counts a target only where the geometry that carries it on the reference lands on "
        "the candidate, a pattern per member; <b>referenceCoverageLocated</b> is its ceiling. "
        "<span class='DIFF'>DIFFERS</span>: a value found, but elsewhere, or one member of a "
        "pattern wrong (each scoring's JSON says which target and why).</p>",
        _table(["system", *(f"{n} mean (n)" for n in names), "DIFFERS"], rows),
        _img(plots.located_png(document["scorings"], list(summary)), "located recall"),
    ]
    if differing:
        header = ["system", "run", "case", "dimensionRecall", "dimensionRecallLocated"]
        header += ["referenceCoverage", "referenceCoverageLocated", "result"]
        parts += [
            "<h3>Scorings where they differ</h3>",
            _table(header, differing, numeric_from=3, table_id="located", keys=3),
        ]
    return parts


def _located_cell(row: dict) -> str:
    value = row.get("dimensionRecallLocated")
    if value is None:
        return "-"
    flag = " <span class='DIFF'>DIFFERS</span>" if row.get("locatedDiffers") else ""
    return _e(figures.number(value)) + flag


def _delivery_text(row: dict) -> str:
    if not row["checked"]:
        return f"NOT CHECKED: {(row['notChecked'] or {}).get('detail', '')}"
    if row["delivered"]:
        # A delivery whose bytes are the reference's own (campaign/figures.py): a system that
        # could read the answer, flagged where an operator reads the scorings.
        if row.get("identicalToReference"):
            return "delivered: the reference's own bytes (identicalToReference)"
        return "delivered"
    return f"{row['failure']['reason']}: {row['failure']['detail']}"


def _score_link(row: dict) -> str:
    """The scoring's full JSON beside the page (written for every scored row)."""
    if not row["checked"]:
        return "-"
    target = "/".join(urllib.parse.quote(p) for p in (row["system"], row["run"], row["case"]))
    return f"<a href='scores/{target}.json'>json</a>"


def _metric_cell(shown: result_rows.MetricRow) -> str:
    """A metric's figure coloured by its formal status; the status (and its reason) in the
    cell's data-status and title. A metric that does not apply says so instead."""
    if shown.status == NOT_APPLICABLE:
        text, title = NOT_APPLICABLE.value, shown.reason
    else:
        text = figures.number(shown.value)
        title = f"{shown.status}: {shown.reason}" if shown.reason else shown.status.value
    return (
        f"<span class='{_css(shown.status)}' data-status='{_e(shown.status)}' "
        f"title='{_e(title)}'>{_e(text)}</span>"
    )


def _scorings(document: dict) -> list[str]:
    metrics = document["metrics"]
    located = bool(figures.located_rows(document["scorings"]))
    rows = [
        [
            _e(row["system"]),
            _e(row["run"]),
            _e(row["case"]),
            _verdict(row["verdict"]["reachable"]),
            _verdict(row["verdict"]["formal"]),
            _e(row["candidate"] or "-"),
            _e(_delivery_text(row)),
            _score_link(row),
        ]
        + [_metric_cell(shown) for shown in result_rows.metric_rows(row, metrics)]
        + ([_located_cell(row)] if located else [])
        for row in document["scorings"]
    ]
    header = ["system", "run", "case", "reachable", "formal", "candidate", "delivery", "result"]
    header += metrics + (["dimensionRecallLocated"] if located else [])
    parts = [
        "<h2>Every scoring</h2>",
        _table(header, rows, numeric_from=8, table_id="scorings", keys=5),
    ]
    campaign = document["campaign"]
    for key, title in (
        ("unmatchedFiles", "Files named after no case"),
        ("ignoredFiles", "Further files for a case (not scored)"),
    ):
        if campaign[key]:
            items = "".join(f"<li><code>{_e(f)}</code></li>" for f in campaign[key])
            parts.append(f"<h2>{title}</h2><ul>{items}</ul>")
    return parts


def html_text(document: dict) -> str:
    summary, metrics = document["summary"], document["metrics"]
    parts = _header(document)
    parts += _systems(summary, metrics)
    parts += _field_figures(document)
    parts += _independent_and_anchoring(summary, document["campaign"]["anchoringCases"])
    parts += _ranges(summary, metrics)
    parts += _groups_and_verdicts(summary, metrics)
    for metric in metrics:
        parts += _metric(document, metric)
        if metric == "dimensionRecall":
            parts += _located(document)
    parts += _scorings(document)
    parts.append(f"<script>{SCRIPT}</script></body></html>\n")
    return "\n".join(parts)
