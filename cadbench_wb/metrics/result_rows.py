# SPDX-License-Identifier: LGPL-2.1-or-later
"""A score result as display rows: the one place an output reads a verdict.

The CLI summary (report.py), results.csv and junit.xml (campaign/reports.py), report.html
(campaign/report_page.py), the campaign's counts (campaign/figures.py) and the workbench
panel (gui/panel_model.py, gui/detail_rows.py) format these rows and read no verdict field
themselves, so the same result shows the same status everywhere. This is the split of
ezdxf's drawing add-on: one frontend turns the entities into drawing calls, each backend only
draws them.

Metric rows: one per metric (the registry's, then any other the result judges), with its
formal and reachable status. Item rows: one per dimension, feature, thread or drawing target,
with the status its metric's matching gave it (ITEM_STATUS names each code the stages write).
Field rows: the field's own figures (metrics/field_figures.py), each with its protocol and
marked NOT_A_VERDICT: shown beside the metrics, never among them.
"""

import dataclasses

from cadbench_wb.metrics import registry
from cadbench_wb.metrics.verdicts import (
    FAIL,
    NOT_APPLICABLE,
    NOT_CHECKED,
    NOT_RUN,
    PASS,
    Status,
    status_of,
)


@dataclasses.dataclass(frozen=True)
class MetricRow:
    """One metric of one result, as every output shows it."""

    metric: str
    label: str
    value: float | None
    threshold: float | None
    ceiling: float | None
    status: Status  # the formal verdict
    reachable: Status
    reason: str
    note: str = ""


def ordered_metrics(names) -> list[str]:
    """The registry's metrics among names in its order, then any other alphabetically."""
    names = set(names)
    known = [m for m in registry.NAMES if m in names]
    return known + sorted(names - set(known))


def metric_rows(result: dict | None, metrics=None) -> list[MetricRow]:
    """The metric rows of a score result or of a campaign's row (campaign/figures.row_of).

    metrics: which to show, in order (default: the registry's, then any other the result
    judges). A metric without a verdict is NOT_RUN; every metric of a campaign row that was
    never scored (its scorer lost) is NOT_CHECKED with the reason it was not."""
    result = result or {}
    entries = result.get("verdicts") or {}
    if metrics is None:
        metrics = ordered_metrics([*registry.NAMES, *entries])
    unscored = result.get("checked") is False
    why = ((result.get("notChecked") or {}).get("detail") or "not scored") if unscored else ""
    return [_metric_row(m, entries.get(m), why if unscored else None) for m in metrics]


def _metric_row(metric: str, entry: dict | None, unscored: str | None) -> MetricRow:
    label = registry.LABELS.get(metric, metric)
    if unscored is not None:
        return MetricRow(metric, label, None, None, None, NOT_CHECKED, NOT_CHECKED, unscored)
    if entry is None:
        reason = "not computed: not requested, or not available in this version of cadbench"
        return MetricRow(metric, label, None, None, None, NOT_RUN, NOT_RUN, reason)
    status = status_of(entry)
    reachable = status if status == NOT_APPLICABLE else status_of(entry, "reachable")
    return MetricRow(
        metric,
        label,
        None if status == NOT_APPLICABLE else entry.get("value"),
        entry.get("threshold"),
        entry.get("ceiling"),
        status,
        reachable,
        entry.get("reason") or "",
        entry.get("note") or "",
    )


# The per-item codes the metric stages write, and the status each means. A dimension not
# measurable on the reference is NOT_CHECKED (nobody could check it; referenceCoverage
# counts it), as is a region no feature rule recognised.
ITEM_STATUS = {
    "found": PASS,  # dimensions.DimensionOutcome.status, drawing targets
    "not_found": FAIL,
    "not_measurable_on_reference": NOT_CHECKED,
    "not_measurable": NOT_CHECKED,
    "matched": PASS,  # features (metrics/feature_matching.py), threads
    "differs": FAIL,
    "missing": FAIL,
    "extra": FAIL,
    "unrecognised": NOT_CHECKED,
}


def item_status(code) -> Status | None:
    """The status an item's code means; None for a code the stages do not write."""
    return ITEM_STATUS.get(str(code).strip().lower().replace(" ", "_"))


