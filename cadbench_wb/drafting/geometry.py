# SPDX-License-Identifier: LGPL-2.1-or-later
"""A drawing's part geometry as weighted sample points (seed 001's 2D geometry cloud).

Model-space curves (LINE, LWPOLYLINE/POLYLINE with bulges, ARC, CIRCLE, ELLIPSE, SPLINE and
the content of block INSERTs with their transforms) are flattened to polylines and
resampled at one physical interval; each sample carries the curve length it stands for, so
how a path is segmented does not change the cloud. Annotation (DIMENSION, LEADER,
MULTILEADER, text, hatch fill) is not geometry; its class and layer are recorded, and
each curve keeps its layer and source entity, for classify.py to tell the part from
centre lines, grid lines and bubbles (seed 001's centre-line rule lives there).
"""

import dataclasses
import math

import numpy as np

_MAX_DEPTH = 16
_ARC_TYPES = ("ARC", "CIRCLE")
_PATH_TYPES = ("ELLIPSE", "SPLINE", "POLYLINE", "LWPOLYLINE")
# Flattening chord error, as a fraction of the drawing's own diagonal (well below the
# 0.002 match distance, so flattening never decides a match).
_SAGITTA_REL = 1e-4


@dataclasses.dataclass
class Curves:
    """Sample points of a drawing's curves. ``curve`` numbers the source polyline of each
    sample; ``bbox`` is (xmin, ymin, xmax, ymax) of the curves, None when there are none."""

    points: np.ndarray
    weights: np.ndarray
    curve: np.ndarray
    bbox: np.ndarray | None
    interval: float
    counts: dict
    # Vertices and arc centres, and the straight segments as drawn (dxf-check's anchors).
    anchors: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 2)))
    straight: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 4)))
    circles: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 3)))
    # Per curve (classify.py): its flattened segments, whether it is one straight line,
    # whether it was drawn straight (LINE, bulge-free polyline), its layer (index into
    # ``layers``) and the model-space entity it comes from (an INSERT for block content).
    segments: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 4)))
    curve_of_segment: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, int))
    is_line: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, bool))
    drawn_straight: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, bool))
    curve_layer: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, int))
    curve_source: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, int))
    layers: list = dataclasses.field(default_factory=list)
    source_is_insert: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, bool))
    curve_centre: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 2)))
    # What is not a curve: the texts shown (for telling bubble labels), and (class, layer)
    # of every annotation entity met (for the classification report).
    texts: list = dataclasses.field(default_factory=list)
    annotation: list = dataclasses.field(default_factory=list)

    @property
    def center(self) -> np.ndarray:
        return (self.bbox[:2] + self.bbox[2:]) / 2 if self.bbox is not None else np.zeros(2)

    @property
    def diagonal(self) -> float:
        if self.bbox is None:
            return 0.0
        return float(math.hypot(*(self.bbox[2:] - self.bbox[:2])))


@dataclasses.dataclass
class _Collected:
    lines: list  # [x0, y0, x1, y1] per LINE
    polylines: list  # (k, 2) arrays
    arcs: list  # (cx, cy, r, start_deg, end_deg, affine or None)
    paths: list  # (ezdxf Path, affine or None)
    counts: dict
    # (source entity number, layer) of each item of the four lists above, in their order.
    line_meta: list = dataclasses.field(default_factory=list)
    polyline_meta: list = dataclasses.field(default_factory=list)
    arc_meta: list = dataclasses.field(default_factory=list)
    path_meta: list = dataclasses.field(default_factory=list)
    texts: list = dataclasses.field(default_factory=list)
    annotation: list = dataclasses.field(default_factory=list)
    inserts: set = dataclasses.field(default_factory=set)


@dataclasses.dataclass
class Text:
    """A TEXT, MTEXT or visible ATTRIB as placed in model space: ``anchor`` is the point
    the drawing stores (what annotations.py reports), ``centre`` an estimate of the middle
    of the written line, ``height`` the character height."""

    content: str
    anchor: tuple[float, float]
    centre: tuple[float, float]
    height: float
    layer: str
    source: int


