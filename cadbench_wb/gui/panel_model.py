# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the dock panel shows, computed from a score result dict alone: rows, colours,
tooltips and the geometry a row points at. Pure Python (no Qt, no FreeCAD), so every rule
of the display is testable without a window.

The panel shows whatever keys the result holds: a metric that was not run, does not apply
or could not be checked each get their own wording, never a silent blank. Figures are read,
never recomputed, and every status comes from the core's display rows
(metrics/result_rows.py), the same the CLI, the campaign reports and report.html format:
the GUI holds no metric logic.
"""

import dataclasses
import os
import re

from cadbench_wb.metrics import registry, result_rows, verdicts


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - Qt's name, for lupdate
    """Marks a string for translation; the panel translates it when it displays it."""
    return text


CONTEXT = "CadBench"

# The registered metrics in the registry's order (seed 000's), with their plain names;
# tools/update_translations.py collects the registry's labels for translators.
METRICS = tuple(registry.LABELS.items())
METRIC_COLUMNS = ("Metric", "Value", "Threshold", "Verdict", "Reachable", "Ceiling")

# The core's statuses (metrics/verdicts.py), spelled the same in every output; plain text,
# as Qt takes it.
PASS, FAIL, NOT_CHECKED, NOT_APPLICABLE, NOT_RUN = (status.value for status in verdicts.Status)

# Located recall beside seed 000's (never a verdict): the two agree, or they DIFFER (a
# value found, but not on the geometry that carries it; one member of a pattern wrong).
AGREES, DIFFERS = "agrees", "DIFFERS"

# Background colours per state (light enough for black text, distinct for colour-blind
# users by brightness as well as hue); the text of the cell always says the state too.
COLOURS = {
    PASS: "#c8e6c9",
    FAIL: "#ffcdd2",
    NOT_CHECKED: "#ffe9a8",
    NOT_APPLICABLE: "#e6e6e6",
    NOT_RUN: "#e6e6e6",
    DIFFERS: "#e1bee7",  # violet: not a verdict, so neither the pass green nor the fail red
}

# The diff objects: (RGB 0..1, transparency percent). Grey and see-through for what both
# models share, saturated red / blue for what only one of them has (seed 002's diff).
DIFF_STYLE = {
    "common": ((0.62, 0.62, 0.62), 75),
    "missing": ((0.86, 0.12, 0.12), 0),
    "extra": ((0.12, 0.34, 0.90), 0),
}
DIFF_LABELS = {
    "common": QT_TRANSLATE_NOOP("CadBench", "Common (in both)"),
    "missing": QT_TRANSLATE_NOOP("CadBench", "Missing (reference - candidate)"),
    "extra": QT_TRANSLATE_NOOP("CadBench", "Extra (candidate - reference)"),
}

# Words in a per-item status that decide its colour (dimension, feature, thread entries).
_GOOD = ("found", "match", "pass", "hit", "ok", "correct")
_BAD = ("not found", "missing", "fail", "wrong", "extra", "mismatch", "miss", "absent")
_UNCHECKED = ("not measurable", "unmeasurable", "not checked", "not applicable", "n/a", "skip")

_SUBELEMENT = re.compile(r"^(Edge|Face|Vertex)\d+$")
# Keys an entry may carry its geometry under: (key, which model the names belong to).
GEOMETRY_KEYS = (
    ("candidateGeometry", "candidate"),
    ("geometry", "candidate"),
    ("candidate", "candidate"),
    ("matched", "candidate"),
    ("referenceGeometry", "reference"),
    ("reference", "reference"),
)


@dataclasses.dataclass
class Row:
    """One table row: its cells, the state that colours it, a tooltip, and the geometry
    (model role, sub-element name) that clicking it selects."""

    key: str
    cells: list
    state: str = ""
    tooltip: str = ""
    targets: list = dataclasses.field(default_factory=list)
    # {column: state} for cells that say something else than the row (the located cells
    # of a dimension row whose value match counts it).
    cell_states: dict = dataclasses.field(default_factory=dict)
    # A line for the message when the row is clicked (why a flagged row is flagged).
    detail: str = ""

    @property
    def colour(self) -> str | None:
        return COLOURS.get(self.state)

    def colour_of(self, column: int) -> str | None:
        return COLOURS.get(self.cell_states.get(column, self.state))


def number_text(value, digits: int = 4) -> str:
    """A figure as the panel prints it; '-' for a missing one."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


