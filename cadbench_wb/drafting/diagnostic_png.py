# SPDX-License-Identifier: LGPL-2.1-or-later
"""The diagnostic PNG of `cadbench drawing-score`: what was registered, what was set aside.

In the gold's frame, the candidate moved by the registration found on the part:
part geometry matching black, gold-only red, candidate-only blue; what each drawing has
that was set aside as annotation (text, dimensions, leaders, hatches, centre and grid
lines, bubbles) light grey for the gold, light green for the candidate. The caption gives
the translation used and the classification counts of both drawings.
"""

import dataclasses

import numpy as np

from cadbench_wb.drafting.classify import Classified
from cadbench_wb.drafting.geometry import Curves
from cadbench_wb.drafting.raster import dilated, mask_of

SIZE = 1024
_MARGIN_PX = 24
_CAPTION_PX = 78
# The window shows the gold's strokes and at most this much more around them, so a
# candidate drawn far too large cannot shrink the gold to a dot.
_WINDOW_GROWTH = 1.5
GOLD_ANNOTATION = (0.72, 0.72, 0.72)
CANDIDATE_ANNOTATION = (0.55, 0.82, 0.55)
MATCHING, GOLD_ONLY, CANDIDATE_ONLY = (0.0, 0.0, 0.0), (0.85, 0.0, 0.0), (0.0, 0.2, 0.95)


@dataclasses.dataclass
class Drawn:
    """One drawing for the picture: its curves, their classes, every stroke it renders
    (ezdxf's front end: text glyphs, dimension blocks, hatches) and the translation that
    places it in the gold's frame."""

    curves: Curves
    classes: Classified
    strokes: np.ndarray
    offset: np.ndarray

    def part_segments(self) -> np.ndarray:
        keep = self.classes.part[self.curves.curve_of_segment]
        return self.curves.segments[keep] + np.tile(self.offset, 2)

    def set_aside_segments(self) -> np.ndarray:
        keep = ~self.classes.part[self.curves.curve_of_segment]
        return self.curves.segments[keep] + np.tile(self.offset, 2)

    def stroke_segments(self) -> np.ndarray:
        return self.strokes + np.tile(self.offset, 2) if len(self.strokes) else self.strokes


def _window(gold: Drawn, candidate: Drawn) -> tuple[np.ndarray, float]:
    """(centre, pixels per unit) showing the gold's strokes and the registered candidate's."""
    boxes = []
    for segments in (gold.stroke_segments(), gold.part_segments()):
        if len(segments):
            ends = segments.reshape(-1, 2)
            boxes.append(np.concatenate([ends.min(axis=0), ends.max(axis=0)]))
    low, high = np.min([b[:2] for b in boxes], axis=0), np.max([b[2:] for b in boxes], axis=0)
    size = np.maximum(high - low, 1e-9)
    limit_low, limit_high = low - _WINDOW_GROWTH * size / 2, high + _WINDOW_GROWTH * size / 2
    for segments in (candidate.stroke_segments(), candidate.part_segments()):
        if len(segments):
            ends = segments.reshape(-1, 2)
            low = np.minimum(low, np.maximum(ends.min(axis=0), limit_low))
            high = np.maximum(high, np.minimum(ends.max(axis=0), limit_high))
    usable = SIZE - 2 * _MARGIN_PX
    return (low + high) / 2, usable / max(float((high - low).max()), 1e-9)


def _summary(report: dict) -> str:
    return ", ".join(f"{name} {n}" for name, n in report["by_class"].items()) or "nothing"


def write(path: str, gold: Drawn, candidate: Drawn, result: dict, match_distance: float) -> None:
    """Write the PNG (matplotlib Agg, no display)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415 - heavy: loaded on first use
    from matplotlib.figure import Figure  # noqa: PLC0415 - heavy: loaded on first use

    centre, scale = _window(gold, candidate)
    tolerance = max(1, int(round(match_distance * scale)))
    gold_part = mask_of(gold.part_segments(), centre, scale, SIZE)
    candidate_part = mask_of(candidate.part_segments(), centre, scale, SIZE)
    near_gold, near_candidate = dilated(gold_part, tolerance), dilated(candidate_part, tolerance)
    image = np.ones((SIZE, SIZE, 3))
    for drawn, colour, part in (
        (gold, GOLD_ANNOTATION, gold_part),
        (candidate, CANDIDATE_ANNOTATION, candidate_part),
    ):
        aside = mask_of(drawn.set_aside_segments(), centre, scale, SIZE)
        # What the drawing renders beyond its part curves: text, dimensions, hatches.
        aside |= mask_of(drawn.stroke_segments(), centre, scale, SIZE) & ~dilated(part, 2)
        image[aside] = colour
    image[(gold_part & near_candidate) | (candidate_part & near_gold)] = MATCHING
    image[gold_part & ~near_candidate] = GOLD_ONLY
    image[candidate_part & ~near_gold] = CANDIDATE_ONLY
    figure = Figure(figsize=(SIZE / 100, (SIZE + _CAPTION_PX) / 100), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, _CAPTION_PX / (SIZE + _CAPTION_PX), 1, SIZE / (SIZE + _CAPTION_PX)))
    axes.imshow(image, interpolation="nearest")
    axes.set_axis_off()
    registration = result["registration"] or {}
    dx, dy = registration.get("translation", (0.0, 0.0))
    geometry = result["components"]["geometry_similarity"]
    classes = result["classification"] or {"gold": {"by_class": {}}, "candidate": {"by_class": {}}}
    lines = [
        "part: black matching, red gold only, blue candidate only   set aside as annotation: "
        "grey gold, green candidate",
        f"candidate moved by ({dx:.6g}, {dy:.6g}) [{registration.get('method', '-')}]   "
        f"geometry {geometry['value']:.3f}   score {result['score']:.3f}",
        f"gold: {_summary(classes['gold'])}",
        f"candidate: {_summary(classes['candidate'])}",
    ]
    for row, line in enumerate(lines):
        figure.text(
            0.01,
            1 - (SIZE + 14 + 16 * row) / (SIZE + _CAPTION_PX),
            line,
            fontsize=8,
            family="monospace",
        )
    figure.savefig(path, dpi=100)