# Annotation entity types by the class the report counts them in (seed 001: text,
# dimensions and leaders are annotation, hatch fill is not part geometry).
ANNOTATION_TYPES = {
    "TEXT": "text",
    "MTEXT": "text",
    "ATTRIB": "text",
    "DIMENSION": "dimension",
    "ARC_DIMENSION": "dimension",
    "LARGE_RADIAL_DIMENSION": "dimension",
    "TOLERANCE": "dimension",
    "LEADER": "leader",
    "MULTILEADER": "leader",
    "MLEADER": "leader",
    "HATCH": "hatch",
    "MPOLYGON": "hatch",
    "SOLID": "hatch",
    "TRACE": "hatch",
    "WIPEOUT": "hatch",
}
# A written character is about this wide, in character heights (for a text's middle).
_CHARACTER_WIDTH = 0.7


def _affine(matrix) -> np.ndarray:
    """ezdxf's Matrix44 as a numpy array (row vectors: p' = p @ m)."""
    return np.array(list(matrix), dtype=float).reshape(4, 4)


def _apply(points: np.ndarray, affine: np.ndarray | None) -> np.ndarray:
    if affine is None:
        return points
    return points @ affine[:2, :2] + affine[3, :2]


def _collect(doc, layout) -> _Collected:
    """Walk a layout and its INSERTs once; nothing is flattened yet (the sagitta depends
    on the drawing's size, known only at the end)."""
    from ezdxf import path as ezpath  # noqa: PLC0415 - heavy: loaded on first use

    found = _Collected([], [], [], [], {"entities": 0, "ignored": 0, "inserts": 0})
    counts = found.counts

    def add(entity, matrix, depth, source, parent_layer):
        kind = entity.dxftype()
        counts["entities"] += 1
        layer = entity.dxf.get("layer", "0") or "0"
        if parent_layer is not None and layer == "0":
            layer = parent_layer  # block content on layer 0 takes the INSERT's layer
        meta = (source, layer)
        if kind == "LINE":
            start, end = entity.dxf.start, entity.dxf.end
            if matrix is None:
                found.lines.append((start.x, start.y, end.x, end.y))
                found.line_meta.append(meta)
            else:
                found.polylines.append(
                    _apply(np.array([[start.x, start.y], [end.x, end.y]]), matrix)
                )
                found.polyline_meta.append(meta)
        elif kind in _ARC_TYPES and tuple(entity.dxf.extrusion) == (0.0, 0.0, 1.0):
            center = entity.dxf.center
            start, end = (
                (0.0, 360.0) if kind == "CIRCLE" else (entity.dxf.start_angle, entity.dxf.end_angle)
            )
            found.arcs.append((center.x, center.y, entity.dxf.radius, start, end, matrix))
            found.arc_meta.append(meta)
        elif (
            kind == "LWPOLYLINE"
            and not any(entity.get_points("b"))
            and (tuple(entity.dxf.extrusion) == (0.0, 0.0, 1.0))
        ):
            points = np.array(entity.get_points("xy"), dtype=float).reshape(-1, 2)
            if entity.closed and len(points) > 1:
                points = np.vstack([points, points[:1]])
            found.polylines.append(_apply(points, matrix))
            found.polyline_meta.append(meta)
        elif kind in _ARC_TYPES or kind in _PATH_TYPES:
            try:
                curve = ezpath.make_path(entity)
            except Exception:  # polyface meshes and broken splines: no curve
                counts["ignored"] += 1
                return
            found.paths.append((curve, matrix))
            found.path_meta.append(meta)
        elif kind == "INSERT" and depth < _MAX_DEPTH:
            counts["inserts"] += 1
            found.inserts.add(source)
            for attrib in entity.attribs:
                if not attrib.is_invisible:
                    _add_text(found, attrib, matrix, source, layer)
            block = doc.blocks.get(entity.dxf.name)
            if block is None:
                return
            for placed in entity.multi_insert() if entity.mcount > 1 else (entity,):
                inner = _affine(placed.matrix44())
                composed = inner if matrix is None else inner @ matrix
                for child in block:
                    add(child, composed, depth + 1, source, layer)
        else:
            counts["ignored"] += 1
            if kind in ("TEXT", "MTEXT"):
                _add_text(found, entity, matrix, source, layer)
            elif kind in ANNOTATION_TYPES:
                found.annotation.append((ANNOTATION_TYPES[kind], layer))
            elif kind != "ATTDEF":  # attribute templates show nothing in an INSERT
                found.annotation.append(("other", layer))

    for number, entity in enumerate(layout):
        add(entity, None, 0, number, None)
    return found