# How a length, area, volume or angle is printed. Here millimetres and degrees, so that
# this module stays pure and testable; the workbench installs FreeCAD's own (gui/units.py:
# FreeCAD.Units.Quantity(...).UserString, the user's unit schema and decimals).
_UNITS = {"length": "mm", "area": "mm²", "volume": "mm³", "angle": "°"}
_QUANTITY_TEXT = []


def use_quantity_text(function) -> None:
    """Print quantities with function(value, kind) from now on (kind: length, area,
    volume or angle); None goes back to millimetres and degrees."""
    _QUANTITY_TEXT[:] = [function] if function is not None else []


def quantity_text(value, kind: str, digits: int = 3) -> str:
    """A length, area, volume or angle with its unit; '-' for a missing one."""
    if value is None:
        return "-"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return number_text(value, digits)
    value = round(float(value), 12) + 0.0  # never "-0.000"
    if _QUANTITY_TEXT:
        return _QUANTITY_TEXT[0](value, kind)
    unit = _UNITS[kind]
    value = round(value, digits) + 0.0
    return f"{value:.{digits}f}°" if kind == "angle" else f"{value:.{digits}f} {unit}"


# Parameter names (features, threads) that are lengths or angles, for their units.
LENGTH_NAMES = frozenset({
    "radius", "diameter", "major_diameter", "minor_diameter", "pitch_diameter", "pitch",
    "length", "depth", "height", "width", "thickness", "distance", "offset", "target",
})  # fmt: skip


def parameter_text(name: str, value, digits: int = 3) -> str:
    """A feature's or thread's parameter with the unit its name implies."""
    if "angle" in name:
        return quantity_text(value, "angle", digits)
    # "counterbore_depth", "countersink_diameter": a length named by its last word.
    if name in LENGTH_NAMES or name.rsplit("_", 1)[-1] in LENGTH_NAMES:
        return quantity_text(value, "length", digits)
    return number_text(value, digits)


def state_of(verdict: str | None) -> str:
    """The state a stored case verdict word colours with (verdicts.status_named)."""
    return verdicts.status_named(verdict).value


def header_lines(result: dict) -> list[tuple[str, str]]:
    """(label, text) pairs above the table: case, models, delivery, case verdict."""
    lines = []
    case = result.get("case")
    if case:
        kind = "anchoring" if case.get("anchoring") else "independent"
        lines.append(("Case", f"{case.get('id')}: {case.get('title')} ({kind})"))
    for role in ("reference", "candidate"):
        info = result.get(role) or {}
        if info.get("path"):
            lines.append((role.capitalize(), _basename(info["path"])))
    lines.append(("Delivery", delivery_text(result)))
    verdict = result.get("verdict") or {}
    lines.append(
        (
            "Case verdict",
            f"{verdict.get('formal', NOT_CHECKED)} (formal), "
            f"{verdict.get('reachable', NOT_CHECKED)} (reachable)",
        )
    )
    if result.get("metricFingerprint"):
        lines.append(("Fingerprint", result["metricFingerprint"]))
    return lines


def delivery_text(result: dict) -> str:
    if result.get("delivered", True):
        return "delivered"
    failure = result.get("failure") or {}
    text = f"NOT DELIVERED: {failure.get('reason', '?')} - {failure.get('detail', '')}"
    path = (result.get("candidate") or {}).get("path")
    return short_reason(text, path) if path else text


def case_state(result: dict, key: str = "formal") -> str:
    return state_of((result.get("verdict") or {}).get(key))


def metric_rows(result: dict) -> list[Row]:
    """The five metrics (and any other the result judges), one row each."""
    rows = []
    for shown in result_rows.metric_rows(result):
        rows.append(_metric_row(shown))
        if shown.metric == "dimensionRecall" and located_row(result) is not None:
            rows.append(located_row(result))
    return rows


