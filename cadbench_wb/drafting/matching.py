# SPDX-License-Identifier: LGPL-2.1-or-later
"""Similarity figures of the 2D scorer: soft Chamfer/F1 of the registered part clouds
(total and per layer), and the one-to-one matching of dimensions and of standalone text
(value 80 %, placement 20 %) in the same registered frame."""

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from cadbench_wb.drafting.annotations import MATCH_CLASS, Shown
from cadbench_wb.drafting.geometry import Curves
from cadbench_wb.drafting.printed import value_tolerance
from cadbench_wb.drafting.registration import Clouds, registered, soft_credit

# Beyond this many items on one side of a connected group, the exact assignment gives way
# to a greedy one (same pairs, best first) so a dense drawing cannot stall the scorer.
_EXACT_GROUP_LIMIT = 1500
# Value-only candidates considered per gold item: equal values far from the gold position
# all earn the same credit, so a few nearest stand for all of them.
_VALUE_NEIGHBOURS = 4
# Nearest candidates considered per gold item for placement credit alone.
_SPATIAL_NEIGHBOURS = 8


def geometry_similarity(
    gold: Curves, candidate: Curves, full: float, falloff: float, config: dict, anchors
) -> dict:
    """Symmetric soft Chamfer/F1 of the part clouds after the registration that best
    superimposes them (registration.py). A gold sample with a candidate sample within
    ``full`` is covered; credit falls linearly to 0 at ``falloff * full``. Weights are
    curve lengths, so precision and recall are shares of drawn length. ``anchors`` are
    the (gold, candidate) vertices the registration is refined on."""
    counts = {
        "gold_samples": int(len(gold.points)),
        "candidate_samples": int(len(candidate.points)),
        "gold_length": float(gold.weights.sum()),
        "candidate_length": float(candidate.weights.sum()),
        "match_distance": float(full),
        "sample_interval": float(gold.interval),
        "candidate_sample_interval": float(candidate.interval),
        "centre_lines_excluded": [
            gold.counts.get("centre_lines", 0),
            candidate.counts.get("centre_lines", 0),
        ],
        "grid_lines_excluded": [
            gold.counts.get("grid_lines", 0),
            candidate.counts.get("grid_lines", 0),
        ],
        "bubbles_excluded": [gold.counts.get("bubbles", 0), candidate.counts.get("bubbles", 0)],
    }
    registration = {"translation": [0.0, 0.0], "method": "none", "tried": 0}
    if len(gold.points) == 0 or len(candidate.points) == 0:
        counts.update(precision=0.0, recall=0.0, translation=[0.0, 0.0])
        return {
            "value": 0.0,
            "counts": counts,
            "offset": np.zeros(2),
            "registration": registration,
            "layers": None,
        }
    clouds = Clouds(gold, candidate, full, falloff)
    found = registered(gold, candidate, clouds, anchors, config)
    offset = found["translation"]
    to_candidate, to_gold = clouds.distances(offset)
    gold_credit = soft_credit(to_candidate, full, clouds.zero)
    candidate_credit = soft_credit(to_gold, full, clouds.zero)
    recall = float(np.dot(gold.weights, gold_credit) / gold.weights.sum())
    precision = float(np.dot(candidate.weights, candidate_credit) / candidate.weights.sum())
    value = _f1(precision, recall)
    translation = [float(v) for v in offset]
    counts.update(precision=precision, recall=recall, translation=translation)
    registration = dict(found, translation=translation)
    layers = _per_layer(gold, candidate, gold_credit, candidate_credit, clouds, offset)
    return {
        "value": value,
        "counts": counts,
        "offset": offset,
        "registration": registration,
        "layers": layers,
    }


def _f1(precision: float, recall: float) -> float:
    return 0.0 if recall + precision == 0 else 2 * precision * recall / (precision + recall)


