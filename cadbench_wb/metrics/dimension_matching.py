# SPDX-License-Identifier: LGPL-2.1-or-later
"""Target dimensions against a measurement spectrum: matching, recall, coverage, chance.

Pure Python and numpy (no FreeCAD). app/dimensions/spectrum.py measures a solid into a ``Spectrum``;
this module decides which of a case's dimensions that spectrum holds (seed 000:
dimensionRecall on the candidate, referenceCoverage on the reference) and how often a
random value would be held by chance (randomHitRate).

Matching is family-aware: a length target is looked up among lengths only, a diameter
among diameters, a radius among radii, an angle among angles. A Ø10 hole therefore never
answers a 10 mm thickness, and the other way round.
"""

import dataclasses

import numpy as np

from cadbench_wb import standard

FAMILIES = ("length", "diameter", "radius", "angle")
# randomHitRate groups: every linear family against a random length, angles apart.
LINEAR_FAMILIES = ("length", "diameter", "radius")
MODES = ("default", "extended")
# Float slack on a tolerance comparison, so a value exactly at the limit counts as a hit.
_SLACK = 1e-9


@dataclasses.dataclass(frozen=True)
class Measurement:
    """One measured quantity and the sub-elements it comes from (``Face1``, ``Edge3``)."""

    family: str
    value: float
    source: str  # how it was measured: edge_length, face_distance, cylinder, ...
    geometry: tuple[str, ...]


@dataclasses.dataclass
class Block:
    """Measurements of one source kind, as arrays (a part can hold many thousands).

    ``elements`` names the sub-element type of each column of ``indices`` (0-based shape
    indices); ``names`` replaces both for measurements of varying arity (bolt circles).
    """

    family: str
    source: str
    values: np.ndarray
    elements: tuple[str, ...] = ()
    indices: np.ndarray | None = None
    names: list | None = None

    def geometry(self, row: int) -> tuple[str, ...]:
        if self.names is not None:
            return tuple(self.names[row])
        return tuple(
            f"{kind}{int(i) + 1}" for kind, i in zip(self.elements, self.indices[row], strict=True)
        )


class Spectrum:
    """Every measurement of a solid, sorted by value within each family."""

    def __init__(self, blocks: list[Block], mode: str = "default", diagonal: float = 0.0):
        if mode not in MODES:
            raise ValueError(f"unknown spectrum mode {mode!r}")
        self.mode = mode
        self.diagonal = float(diagonal)
        self.blocks = [b for b in blocks if len(b.values)]
        self._sorted = {}
        for family in FAMILIES:
            chosen = [(n, b) for n, b in enumerate(self.blocks) if b.family == family]
            if not chosen:
                self._sorted[family] = (np.zeros(0), np.zeros(0, int), np.zeros(0, int))
                continue
            values = np.concatenate([np.asarray(b.values, float) for _, b in chosen])
            block_ids = np.concatenate([np.full(len(b.values), n) for n, b in chosen])
            rows = np.concatenate([np.arange(len(b.values)) for _, b in chosen])
            # Sorted by value, then by block and row: the same input gives the same order.
            order = np.lexsort((rows, block_ids, values))
            self._sorted[family] = (values[order], block_ids[order], rows[order])

    def values(self, family: str) -> np.ndarray:
        return self._sorted[family][0]

    def counts(self) -> dict:
        return {family: int(len(self._sorted[family][0])) for family in FAMILIES}

    def measurement(self, family: str, position: int) -> Measurement:
        values, block_ids, rows = self._sorted[family]
        block = self.blocks[int(block_ids[position])]
        return Measurement(
            family, float(values[position]), block.source, block.geometry(int(rows[position]))
        )

    def closest(self, family: str, target: float, tolerance: float) -> Measurement | None:
        """The measurement of that family nearest the target, if within the tolerance."""
        values = self._sorted[family][0]
        low = np.searchsorted(values, target - tolerance - _SLACK, side="left")
        high = np.searchsorted(values, target + tolerance + _SLACK, side="right")
        if low >= high:
            return None
        # argmin returns the first of equal deviations: the lowest in the sorted order.
        best = low + int(np.argmin(np.abs(values[low:high] - target)))
        return self.measurement(family, best)

    def all_within(self, family: str, target: float, tolerance: float) -> list:
        """Every measurement of that family within the tolerance, in sorted order (located
        matching: each is a candidate member of the target on the reference)."""
        values = self._sorted[family][0]
        low = np.searchsorted(values, target - tolerance - _SLACK, side="left")
        high = np.searchsorted(values, target + tolerance + _SLACK, side="right")
        return [self.measurement(family, p) for p in range(int(low), int(high))]

    def nearest(self, family: str, target: float) -> Measurement | None:
        """The measurement of that family nearest the target, however far (reasons)."""
        values = self._sorted[family][0]
        if not len(values):
            return None
        return self.measurement(family, int(np.argmin(np.abs(values - target))))


def family_of(kind: str) -> str:
    """The spectrum family a dimension kind is looked up in (they coincide by design)."""
    if kind not in FAMILIES:
        raise ValueError(f"unknown dimension kind {kind!r}")
    return kind


def match(dimension, spectrum: Spectrum) -> Measurement | None:
    """The measurement that answers a case Dimension (kind, value, tolerance), or None."""
    return spectrum.closest(family_of(dimension.kind), dimension.value, dimension.tolerance)


