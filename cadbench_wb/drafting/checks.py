# SPDX-License-Identifier: LGPL-2.1-or-later
"""dxf-check: does every dimension print what its own lines measure? (seed 003's L0-L2)

L0  opens as DXF (ezdxf reads it; its audit finds nothing it cannot fix)
L1  geometry sane: no zero-length or duplicate entities, units declared
L2  dimensions real: native DIMENSIONs whose drawing block draws something of its own,
    whose printed value is what their definition points measure, and whose definition
    points sit on the drawing's lines (a vertex, a curve, a centre, or the intersection
    of two drawn lines' extensions)
"""

import hashlib
import math

import numpy as np
from scipy.spatial import cKDTree

from cadbench_wb.drafting import geometry
from cadbench_wb.drafting.annotations import callout_of
from cadbench_wb.drafting.printed import (
    DIMENSION_TYPES,
    dimension_count_per_block,
    printed_dimension,
    unreadable_dimension,
)
from cadbench_wb.drafting.reading import file_format, read_drawing
from cadbench_wb.drafting.text import mtext_shown, text_shown

SCHEMA = "cadbench.dxf-check/1"
LEVEL_TITLES = {
    "L0": "opens as DXF",
    "L1": "geometry sane: no zero-length or duplicate entities, units declared",
    "L2": "dimensions real: native DIMENSION, a drawing block that draws, displayed values true",
}
# $INSUNITS codes (DXF reference) for the report.
UNITS = {
    1: "inches",
    2: "feet",
    3: "miles",
    4: "millimeters",
    5: "centimeters",
    6: "meters",
    7: "kilometers",
    8: "microinches",
    9: "mils",
    10: "yards",
    11: "angstroms",
    12: "nanometers",
    13: "microns",
    14: "decimeters",
    15: "decameters",
    16: "hectometers",
    17: "gigameters",
    18: "astronomical units",
    19: "light years",
    20: "parsecs",
}
_HANDLES_SHOWN = 20
# Definition points within this share of the layout's diagonal of a drawn line count as on it.
_ON_GEOMETRY_REL = 1e-4
_SAMPLE_CAP = 400_000
_ANCHOR_INTERVAL_REL = 2e-5


def _finding(code: str, severity: str, detail: str, handles=(), count=None) -> dict:
    handles = sorted({h for h in handles if h})
    return {
        "code": code,
        "severity": severity,
        "detail": detail,
        "count": (len(handles) or 1) if count is None else count,
        "handles": handles[:_HANDLES_SHOWN],
    }


def _level(findings: list[dict], facts: dict | None = None) -> dict:
    return {
        "ok": not any(f["severity"] == "error" for f in findings),
        "findings": findings,
        "facts": facts or {},
    }


def _handle_of(entity) -> str:
    dxf = getattr(entity, "dxf", None)
    return (dxf.get("handle", "") or "") if dxf is not None else ""


def _level_zero(doc, kind: str) -> dict:
    # ezdxf's audit repairs the document in place (it removes what it cannot repair),
    # so it runs after L1 and L2 have read the file as it was written.
    auditor = doc.audit()
    findings = []
    if auditor.has_errors:
        findings.append(
            _finding(
                "audit_errors",
                "error",
                f"ezdxf's audit found {len(auditor.errors)} errors it could not fix",
                [_handle_of(e.entity) for e in auditor.errors],
                len(auditor.errors),
            )
        )
    if auditor.has_fixes:
        findings.append(
            _finding(
                "audit_fixes",
                "warning",
                f"ezdxf's audit repaired {len(auditor.fixes)} defects: "
                + "; ".join(sorted({f.message for f in auditor.fixes})[:3]),
                [_handle_of(e.entity) for e in auditor.fixes],
                len(auditor.fixes),
            )
        )
    facts = {
        "format": kind,
        "dxfversion": doc.dxfversion,
        "encoding": doc.encoding,
        "modelspace_entities": len(doc.modelspace()),
    }
    return _level(findings, facts)


