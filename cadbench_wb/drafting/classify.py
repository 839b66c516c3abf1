# SPDX-License-Identifier: LGPL-2.1-or-later
"""What of a drawing's curves is the part, and what is annotation drawn with curves.

Decided before registering and comparing (issue 13: annotation that each drafter places
at their own offset must neither move the part nor count as its geometry):

- bubble: a small closed curve (circle, hexagon tag...) holding a short text near its
  middle -- grid bubbles, balloons, door and window tags. The text is its label, compared
  as text and never promoted to a dimension (a grid label '1' is no length of 1).
  Block content placed by the same INSERT as a bubble belongs to the bubble.
- centre_line (seed 001): an isolated straight line whose two ends touch no other curve
  (bubbles aside) but which crosses the object;
- grid_line: such a line with one end in a bubble, crossing the object or not.

Text, dimensions, leaders and hatches are no curves at all (geometry.py never samples
them); they are counted here so the report says what was set aside, per class and layer.
"""

import dataclasses

import numpy as np
from scipy.spatial import cKDTree

from cadbench_wb import standard
from cadbench_wb.drafting.geometry import Curves

CURVE_CLASSES = ("part", "centre_line", "grid_line", "bubble")
_PART, _CENTRE, _GRID, _BUBBLE = range(4)
_NEIGHBOURS = 8


@dataclasses.dataclass
class Classified:
    """``curve_class`` indexes CURVE_CLASSES per curve; ``labels`` numbers the texts of
    ``curves.texts`` that are bubble or grid labels; ``part_bbox`` is None without part
    curves."""

    curve_class: np.ndarray
    labels: np.ndarray
    part_bbox: np.ndarray | None
    report: dict

    @property
    def part(self) -> np.ndarray:
        return self.curve_class == _PART


def _per_curve(curves: Curves):
    """(bbox (C, 4), first point, last point) of every curve from its segments."""
    count = len(curves.curve_layer)
    segments, owner = curves.segments, curves.curve_of_segment
    if count == 0 or len(segments) == 0:
        empty = np.zeros((0, 2))
        return np.zeros((0, 4)), empty, empty
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    ends = np.r_[starts[1:], len(owner)] - 1
    low = np.minimum(segments[:, :2], segments[:, 2:])
    high = np.maximum(segments[:, :2], segments[:, 2:])
    bbox = np.hstack([np.minimum.reduceat(low, starts), np.maximum.reduceat(high, starts)])
    return bbox, segments[starts, :2], segments[ends, 2:]


def _bubbles(curves: Curves, bbox, first, last) -> tuple[np.ndarray, np.ndarray]:
    """(bubble curve mask, label text numbers)."""
    count = len(bbox)
    bubble = np.zeros(count, bool)
    texts = curves.texts
    if count == 0 or not texts:
        return bubble, np.zeros(0, int)
    rules = standard.DRAWING_2D_ANNOTATION
    size = bbox[:, 2:] - bbox[:, :2]
    half = size.max(axis=1) / 2
    closed = np.hypot(*(first - last).T) <= 1e-6 * np.maximum(half, 1e-12)
    round_enough = size.min(axis=1) >= 0.5 * size.max(axis=1)  # not a slot or a wall
    candidates = np.flatnonzero(closed & round_enough & (half > 0))
    short = np.array(
        [len(t.content.replace(" ", "")) <= rules["bubble_label_chars"] for t in texts], bool
    )
    centres = np.array([t.centre for t in texts], dtype=float)
    heights = np.array([t.height for t in texts], dtype=float)
    labels = set()
    if len(candidates):
        tree = cKDTree(centres)
        middle = (bbox[candidates, :2] + bbox[candidates, 2:]) / 2
        reach = half[candidates] * rules["bubble_label_reach"]
        for curve, found in zip(candidates, tree.query_ball_point(middle, reach), strict=True):
            fitting = [
                t
                for t in found
                if short[t]
                and heights[t] <= 2 * half[curve]
                and half[curve] <= rules["bubble_size_in_text_heights"] * heights[t]
            ]
            if fitting:
                bubble[curve] = True
                labels.update(fitting)
    # The rest of a tag block (its frame, a stub) goes with the bubble it places.
    sources = np.unique(curves.curve_source[bubble])
    sources = sources[curves.source_is_insert[sources]]
    bubble |= np.isin(curves.curve_source, sources)
    return bubble, np.array(sorted(labels), dtype=int)


