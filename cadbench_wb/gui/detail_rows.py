# SPDX-License-Identifier: LGPL-2.1-or-later
"""Rows of the panel's detail tabs (dimensions, features, threads, drawing), from the
core's item rows (metrics/result_rows.py). Pure Python, like panel_model: the figures are
read, never recomputed, each item's status is the core's (never guessed from its words), and
a section in an unknown shape still shows as generic rows."""

from cadbench_wb.gui.panel_model import (
    DIFFERS,
    GEOMETRY_KEYS,
    Row,
    entry_tooltip,
    first_of,
    geometry_targets,
    geometry_text,
    is_scalar,
    number_text,
    parameter_text,
    quantity_text,
    words,
)
from cadbench_wb.metrics import result_rows


def _state(item: result_rows.ItemRow) -> str:
    """The colour state of an item: its core status; none for a code the core has none for."""
    return item.status.value if item.status else ""


def dimension_rows(result: dict) -> list[Row]:
    """The per-dimension list: target, found value, status; clicking selects the geometry."""
    rows = []
    for item in result_rows.dimension_items(result):
        entry = item.entry
        ident = item.key
        target = first_of(entry, "target", "value", "nominal")
        found = first_of(entry, "found", "foundValue", "measured", "closest")
        if isinstance(found, dict):
            found = first_of(found, "value", "measured")
        status = words(item.code)
        kind = entry.get("kind", "")
        quantity = "angle" if kind == "angle" else "length"
        nearest = entry.get("nearestValue")
        if found is None and nearest is not None:
            # Not within tolerance, but the candidate's closest value of that family says
            # how far off it is ("nearest 12.000 mm, off by +2.000 mm").
            off = nearest - target if isinstance(target, (int, float)) else None
            sign = "+" if off is not None and off >= 0 else ""
            status += f" (nearest {quantity_text(nearest, quantity)}" + (
                f", off by {sign}{quantity_text(off, quantity)})" if off is not None else ")"
            )
        symbol = {"diameter": "Ø", "radius": "R", "angle": ""}.get(kind, "")
        tolerance = entry.get("tolerance")
        spread = (
            f" ±{quantity_text(tolerance, quantity)}" if isinstance(tolerance, (int, float)) else ""
        )
        cells = [
            ident,
            kind,
            f"{symbol}{quantity_text(target, quantity)}{spread}",
            quantity_text(found, quantity) if found is not None else "-",
            status,
            geometry_text(entry),
        ]
        row = Row(ident, cells, _state(item), entry_tooltip(entry), geometry_targets(entry))
        located_cells(row, entry)
        rows.append(row)
    return rows


DIMENSION_COLUMNS = (
    "Id",
    "Kind",
    "Target",
    "Found",
    "Status",
    "Geometry",
    "Located",
    "Located geometry (ref. → cand.)",
    "Why (located)",
)
LOCATED_COLUMNS = (6, 7, 8)
# Members named in the Located geometry cell (those off their place first); the tooltip
# lists every member.
LOCATED_SHOWN = 3


def located_cells(row: Row, entry: dict) -> None:
    """Append the located cells to a dimension row: the located outcome, the reference and
    candidate geometry of its members, and why a value the value match counts is rejected.
    A row whose two matchings disagree is flagged (DIFFERS) and, clicked, selects both the
    geometry that carries the target and the candidate geometry the value was found on."""
    located = entry.get("located")
    if not isinstance(located, dict):
        row.cells += ["-", "-", ""]
        return
    members = [m for m in located.get("members") or [] if isinstance(m, dict)]
    missed = [m for m in members if m.get("status") != "found"]
    unmeasurable = (entry.get("unmeasurableReason") or {}).get("text")
    why = located.get("rejectedSeedHit") or located.get("reason") or unmeasurable or ""
    row.cells += [
        located_text(located),
        _members_text(missed + [m for m in members if m not in missed]),
        why,
    ]
    row.tooltip = "\n".join(filter(None, [row.tooltip, _located_tooltip(located, members)]))
    seed_credit = 1.0 if entry.get("status") == "found" else 0.0
    if abs(seed_credit - float(located.get("credit") or 0.0)) < 1e-12:
        return
    row.cell_states = dict.fromkeys(LOCATED_COLUMNS, DIFFERS)
    row.detail = f"{row.key}: located {row.cells[6]}" + (f"; {why}" if why else "")
    targets = [("reference", n) for m in missed for n in _elements(m, "reference")]
    targets += [("candidate", n) for m in missed for n in _elements(m, "candidate")]
    targets += [t for t in geometry_targets(entry) if t[0] == "candidate"]
    row.targets = list(dict.fromkeys(targets)) or row.targets