@dataclasses.dataclass(frozen=True)
class ItemRow:
    """One dimension, feature, thread or drawing target, with its status from the core.

    code: the stage's own word (found, not_found, matched, missing, extra, ...); entry: the
    item as the result holds it; reference / candidate: the matched sides (features,
    threads); failed: the checks a thread pair failed; credit: a feature match's credit."""

    key: str
    code: str
    status: Status | None
    entry: dict
    reference: dict | None = None
    candidate: dict | None = None
    failed: tuple = ()
    credit: float | None = None


def listed_entries(section) -> list[tuple[str, object]]:
    """(group, entry) pairs of a section in either shape the core writes: a list of entries,
    or a dict of lists keyed by group (matched / missing / extra)."""
    if isinstance(section, list):
        return [("", e) for e in section]
    if isinstance(section, dict):
        for key in ("items", "entries", "list", "dimensions", "features", "threads"):
            if isinstance(section.get(key), list):
                return [("", e) for e in section[key]]
        return [
            (group, e) for group, items in section.items() if isinstance(items, list) for e in items
        ]
    return []


def dimension_items(result: dict) -> list[ItemRow]:
    """dimensionRecall's targets: found, not found, not measurable on the reference."""
    rows = []
    for index, (_, entry) in enumerate(listed_entries(result.get("dimensions"))):
        if not isinstance(entry, dict):
            continue
        code = entry.get("status") or ("found" if entry.get("hit") else "-")
        rows.append(ItemRow(str(entry.get("id", index + 1)), code, item_status(code), entry))
    return rows


ENTRY_KEYS = ("id", "name", "feature", "type", "kind")


def entry_items(section) -> list[ItemRow]:
    """Entries in a shape the detail readers below do not know: each by its own status code
    or its group's (matched / missing / extra)."""
    rows = []
    for index, (group, entry) in enumerate(listed_entries(section)):
        if not isinstance(entry, dict):
            entry = {"name": entry}
        key = next((entry[k] for k in ENTRY_KEYS if entry.get(k) is not None), None)
        code = entry.get("status") or group or "-"
        rows.append(ItemRow(str(key or index + 1), code, item_status(code), entry))
    return rows


def feature_items(section) -> list[ItemRow]:
    """semanticMatch's detail: matched features (PASS at full credit, FAIL in part), missing
    and extra ones (FAIL), regions no rule recognised (NOT_CHECKED)."""
    if not isinstance(section, dict) or "matched" not in section:
        return entry_items(section)
    reference = {f.get("id"): f for f in section.get("reference") or [] if isinstance(f, dict)}
    candidate = {f.get("id"): f for f in section.get("candidate") or [] if isinstance(f, dict)}
    rows = []
    for match in section.get("matched") or []:
        credit = match.get("credit", 1.0)
        code = "matched" if credit is None or credit >= 1.0 else "differs"
        ref, cand = reference.get(match.get("reference"), {}), candidate.get(match.get("candidate"))
        key = f"{match.get('type', '')} {match.get('reference')}→{match.get('candidate')}"
        rows.append(ItemRow(key.strip(), code, ITEM_STATUS[code], match, ref, cand, (), credit))
    for code, side in (("missing", reference), ("extra", candidate)):
        for item in section.get(code) or []:
            if isinstance(item, dict):
                feature = {**side.get(item.get("id"), {}), **item}
            else:
                feature = side.get(item, {"id": item})
            key = f"{feature.get('type', '')} {feature.get('id', '')}".strip()
            ref, cand = (feature, None) if code == "missing" else ({}, feature)
            rows.append(ItemRow(key, code, ITEM_STATUS[code], feature, ref, cand))
    unrecognised = section.get("unrecognised") or {}
    for role in ("reference", "candidate"):
        for item in unrecognised.get(role, []) if isinstance(unrecognised, dict) else []:
            entry = item if isinstance(item, dict) else {"id": item}
            key = f"{entry.get('type', 'region')} {entry.get('id', '')}".strip()
            ref, cand = (entry, None) if role == "reference" else ({}, entry)
            rows.append(ItemRow(key, "unrecognised", NOT_CHECKED, entry, ref, cand))
    return rows


