# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which dimensions a drawing shows, from the 2D geometry of its views.

Pure Python on plain data (no FreeCAD): app/drawing/techdraw.py extracts each view's lines, arcs and
vertices from TechDraw (unscaled, y up, centred on the view) and applies what this module
decides. The rules are a drafter's: overall sizes, each hole and shaft diameter, radii,
chamfers, angles and hole positions from a datum edge, every measured thing once; with a
case, first the dimensions that show its targets (drawingMatch reads them back).
"""

import dataclasses
import functools
import math
import re

import numpy as np

from cadbench_wb import standard

# Tuned numbers, with their reasons: standard.DRAWING["plan"].
_PLAN = standard.DRAWING["plan"]
LEVEL_TOLERANCE = _PLAN["level_tolerance_mm"]
MIN_VALUE = _PLAN["min_value_mm"]
# Values closer than this (mm, degrees) are one value when a dimension is chosen: far
# below the printed 0.01, far above a projection's rounding (1e-12).
SAME_VALUE = 1e-6
AXIS_TOLERANCE = _PLAN["axis_tolerance"]
COARSE_MIN_LINE_REL = standard.DRAWING["views"]["coarse_min_line_rel"]
OUTLINE_STEP_REL = standard.DRAWING["views"]["outline_step_rel"]
# Views in the order a drafter looks for a dimension (the front view tells most).
VIEW_ORDER = ("Front", "Top", "Right", "Left", "Bottom", "Rear")
# TechDraw FormatSpec per family: the standard's decimals, trailing zeros removed ('w').
_NUMBER = f"%.{_PLAN['decimals']}w"
FORMATS = {"length": _NUMBER, "diameter": "⌀" + _NUMBER, "radius": "R" + _NUMBER, "angle": _NUMBER}
# Preference when several candidates show a target: lower is what a drafter picks first.
RANK = {
    "overall": 0,
    "hole": 0,
    "shaft": 0,
    "radius": 1,
    "chamfer": 1,
    "position": 1,
    "angle": 1,
    "step": 2,
    "pitch": 2,
    "edge": 3,
    "datum": 3,
    "between": 4,
    "obtuse": 4,
    "fallback": 5,
}


@dataclasses.dataclass(frozen=True)
class Line:
    index: int
    a: tuple
    b: tuple

    @property
    def length(self) -> float:
        return math.dist(self.a, self.b)

    @property
    def horizontal(self) -> bool:
        return abs(self.a[1] - self.b[1]) <= AXIS_TOLERANCE * max(self.length, 1.0)

    @property
    def vertical(self) -> bool:
        return abs(self.a[0] - self.b[0]) <= AXIS_TOLERANCE * max(self.length, 1.0)


@dataclasses.dataclass(frozen=True)
class Arc:
    index: int
    center: tuple
    radius: float
    full: bool
    sweep_deg: float  # 360 for a full circle
    cylindrical: bool = True  # bounds a cylindrical face whose axis is the view direction


@dataclasses.dataclass(frozen=True)
class Shaft:
    """An outer cylinder whose axis lies along the view's x ('x') or y ('y') axis."""

    axis: str
    offset: float  # the axis' coordinate across it, in the view
    radius: float


@dataclasses.dataclass
class ViewGeometry:
    name: str
    lines: list
    arcs: list
    vertices: list  # [(index, (x, y))]
    outline: list  # sampled points of every edge, for the bounding box and collisions
    shafts: list
    origin: tuple  # the 3D point the view is centred on
    x_axis: tuple  # 3D directions of the view's x and y
    y_axis: tuple
    edge_count: int  # geometry edges: the first cosmetic edge gets this index

    def bbox(self) -> tuple:
        xs = [p[0] for p in self.outline] or [0.0]
        ys = [p[1] for p in self.outline] or [0.0]
        return min(xs), min(ys), max(xs), max(ys)

    def world_level(self, axis: int, value: float) -> tuple:
        """(3D axis name, 3D coordinate) of a level along the view's x (0) or y (1)."""
        direction = self.x_axis if axis == 0 else self.y_axis
        main = max(range(3), key=lambda i: abs(direction[i]))
        coordinate = self.origin[main] + value * math.copysign(1.0, direction[main])
        return "xyz"[main], round(coordinate, 4)