def located_text(located: dict) -> str:
    """'found', 'partial: 3 of 4 at their place', 'not found: 0 of 1 at its place'."""
    status = located.get("status") or "-"
    found, total = located.get("found", 0), located.get("total", 0)
    if status == "not_measurable_on_reference":
        return "not measurable"
    place = "its place" if total == 1 else "their place"
    if status == "found":
        return "found" if total == 1 else f"found: {total} of {total} at their place"
    return f"{words(status)}: {found} of {total} at {place}"


def _elements(member: dict, role: str) -> list[str]:
    side = member.get(role) or {}
    return [g["element"] for g in side.get("geometry") or [] if g.get("element")]


def _member_text(member: dict) -> str:
    reference = "+".join(_elements(member, "reference")) or "?"
    candidate = member.get("candidate")
    if not candidate:
        return f"{reference} → none"
    text = f"{reference} → {'+'.join(_elements(member, 'candidate'))}"
    if member.get("status") != "found":
        value = candidate.get("value")
        text += f" ({number_text(value, 3) if value is not None else 'unmeasured'})"
    return text


def _members_text(members: list) -> str:
    shown = [_member_text(m) for m in members[:LOCATED_SHOWN]]
    if len(members) > LOCATED_SHOWN:
        shown.append(f"+{len(members) - LOCATED_SHOWN} more")
    return "; ".join(shown) or "-"


def _located_tooltip(located: dict, members: list) -> str:
    lines = [f"located: {located_text(located)} (binding {located.get('binding', '-')})"]
    for member in members:
        where = [
            f"{g.get('element')} {g.get('type', '')} at "
            + ", ".join(number_text(x, 3) for x in g.get("centre") or [])
            for g in (member.get("reference") or {}).get("geometry") or []
        ]
        lines.append(
            f"  {words(member.get('status', ''))}: {_member_text(member)}; ref. {'; '.join(where)}"
        )
    if located.get("rejectedSeedHit"):
        lines.append(located["rejectedSeedHit"])
    return "\n".join(lines)


ENTRY_COLUMNS = ("Item", "Status", "Detail", "Geometry")


def entry_rows(section) -> list[Row]:
    """Features, threads or drawing entries in whatever shape the core reports them: a list
    of dicts with a status, or a dict of lists keyed by status (matched / missing / extra)."""
    rows = []
    for item in result_rows.entry_items(section):
        entry = item.entry
        status = words(item.code)
        detail = ", ".join(
            f"{k} {parameter_text(k, v)}"
            for k, v in sorted(entry.items())
            if k not in ("id", "name", "status") and is_scalar(v) and k not in dict(GEOMETRY_KEYS)
        )
        cells = [item.key, status, detail, geometry_text(entry)]
        rows.append(
            Row(item.key, cells, _state(item), entry_tooltip(entry), geometry_targets(entry))
        )
    return rows