def _per_layer(gold, candidate, gold_credit, candidate_credit, clouds, offset) -> dict | None:
    """Geometry similarity per layer (issue 13: a wall right and a stair wrong read so),
    when either drawing's part uses more than one layer. ``value``: each layer's drawn
    length against the other drawing's whole part (right geometry on a misnamed layer
    still counts); ``same_layer``: against the other drawing's layer of the same name."""
    gold_layer = np.array(gold.layers, dtype=object)[gold.curve_layer[gold.curve]]
    cand_layer = np.array(candidate.layers, dtype=object)[candidate.curve_layer[candidate.curve]]
    names = sorted(set(gold_layer.tolist()) | set(cand_layer.tolist()))
    if len(set(gold_layer.tolist())) < 2 and len(set(cand_layer.tolist())) < 2:
        return None
    rows = {}
    for name in names:
        g, c = gold_layer == name, cand_layer == name
        g_len, c_len = float(gold.weights[g].sum()), float(candidate.weights[c].sum())
        recall = float(gold.weights[g] @ gold_credit[g] / g_len) if g_len > 0 else None
        precision = float(candidate.weights[c] @ candidate_credit[c] / c_len) if c_len > 0 else None
        row = {
            "gold_length": g_len,
            "candidate_length": c_len,
            "recall": recall,
            "precision": precision,
            "value": _f1(precision or 0.0, recall or 0.0),
            "same_layer": 0.0,
        }
        if g.any() and c.any():
            to_c, _ = cKDTree(candidate.points[c]).query(
                gold.points[g] - offset, distance_upper_bound=clouds.zero
            )
            to_g, _ = cKDTree(gold.points[g]).query(
                candidate.points[c] + offset, distance_upper_bound=clouds.zero
            )
            same_recall = float(gold.weights[g] @ soft_credit(to_c, clouds.full, clouds.zero))
            same_precision = float(
                candidate.weights[c] @ soft_credit(to_g, clouds.full, clouds.zero)
            )
            row["same_layer"] = _f1(same_precision / c_len, same_recall / g_len)
        rows[name] = row
    return rows


def _values_agree(gold: Shown, candidate: Shown) -> bool:
    if gold.family is not None:
        if gold.value is None or candidate.value is None:
            return gold.value is None and candidate.value is None and gold.key == candidate.key
        tolerance = value_tolerance(gold.family, gold.value)
        return abs(gold.value - candidate.value) <= tolerance
    return gold.key == candidate.key


def _class_of(item: Shown) -> str:
    return MATCH_CLASS.get(item.family, "text") if item.family else "text"


def _positions(items: list[Shown], offset) -> np.ndarray:
    points = np.array(
        [item.position if item.position is not None else (np.nan, np.nan) for item in items],
        dtype=float,
    ).reshape(-1, 2)
    return points + offset


class _ValueIndex:
    """Candidate items by class, numeric values sorted, so the ones agreeing with a gold
    item are found by bisection instead of a scan."""

    def __init__(self, items: list[Shown]):
        self.items = items
        self.numeric: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.keyed: dict[tuple[str, str], list[int]] = {}
        numeric: dict[str, list[tuple[float, int]]] = {}
        for c, item in enumerate(items):
            if item.family is not None and item.value is not None:
                numeric.setdefault(_class_of(item), []).append((item.value, c))
            else:
                self.keyed.setdefault((_class_of(item), item.key), []).append(c)
        for name, entries in numeric.items():
            entries.sort()
            self.numeric[name] = (
                np.array([v for v, _c in entries]),
                np.array([c for _v, c in entries]),
            )

    def agreeing(self, item: Shown) -> list[int]:
        if item.family is None or item.value is None:
            return list(self.keyed.get((_class_of(item), item.key), []))
        values, indices = self.numeric.get(_class_of(item), (np.zeros(0), np.zeros(0, int)))
        tolerance = value_tolerance(item.family, item.value)
        low = np.searchsorted(values, item.value - tolerance, side="left")
        high = np.searchsorted(values, item.value + tolerance, side="right")
        return sorted(int(c) for c in indices[low:high])


def _candidate_pairs(gold, candidate, gold_xy, candidate_xy, radius) -> np.ndarray:
    """(gold index, candidate index) pairs worth scoring, as an (n, 2) array: the nearest
    few within the placement radius, and the nearest few of those agreeing in value."""
    found = [np.zeros((0, 2), dtype=np.int64)]
    gold_finite = np.flatnonzero(np.isfinite(gold_xy).all(axis=1))
    candidate_finite = np.flatnonzero(np.isfinite(candidate_xy).all(axis=1))
    if len(gold_finite) and len(candidate_finite) and radius > 0:
        neighbours = min(_SPATIAL_NEIGHBOURS, len(candidate_finite))
        distance, index = cKDTree(candidate_xy[candidate_finite]).query(
            gold_xy[gold_finite], k=neighbours, distance_upper_bound=radius
        )
        distance, index = (
            distance.reshape(len(gold_finite), -1),
            index.reshape(len(gold_finite), -1),
        )
        near = np.isfinite(distance)
        rows = np.repeat(gold_finite, near.sum(axis=1))
        found.append(np.column_stack([rows, candidate_finite[index[near]]]))
    index = _ValueIndex(candidate)
    for g, item in enumerate(gold):
        agreeing = index.agreeing(item)
        if len(agreeing) > _VALUE_NEIGHBOURS:
            distance = np.hypot(*(candidate_xy[agreeing] - gold_xy[g]).T)
            distance = np.where(np.isfinite(distance), distance, np.inf)
            order = np.lexsort((np.array(agreeing), distance))[:_VALUE_NEIGHBOURS]
            agreeing = [agreeing[i] for i in order]
        if agreeing:
            found.append(np.column_stack([np.full(len(agreeing), g), agreeing]))
    pairs = np.vstack(found).astype(np.int64)
    return np.unique(pairs, axis=0)