@dataclasses.dataclass
class Candidate:
    """One dimension TechDraw can draw, with the value it will display (model units)."""

    family: str  # length, diameter, radius, angle
    value: float
    view: str
    kind: str  # TechDraw Type: DistanceX, DistanceY, Distance, Diameter, Radius, Angle
    refs: tuple  # ('Vertex3', 'Vertex7'), ('Edge4',)
    role: str
    key: tuple  # what is measured, in model space: one dimension per key
    points: tuple  # reference points in view coordinates (placement)
    # A construction edge the dimension needs: ("line", (x, y), (x, y)) or
    # ("circle", (x, y), radius); its reference is written "Cosmetic".
    cosmetic: tuple | None = None
    target: str | None = None  # the case dimension this one is drawn for
    count: int = 1  # equal holes in the view that this one callout stands for ('4X')

    @property
    def rank(self) -> int:
        return RANK[self.role]

    @property
    def format(self) -> str:
        prefix = f"{self.count}X " if self.count > 1 else ""
        return prefix + FORMATS[self.family]

    @property
    def text(self) -> str:
        return printed_text(self.format, self.value, self.kind)


@functools.lru_cache(maxsize=65536)
def printed_text(format_spec: str, value: float, kind: str = "") -> str:
    """The text TechDraw prints for a FormatSpec and a value ('%.2w' drops trailing zeros;
    angles get a degree sign)."""

    def number(match):
        digits = int(match.group(1) or 6)
        text = f"{value:.{digits}f}"
        if match.group(2) == "w" and "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    text = re.sub(r"%\.?(\d*)([wfgeWFGE])", number, format_spec, count=1)
    if kind == "Angle" and "°" not in text:
        text += "°"
    return text


def polygonal_outline(lines: list, size: float) -> list:
    """The lines of a polygonal (coarse) view that are outline: horizontal or vertical and
    at least COARSE_MIN_LINE_REL of the view's size long (curves there are chains of
    short lines, a thread's zigzag gives no levels)."""
    shortest = size * COARSE_MIN_LINE_REL
    return [
        line for line in lines if (line.horizontal or line.vertical) and line.length >= shortest
    ]


def outline_count(length: float, size: float) -> int:
    """Points an edge of this length is sampled at for the view's outline: one every
    OUTLINE_STEP_REL of the view's size, 2 to 400."""
    return max(2, min(400, int(length / (size * OUTLINE_STEP_REL)) + 1))


def length_key(view: ViewGeometry, axis: int, first: float, second: float) -> tuple:
    """What a length measures in model space: its two levels, in model order (the rear
    view's x runs the other way, and its overall width is the front view's)."""
    return ("length", *sorted((view.world_level(axis, first), view.world_level(axis, second))))


def _levels(coordinates: list) -> list:
    """Sorted distinct values, merged within LEVEL_TOLERANCE: [(value, [vertex indices])]."""
    levels = []
    for value, index in sorted(coordinates):
        if levels and value - levels[-1][0] <= LEVEL_TOLERANCE:
            levels[-1][1].append(index)
        else:
            levels.append((value, [index]))
    return levels