def _add_text(found: _Collected, entity, matrix, source: int, layer: str) -> None:
    """Record one TEXT/MTEXT/ATTRIB: what it says, where, how high (annotation class)."""
    from cadbench_wb.drafting.text import mtext_shown, text_shown  # noqa: PLC0415 - heavy: loaded on first use

    found.annotation.append(("text", layer))
    try:
        if entity.dxftype() == "MTEXT":
            content = mtext_shown(entity.text)[0]
            height = float(entity.dxf.get("char_height", 2.5) or 2.5)
            anchor = entity.dxf.insert
            column, row = divmod(int(entity.dxf.get("attachment_point", 1) or 1) - 1, 3)[::-1]
            # columns left/centre/right, rows top/middle/bottom
            shift = (0.5 - 0.5 * column, -0.5 + 0.5 * row)
        else:
            content = text_shown(entity.dxf.text)
            height = float(entity.dxf.get("height", 2.5) or 2.5)
            halign, valign = entity.dxf.get("halign", 0), entity.dxf.get("valign", 0)
            align = entity.dxf.get("align_point", None)
            anchor = align if (align is not None and (halign or valign)) else entity.dxf.insert
            dx = {0: 0.5, 2: -0.5}.get(halign, 0.0)
            dy = 0.0 if halign == 4 else {0: 0.5, 1: 0.5, 3: -0.5}.get(valign, 0.0)
            shift = (dx, dy)
        angle = math.radians(float(entity.dxf.get("rotation", 0.0) or 0.0))
    except Exception:  # a malformed text shows nothing to classify
        return
    if not content:
        return
    width = _CHARACTER_WIDTH * height * len(content)
    local = np.array([shift[0] * width, shift[1] * height])
    turn = np.array([[math.cos(angle), math.sin(angle)], [-math.sin(angle), math.cos(angle)]])
    points = np.array([[anchor[0], anchor[1]], [anchor[0], anchor[1]]], dtype=float)
    points[1] += local @ turn
    placed = _apply(points, matrix)
    scale = math.sqrt(abs(np.linalg.det(matrix[:2, :2]))) if matrix is not None else 1.0
    found.texts.append(
        Text(content, tuple(placed[0]), tuple(placed[1]), height * scale, layer, source)
    )


def _bbox_of(found: _Collected) -> np.ndarray | None:
    lows, highs = [], []
    if found.lines:
        lines = np.asarray(found.lines, dtype=float)
        both = np.vstack([lines[:, :2], lines[:, 2:]])
        lows.append(both.min(axis=0))
        highs.append(both.max(axis=0))
    for points in found.polylines:
        if len(points):
            lows.append(points.min(axis=0))
            highs.append(points.max(axis=0))
    for cx, cy, r, _a0, _a1, matrix in found.arcs:
        corners = _apply(np.array([[cx - r, cy - r], [cx + r, cy + r]]), matrix)
        lows.append(corners.min(axis=0))
        highs.append(corners.max(axis=0))
    for curve, matrix in found.paths:
        vertices = np.array([(v.x, v.y) for v in curve.control_vertices()], dtype=float).reshape(
            -1, 2
        )
        if len(vertices):
            vertices = _apply(vertices, matrix)
            lows.append(vertices.min(axis=0))
            highs.append(vertices.max(axis=0))
    if not lows:
        return None
    return np.concatenate([np.min(lows, axis=0), np.max(highs, axis=0)])


def _arc_anchors(arc) -> np.ndarray:
    """Centre and end points of an ARC (the centre only for a CIRCLE)."""
    cx, cy, r, start, end, _affine_ = arc
    if (end - start) % 360.0 == 0.0:
        return np.array([[cx, cy]])
    angles = np.radians([start, end])
    ends = np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)])
    return np.vstack([[cx, cy], ends])