def _layouts_reached(doc):
    """Model space, paper space layouts and every block they place, each once."""
    roots = [doc.modelspace()] + [layout for layout in doc.layouts if not layout.is_modelspace]
    seen, pending, layouts = set(), list(roots), []
    while pending:
        layout = pending.pop(0)
        layouts.append(layout)
        for insert in layout.query("INSERT"):
            block = doc.blocks.get(insert.dxf.name)
            if block is not None and insert.dxf.name not in seen:
                seen.add(insert.dxf.name)
                pending.append(block)
    return layouts


def _geometry_key(entity, quantum: float):
    """Identity of an entity's drawn geometry, for finding duplicates (None: not compared)."""

    def q(*values):
        return tuple(round(v / quantum) for v in values)

    kind, dxf = entity.dxftype(), entity.dxf
    if kind == "LINE":
        ends = sorted(
            [q(dxf.start.x, dxf.start.y, dxf.start.z), q(dxf.end.x, dxf.end.y, dxf.end.z)]
        )
        return (kind, dxf.layer, *ends)
    if kind == "CIRCLE":
        return (kind, dxf.layer, q(dxf.center.x, dxf.center.y, dxf.radius))
    if kind == "ARC":
        angles = (round(dxf.start_angle % 360, 6), round(dxf.end_angle % 360, 6))
        return (kind, dxf.layer, q(dxf.center.x, dxf.center.y, dxf.radius), angles)
    if kind == "LWPOLYLINE":
        points = tuple(q(x, y, b) for x, y, b in entity.get_points("xyb"))
        return (kind, dxf.layer, bool(entity.closed), points)
    return None


def _zero_length(entity, quantum: float) -> bool:
    kind, dxf = entity.dxftype(), entity.dxf
    if kind == "LINE":
        return (dxf.end - dxf.start).magnitude <= quantum
    if kind in ("CIRCLE", "ARC"):
        return dxf.radius <= quantum
    if kind == "LWPOLYLINE":
        points = np.array(entity.get_points("xy"), dtype=float).reshape(-1, 2)
        return len(points) < 2 or float(np.ptp(points, axis=0).max()) <= quantum
    return False


def _model_curves(doc):
    """Model space sampled finely enough to tell a point on a line from one beside it."""
    return geometry.curves_of(doc, _ANCHOR_INTERVAL_REL, _SAMPLE_CAP)


def _level_one(doc, layouts, extents) -> dict:
    diagonal = max(extents.diagonal, 1.0)
    zero_quantum, duplicate_quantum = diagonal * 1e-9, diagonal * 1e-7
    zero, duplicates = [], []
    for layout in layouts:
        seen = {}
        for entity in layout:
            if _zero_length(entity, zero_quantum):
                zero.append(entity.dxf.handle)
                continue
            key = _geometry_key(entity, duplicate_quantum)
            if key is None:
                continue
            if key in seen:
                duplicates.append(entity.dxf.handle)
            else:
                seen[key] = entity.dxf.handle
    findings = []
    if zero:
        findings.append(_finding("zero_length", "error", "entities of zero length or radius", zero))
    if duplicates:
        findings.append(
            _finding("duplicate", "error", "entities drawn exactly on top of another", duplicates)
        )
    units = int(doc.header.get("$INSUNITS", 0) or 0)
    if units == 0:
        findings.append(
            _finding("units_undeclared", "error", "$INSUNITS is 0: the drawing declares no unit")
        )
    if len(extents.points) == 0:
        findings.append(_finding("no_geometry", "warning", "model space holds no curves"))
    facts = {
        "units": UNITS.get(units, "unitless" if units == 0 else f"code {units}"),
        "insunits": units,
        "curves": extents.counts.get("curves", 0),
    }
    return _level(findings, facts)