def linear_candidates(view: ViewGeometry) -> list:
    """DistanceX / DistanceY between levels: overall, steps, datum and hole positions.

    A level along x is the x of a vertical line, of an arc centre or of a sloping line's
    end (y alike): where a drafter puts an extension line. The end of a horizontal line
    gives no x level of its own -- where it meets a fillet is a tangent point, and where
    it meets a vertical line, that line gives the level.
    """
    points = dict(view.vertices)
    centers = {
        index
        for index, point in view.vertices
        if any(math.dist(point, arc.center) <= LEVEL_TOLERANCE for arc in view.arcs)
    }
    found = []
    for axis, kind in ((0, "DistanceX"), (1, "DistanceY")):
        along = [line for line in view.lines if (line.vertical if axis == 0 else line.horizontal)]
        sloping = [line for line in view.lines if not (line.horizontal or line.vertical)]
        ends = [p for line in along for p in (line.a, line.b)]
        ends += [p for line in sloping for p in (line.a, line.b) if not _on_partial_arc(view, p)]
        usable = sorted(
            index
            for index, point in view.vertices
            if index in centers or any(math.dist(point, end) <= LEVEL_TOLERANCE for end in ends)
        )
        levels = _levels([(points[i][axis], i) for i in usable])
        center_level = [all(v in centers for v in level[1]) for level in levels]
        last = len(levels) - 1
        for i in range(len(levels)):
            for j in range(i + 1, len(levels)):
                value = levels[j][0] - levels[i][0]
                if value < MIN_VALUE:
                    continue
                low_hole, high_hole = center_level[i], center_level[j]
                if i == 0 and j == last:
                    role = "overall"
                elif i == 0 and high_hole and not low_hole:
                    role = "position"  # from the low datum edge, as holes are located
                elif low_hole and high_hole:
                    role = "between" if any(center_level[i + 1 : j]) else "pitch"
                elif j == i + 1 and not (low_hole or high_hole):
                    role = "step"
                elif i == 0 or j == last:
                    role = "datum"
                else:
                    role = "between"
                first = _representative(levels[i][1], points, axis, centers)
                second = _representative(levels[j][1], points, axis, centers)
                key = length_key(view, axis, levels[i][0], levels[j][0])
                found.append(
                    Candidate(
                        "length",
                        value,
                        view.name,
                        kind,
                        (f"Vertex{first}", f"Vertex{second}"),
                        role,
                        key,
                        (points[first], points[second]),
                    )
                )
    return found


def _on_partial_arc(view: ViewGeometry, point: tuple) -> bool:
    """Where a line runs into a fillet or a slot end: a tangent point, not a level."""
    return any(
        not arc.full and abs(math.dist(point, arc.center) - arc.radius) <= LEVEL_TOLERANCE
        for arc in view.arcs
    )


def _representative(indices: list, points: dict, axis: int, centers: set) -> int:
    """The vertex a dimension refers to at one level: a hole centre if there is one (hole
    positions are measured to it), else the one nearest the view's middle across the axis
    (short extension lines)."""
    for index in indices:
        if index in centers:
            return index
    return min(indices, key=lambda i: (abs(points[i][1 - axis]), i))


def inclined_candidates(view: ViewGeometry) -> list:
    """Sloping lines: their true length, their legs (chamfers) and the angles they make."""
    found = []
    lines = view.lines
    for line in lines:
        if line.horizontal or line.vertical:
            continue
        # Linear dimensions refer to the two end vertices, not the edge: TechDraw's DXF
        # writer offsets the text from the label by the order of the two points.
        first, second = _vertex_at_point(view, line.a), _vertex_at_point(view, line.b)
        if first is None or second is None:
            continue
        refs = (f"Vertex{first}", f"Vertex{second}")
        neighbours = [other for other in lines if other is not line and _shared(line, other)]
        chamfer = len(neighbours) == 2 and {_axis(n) for n in neighbours} == {"h", "v"}
        role = "chamfer" if chamfer else "edge"
        for axis, kind in ((0, "DistanceX"), (1, "DistanceY")):
            low, high = sorted((line.a[axis], line.b[axis]))
            if high - low < MIN_VALUE:
                continue
            key = length_key(view, axis, low, high)
            found.append(
                Candidate("length", high - low, view.name, kind, refs, role, key, (line.a, line.b))
            )
        found.append(
            Candidate(
                "length",
                line.length,
                view.name,
                "Distance",
                refs,
                "edge",
                ("aligned", view.name, _rounded(line.a), _rounded(line.b)),
                (line.a, line.b),
            )
        )
    for i, first in enumerate(lines):
        for second in lines[i + 1 :]:
            apex = _shared(first, second)
            if apex is None:
                continue
            if (first.horizontal or first.vertical) and (second.horizontal or second.vertical):
                continue
            far1, far2 = _far(first, apex), _far(second, apex)
            angle = _angle(apex, far1, far2)
            if angle < 0.01 or abs(angle - 90.0) < 0.01 or angle > 179.99:
                continue
            role = "angle" if angle < 90 else "obtuse"
            key = ("angle", view.name, _rounded(apex), round(angle, 3))
            found.append(
                Candidate(
                    "angle",
                    angle,
                    view.name,
                    "Angle",
                    (f"Edge{first.index}", f"Edge{second.index}"),
                    role,
                    key,
                    (apex, far1, far2),
                )
            )
            # The supplement (a chamfer's 45 deg against its face) needs a construction
            # line that continues the second edge past the corner.
            reach = min(first.length, second.length, 10.0)
            unit = _unit(apex, far2)
            extension = (apex, (apex[0] - unit[0] * reach, apex[1] - unit[1] * reach))
            supplement = 180.0 - angle
            if abs(supplement - 90.0) < 0.01:
                continue  # a right angle is never dimensioned
            found.append(
                Candidate(
                    "angle",
                    supplement,
                    view.name,
                    "Angle",
                    (f"Edge{first.index}", "Cosmetic"),
                    "angle" if supplement < 90 else "obtuse",
                    ("angle", view.name, _rounded(apex), round(supplement, 3)),
                    (apex, far1, extension[1]),
                    cosmetic=("line", *extension),
                )
            )
    return found + taper_candidates(view)