@dataclasses.dataclass
class DimensionOutcome:
    dimension: object  # cases.Dimension
    candidate: Measurement | None
    reference: Measurement | None
    nearest: Measurement | None = None  # the candidate's closest value when not found
    # Beside seed 000's figures, never instead of them (metrics/located_dimensions.py).
    located: dict | None = None
    unmeasurable: dict | None = None  # {code, text}: why the reference does not hold it

    @property
    def status(self) -> str:
        if self.candidate is not None:
            return "found"
        if self.reference is None:
            return "not_measurable_on_reference"
        return "not_found"

    def as_dict(self) -> dict:
        d = self.dimension
        entry = {
            "id": d.id,
            "kind": d.kind,
            "target": d.value,
            "tolerance": d.tolerance,
            "declaredSpectrum": d.spectrum,
            "status": self.status,
            "measurableOnReference": self.reference is not None,
            "found": None,
            "deviation": None,
            "candidateSource": None,
            "candidateGeometry": [],
            "referenceValue": None,
            "referenceSource": None,
            "referenceGeometry": [],
        }
        if self.candidate is not None:
            entry["found"] = self.candidate.value
            entry["deviation"] = self.candidate.value - d.value
            entry["candidateSource"] = self.candidate.source
            entry["candidateGeometry"] = list(self.candidate.geometry)
        if self.candidate is None and self.nearest is not None:
            entry["nearestValue"] = self.nearest.value
            entry["nearestGeometry"] = list(self.nearest.geometry)
        if self.reference is not None:
            entry["referenceValue"] = self.reference.value
            entry["referenceSource"] = self.reference.source
            entry["referenceGeometry"] = list(self.reference.geometry)
        if self.unmeasurable is not None:
            entry["unmeasurableReason"] = self.unmeasurable
        if self.located is not None:
            entry["located"] = self.located
        if d.note:
            entry["note"] = d.note
        if d.source:
            entry["callout"] = d.source
        return entry


def outcomes(dimensions: list, candidate: Spectrum, reference: Spectrum) -> list:
    """Per target dimension: what answers it on the candidate and on the reference."""
    found = []
    for d in dimensions:
        outcome = DimensionOutcome(d, match(d, candidate), match(d, reference))
        if outcome.candidate is None:
            outcome.nearest = candidate.nearest(family_of(d.kind), d.value)
        found.append(outcome)
    return found


def recall(results: list) -> float | None:
    """dimensionRecall: share of the targets found on the candidate (None without targets)."""
    if not results:
        return None
    return sum(r.candidate is not None for r in results) / len(results)


def coverage(results: list) -> float | None:
    """referenceCoverage: share of the targets measurable on the reference (the ceiling)."""
    if not results:
        return None
    return sum(r.reference is not None for r in results) / len(results)


def measurable(dimensions: list, spectrum: Spectrum) -> list[bool]:
    """Which targets a spectrum holds (case authoring: coverage while dimensions are added)."""
    return [match(d, spectrum) is not None for d in dimensions]


def random_ranges(diagonal: float) -> dict:
    """The sampling ranges of randomHitRate for a reference of this bounding-box diagonal."""
    r = standard.RANDOM_HIT
    low = r["length_low_mm"]
    high = max(low, r["length_high_diagonals"] * diagonal)
    return {"length": [low, high], "angle": [r["angle_low_deg"], r["angle_high_deg"]]}


def linear_hit_intervals(values: np.ndarray) -> np.ndarray:
    """For each measured v, the random targets x that v answers: |x - v| <= tol(x), with
    tol(x) = max(a, r x). That set is [v - a, v + a] united with [v/(1+r), v/(1-r)];
    both contain v, so the union is one interval."""
    a = standard.LINEAR_TOLERANCE_ABS_MM
    r = standard.LINEAR_TOLERANCE_REL
    v = np.asarray(values, float)
    low = np.minimum(v - a, v / (1 + r))
    high = np.maximum(v + a, v / (1 - r))
    return np.stack([low, high], axis=1) if len(v) else np.zeros((0, 2))


def covered_share(intervals: np.ndarray, low: float, high: float) -> float:
    """Share of [low, high] covered by the union of intervals (exact, sort and sweep)."""
    if high <= low or not len(intervals):
        return 0.0
    clipped = np.clip(intervals, low, high)
    clipped = clipped[clipped[:, 1] > clipped[:, 0]]
    if not len(clipped):
        return 0.0
    clipped = clipped[np.argsort(clipped[:, 0], kind="stable")]
    # Running maximum of the right ends: a start beyond it opens a new merged piece.
    ends = np.maximum.accumulate(clipped[:, 1])
    starts = clipped[:, 0]
    new_piece = np.empty(len(clipped), bool)
    new_piece[0] = True
    new_piece[1:] = starts[1:] > ends[:-1]
    piece = np.cumsum(new_piece) - 1
    piece_start = starts[new_piece]
    piece_end = np.zeros(piece[-1] + 1)
    np.maximum.at(piece_end, piece, clipped[:, 1])
    return float(np.sum(piece_end - piece_start) / (high - low))


def random_hit_rate(spectrum: Spectrum, diagonal: float) -> dict:
    """randomHitRate: the probability that a random target is answered by this spectrum.

    Lengths: a value uniform in random_ranges()["length"], answered by any linear family
    (length, diameter or radius) within the default tolerance. Angles: uniform in (0, 180],
    answered within 0.25 deg. Computed exactly from the union of tolerance intervals, so
    it is deterministic (no random draws).
    """
    ranges = random_ranges(diagonal)
    linear = np.concatenate([spectrum.values(f) for f in LINEAR_FAMILIES])
    length = covered_share(linear_hit_intervals(linear), *ranges["length"])
    angles = spectrum.values("angle")
    tol = standard.ANGULAR_TOLERANCE_DEG
    angle_intervals = np.stack([angles - tol, angles + tol], axis=1) if len(angles) else None
    angle = covered_share(angle_intervals, *ranges["angle"]) if angle_intervals is not None else 0.0
    return {"length": length, "angle": angle}