def _placed_circle(arc) -> tuple[float, float, float]:
    """(cx, cy, r) of an ARC/CIRCLE after its INSERT transforms (uniform scale assumed)."""
    cx, cy, r, _start, _end, affine = arc
    if affine is None:
        return cx, cy, r
    ((x, y),) = _apply(np.array([[cx, cy]]), affine)
    return float(x), float(y), r * math.sqrt(abs(np.linalg.det(affine[:2, :2])))


def _arc_points(cx, cy, r, start, end, sagitta) -> np.ndarray:
    sweep = (end - start) % 360.0 or 360.0
    if r <= 0:
        return np.array([[cx, cy], [cx, cy]])
    step = 2 * math.degrees(math.acos(max(-1.0, 1 - min(sagitta / r, 2.0)))) or 1.0
    count = int(min(720, max(4, math.ceil(sweep / step))))
    angles = np.radians(start + np.linspace(0.0, sweep, count + 1))
    return np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles)])


def _polylines(found: _Collected, sagitta: float) -> tuple:
    """Every curve as an (k, 2) vertex array, which of them are single straight lines, the
    (source, layer) of each, which were drawn straight (not flattened from a curve) and
    the centre of each ARC/CIRCLE (NaN for the others)."""
    polylines, is_line, meta, straight, centres = [], [], [], [], []
    for points, origin in zip(found.polylines, found.polyline_meta, strict=True):
        if len(points) >= 2:
            polylines.append(points)
            is_line.append(len(points) == 2)
            meta.append(origin)
            straight.append(True)
            centres.append((np.nan, np.nan))
    for (cx, cy, r, start, end, matrix), origin in zip(found.arcs, found.arc_meta, strict=True):
        polylines.append(_apply(_arc_points(cx, cy, r, start, end, sagitta), matrix))
        is_line.append(False)
        meta.append(origin)
        straight.append(False)
        centres.append(_apply(np.array([[cx, cy]]), matrix)[0])
    for (curve, matrix), origin in zip(found.paths, found.path_meta, strict=True):
        try:
            vertices = np.array(
                [(v.x, v.y) for v in curve.flattening(sagitta)], dtype=float
            ).reshape(-1, 2)
        except Exception:  # a degenerate spline flattens to nothing
            continue
        if len(vertices) >= 2:
            polylines.append(_apply(vertices, matrix))
            is_line.append(len(vertices) == 2)
            meta.append(origin)
            straight.append(not curve.has_curves)
            centres.append((np.nan, np.nan))
    straight = np.asarray(straight, dtype=bool)
    return polylines, np.asarray(is_line, dtype=bool), meta, straight, np.array(centres)


def _segments(found: _Collected, polylines: list) -> tuple[np.ndarray, np.ndarray, int]:
    """(starts/ends as (S, 4), curve index per segment, number of curves); LINEs first."""
    parts, ids = [], []
    lines = np.asarray(found.lines, dtype=float).reshape(-1, 4)
    parts.append(lines)
    ids.append(np.arange(len(lines)))
    next_id = len(lines)
    for points in polylines:
        if len(points) < 2:
            continue
        parts.append(np.hstack([points[:-1], points[1:]]))
        ids.append(np.full(len(points) - 1, next_id))
        next_id += 1
    return np.vstack(parts), np.concatenate(ids), next_id