def taper_candidates(view: ViewGeometry) -> list:
    """The included angle of a cone, a V-groove or a dovetail: two sloping lines that
    mirror each other about a horizontal or vertical line and meet (extended) on it.
    TechDraw measures the angle at that meeting point between the rays to the lines' far
    ends."""
    found = []
    sloping = [line for line in view.lines if not (line.horizontal or line.vertical)]
    for i, first in enumerate(sloping):
        for second in sloping[i + 1 :]:
            if _shared(first, second) is not None:
                continue
            apex = _intersection(first, second)
            if apex is None or not _mirrored(first, second, apex):
                continue
            far1, far2 = _farther(first, apex), _farther(second, apex)
            angle = _angle(apex, far1, far2)
            if angle < 0.01 or angle > 179.99:
                continue
            found.append(
                Candidate(
                    "angle",
                    angle,
                    view.name,
                    "Angle",
                    (f"Edge{first.index}", f"Edge{second.index}"),
                    "angle" if angle < 90 else "obtuse",
                    ("angle", view.name, _rounded(apex), round(angle, 3)),
                    (apex, far1, far2),
                )
            )
    return found


def _intersection(first: Line, second: Line):
    (x1, y1), (x2, y2) = first.a, first.b
    (x3, y3), (x4, y4) = second.a, second.b
    denominator = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(denominator) < 1e-12 * max(first.length, second.length, 1.0) ** 2:
        return None
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / denominator
    return x1 + t * (x2 - x1), y1 + t * (y2 - y1)


def _mirrored(first: Line, second: Line, apex: tuple) -> bool:
    """Whether the two lines are mirror images about the horizontal or vertical line
    through their meeting point."""
    u, v = _unit(apex, _farther(first, apex)), _unit(apex, _farther(second, apex))
    about_horizontal = abs(u[0] - v[0]) < 1e-6 and abs(u[1] + v[1]) < 1e-6
    about_vertical = abs(u[0] + v[0]) < 1e-6 and abs(u[1] - v[1]) < 1e-6
    return about_horizontal or about_vertical


def _farther(line: Line, point: tuple) -> tuple:
    return line.a if math.dist(line.a, point) >= math.dist(line.b, point) else line.b


def _vertex_at_point(view: ViewGeometry, point: tuple):
    for index, p in view.vertices:
        if math.dist(p, point) <= LEVEL_TOLERANCE * 10:
            return index
    return None


def _vertex_at(view: ViewGeometry, axis: int, value: float):
    matches = [i for i, p in view.vertices if abs(p[axis] - value) <= LEVEL_TOLERANCE * 10]
    return min(matches) if matches else None