class _Anchors:
    """What one layout draws, for asking whether a dimension's definition points are on it:
    a curve, a vertex or centre, a drawn circle, or a drawn straight line (extended)."""

    def __init__(self, doc, layout, curves=None):
        if curves is None:
            curves = geometry.curves_of(doc, _ANCHOR_INTERVAL_REL, _SAMPLE_CAP, layout=layout)
        self.empty = len(curves.points) == 0
        self.tolerance = max(curves.diagonal * _ON_GEOMETRY_REL, curves.interval, 1e-9)
        self.tree = None if self.empty else cKDTree(np.vstack([curves.points, curves.anchors]))
        start, end = curves.straight[:, :2], curves.straight[:, 2:]
        length = np.hypot(*(end - start).T)
        usable = length > 0
        self.line_start = start[usable]
        self.line_unit = (end - start)[usable] / length[usable, None]
        self.circles = curves.circles
        self.anchors = curves.anchors

    def on_curve(self, point) -> bool:
        xy = np.array([point[0], point[1]], dtype=float)
        distance, _index = self.tree.query(xy, distance_upper_bound=self.tolerance)
        return bool(distance <= self.tolerance) or self._on_two_extensions(xy)

    def _lines_through(self, xy) -> np.ndarray:
        offset = xy - self.line_start
        distance = np.abs(offset[:, 0] * self.line_unit[:, 1] - offset[:, 1] * self.line_unit[:, 0])
        return self.line_unit[distance <= self.tolerance]

    def _on_two_extensions(self, xy) -> bool:
        """A theoretical corner: two drawn lines, extended, meet at the point."""
        through = self._lines_through(xy)
        if len(through) < 2:
            return False
        cross = np.abs(
            np.outer(through[:, 0], through[:, 1]) - np.outer(through[:, 1], through[:, 0])
        )
        return bool((cross > 1e-6).any())

    def on_drawn_line(self, first, second) -> bool:
        """The line through two points is one the drawing gives: a drawn straight line
        (extended), a line through two drawn vertices or centres (an arc's radius, an
        axis), or a line through one of them parallel to a drawn line (a reference
        direction at a corner)."""
        a = np.array([first[0], first[1]], dtype=float)
        b = np.array([second[0], second[1]], dtype=float)
        if np.hypot(*(b - a)) <= self.tolerance:
            return False
        direction = (b - a) / np.hypot(*(b - a))
        through = self._lines_through(a)
        if (np.abs(through[:, 0] * direction[1] - through[:, 1] * direction[0]) <= 1e-6).any():
            return True
        offset = self.anchors - a
        distance = np.abs(offset[:, 0] * direction[1] - offset[:, 1] * direction[0])
        on_line = np.unique(
            np.round(self.anchors[distance <= self.tolerance] / self.tolerance), axis=0
        )
        if len(on_line) >= 2:
            return True
        parallel = np.abs(self.line_unit[:, 0] * direction[1] - self.line_unit[:, 1] * direction[0])
        return len(on_line) == 1 and bool((parallel <= 1e-6).any())

    def is_drawn_circle(self, center, radius: float) -> bool:
        if len(self.circles) == 0:
            return False
        gap = np.hypot(self.circles[:, 0] - center[0], self.circles[:, 1] - center[1])
        tolerance = max(self.tolerance, 1e-6 * radius)
        return bool(((gap <= tolerance) & (np.abs(self.circles[:, 2] - radius) <= tolerance)).any())


