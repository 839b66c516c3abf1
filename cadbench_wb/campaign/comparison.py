# SPDX-License-Identifier: LGPL-2.1-or-later
"""Two campaigns side by side, only under one standard.

Figures scored under different metric fingerprints are not comparable: a movement would be
a shifted standard, not a model or environment effect (seed 000). So compare refuses to mix
them. When the two case sets differ, both are re-summarised over the cases they share, and
the cases only one of them has are named.
"""

import json
import os

from cadbench_wb.campaign import figures
from cadbench_wb.errors import UsageError
from cadbench_wb.results import result as results


class FingerprintMismatch(UsageError):
    reason = "fingerprint_mismatch"


def load(path: str) -> dict:
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(document, dict) or document.get("schema") != "cadbench.campaign/1":
        raise UsageError(f"{path}: not a cadbench campaign results.json")
    for row in document.get("scorings") or []:
        results.upgraded(row)  # rows written by a cadbench of score schema /1
    document["path"] = path
    return document


def _stamps(document: dict) -> dict:
    stamps = {"metricFingerprint": document["metricFingerprint"]}
    if "drawingMatch" in document["metrics"]:
        stamps["drawingFingerprint"] = document.get("drawingFingerprint")
    return stamps


def compared(a: dict, b: dict) -> dict:
    for name in ("metricFingerprint", "drawingFingerprint"):
        left, right = _stamps(a).get(name), _stamps(b).get(name)
        if name in _stamps(a) or name in _stamps(b):
            if left != right:
                raise FingerprintMismatch(
                    f"{name} differs ({left} in {a['path']}, {right} in {b['path']}): the two "
                    "campaigns were scored under different standards and are not comparable; "
                    "rescore one of them with the other's cadbench"
                )
    cases_a = {c["id"] for c in a["cases"]}
    cases_b = {c["id"] for c in b["cases"]}
    common = cases_a & cases_b
    if not common:
        raise UsageError("the two campaigns have no case in common")
    summaries = [
        figures.campaign_summary([r for r in d["scorings"] if r["case"] in common]) for d in (a, b)
    ]
    return {
        "a": a["path"],
        "b": b["path"],
        "metricFingerprint": a["metricFingerprint"],
        "commonCases": len(common),
        "onlyInA": sorted(cases_a - cases_b),
        "onlyInB": sorted(cases_b - cases_a),
        "metrics": figures.ordered_metrics(set(a["metrics"]) | set(b["metrics"])),
        "systems": _side_by_side(summaries[0], summaries[1]),
    }


def _figures_of(summary: dict | None) -> dict | None:
    if summary is None:
        return None
    return {
        "passedReachable": summary["passedReachable"],
        "passedFormal": summary["passedFormal"],
        "delivery": summary["delivery"],
        "notChecked": summary["passedReachable"]["notChecked"],
        "means": summary["means"],
        # Located recall's means over the same delivered scorings (None without targets).
        "located": summary.get("located"),
        "runs": len(summary["runs"]),
    }


def _side_by_side(a: dict, b: dict) -> dict:
    return {
        system: {"a": _figures_of(a.get(system)), "b": _figures_of(b.get(system))}
        for system in sorted(set(a) | set(b))
    }


def _delta(left, right, scale=1.0, digits=1) -> str:
    if left is None or right is None:
        return "-"
    return f"{scale * (right - left):+.{digits}f}"


def comparison_text(result: dict) -> str:
    out = [
        f"A: {result['a']}",
        f"B: {result['b']}",
        f"metricFingerprint {result['metricFingerprint']} (the same for both); "
        f"{result['commonCases']} case(s) compared",
    ]
    if result["onlyInA"] or result["onlyInB"]:
        out.append(
            "case sets differ, figures recomputed over the shared cases; only in A: "
            f"{', '.join(result['onlyInA']) or '-'}; "
            f"only in B: {', '.join(result['onlyInB']) or '-'}"
        )
    header = ["system", "figure", "A", "B", "B - A"]
    lines = []
    for system, pair in result["systems"].items():
        a, b = pair["a"], pair["b"]
        for key, label in (
            ("passedReachable", "passed (reachable)"),
            ("passedFormal", "passed (formal)"),
            ("delivery", "delivery rate"),
        ):
            fa, fb = (a or {}).get(key), (b or {}).get(key)
            lines.append(
                [
                    system,
                    label,
                    figures.percent(fa) if fa else "-",
                    figures.percent(fb) if fb else "-",
                    _delta(fa and fa["rate"], fb and fb["rate"], 100) + " pts",
                ]
            )
        lines.append(
            [
                system,
                "NOT CHECKED",
                str((a or {}).get("notChecked", "-")),
                str((b or {}).get("notChecked", "-")),
                "",
            ]
        )
        for metric in result["metrics"]:
            ma = ((a or {}).get("means") or {}).get(metric) or {}
            mb = ((b or {}).get("means") or {}).get(metric) or {}
            lines.append(
                [
                    system,
                    f"{metric} mean (delivered)",
                    f"{figures.number(ma.get('mean'))} ({ma.get('n', 0)})",
                    f"{figures.number(mb.get('mean'))} ({mb.get('n', 0)})",
                    _delta(ma.get("mean"), mb.get("mean"), 1, 4),
                ]
            )
            if metric == "dimensionRecall":
                lines += _located_lines(system, a, b)
    out += figures.table(header, lines)
    return "\n".join(out)


def _located_lines(system: str, a: dict | None, b: dict | None) -> list:
    """Located recall's means beside dimensionRecall's, when both campaigns carry them
    (campaigns scored before located recall existed do not)."""
    located = [(side or {}).get("located") for side in (a, b)]
    if not all(located):
        return []
    lines = []
    for name in figures.LOCATED_FIGURES:
        ma, mb = (entry["means"].get(name) or {} for entry in located)
        lines.append(
            [
                system,
                f"{name} mean (delivered)",
                f"{figures.number(ma.get('mean'))} ({ma.get('n', 0)})",
                f"{figures.number(mb.get('mean'))} ({mb.get('n', 0)})",
                _delta(ma.get("mean"), mb.get("mean"), 1, 4),
            ]
        )
    return lines