def _isolated_lines(curves: Curves, first, last, bubble, bbox) -> tuple[np.ndarray, np.ndarray]:
    """(centre lines, grid lines) as curve masks: seed 001's rule, bubbles not counting as
    the edge a line ends on."""
    count = len(first)
    centre, grid = np.zeros(count, bool), np.zeros(count, bool)
    others = ~bubble[curves.curve] if len(curves.curve) else np.zeros(0, bool)
    if not curves.is_line.any() or not others.any():
        return centre, grid
    points, owner = curves.points[others], curves.curve[others]
    tree = cKDTree(points)
    reach = curves.interval * 1.5
    line_ids = np.flatnonzero(curves.is_line & ~bubble)
    if len(line_ids) == 0:
        return centre, grid
    ends = np.vstack([first[line_ids], last[line_ids]])
    owners = np.concatenate([line_ids, line_ids])
    distance, index = tree.query(ends, k=_NEIGHBOURS, distance_upper_bound=reach)
    neighbour = owner[np.minimum(index, len(owner) - 1)]
    touches = (np.isfinite(distance) & (neighbour != owners[:, None])).any(axis=1)
    suspects = line_ids[~touches[: len(line_ids)] & ~touches[len(line_ids) :]]
    if len(suspects) == 0:
        return centre, grid
    mine = np.isin(owner, suspects)
    distance, index = tree.query(points[mine], k=_NEIGHBOURS, distance_upper_bound=reach)
    neighbour = owner[np.minimum(index, len(owner) - 1)]
    crossing_sample = (np.isfinite(distance) & (neighbour != owner[mine][:, None])).any(axis=1)
    crossing = np.unique(owner[mine][crossing_sample])
    in_bubble = _tip_in_bubble(suspects, first, last, bubble, bbox, reach)
    # A line from a bubble is a grid line even where it crosses nothing (between views).
    grid[suspects[in_bubble]] = True
    centre[np.setdiff1d(crossing, suspects[in_bubble])] = True
    return centre, grid


def _tip_in_bubble(lines, first, last, bubble, bbox, reach) -> np.ndarray:
    """Per line: does one of its ends lie in a bubble? A grid line stops on the bubble's
    rim, and the flattened rim can fall short of the true circle's box by its chord error:
    the box grows by the touching reach."""
    found = np.zeros(len(lines), bool)
    if not bubble.any() or len(lines) == 0:
        return found
    boxes = bbox[bubble] + np.array([-reach, -reach, reach, reach])
    middles = (boxes[:, :2] + boxes[:, 2:]) / 2
    radius = float(np.hypot(*(boxes[:, 2:] - boxes[:, :2]).T).max()) / 2
    tree = cKDTree(middles)
    for tip in (first[lines], last[lines]):
        for number, near in enumerate(tree.query_ball_point(tip, radius)):
            if near and not found[number]:
                box = boxes[near]
                x, y = tip[number]
                found[number] = bool(
                    (
                        (x >= box[:, 0]) & (x <= box[:, 2]) & (y >= box[:, 1]) & (y <= box[:, 3])
                    ).any()
                )
    return found


def _line_labels(curves: Curves, lines, first, last, labels, part_side) -> np.ndarray:
    """Short texts just past an end of a long centre or grid line: grid labels written
    without a circle (JIS A 0150 makes the circle conditional). Long: at least half the
    part's larger side, so a hole's centre mark never claims a callout beside it."""
    texts = curves.texts
    rules = standard.DRAWING_2D_ANNOTATION
    lines = lines[np.hypot(*(last[lines] - first[lines]).T) >= 0.5 * part_side]
    if len(lines) == 0 or not texts:
        return np.zeros(0, int)
    taken = set(labels.tolist())
    free = [
        t
        for t, text in enumerate(texts)
        if t not in taken and len(text.content.replace(" ", "")) <= rules["bubble_label_chars"]
    ]
    if not free:
        return np.zeros(0, int)
    centres = np.array([texts[t].centre for t in free], dtype=float)
    heights = np.array([texts[t].height for t in free], dtype=float)
    tree = cKDTree(np.vstack([first[lines], last[lines]]))
    reach = rules["line_label_reach_in_text_heights"] * heights
    distance, _index = tree.query(centres)
    return np.array([t for t, d, r in zip(free, distance, reach, strict=True) if d <= r], int)