def _off_geometry(dim, anchors: _Anchors) -> list:
    """Definition points that sit on nothing drawn, by what each family measures."""
    dxf, kind = dim.dxf, dim.dxftype()
    if kind == "ARC_DIMENSION":
        radius = (dxf.defpoint2 - dxf.defpoint4).magnitude
        return [] if anchors.is_drawn_circle(dxf.defpoint4, radius) else [dxf.defpoint2]
    if kind == "LARGE_RADIAL_DIMENSION":
        radius = (dxf.jog_point - dxf.defpoint).magnitude
        circle = anchors.is_drawn_circle(dxf.defpoint, radius)
        return [] if circle or anchors.on_curve(dxf.jog_point) else [dxf.jog_point]
    dimtype = dim.dimtype
    if dimtype == 3:
        center = (dxf.defpoint + dxf.defpoint4) / 2
        radius = (dxf.defpoint4 - dxf.defpoint).magnitude / 2
        if anchors.is_drawn_circle(center, radius):
            return []
        return [p for p in (dxf.defpoint, dxf.defpoint4) if not anchors.on_curve(p)]
    if dimtype == 4:
        radius = (dxf.defpoint4 - dxf.defpoint).magnitude
        circle = anchors.is_drawn_circle(dxf.defpoint, radius)
        return [] if circle or anchors.on_curve(dxf.defpoint4) else [dxf.defpoint4]
    if dimtype == 2:  # the angle between two drawn lines
        lines = ((dxf.defpoint2, dxf.defpoint3), (dxf.defpoint4, dxf.defpoint))
        return [a for a, b in lines if not anchors.on_drawn_line(a, b)]
    if dimtype == 5:
        center = dxf.defpoint4
        return [
            p
            for p in (dxf.defpoint2, dxf.defpoint3)
            if not (anchors.on_drawn_line(center, p) or anchors.on_curve(p))
        ]
    points = (dxf.defpoint2,) if dimtype == 6 else (dxf.defpoint2, dxf.defpoint3)
    return [p for p in points if not anchors.on_curve(p)]


def _text_callouts(doc) -> list[str]:
    """Handles of model-space TEXT/MTEXT that are nothing but a dimension value: numbers
    drawn by hand. Blocks are left out: frames number their zones, title blocks their
    revisions, and neither is a dimension."""
    found = []
    for layout in (doc.modelspace(),):
        for entity in layout.query("TEXT MTEXT"):
            shown = (
                mtext_shown(entity.text)[0]
                if entity.dxftype() == "MTEXT"
                else text_shown(entity.dxf.text)
            )
            if callout_of(shown) is not None:
                found.append(entity.dxf.handle)
    return found


_REASON_TEXT = {
    "dimlfac": "printed value is the measurement x DIMLFAC, not what the lines measure",
    "text_override": "a text override prints a value the lines do not measure",
    "block_text": "the drawing block's text was edited away from the measurement",
    "printed_mismatch": "printed value differs from what the lines measure",
    "not_a_number": "the dimension prints no number",
    "no_text": "the dimension prints no text",
    "undefined_measurement": "the definition points measure nothing",
    "empty_block": "the dimension's drawing block draws nothing (seed 003)",
    "shared_block": "one drawing block is shared by several dimensions (seed 003)",
    "off_geometry": "the definition points are not on the drawing's lines",
    "unreadable_dimension": "ezdxf cannot interpret the dimension entity",
}


def _uniform_ratio(entries: list[dict]) -> dict | None:
    """A warning when the flagged lengths all print one same multiple of their lines: the
    sheet may be drawn to a scale (TechDraw writes 1:2 views with model values), or every
    number may be that many times too large (seed 003's DIMLFAC = 100). The drawing alone
    cannot tell; --scale declares it."""
    ratios = [
        e["printed_value"] / e["measured"]
        for e in entries
        if e["reason"] in ("dimlfac", "text_override", "block_text", "printed_mismatch")
        and e["family"] != "angular"
        and e["measured"]
        and e["printed_value"]
    ]
    if len(ratios) < 3:
        return None
    ratio = float(np.median(ratios))
    agreeing = sum(1 for r in ratios if abs(r - ratio) <= 0.01 * ratio)
    if agreeing < 0.8 * len(ratios):
        return None
    return _finding(
        "uniform_ratio",
        "warning",
        f"{agreeing} flagged lengths print {ratio:.6g} x their lines: a sheet drawn at "
        f"1:{ratio:.6g}? If so, check with --scale 1:{ratio:.6g}",
        count=agreeing,
    )


