# SPDX-License-Identifier: LGPL-2.1-or-later
"""The translation that best superimposes two drawings' part geometry (issue 13).

Seed 001 translated bounding-box centres together; a grid bubble or a dimension chain
placed elsewhere stretches a bounding box and moved the whole part by hundreds of
millimetres. Here the candidates are the peaks of the cross-correlation of the two part
clouds (rasterised, length-weighted: the shift under which most drawn length lies on
drawn length), plus the bounding-box shift and no shift at all. Each is refined on the
vertices it brings together (median of their offsets: exact for a translated copy,
indifferent to extra or missing pieces) and judged by the very soft F1 the score uses;
the best one wins. Rotation, reflection and scale are not searched (seed 001).
"""

import numpy as np
from scipy.ndimage import maximum_filter, uniform_filter
from scipy.signal import fftconvolve
from scipy.spatial import cKDTree

from cadbench_wb.drafting.geometry import Curves

_REFINE_ROUNDS = 3


def soft_credit(distance: np.ndarray, full: float, zero: float) -> np.ndarray:
    credit = (zero - distance) / (zero - full)
    return np.clip(np.where(np.isfinite(distance), credit, 0.0), 0.0, 1.0)


class Clouds:
    """Two weighted point clouds with their KD-trees, for F1 at many translations."""

    def __init__(self, gold: Curves, candidate: Curves, full: float, falloff: float):
        self.gold_points, self.gold_weights = gold.points, gold.weights
        self.candidate_points, self.candidate_weights = candidate.points, candidate.weights
        self.full, self.zero = full, full * falloff
        self.gold_tree = cKDTree(gold.points)
        self.candidate_tree = cKDTree(candidate.points)

    def distances(self, translation) -> tuple[np.ndarray, np.ndarray]:
        """(gold sample -> nearest moved candidate, moved candidate -> nearest gold)."""
        to_candidate, _ = self.candidate_tree.query(
            self.gold_points - translation, distance_upper_bound=self.zero
        )
        to_gold, _ = self.gold_tree.query(
            self.candidate_points + translation, distance_upper_bound=self.zero
        )
        return to_candidate, to_gold

    def f1(self, translation, every: tuple[int, int] = (1, 1)) -> tuple[float, float, float]:
        """(F1, precision, recall); ``every`` thins the gold and candidate samples."""
        g, c = every
        gold, gold_w = self.gold_points[::g], self.gold_weights[::g]
        cand, cand_w = self.candidate_points[::c], self.candidate_weights[::c]
        to_candidate, _ = self.candidate_tree.query(
            gold - translation, distance_upper_bound=self.zero
        )
        to_gold, _ = self.gold_tree.query(cand + translation, distance_upper_bound=self.zero)
        recall = float(gold_w @ soft_credit(to_candidate, self.full, self.zero) / gold_w.sum())
        precision = float(cand_w @ soft_credit(to_gold, self.full, self.zero) / cand_w.sum())
        value = 0.0 if recall + precision == 0 else 2 * precision * recall / (precision + recall)
        return value, precision, recall


def _raster(points, weights, low, cell, shape) -> np.ndarray:
    index = np.floor((points - low) / cell).astype(np.int64)
    index = np.clip(index, 0, np.array(shape) - 1)
    flat = index[:, 0] * shape[1] + index[:, 1]
    return np.bincount(flat, weights, minlength=shape[0] * shape[1]).reshape(shape)


def _correlation_peaks(gold: Curves, candidate: Curves, cells: int, peaks: int) -> list:
    """Translations at the highest local maxima of the length-weighted cross-correlation."""
    gold_low, gold_high = gold.points.min(axis=0), gold.points.max(axis=0)
    cand_low, cand_high = candidate.points.min(axis=0), candidate.points.max(axis=0)
    side = max(float((gold_high - gold_low).max()), float((cand_high - cand_low).max()))
    if side <= 0:
        return []
    cell = side / cells
    gold_shape = tuple(np.floor((gold_high - gold_low) / cell).astype(int) + 1)
    cand_shape = tuple(np.floor((cand_high - cand_low) / cell).astype(int) + 1)
    gold_image = _raster(gold.points, gold.weights, gold_low, cell, gold_shape)
    # Spread the gold over 3 x 3 cells: a line on a cell border still meets its twin.
    gold_image = uniform_filter(gold_image, size=3, mode="constant")
    cand_image = _raster(candidate.points, candidate.weights, cand_low, cell, cand_shape)
    score = fftconvolve(gold_image, cand_image[::-1, ::-1], mode="full")
    local = (score == maximum_filter(score, size=5, mode="constant")) & (score > 0)
    rows, columns = np.nonzero(local)
    values = score[rows, columns]
    order = np.lexsort((columns, rows, -values))[:peaks]
    shifts = np.column_stack([rows[order], columns[order]]) - (np.array(cand_shape) - 1)
    # The image cells hold points floored to the grid: the shift of the two grids' origins.
    return [shift * cell + gold_low - cand_low for shift in shifts.astype(float)]