def thread_items(section) -> list[ItemRow]:
    """threadMatch's detail: each reference thread with the candidate thread paired with it
    (matched: PASS; missing or a failed check: FAIL), then unpaired candidate threads
    (extra: FAIL)."""
    if not isinstance(section, dict) or "pairs" not in section:
        return entry_items(section)
    reference = section.get("reference") or []
    candidate = section.get("candidate") or []
    rows, used = [], set()
    for pair in section.get("pairs") or []:
        ref = reference[pair["reference"]] if pair.get("reference") is not None else {}
        index = pair.get("candidate")
        cand = candidate[index] if index is not None and index < len(candidate) else None
        used.add(index)
        failed = tuple(n for n, check in (pair.get("checks") or {}).items() if not check.get("ok"))
        code = "missing" if cand is None else "differs" if failed else "matched"
        rows.append(
            ItemRow(
                _thread_key(ref or cand or {}), code, ITEM_STATUS[code], pair, ref, cand, failed
            )
        )
    for index, cand in enumerate(candidate):
        if index not in used:
            rows.append(ItemRow(_thread_key(cand), "extra", FAIL, cand, {}, cand))
    return rows


def _thread_key(thread: dict) -> str:
    return str(thread.get("designation") or thread.get("major_diameter") or "thread")


def drawing_items(section) -> list[ItemRow]:
    """drawingMatch's detail: each target dimension, found or not on the generated sheet."""
    if not isinstance(section, dict) or not isinstance(section.get("dimensions"), list):
        return entry_items(section)
    rows = []
    for entry in section["dimensions"]:
        if isinstance(entry, dict):
            code = entry.get("status") or ("found" if entry.get("found") else "not_found")
            rows.append(ItemRow(str(entry.get("id", "")), code, item_status(code), entry))
    return rows


# The field's figures in the order every output shows them (metrics/field_figures.PROTOCOLS
# holds their protocols; a test keeps the two lists equal).
FIELD_FIGURES = ("chamferDistance", "voxelIoU64")
NOT_A_VERDICT = "not a verdict"


@dataclasses.dataclass(frozen=True)
class FieldRow:
    """One of the field's figures of one result: a paper's protocol, computed beside
    cadbench's metrics and never a verdict (note: NOT_A_VERDICT).

    protocol: the whole protocol in words, as the result carries it; source: the benchmark
    whose protocol it is (its first word: CAD-Recode, BenchCAD)."""

    name: str
    value: float | None
    protocol: str
    note: str = NOT_A_VERDICT

    @property
    def source(self) -> str:
        return self.protocol.split(":", 1)[0].strip()

    @property
    def label(self) -> str:
        """'chamferDistance (CAD-Recode protocol)'."""
        return f"{self.name} ({self.source} protocol)"

    @property
    def column(self) -> str:
        """The figure's column in results.csv: 'chamferDistance.CAD-Recode'."""
        return f"{self.name}.{self.source}"


def _protocols() -> dict:
    # field_figures imports numpy and scipy: read only where a row lacks its protocol (a
    # campaign's row keeps the values alone), so the panel and the CLI stay light.
    from cadbench_wb.metrics.field_figures import PROTOCOLS  # noqa: PLC0415 - heavy: numpy and scipy, for campaign rows only

    return PROTOCOLS


def field_rows(result: dict | None) -> list[FieldRow]:
    """The field's figures of a score result (each {value, protocol}) or of a campaign's row
    (campaign/field.field_row: the values alone), one row per FIELD_FIGURES name; empty for
    a result without them (written before they existed, or a scoring never scored). A value
    that is not a number shows as None."""
    figures = (result or {}).get("fieldFigures")
    if not isinstance(figures, dict):
        return []
    rows = []
    for name in FIELD_FIGURES:
        entry = figures.get(name)
        value, protocol = entry, None
        if isinstance(entry, dict):
            value, protocol = entry.get("value"), entry.get("protocol")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            value = None
        rows.append(FieldRow(name, value, protocol or _protocols()[name]))
    return rows


def item_rows(result: dict) -> dict[str, list[ItemRow]]:
    """Every per-item row of a result, by the section that holds it."""
    return {
        "dimensions": dimension_items(result),
        "features": feature_items(result.get("features")),
        "threads": thread_items(result.get("threads")),
        "drawing": drawing_items(result.get("drawing")),
    }


__all__ = [
    "FAIL", "FIELD_FIGURES", "ITEM_STATUS", "NOT_APPLICABLE", "NOT_A_VERDICT", "NOT_CHECKED",
    "NOT_RUN", "PASS", "FieldRow", "ItemRow", "MetricRow", "Status", "dimension_items",
    "drawing_items", "entry_items", "feature_items", "field_rows", "item_rows", "item_status",
    "listed_entries", "metric_rows", "ordered_metrics", "thread_items",
]  # fmt: skip
