# SPDX-License-Identifier: LGPL-2.1-or-later
"""The readable summary of one score result (plain text for a terminal)."""

from cadbench_wb.metrics import result_rows
from cadbench_wb.metrics.verdicts import NOT_APPLICABLE, NOT_RUN, PASS


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.4f}"


def summary_text(result: dict) -> str:
    lines = [
        f"reference  {result['reference']['path']}",
        f"candidate  {result['candidate']['path']}",
    ]
    if result.get("case"):
        lines.insert(0, f"case       {result['case']['id']}: {result['case']['title']}")
    for note in result["reference"].get("notes", []):
        # app/model/loading.py: a reference sewn, or one kept as faces (no volume)
        if note.startswith(("reference repaired", "reference_open_shell")):
            lines.append(f"{'':11}{note}")
    auto_failure = (result.get("autoCase") or {}).get("failure")
    if auto_failure:  # no automatic targets: why, beside the metrics that still apply
        lines.append(f"targets    none: {auto_failure['reason']}: {auto_failure['detail']}")
    if not result["delivered"]:
        failure = result["failure"]
        lines.append(f"NOT DELIVERED: {failure['reason']} - {failure['detail']}")
    lines.append("")
    lines.append(f"{'metric':40} {'value':>8} {'threshold':>10}  verdict")
    for row in result_rows.metric_rows(result):
        label = f"{row.label} ({row.metric})"
        if row.status == NOT_RUN:
            lines.append(f"{label:40} {'-':>8} {'-':>10}  {row.status}")
            continue
        if row.status == NOT_APPLICABLE:
            lines.append(
                f"{label:40} {'-':>8} {_fmt(row.threshold):>10}  {row.status} ({row.reason})"
            )
            continue
        verdict = row.status.value
        if row.reachable != row.status:
            verdict += f" (reachable {row.reachable})"
        lines.append(f"{label:40} {_fmt(row.value):>8} {_fmt(row.threshold):>10}  {verdict}")
        if row.reason and row.status != PASS:
            lines.append(f"{'':40} {row.reason}")
        if row.note:
            lines.append(f"{'':40} note: {row.note}")
    for ceiling in ("referenceCoverage", "drawingSelfTest"):
        if result.get(ceiling) is not None:
            lines.append(f"{ceiling:40} {_fmt(result[ceiling]):>8}")
    lines += located_lines(result)
    lines += missed_lines(result)
    if isinstance(result.get("randomHitRate"), dict):
        rates = result["randomHitRate"]
        lines.append(
            f"{'randomHitRate (length / angle)':40} {_fmt(rates.get('length'))} / "
            f"{_fmt(rates.get('angle'))}"
        )
    lines += field_lines(result)
    shape = result.get("shape")
    if shape:
        lines.append("")
        lines.append(
            f"shape: method {shape['method']}, dice {_fmt(shape['dice'])}, precision "
            f"{_fmt(shape['precision'])}, recall {_fmt(shape['recall'])}, volume ratio "
            f"{_fmt(shape['volume_ratio'])}"
        )
        align = shape["alignment"]
        lines.append(
            f"alignment: rotated {align['rotationAngleDeg']:.2f} deg, "
            f"{'ambiguous (symmetric part)' if align['ambiguous'] else 'unique pose'}"
        )
        for line in shape.get("interpretation", []):
            lines.append(f"  - {line}")
    verdict = result.get("verdict", {})
    lines.append("")
    lines.append(
        f"case verdict: {verdict.get('formal')} (formal), {verdict.get('reachable')} (reachable)"
    )
    lines.append(f"metric fingerprint {result['metricFingerprint']}")
    return "\n".join(lines)


def field_lines(result: dict) -> list[str]:
    """The field's figures on one line, each with its protocol's benchmark (the protocols in
    full: the JSON and the README), said to be no verdict; none for a result without them."""
    shown = [
        f"{r.name} {_fmt(r.value)} ({r.source} protocol)" for r in result_rows.field_rows(result)
    ]
    return [f"field figures (not verdicts): {', '.join(shown)}"] if shown else []


def located_lines(result: dict) -> list[str]:
    """Located recall beside seed 000's (which the verdict uses), and each target where the
    two disagree: a value found, but not on the geometry that carries it."""
    located = result.get("dimensionLocated")
    if not located or result.get("dimensionRecallLocated") is None:
        return []
    flag = "  DIFFERS from the value match" if located.get("differs") else ""
    lines = [
        f"{'dimensionRecallLocated':40} {_fmt(result['dimensionRecallLocated']):>8}{flag}",
        f"{'referenceCoverageLocated':40} {_fmt(result['referenceCoverageLocated']):>8}"
        f"  ({located['membersFound']} of {located['membersTotal']} members at their place)",
    ]
    for row in result.get("dimensions", []):
        entry = row.get("located") or {}
        seed_found = row["status"] == "found"
        if entry.get("status") == "found" or (not seed_found and row["measurableOnReference"]):
            continue
        if not seed_found and not entry.get("total") and not row["measurableOnReference"]:
            reason = row.get("unmeasurableReason") or {}
            lines.append(f"  - {row['id']}: not measurable: {reason.get('text', '-')}")
            continue
        why = entry.get("rejectedSeedHit") or entry.get("reason") or ""
        members = f"{entry.get('found', 0)} of {entry.get('total', 0)} members"
        lines.append(f"  - {row['id']}: located {entry.get('status')} ({members}) {why}".rstrip())
    return lines


_SIGNS = {"diameter": "Ø", "radius": "R", "length": "", "angle": ""}


def _value_text(kind: str, value) -> str:
    if value is None:
        return "?"
    text = f"{_SIGNS.get(kind, '')}{round(float(value), 3):g}"
    return text + "°" if kind == "angle" else text


def missed_lines(result: dict) -> list[str]:
    """Each target not met at its place, named as an inspector writes it: 'D4 Ø10
    (drawing Front: ⌀10 (hole)): Ø9 instead of Ø10', '... 1 of 4 members: not found'."""
    lines = []
    for row in result.get("dimensions", []):
        entry = row.get("located") or {}
        if not entry.get("total") or entry.get("status") == "found":
            continue
        kind, target = row["kind"], _value_text(row["kind"], row["target"])
        wrong = sorted(
            {
                _value_text(kind, m["candidate"]["value"])
                for m in entry["members"]
                if m["status"] == "wrong_value"
            }
        )
        absent = sum(m["status"] == "no_geometry_here" for m in entry["members"])
        what = [f"{w} instead of {target}" for w in wrong]
        if absent:
            what.append(f"{target} not found at its place ({absent} missing)")
        members = f"{entry['total'] - entry['found']} of {entry['total']} members: "
        where = f" ({row['callout']})" if row.get("callout") else ""
        lines.append(f"  - {row['id']} {target}{where}: {members}{'; '.join(what)}")
    return ["targets not met at their place:", *lines] if lines else []
