# SPDX-License-Identifier: LGPL-2.1-or-later
"""The sheet checked as a drafting-office checker reads it, from the exported DXF alone.

Independent of the layout's own arithmetic: every box comes from what TechDraw wrote
(each view's geometry is on a layer named after its view object, each dimension is a
DIMENSION whose block holds its lines, arrows and text). Pure Python (ezdxf, numpy).

- views do not overlap one another;
- no dimension's lines or text run into another view (extension lines stay on their view);
- no two texts overlap, and a text keeps MIN_TEXT_CLEARANCE from the drawn lines;
- everything lies inside the frame and off the title block, at a scale of ISO 5455.
"""

import numpy as np

from cadbench_wb import standard
from cadbench_wb.drafting import layout as drawing_layout
from cadbench_wb.drafting.exported_dxf import dxf_document, repaired_text

# Tuned numbers, with their reasons: standard.DRAWING["checks"].
MIN_TEXT_CLEARANCE = standard.DRAWING["checks"]["min_text_clearance_mm"]
SAMPLE_STEP = standard.DRAWING["checks"]["sample_step_mm"]
BOX_TOLERANCE = standard.DRAWING["checks"]["box_tolerance_mm"]


def sheet_checks(dxf_path: str, made: dict) -> dict:
    """Every rule above, with the offending names listed; ok when all lists are empty.
    made: what drawing.make_drawing returned (views, dimensions, frame, title block)."""
    frame, title_block = tuple(made["frame"]), tuple(made["titleBlock"])
    doc = dxf_document(dxf_path)
    msp = doc.modelspace()
    layer_of_view = {name: v["item"] for name, v in made["views"].items()}
    view_of_dimension = {d["name"]: d["view"] for d in made["dimensions"]}
    on_layer = {}  # one pass over the entities, not one query per view
    for entity in msp:
        on_layer.setdefault(entity.dxf.get("layer", "0"), []).append(entity)
    views = {name: _points(on_layer.get(layer, [])) for name, layer in layer_of_view.items()}
    view_boxes = {n: _box(p) for n, p in views.items() if len(p)}
    dimensions = {}
    for dimension in msp.query("DIMENSION"):
        block = doc.blocks.get(dimension.dxf.get("geometry") or "")
        if block is None:
            continue
        name = block.name.lstrip("*")
        lines = _points([e for e in block if e.dxftype() == "LINE"])
        texts = [
            drawing_layout.text_box(_text_at(t), repaired_text(t.dxf.text))
            for t in block.query("TEXT")
        ]
        dimensions[name] = (view_of_dimension.get(name), lines, texts)
    names = sorted(view_boxes)
    overlapping_views = [
        [a, b]
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if _overlap(_shrunk(view_boxes[a]), _shrunk(view_boxes[b]))
    ]
    into_other_views, touching_lines, outside = [], [], []
    all_lines = np.concatenate([p for p in views.values() if len(p)] or [np.zeros((0, 2))])
    for name, (own, lines, texts) in sorted(dimensions.items()):
        for view, box in view_boxes.items():
            if view == own:
                continue
            inner = _shrunk(box)
            if _inside_any(lines, inner) or any(_overlap(t, inner) for t in texts):
                into_other_views.append([name, view])
        if any(_inside_any(all_lines, _grown(t, MIN_TEXT_CLEARANCE)) for t in texts):
            touching_lines.append(name)
        boxes = texts + ([_box(lines)] if len(lines) else [])
        if any(not _within(b, frame) or _overlap(b, title_block) for b in boxes):
            outside.append(name)
    outside += [v for v, b in sorted(view_boxes.items()) if not _within(b, frame)]
    text_boxes = [t for _own, _lines, texts in dimensions.values() for t in texts]
    checks = {
        "overlappingViews": overlapping_views,
        "dimensionsIntoOtherViews": into_other_views,
        "overlappingTexts": len(drawing_layout.overlapping_labels(text_boxes)),
        "textsTouchingLines": touching_lines,
        "outsideFrame": outside,
        "scaleInSeries": any(abs(made["scaleValue"] - s) < 1e-12 for s in drawing_layout.SCALES),
    }
    checks["ok"] = (
        not overlapping_views
        and not into_other_views
        and not checks["overlappingTexts"]
        and not touching_lines
        and not outside
        and checks["scaleInSeries"]
    )
    return checks


def _text_at(text) -> tuple:
    centred = text.dxf.get("halign", 0) in (1, 2, 4) and text.dxf.hasattr("align_point")
    at = text.dxf.align_point if centred else text.dxf.insert
    return at.x, at.y


def _points(entities) -> np.ndarray:
    """Points every SAMPLE_STEP along the entities' outlines (sheet mm)."""
    from ezdxf import path  # noqa: PLC0415 - heavy: loaded on first use

    found = [np.zeros((0, 2))]
    for entity in entities:
        try:
            vertices = list(path.make_path(entity).flattening(SAMPLE_STEP / 4))
        except Exception:  # no outline (text) or a degenerate spline
            continue
        if not vertices:
            continue
        found.append(np.array([(v.x, v.y) for v in vertices]))
    return _sampled(found)


def _sampled(polylines: list) -> np.ndarray:
    """Points every SAMPLE_STEP or closer along each polyline's segments, all at once."""
    starts = [p[:-1] for p in polylines if len(p) > 1]
    ends = [p[1:] for p in polylines if len(p) > 1]
    if not starts:
        return np.concatenate(polylines)
    a, b = np.concatenate(starts), np.concatenate(ends)
    counts = (np.hypot(*(b - a).T) / SAMPLE_STEP).astype(int) + 2
    segment = np.repeat(np.arange(len(a)), counts)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    t = (np.arange(counts.sum()) - first) / (counts[segment] - 1)
    return a[segment] + (b - a)[segment] * t[:, None]


def _box(points: np.ndarray) -> tuple:
    return (*points.min(axis=0), *points.max(axis=0))


def _shrunk(box: tuple, margin: float = BOX_TOLERANCE) -> tuple:
    return box[0] + margin, box[1] + margin, box[2] - margin, box[3] - margin


def _grown(box: tuple, margin: float) -> tuple:
    return box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _within(box: tuple, frame: tuple) -> bool:
    return box[0] >= frame[0] and box[1] >= frame[1] and box[2] <= frame[2] and box[3] <= frame[3]


def _inside_any(points: np.ndarray, box: tuple) -> bool:
    if not len(points):
        return False
    inside = (
        (points[:, 0] > box[0])
        & (points[:, 0] < box[2])
        & (points[:, 1] > box[1])
        & (points[:, 1] < box[3])
    )
    return bool(inside.any())