def located_row(result: dict) -> Row | None:
    """Located recall right under dimensionRecall, in the same columns (value, ceiling =
    referenceCoverageLocated); its verdict cell says whether the two agree, never PASS or
    FAIL: the verdict is seed 000's (None when the result has no located figures)."""
    located = result.get("dimensionLocated")
    if not located or result.get("dimensionRecallLocated") is None:
        return None
    differs = bool(located.get("differs"))
    flag = DIFFERS if differs else AGREES
    tip = (
        "located recall: each target counts only where the geometry that carries it on the "
        "reference lands on the candidate (a pattern per member); "
        f"{located.get('membersFound', 0)} of {located.get('membersTotal', 0)} members at "
        "their place. Not a verdict: dimensionRecall (the value match) decides."
    )
    if differs:
        tip += "\nIt differs from the value match: see the Located column of the Dimensions tab."
    cells = [
        "Located recall (dimensionRecallLocated)",
        number_text(result["dimensionRecallLocated"]),
        "-",
        flag,
        "-",
        number_text(result.get("referenceCoverageLocated")),
    ]
    return Row("dimensionRecallLocated", cells, DIFFERS if differs else "", tip)


def _metric_row(shown: result_rows.MetricRow) -> Row:
    title = f"{shown.label} ({shown.metric})"
    if shown.status == NOT_RUN:
        return Row(shown.metric, [title, "-", "-", NOT_RUN, "-", "-"], NOT_RUN, shown.reason)
    threshold = number_text(shown.threshold, 2)
    if shown.status == NOT_APPLICABLE:
        tip = shown.reason or "does not apply to this case"
        cells = [title, "-", threshold, NOT_APPLICABLE, "-", "-"]
        return Row(shown.metric, cells, NOT_APPLICABLE, tip)
    tip = shown.reason
    if shown.note:
        tip = f"{tip}\nnote: {shown.note}" if tip else f"note: {shown.note}"
    cells = [
        title,
        number_text(shown.value),
        threshold,
        shown.status.value,
        shown.reachable.value,
        number_text(shown.ceiling) if shown.ceiling is not None else "-",
    ]
    return Row(shown.metric, cells, shown.status.value, tip)


def ceiling_rows(result: dict) -> list[Row]:
    """referenceCoverage, drawingSelfTest and randomHitRate: 'not applicable' when the
    scoring did not compute them, 'not run' before any scoring."""
    if not result:
        names = ("referenceCoverage", "drawingSelfTest", "randomHitRate")
        return [Row(name, [name, NOT_RUN]) for name in names]
    rows = []
    coverage = result.get("referenceCoverage")
    tip = "share of the case's dimensions measurable on the reference: the dimensionRecall ceiling"
    rows.append(Row("referenceCoverage", ["referenceCoverage", _figure(coverage)], "", tip))
    self_test = result.get("drawingSelfTest")
    tip = "drawingMatch of the reference's own drawing: the drawingMatch ceiling"
    rows.append(Row("drawingSelfTest", ["drawingSelfTest", _figure(self_test)], "", tip))
    rates = result.get("randomHitRate")
    if isinstance(rates, dict):
        text = " / ".join(
            f"{kind} {number_text(rates.get(kind))}"
            for kind in ("length", "angle")
            if kind in rates
        )
        text = text or "n/a"
    else:
        text = _figure(rates)
    tip = "chance that a random value hits the candidate's spectrum (the floor of dimensionRecall)"
    rows.append(Row("randomHitRate", ["randomHitRate", text], "", tip))
    return rows


def _figure(value) -> str:
    if value is None:
        return NOT_APPLICABLE
    if isinstance(value, dict):
        inner = value.get("value")
        return number_text(inner) if inner is not None else NOT_APPLICABLE
    return number_text(value)


SHAPE_FIGURES = (
    ("iou", "IoU"),
    ("dice", "Dice"),
    ("precision", "Precision"),
    ("recall", "Recall"),
    ("volume_ratio", "Volume ratio"),
    ("center_offset", "Centre offset"),
    ("bbox_iou", "Bounding-box IoU"),
    ("surface_ratio", "Surface ratio"),
    ("volumeMissing", "Missing volume"),
    ("volumeExtra", "Extra volume"),
    ("method", "Method"),
)
SHAPE_QUANTITIES = {"center_offset": "length", "volumeMissing": "volume", "volumeExtra": "volume"}


def shape_rows(result: dict) -> list[Row]:
    """The Shape tab: shapeIoU's figures, then the field's (field_rows)."""
    shape = result.get("shape") or {}
    rows = []
    for key, label in SHAPE_FIGURES:
        if key in shape:
            kind = SHAPE_QUANTITIES.get(key)
            text = quantity_text(shape[key], kind) if kind else number_text(shape[key])
            rows.append(Row(key, [label, text]))
    return rows + field_rows(result)