def _level_two(doc, layouts, model, scale: float = 1.0) -> tuple[dict, list[dict]]:
    entries, anchors = [], {doc.modelspace().name: _Anchors(doc, None, model)}
    shared = dimension_count_per_block(doc)
    for layout in layouts:
        if layout.is_block_layout and layout.name.startswith("*D"):
            continue
        for dim in layout.query(" ".join(DIMENSION_TYPES)):
            try:
                printed = printed_dimension(
                    dim, shared.get(dim.dxf.get("geometry", ""), 1), scale=scale
                )
            except Exception as exc:  # one broken entity, not a broken report
                printed = unreadable_dimension(dim, exc)
            entry = printed.as_dict()
            entry["layout"] = "Model" if layout.is_modelspace else layout.name
            entry["insert_path"] = [layout.name] if layout.is_block_layout else []
            if printed.ok:
                key = layout.name
                if key not in anchors:
                    anchors[key] = _Anchors(doc, layout)
                anchor = anchors[key]
                try:
                    off = None if anchor.empty else _off_geometry(dim, anchor)
                except Exception:  # malformed definition points: not checked
                    off = None
                entry["on_geometry"] = None if off is None else not off
                if off:
                    entry["ok"], entry["reason"] = False, "off_geometry"
                    entry["detail"] = (
                        f"{len(off)} definition point(s) lie off every drawn line, e.g. "
                        f"({off[0][0]:.6g}, {off[0][1]:.6g})"
                    )
            entries.append(entry)
    entries.sort(key=lambda e: (e["layout"], e["handle"]))
    findings = []
    if not entries:
        findings.append(_finding("no_dimensions", "error", "the drawing has no DIMENSION entity"))
    by_reason: dict[str, list[str]] = {}
    for entry in entries:
        if entry["reason"]:
            by_reason.setdefault(entry["reason"], []).append(entry["handle"])
    for reason in sorted(by_reason):
        findings.append(
            _finding(reason, "error", _REASON_TEXT.get(reason, reason), by_reason[reason])
        )
    unblocked = [e["handle"] for e in entries if e["block"] is None]
    if unblocked:
        findings.append(
            _finding(
                "no_block",
                "warning",
                "no drawing block: what prints is what a CAD program regenerates",
                unblocked,
            )
        )
    uniform = _uniform_ratio(entries)
    if uniform:
        findings.append(uniform)
    callouts = _text_callouts(doc)
    if callouts:
        findings.append(
            _finding("text_dimensions", "warning", "dimension values drawn as plain text", callouts)
        )
    facts = {"dimensions": len(entries), "flagged": sum(1 for e in entries if not e["ok"])}
    return _level(findings, facts), entries


def check_file(path: str, scale: float = 1.0) -> dict:
    """The dxf-check report of one file; raises DrawingUnreadable when it cannot be read.
    ``scale`` is the sheet's declared scale factor: 2 for a sheet drawn at 1:2, where
    lengths print twice what their lines measure."""
    doc = read_drawing(path)
    with open(path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    layouts = _layouts_reached(doc)
    model = _model_curves(doc)
    level_one = _level_one(doc, layouts, model)
    level_two, dimensions = _level_two(doc, layouts, model, scale)
    level_zero = _level_zero(doc, file_format(path))
    levels = {"L0": level_zero, "L1": level_one, "L2": level_two}
    for name, level in levels.items():
        level["title"] = LEVEL_TITLES[name]
    ok = all(level["ok"] for level in levels.values()) and all(d["ok"] for d in dimensions)
    return {
        "schema": SCHEMA,
        "path": path,
        "sha256": digest,
        "ok": ok,
        "scale": scale,
        "failure": None,
        "failure_detail": None,
        "levels": levels,
        "dimensions": [_rounded_entry(d) for d in dimensions],
    }


def failed_report(path: str, reason: str, detail: str) -> dict:
    return {
        "schema": SCHEMA,
        "path": path,
        "sha256": None,
        "ok": False,
        "scale": None,
        "failure": reason,
        "failure_detail": detail,
        "levels": {},
        "dimensions": [],
    }


def _rounded_entry(entry: dict) -> dict:
    def rounded(value):
        if isinstance(value, float):
            return float(f"{value:.10g}") if math.isfinite(value) else None
        if isinstance(value, list):
            return [rounded(v) for v in value]
        return value

    return {key: rounded(value) for key, value in entry.items()}