def classified(curves: Curves) -> Classified:
    """Part and annotation curves of a sampled drawing (see the module text)."""
    bbox, first, last = _per_curve(curves)
    bubble, labels = _bubbles(curves, bbox, first, last)
    centre, grid = _isolated_lines(curves, first, last, bubble, bbox)
    curve_class = np.full(len(bbox), _PART)
    curve_class[bubble] = _BUBBLE
    curve_class[centre] = _CENTRE
    curve_class[grid] = _GRID
    part = curve_class == _PART
    part_bbox = None
    if part.any():
        part_bbox = np.concatenate([bbox[part, :2].min(axis=0), bbox[part, 2:].max(axis=0)])
    grid_labels = np.zeros(0, int)
    if part_bbox is not None:
        side = float((part_bbox[2:] - part_bbox[:2]).max())
        lines = np.flatnonzero(centre | grid)
        grid_labels = _line_labels(curves, lines, first, last, labels, side)
        if len(grid_labels):
            # The lines those labels name are grid lines.
            tips = np.array([curves.texts[t].centre for t in grid_labels])
            ends = np.vstack([first[lines], last[lines]])
            _d, nearest = cKDTree(ends).query(tips)
            curve_class[np.concatenate([lines, lines])[nearest]] = _GRID
    every = np.union1d(labels, grid_labels).astype(int)
    report = _report(curves, curve_class, labels, grid_labels)
    return Classified(curve_class, every, part_bbox, report)


def _report(curves: Curves, curve_class: np.ndarray, labels, grid_labels) -> dict:
    """Counts per class and per layer: curves for the curve classes, entities for text,
    dimensions, leaders, hatches and the rest; bubble labels apart from other text."""
    by_layer: dict[str, dict[str, int]] = {}

    def count(kind: str, layer: str, n: int = 1) -> None:
        row = by_layer.setdefault(layer, {})
        row[kind] = row.get(kind, 0) + n

    for code, layer in zip(curve_class.tolist(), curves.curve_layer.tolist(), strict=True):
        count(CURVE_CLASSES[code], curves.layers[layer])
    text_layers = [t.layer for t in curves.texts]
    for kind, layer in curves.annotation:
        count(kind, layer)
    for kind, numbers in (("bubble_label", labels), ("grid_label", grid_labels)):
        for number in numbers.tolist():  # a label was counted as text: move it
            count("text", text_layers[number], -1)
            count(kind, text_layers[number])
    by_class: dict[str, int] = {}
    for row in by_layer.values():
        for kind, n in row.items():
            by_class[kind] = by_class.get(kind, 0) + n
    by_layer = {
        layer: {k: n for k, n in sorted(row.items()) if n}
        for layer, row in sorted(by_layer.items())
    }
    return {
        "by_class": dict(sorted((k, n) for k, n in by_class.items() if n)),
        "by_layer": {layer: row for layer, row in by_layer.items() if row},
    }


def part_only(curves: Curves, classes: Classified) -> Curves:
    """A copy of the curves keeping the part's samples only (bbox: the part's)."""
    keep = classes.part[curves.curve] if len(curves.curve) else np.zeros(0, bool)
    kept = dataclasses.replace(
        curves,
        points=curves.points[keep],
        weights=curves.weights[keep],
        curve=curves.curve[keep],
        bbox=classes.part_bbox,
    )
    kept.counts = dict(curves.counts, samples=int(keep.sum()))
    for name, code in (("centre_lines", _CENTRE), ("grid_lines", _GRID), ("bubbles", _BUBBLE)):
        kept.counts[name] = int((classes.curve_class == code).sum())
    return kept
