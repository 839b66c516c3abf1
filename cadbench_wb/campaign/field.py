# SPDX-License-Identifier: LGPL-2.1-or-later
"""The field's figures of a campaign, per system, beside cadbench's: invalidRate with the
timeout it used, and the mean and median chamferDistance and voxelIoU64 (their protocols:
metrics/field_figures.py). Never used in a verdict or a pass rate."""

import statistics

from cadbench_wb.metrics import result_rows
from cadbench_wb.metrics.field_figures import PROTOCOLS
from cadbench_wb.results import result as results

INVALID_PROTOCOL = (
    "share of a system's checked scorings with no valid non-empty solid (delivered: false: "
    "missing, unreadable, a script that failed or timed out, ...)"
)


def field_row(result: dict) -> dict:
    """What a report row carries of a result's field figures."""
    row = {}
    figures = result.get("fieldFigures")
    if isinstance(figures, dict):
        row["fieldFigures"] = {name: (figures.get(name) or {}).get("value") for name in PROTOCOLS}
    return row


def _spread(values: list) -> dict | None:
    if not values:
        return None
    return results.rounded(
        {"mean": statistics.fmean(values), "median": statistics.median(values), "n": len(values)}
    )


def campaign_field_figures(rows: list, scoring_timeout: float, code_timeout: float) -> dict:
    """{system: {invalidRate, chamferDistance, voxelIoU64}}; the timeout beside invalidRate is
    the scripts' where the system delivered code, else the scoring's."""
    out = {}
    for system in sorted({r["system"] for r in rows}):
        mine = [r for r in rows if r["system"] == system and r.get("checked")]
        invalid = sum(1 for r in mine if r.get("delivered") is False)
        code = any((r.get("candidate") or "").endswith(".py") for r in mine)
        entry = {
            "invalidRate": {
                "count": invalid,
                "of": len(mine),
                "rate": results.rounded(invalid / len(mine)) if mine else None,
                "timeoutSeconds": code_timeout if code else scoring_timeout,
                "timeoutOf": "script" if code else "scoring",
                "protocol": INVALID_PROTOCOL,
            }
        }
        shown = [s for r in mine for s in result_rows.field_rows(r) if s.value is not None]
        for name, protocol in PROTOCOLS.items():
            values = [s.value for s in shown if s.name == name]
            entry[name] = {"over": _spread(values), "protocol": protocol}
        out[system] = entry
    return out


def field_text(document: dict) -> str:
    """The field's figures per system as `cadbench run` prints them, protocols named."""
    figures = document.get("fieldFigures") or {}
    if not figures:
        return ""
    lines = ["Field figures (other benchmarks' protocols, never in a verdict; README):"]
    lines.append("system  invalidRate (timeout)        chamferDistance mean  voxelIoU64 mean")
    for system, entry in figures.items():
        invalid = entry["invalidRate"]
        rate = "-" if invalid["rate"] is None else f"{100 * invalid['rate']:.1f}%"
        timeout = f"{invalid['timeoutSeconds']:g} s {invalid['timeoutOf']}"
        means = []
        for name in ("chamferDistance", "voxelIoU64"):
            over = entry[name]["over"]
            means.append("-" if not over else f"{over['mean']:.4f} ({over['n']})")
        shown = f"{invalid['count']}/{invalid['of']} {rate} ({timeout})"
        lines.append(f"{system}  {shown:<27}  {means[0]:<20}  {means[1]}")
    return "\n".join(lines)