def feature_rows(section) -> list[Row]:
    """semanticMatch's detail: matched (fully or in part), missing and extra features, each
    pointing at its faces on the reference and/or the candidate."""
    if not isinstance(section, dict) or "matched" not in section:
        return entry_rows(section)
    rows = []
    for item in result_rows.feature_items(section):
        status, detail = item.code, _feature_detail(item.entry)
        if item.code in ("matched", "differs"):
            if item.code == "differs":
                status = f"differs (credit {item.credit:g})"
            detail = "; ".join(item.entry.get("differences") or []) or _feature_detail(
                item.reference
            )
        elif item.code == "unrecognised":
            role = "reference" if item.candidate is None else "candidate"
            status, detail = f"unrecognised ({role})", ""
        rows.append(
            _feature_row(item.key, status, _state(item), detail, item.reference, item.candidate)
        )
    return rows


def _feature_row(name, status, state, detail, reference: dict, candidate: dict | None) -> Row:
    entry = {
        "referenceGeometry": list((reference or {}).get("faces") or []),
        "candidateGeometry": list((candidate or {}).get("faces") or []),
    }
    cells = [name, status, detail, geometry_text(entry)]
    tip = entry_tooltip({**(reference or {}), **{"status": status}})
    return Row(name, cells, state, tip, geometry_targets(entry))


def _feature_detail(feature: dict) -> str:
    params = feature.get("params") or {}
    text = ", ".join(
        f"{k.replace('_', ' ')} {parameter_text(k, v)}" for k, v in sorted(params.items())
    )
    return f"{feature.get('kind', '')} {text}".strip()


def thread_rows(section) -> list[Row]:
    """threadMatch's detail: each reference thread, the candidate thread paired with it and
    which checks (major, pitch, hand, axis, ends, volume) failed; unpaired ones are extra."""
    if not isinstance(section, dict) or "pairs" not in section:
        return entry_rows(section)
    rows = []
    for item in result_rows.thread_items(section):
        status = "differs: " + ", ".join(item.failed) if item.code == "differs" else item.code
        rows.append(_thread_row(item.reference or {}, item.candidate, status, _state(item)))
    return rows


THREAD_FIELDS = ("kind", "pitch", "hand", "length")


def _thread_detail(reference: dict, candidate: dict | None) -> str:
    """Each field as the reference has it; where the candidate's differs, its value beside
    ('hand right, candidate left'), so a 'differs: hand' row shows both hands."""
    shown = reference or candidate or {}
    parts = []
    for key in THREAD_FIELDS:
        value = shown.get(key)
        if value is None:
            continue
        text = f"{key.replace('_', ' ')} {parameter_text(key, value)}"
        other = (candidate or {}).get(key) if reference else None
        if other is not None and parameter_text(key, other) != parameter_text(key, value):
            text += f", candidate {parameter_text(key, other)}"
        parts.append(text)
    return "; ".join(parts)


def _thread_row(reference: dict, candidate: dict | None, status: str, state: str) -> Row:
    shown = reference or candidate or {}
    name = shown.get("designation") or f"d {quantity_text(shown.get('major_diameter'), 'length')}"
    entry = {
        "referenceGeometry": list(reference.get("faces") or []),
        "candidateGeometry": list((candidate or {}).get("faces") or []),
    }
    cells = [name, status, _thread_detail(reference, candidate), geometry_text(entry)]
    return Row(name, cells, state, entry_tooltip(shown), geometry_targets(entry))


def drawing_rows(section) -> list[Row]:
    """drawingMatch's detail: per target dimension, what the generated drawing prints."""
    if not isinstance(section, dict) or not isinstance(section.get("dimensions"), list):
        return entry_rows(section)
    rows = []
    for item in result_rows.drawing_items(section):
        entry = item.entry
        shown = entry.get("displayed")
        detail = f"target {parameter_text('target', entry.get('target'))}"
        if shown is not None:
            detail += f", prints {shown!r}"
            if entry.get("view"):
                detail += f" in view {entry['view']}"
        cells = [item.key, words(item.code), detail, ""]
        rows.append(Row(item.key, cells, _state(item), entry_tooltip(entry)))
    return rows