def _refined(translation, gold_anchors, candidate_anchors, reach):
    """Median offset of the vertices the translation brings within ``reach``."""
    if len(gold_anchors) == 0 or len(candidate_anchors) == 0:
        return translation
    tree = cKDTree(gold_anchors)
    for _round in range(_REFINE_ROUNDS):
        moved = candidate_anchors + translation
        distance, index = tree.query(moved, distance_upper_bound=reach)
        near = np.isfinite(distance)
        if near.sum() < 2:
            break
        step = np.median(gold_anchors[index[near]] - moved[near], axis=0)
        translation = translation + step
        if np.hypot(*step) <= 1e-12 * max(reach, 1.0):
            break
    return translation


def anchors_of(curves: Curves, part: np.ndarray) -> np.ndarray:
    """Vertices of the part's straight curves, centres of its arcs and circles, and the
    ends of its other curves (not the flattening's vertices: they depend on each
    drawing's own size)."""
    segments, owner = curves.segments, curves.curve_of_segment
    if len(segments) == 0:
        return np.zeros((0, 2))
    straight = (part & curves.drawn_straight)[owner]
    found = [segments[straight, :2], segments[straight, 2:]]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    ends = np.r_[starts[1:], len(owner)] - 1
    centre = curves.curve_centre
    arc = part & np.isfinite(centre).all(axis=1)
    bent = (part & ~curves.drawn_straight & ~arc)[owner[starts]]
    found += [segments[starts, :2][bent], segments[ends, 2:][bent], centre[arc]]
    return np.unique(np.vstack(found), axis=0)


def registered(gold: Curves, candidate: Curves, clouds: Clouds, anchors, config: dict) -> dict:
    """The best translation (added to candidate coordinates) and how it was found."""
    if len(gold.points) == 0 or len(candidate.points) == 0:
        return {"translation": np.zeros(2), "method": "none", "tried": 0}
    gold_anchors, candidate_anchors = anchors
    cells, peaks = int(config["registration_cells"]), int(config["registration_peaks"])
    tried = [("correlation", t) for t in _correlation_peaks(gold, candidate, cells, peaks)]
    tried.append(("none", np.zeros(2)))
    if gold.bbox is not None and candidate.bbox is not None:
        tried.append(("bounding_box_centres", gold.center - candidate.center))
    side = max(float((gold.points.max(axis=0) - gold.points.min(axis=0)).max()), 0.0)
    reach = max(2.5 * side / cells, 2 * clouds.full)
    budget = int(config["registration_screen_samples"])
    every = (
        max(1, len(gold.points) // budget),
        max(1, len(candidate.points) // budget),
    )
    best, seen = None, set()
    for method, start in tried:
        translation = _refined(start, gold_anchors, candidate_anchors, reach)
        # Refined first: on a plateau of full credit the exact shift is the one kept. A
        # correlation peak is only a cell-sized guess: its refinement stands for it.
        options = [(method + "+vertices", translation)]
        if method != "correlation":
            options.append((method, start))
        for label, option in options:
            key = tuple(np.round(np.asarray(option) / max(clouds.full, 1e-12) * 1e6).tolist())
            if key in seen:  # peaks often refine to one shift: judge it once
                continue
            seen.add(key)
            value = clouds.f1(option, every)[0]
            # Strictly better only: ties keep the earlier (higher correlation) option.
            if best is None or value > best[0] + 1e-12:
                best = (value, label, option)
    translation = np.asarray(best[2], dtype=float)
    # The median of float differences leaves 1e-15 where the shift is nil: say nil.
    translation[np.abs(translation) <= 1e-9 * clouds.full] = 0.0
    return {
        "translation": translation,
        "method": best[1],
        "tried": len(tried),
    }