def field_rows(result: dict) -> list[Row]:
    """The field's figures (result_rows.field_rows): 'chamferDistance (CAD-Recode protocol,
    not a verdict)' and its value, uncoloured (no verdict), the protocol in the tooltip."""
    rows = []
    for shown in result_rows.field_rows(result):
        title = f"{shown.name} ({shown.source} protocol, {shown.note})"
        tip = (
            f"{shown.protocol}\nAnother benchmark's figure, shown beside cadbench's: {shown.note}."
        )
        rows.append(Row(shown.name, [title, number_text(shown.value)], "", tip))
    return rows


def interpretation_lines(result: dict) -> list[str]:
    return list((result.get("shape") or {}).get("interpretation") or [])


def alignment_of(result: dict) -> dict | None:
    """The candidate's alignment (rotation 3x3, translation) or None when not reported."""
    align = (result.get("shape") or {}).get("alignment")
    if not align or "rotation" not in align or "translation" not in align:
        return None
    return align


def alignment_text(result: dict) -> str:
    align = alignment_of(result)
    if align is None:
        return "no alignment reported"
    # quantity_text rounds first, then adds 0.0: a shift of -0.0001 mm never prints -0.000.
    moved = ", ".join(quantity_text(v, "length") for v in align["translation"])
    text = (
        f"rotated {quantity_text(align.get('rotationAngleDeg', 0.0), 'angle', 2)}, moved ({moved})"
    )
    if align.get("ambiguous"):
        text += f"; ambiguous: {len(align.get('alternatives') or [])} other pose(s) fit as well"
    return text


def diff_files(result: dict) -> dict:
    """{part: path} of the diff pieces the core wrote (empty parts left out): STEP solids
    when the exact booleans decided shapeIoU, STL meshes when the mesh boolean did."""
    files = result.get("diffFiles") or {}
    return {
        part: entry.get("step") or entry["stl"]
        for part in ("common", "missing", "extra")
        if isinstance(entry := files.get(part), dict) and (entry.get("step") or entry.get("stl"))
    }


def diff_route_text(result: dict) -> str:
    """What the diff shows, in words: the route that decided shapeIoU and the slivers left
    out, so nobody reads exact pieces into a figure the mesh route produced."""
    files = result.get("diffFiles") or {}
    route = files.get("route")
    if route is None:
        return files.get("reason") or ""
    text = {
        "exact": "pieces of the exact booleans (the route that decided shapeIoU)",
        "mesh": "pieces of the mesh boolean (the route that decided shapeIoU; the exact "
        "booleans were refuted or skipped)",
    }.get(route, route)
    dropped = files.get("droppedSlivers") or 0
    if dropped:
        text += f"; {dropped} sliver(s) under {files.get('sliverVolume', 0):.3g} mm³ left out"
    return text


def geometry_targets(entry: dict) -> list[tuple[str, str]]:
    """(role, sub-element) pairs named by an entry: 'Edge3', 'Face1+Face5' or a list."""
    targets = []
    for key, role in GEOMETRY_KEYS:
        value = entry.get(key)
        names = value if isinstance(value, (list, tuple)) else [value]
        for name in names:
            if not isinstance(name, str):
                continue
            for part in re.split(r"[+,\s]+", name):
                if _SUBELEMENT.match(part) and (role, part) not in targets:
                    targets.append((role, part))
    return targets


def geometry_text(entry: dict) -> str:
    by_role: dict[str, list[str]] = {}
    for role, name in geometry_targets(entry):
        by_role.setdefault(role, []).append(name)
    short = {"candidate": "cand.", "reference": "ref."}
    return "; ".join(f"{short[role]} {'+'.join(names)}" for role, names in by_role.items())


def item_state(status: str) -> str:
    text = status.lower().replace("_", " ")
    if any(word in text for word in _UNCHECKED):
        return NOT_CHECKED
    if any(word in text for word in _BAD):
        return FAIL
    if any(word in text for word in _GOOD):
        return PASS
    return ""


def entry_tooltip(entry: dict) -> str:
    lines = [
        f"{k}: {number_text(v, 4)}"
        for k, v in sorted(entry.items())
        if is_scalar(v) or isinstance(v, (list, tuple)) and all(is_scalar(x) for x in v)
    ]
    return "\n".join(lines)