def chosen_dimensions(candidates: list, targets=None, avoid=frozenset()) -> list:
    """The dimensions to draw, most important first, each measured thing once.

    With targets (a case's dimensions), first one candidate per target that displays its
    value within its tolerance (same family, lowest rank, nearest value), then the
    drafter's defaults. Returns copies; a copy drawn for a target carries its id.
    avoid: {(target id, view)}: that target is shown in another view where one shows it
    (the layout had no room for it there).
    """
    chosen, keys = [], set()

    def take(candidate, target=None):
        if candidate.key in keys:
            return
        keys.add(candidate.key)
        chosen.append(dataclasses.replace(candidate, target=target))

    # Each candidate's family and value once: a target is looked for among all of them
    # (CTC-02: 170 targets x 9,000 candidates per plan, the same test as _shows).
    families = np.array([c.family for c in candidates], dtype=object)
    values = np.array([c.value for c in candidates], dtype=float)
    for target in targets or ():
        if any(_shows(c, target) for c in chosen):
            continue
        hits = np.flatnonzero(
            (families == target.kind) & (np.abs(values - target.value) <= target.tolerance + 1e-9)
        )
        matching = [candidates[i] for i in hits.tolist()]
        elsewhere = [c for c in matching if (target.id, c.view) not in avoid]
        matching = elsewhere or matching
        if matching:
            # A dimension printing the target's own figure first (27.5 for 27.5, not a
            # 27.6 within the tolerance that happens to be an overall size), then the
            # drafter's choice. The nearest value at SAME_VALUE: the one length seen in two
            # views differs there by the projection's rounding, which a copy's pose changes
            # (NIST FTC-06 turned put its overall 304.8 in the bottom view, 1e-12 nearer).
            best = min(
                matching,
                key=lambda c: (
                    _printed_number(c.value) != _printed_number(target.value),
                    c.rank,
                    round(abs(c.value - target.value) / SAME_VALUE),
                    _view_rank(c),
                ),
            )
            take(best, target.id)
    for candidate in default_dimensions(candidates):
        shown = any(
            c.family == candidate.family and abs(c.value - candidate.value) < 1e-6 for c in chosen
        )
        if shown and candidate.family != "length":
            continue  # one Ø11 for the holes of one size, as a drafter writes it
        take(candidate)
    return chosen


def _printed_number(value: float) -> str:
    return printed_text(FORMATS["length"], value)


def _shows(candidate: Candidate, target) -> bool:
    return candidate.family == target.kind and abs(candidate.value - target.value) <= (
        target.tolerance + 1e-9
    )


def _view_rank(candidate: Candidate) -> int:
    return VIEW_ORDER.index(candidate.view) if candidate.view in VIEW_ORDER else len(VIEW_ORDER)


def default_dimensions(candidates: list) -> list:
    """What a drafter dimensions without being told, most important first: overall sizes,
    one of each hole diameter, hole positions from the datum edges, one of each radius,
    chamfer and angle, then one of each step and hole spacing (equal steps of a
    symmetric part are shown once)."""
    ordered = sorted(candidates, key=lambda c: (_view_rank(c), c.rank))
    picked, seen_values = [], set()

    def once_per_value(c):
        key = (c.family, c.role, round(c.value, 3))
        if key not in seen_values:
            seen_values.add(key)
            picked.append(c)

    # (which candidates, shown once per value?) in order; a round part's overall size is
    # its diameter. Holes are located before the rounds are sized: when the sheet is full,
    # the least important (last) defaults go first.
    passes = (
        (lambda c: c.role == "shaft", True),
        (lambda c: c.role == "overall", False),
        (lambda c: c.role == "hole", True),
        (lambda c: c.role == "position", False),
        (lambda c: c.role == "radius", True),
        (
            lambda c: (
                (c.role == "chamfer" and c.kind in ("DistanceX", "DistanceY"))
                or (c.role in ("angle", "pitch") and c.family != "length")
            ),
            True,
        ),
        (lambda c: c.role in ("step", "pitch"), True),
    )
    for wanted, once in passes:
        for c in (c for c in ordered if wanted(c)):
            if once:
                once_per_value(c)
            else:
                picked.append(c)
    return picked


def _shared(first: Line, second: Line):
    for p in (first.a, first.b):
        for q in (second.a, second.b):
            if math.dist(p, q) <= LEVEL_TOLERANCE:
                return p
    return None


def _far(line: Line, apex: tuple) -> tuple:
    return line.b if math.dist(line.a, apex) <= LEVEL_TOLERANCE else line.a


def _axis(line: Line) -> str:
    return "h" if line.horizontal else "v" if line.vertical else "o"


def _unit(a: tuple, b: tuple) -> tuple:
    length = math.dist(a, b) or 1.0
    return (b[0] - a[0]) / length, (b[1] - a[1]) / length


def _angle(apex: tuple, p: tuple, q: tuple) -> float:
    u, v = _unit(apex, p), _unit(apex, q)
    cosine = max(-1.0, min(1.0, u[0] * v[0] + u[1] * v[1]))
    return math.degrees(math.acos(cosine))


def _rounded(point: tuple) -> tuple:
    return tuple(round(c, 4) + 0.0 for c in point)