def curves_of(
    doc,
    interval_rel: float,
    cap: int,
    interval: float | None = None,
    *,
    layout=None,
) -> Curves:
    """Sample a drawing's curves, all of them (model space unless ``layout`` is given).
    ``interval`` (drawing units) is the gold's; None means this drawing sets its own from
    its diagonal. Which curves are the part is classify.py's to say."""
    found = _collect(doc, layout if layout is not None else doc.modelspace())
    bbox = _bbox_of(found)
    diagonal = float(math.hypot(*(bbox[2:] - bbox[:2]))) if bbox is not None else 0.0
    polylines, polyline_is_line, meta, straight, centres = _polylines(
        found, max(diagonal, 1e-9) * _SAGITTA_REL
    )
    segments, curve_of_segment, curve_count = _segments(found, polylines)
    is_line = np.concatenate([np.ones(len(found.lines), bool), polyline_is_line])
    if interval is None:
        interval = max(diagonal * interval_rel, 1e-9)
    counts = dict(found.counts, curves=int(curve_count))
    points, weights, curve, used = _resampled(
        segments, curve_of_segment, curve_count, interval, cap
    )
    curves = Curves(points, weights, curve, None, used, counts)
    _record_origins(curves, found, segments, curve_of_segment, is_line, meta, straight)
    curves.curve_centre = np.vstack(
        [np.full((len(found.lines), 2), np.nan), centres.reshape(-1, 2)]
    )
    curves.straight = np.vstack(
        [np.asarray(found.lines, dtype=float).reshape(-1, 4)]
        + [np.hstack([p[:-1], p[1:]]) for p in found.polylines if len(p) >= 2]
    )
    curves.anchors = np.vstack(
        [curves.straight[:, :2], curves.straight[:, 2:]]
        + [_apply(_arc_anchors(arc), arc[5]) for arc in found.arcs]
    )
    curves.circles = np.array([_placed_circle(arc) for arc in found.arcs]).reshape(-1, 3)
    kept = np.unique(curves.curve)
    counts["samples"] = int(len(curves.points))
    # The bounding box of every curve; classify.py gives the part's.
    kept_segments = segments[np.isin(curve_of_segment, kept)] if len(segments) else segments
    if len(kept_segments):
        ends = np.vstack([kept_segments[:, :2], kept_segments[:, 2:]])
        curves.bbox = np.concatenate([ends.min(axis=0), ends.max(axis=0)])
    return curves


def _record_origins(curves, found, segments, curve_of_segment, is_line, meta, straight):
    """Per-curve facts for classify.py: segments, straightness, layer, source entity."""
    origins = list(found.line_meta) + list(meta)
    names = sorted({layer for _source, layer in origins} | {t.layer for t in found.texts})
    code = {name: i for i, name in enumerate(names)}
    curves.segments, curves.curve_of_segment, curves.is_line = segments, curve_of_segment, is_line
    curves.drawn_straight = np.concatenate([np.ones(len(found.lines), bool), straight])
    curves.curve_layer = np.array([code[layer] for _s, layer in origins], dtype=int)
    curves.curve_source = np.array([source for source, _l in origins], dtype=int)
    top = max([s for s, _l in origins] + [t.source for t in found.texts] + [-1]) + 1
    curves.source_is_insert = np.isin(np.arange(top), sorted(found.inserts))
    curves.layers, curves.texts, curves.annotation = names, found.texts, found.annotation


def _resampled(segments, curve_of_segment, curve_count, interval, cap):
    """Midpoints of equal subdivisions of every curve at about ``interval`` spacing; the
    interval grows when a drawing would need more than ``cap`` samples."""
    if len(segments) == 0:
        empty = np.zeros((0, 2))
        return empty, np.zeros(0), np.zeros(0, int), interval
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    curve_length = np.bincount(curve_of_segment, lengths, minlength=curve_count)
    while True:
        per_curve = np.where(curve_length > 0, np.ceil(curve_length / interval), 0).astype(np.int64)
        if per_curve.sum() <= cap:
            break
        interval *= per_curve.sum() / cap * 1.01
    offsets = np.concatenate([[0.0], np.cumsum(curve_length)[:-1]])
    curve = np.repeat(np.arange(curve_count), per_curve)
    first = np.concatenate([[0], np.cumsum(per_curve)[:-1]])
    index_in_curve = np.arange(len(curve)) - np.repeat(first, per_curve)
    step = curve_length[curve] / per_curve[curve]
    position = offsets[curve] + (index_in_curve + 0.5) * step
    ends = np.cumsum(lengths)
    segment = np.clip(np.searchsorted(ends, position, side="right"), 0, len(segments) - 1)
    start_of_segment = ends[segment] - lengths[segment]
    t = np.where(lengths[segment] > 0, (position - start_of_segment) / lengths[segment], 0.0)
    t = np.clip(t, 0.0, 1.0)[:, None]
    points = segments[segment, :2] * (1 - t) + segments[segment, 2:] * t
    return points, step, curve, interval