def entries_of(section) -> list[dict]:
    return [e for _, e in result_rows.listed_entries(section) if isinstance(e, dict)]


def words(status) -> str:
    """A status code as words: 'not_found' -> 'not found'."""
    return str(status).replace("_", " ")


def first_of(entry: dict, *keys):
    for key in keys:
        if entry.get(key) is not None:
            return entry[key]
    return None


def is_scalar(value) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def _basename(path: str) -> str:
    return re.split(r"[\\/]", path)[-1]


BATCH_COLUMNS = ("Candidate",) + tuple(m for m, _ in METRICS) + ("Formal", "Reachable")


def batch_row(name: str, outcome: dict) -> Row:
    """One candidate of a folder scoring: its figures and case verdicts, or why it has none."""
    result = outcome.get("result")
    if result is None:
        reason = "cancelled" if outcome.get("cancelled") else (outcome.get("error") or {})
        text = (
            reason if isinstance(reason, str) else f"{reason.get('reason')}: {reason.get('detail')}"
        )
        cells = [name] + ["-"] * len(METRICS) + [NOT_CHECKED, NOT_CHECKED]
        return Row(name, cells, NOT_CHECKED, text)
    cells = [name]
    for shown in result_rows.metric_rows(result, [m for m, _ in METRICS]):
        if shown.status == NOT_RUN:
            cells.append("-")
        elif shown.status == NOT_APPLICABLE:
            cells.append(NOT_APPLICABLE)
        else:
            text = f"{number_text(shown.value)} {shown.status.value}"
            cells.append(text + (located_flag(result) if shown.metric == "dimensionRecall" else ""))
    verdict = result.get("verdict") or {}
    cells += [verdict.get("formal", NOT_CHECKED), verdict.get("reachable", NOT_CHECKED)]
    tip = delivery_text(result)
    # What kept the case from passing: failed and unchecked metrics, never one that does not
    # apply or was not run.
    failing = [
        f"{shown.metric}: {shown.reason}"
        for shown in result_rows.metric_rows(result)
        if shown.status in (FAIL, NOT_CHECKED)
    ]
    if failing:
        tip += "\n" + "\n".join(failing)
    return Row(name, cells, state_of(verdict.get("formal")), tip)


def located_flag(result: dict) -> str:
    """' (located 0.7500 DIFFERS)' after a dimensionRecall that located recall disagrees
    with; empty when they agree or there is no located figure."""
    row = located_row(result)
    if row is None or row.state != DIFFERS:
        return ""
    return f" (located {row.cells[1]} {DIFFERS})"


def drawing_files(result: dict) -> dict:
    """{extension: path} of drawing files (svg, pdf, dxf) the result names, if any."""
    found = {}

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            ext = value.rsplit(".", 1)[-1].lower() if "." in value else ""
            if ext in ("svg", "pdf", "dxf") and ext not in found:
                found[ext] = value

    walk(result.get("drawing") or {})
    walk(result.get("drawingFiles") or {})
    return found


def verdict_message(result: dict) -> tuple[tuple, str]:
    """The message after a scoring: ((template, values...), colour kind). The headline is
    the reachable verdict (seed 000), the formal one beside it; the colour is the
    reachable verdict's, so a perfect copy held back only by its case's ceiling reads PASS
    in green, not FAIL."""
    verdict = result.get("verdict") or {}
    reachable = verdict.get("reachable") or NOT_CHECKED
    formal = verdict.get("formal") or NOT_CHECKED
    if result.get("delivered") is False:
        reason = (result.get("failure") or {}).get("reason", "")
        return (("Not delivered ({}): case verdict {}", reason, reachable), reachable)
    if reachable == formal:
        return (("Scored: case verdict {}", reachable), reachable)
    return (("Scored: case verdict {} (reachable), {} (formal)", reachable, formal), reachable)


def short_reason(text: str, path: str) -> str:
    """A failure line for the panel with the file named by its base name (the full path is
    in the Report view and the JSON): 'empty_file: empty.step: the file is empty'."""
    base = os.path.basename(path)
    for long in sorted({os.path.abspath(path), path}, key=len, reverse=True):
        text = text.replace(long, base)
    return text