def _assignment(scores: dict, gold_count: int, candidate_count: int) -> list:
    """Maximum-total one-to-one pairs, exact per connected group of the pair graph."""
    if not scores:
        return []
    keys = sorted(scores)
    rows = np.array([g for g, _c in keys])
    cols = np.array([c for _g, c in keys]) + gold_count
    size = gold_count + candidate_count
    graph = coo_matrix((np.ones(len(keys)), (rows, cols)), shape=(size, size))
    _n, label = connected_components(graph, directed=False)
    groups: dict[int, list] = {}
    for key in keys:
        groups.setdefault(int(label[key[0]]), []).append(key)
    chosen = []
    for group_label in sorted(groups):
        members = groups[group_label]
        golds = sorted({g for g, _c in members})
        cands = sorted({c for _g, c in members})
        if max(len(golds), len(cands)) > _EXACT_GROUP_LIMIT:
            taken_g, taken_c = set(), set()
            for g, c in sorted(members, key=lambda k: (-scores[k], k)):
                if g not in taken_g and c not in taken_c:
                    taken_g.add(g)
                    taken_c.add(c)
                    chosen.append((g, c))
            continue
        g_index = {g: i for i, g in enumerate(golds)}
        c_index = {c: i for i, c in enumerate(cands)}
        matrix = np.zeros((len(golds), len(cands)))
        for g, c in members:
            matrix[g_index[g], c_index[c]] = scores[(g, c)]
        row, col = linear_sum_assignment(matrix, maximize=True)
        chosen += [(golds[r], cands[k]) for r, k in zip(row, col, strict=True) if matrix[r, k] > 0]
    return sorted(chosen)


def matched_similarity(
    gold: list[Shown],
    candidate: list[Shown],
    offset,
    radius: float,
    value_share: float,
    placement_share: float,
) -> dict:
    """2 S / (gold + candidate), S the summed pair credit of the best one-to-one matching:
    a pair earns ``value_share`` when its values (or contents) agree and up to
    ``placement_share`` for its translated position (linear to 0 at ``radius``)."""
    gold_xy, candidate_xy = _positions(gold, np.zeros(2)), _positions(candidate, offset)
    pairs = _candidate_pairs(gold, candidate, gold_xy, candidate_xy, radius)
    scores = {}
    if len(pairs):
        g, c = pairs[:, 0], pairs[:, 1]
        classes = {
            name: i for i, name in enumerate(sorted({_class_of(x) for x in gold + candidate}))
        }
        gold_class = np.array([classes[_class_of(x)] for x in gold])
        candidate_class = np.array([classes[_class_of(x)] for x in candidate])
        gold_ok = np.array([x.matchable for x in gold], bool)
        candidate_ok = np.array([x.matchable for x in candidate], bool)
        # A dimension whose block is empty or shared draws and displays nothing (seed 003):
        # it cannot match, not even by its place.
        same = (gold_class[g] == candidate_class[c]) & gold_ok[g] & candidate_ok[c]
        agree = np.array([_values_agree(gold[i], candidate[j]) for i, j in pairs[same]], bool)
        distance = np.hypot(*(candidate_xy[c[same]] - gold_xy[g[same]]).T)
        placement = np.zeros(len(distance))
        if radius > 0:
            placement = np.where(np.isfinite(distance), np.clip(1 - distance / radius, 0, 1), 0.0)
        score = value_share * agree + placement_share * placement
        keep = score > 0
        scores = dict(
            zip(map(tuple, pairs[same][keep].tolist()), score[keep].tolist(), strict=True)
        )
    pairs = _assignment(scores, len(gold), len(candidate))
    total = sum(scores[p] for p in pairs)
    agreeing = sum(1 for g, c in pairs if _values_agree(gold[g], candidate[c]))
    denominator = len(gold) + len(candidate)
    counts = {
        "gold": len(gold),
        "candidate": len(candidate),
        "matched": len(pairs),
        "values_agree": agreeing,
        "unmatchable": [
            sum(not x.matchable for x in gold),
            sum(not x.matchable for x in candidate),
        ],
        "placement_radius": float(radius),
    }
    return {"value": 2 * total / denominator if denominator else 0.0, "counts": counts}
