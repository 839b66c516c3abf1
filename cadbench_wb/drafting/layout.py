# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where the views and dimension labels go on the sheet: a readable layout at a standard scale.

Pure Python (no FreeCAD). Linear dimensions stand in rows beside their view (ISO 129: the
first row 10 mm from the outline, then 7 mm apart; smaller dimensions inside larger ones,
never two labels on one spot); diameters, radii, angles and sloping lengths look for a free
spot around their feature. The scale is the largest of ISO 5455's series at which the views
and their dimension rows fit the sheet above the title block.

Positions are page millimetres, y up, as TechDraw's X/Y and its DXF export use them.
"""

import dataclasses
import functools
import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.drafting import plan as plan_module
from cadbench_wb.drafting.plan import Candidate, ViewGeometry

# ISO 5455 scales, largest first.
SCALES = (10.0, 5.0, 2.0, 1.0, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001)
# Tuned numbers, with their reasons: standard.DRAWING["layout"].
_LAYOUT = standard.DRAWING["layout"]
TEXT_HEIGHT = _LAYOUT["text_height_mm"]
FIRST_ROW = _LAYOUT["first_row_mm"]
ROW_PITCH = _LAYOUT["row_pitch_mm"]
LABEL_GAP = _LAYOUT["label_gap_mm"]
VIEW_GAP = _LAYOUT["view_gap_mm"]
MAX_ROWS = _LAYOUT["max_rows"]
MIN_SHEET_SPAN = _LAYOUT["min_sheet_span_mm"]
MIN_ANGLE_LEG = _LAYOUT["min_angle_leg_mm"]
MIN_SHEET_RADIUS = _LAYOUT["min_sheet_radius_mm"]
PREFERRED = {0: _LAYOUT["preferred_rows"], 1: _LAYOUT["preferred_columns"]}
_SEARCH = standard.DRAWING["label_search"]
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
ESTIMATED_BAND = _LAYOUT["estimated_band_mm"]
# Rounds in which targets left out for room are moved to another view (planned_sheet):
# each round is one more layout; NIST FTC-09's auto case settles in one.
REPLANS = 2
# Where a target angle looks for its label when none is free near its apex (_free_spot):
# on the bisector about the legs' far ends, within a dimension band's height (sheet mm
# from them; inward first), as a drafter dimensions a draft between two near-parallel
# edges whose apex lies off the sheet (NIST FTC-07's 2 degrees: apex 257 mm off its view).
FAR_ANGLE = {
    "angle_distances_mm": (-8.0, 8.0, -16.0, 16.0, -26.0, 26.0, 40.0, 60.0),
    "angle_turns_deg": (0,),
}
READABLE_FRONT = _LAYOUT["readable_front_mm"]
# TechDraw's DXF writer puts a linear dimension's text and line this far from its label,
# across the line joining the two measured points (ImpExpDxf: "gap = 5.0").
DXF_TEXT_SHIFT = 5.0

# (side of horizontal dimensions, side of vertical dimensions) per view, and its grid
# cell (row from the top, column from the left), as TechDraw's projection group places
# them: first angle puts the top view below the front and the right-hand view on its
# left; third angle the other way round; the rear view goes at the far right in both.
# The isometric view takes a free corner, so it costs neither a row nor a column. Rear,
# bottom and left-hand views are drawn only when a feature is seen from there alone.
SIDES = {
    "first": {
        "Front": ("top", "right"),
        "Top": ("bottom", "right"),
        "Right": ("top", "left"),
        "Left": ("top", "right"),
        "Bottom": ("top", "right"),
        "Rear": ("top", "right"),
        "Section": ("bottom", "right"),
        "SectionB": ("top", "right"),
    },
    "third": {
        "Front": ("bottom", "left"),
        "Top": ("top", "left"),
        "Right": ("bottom", "right"),
        "Left": ("bottom", "left"),
        "Bottom": ("bottom", "left"),
        "Rear": ("bottom", "right"),
        "Section": ("bottom", "right"),
        "SectionB": ("bottom", "left"),
    },
}
CELLS = {
    "first": {
        "Bottom": (0, 1),
        "Right": (1, 0),
        "Front": (1, 1),
        "Left": (1, 2),
        "Rear": (1, 3),
        "Top": (2, 1),
        "Iso": (2, 0),
        "Section": (2, 2),
        "SectionB": (0, 2),
    },
    "third": {
        "Top": (0, 1),
        "Iso": (0, 2),
        "Left": (1, 0),
        "Front": (1, 1),
        "Right": (1, 2),
        "Rear": (1, 3),
        "Bottom": (2, 1),
        "Section": (2, 2),
        "SectionB": (2, 0),
    },
}


@dataclasses.dataclass
class Placed:
    candidate: Candidate
    label: tuple  # absolute page position of the label (TechDraw X/Y plus the view's)
    box: tuple  # (x0, y0, x1, y1) of the printed text, absolute


ISO = "Iso"  # the pictorial view's name


@dataclasses.dataclass
class Layout:
    scale: float
    iso_scale: float
    fits: bool
    positions: dict  # view name -> absolute page position of its centre
    placed: list
    dropped: list  # [(Candidate, reason)]


@functools.lru_cache(maxsize=512)
def text_width(text: str) -> float:
    """Width of a label on the sheet, measured with ezdxf's font metrics (DejaVu Sans is
    wider than the STANDARD style's font, so the estimate errs towards more space)."""
    try:
        from ezdxf.fonts import fonts  # noqa: PLC0415 - optional: else the estimate below

        return fonts.make_font("DejaVuSans.ttf", TEXT_HEIGHT).text_width(text)
    except Exception:  # no font machinery: a conservative average glyph width
        return 0.75 * TEXT_HEIGHT * len(text)


def text_box(anchor: tuple, text: str) -> tuple:
    """Box of a centred TEXT whose baseline centre is at anchor (descenders included)."""
    half = text_width(text) / 2
    return (
        anchor[0] - half,
        anchor[1] - 0.3 * TEXT_HEIGHT,
        anchor[0] + half,
        anchor[1] + TEXT_HEIGHT,
    )


def linear_shift(candidate: Candidate, scale: float) -> tuple:
    """Offset from a linear dimension's label to where the DXF prints its text."""
    (x1, y1), (x2, y2) = candidate.points
    nx, ny = (y1 - y2) * scale, (x1 - x2) * scale
    length = math.hypot(nx, ny) or 1.0
    return DXF_TEXT_SHIFT * nx / length, DXF_TEXT_SHIFT * ny / length


SHEET_MARGIN = _LAYOUT["sheet_margin_mm"]


def layout(
    views, chosen, working, title_block, projection="first", scales=SCALES, all_rows=False
) -> Layout:
    """The largest standard scale at which everything fits, with every label placed.

    working: the sheet's frame (x0, y0, x1, y1); title_block: the title block's box. The
    views go in the part of the frame above the title block; labels anywhere in the frame
    but on the title block.
    """
    geometry = {v.name: v for v in views}
    m = SHEET_MARGIN
    area = (working[0] + m, title_block[3] + m, working[2] - m, working[3] - m)
    free = (working[0] + m, working[1] + m, working[2] - m, working[3] - m)
    for index, scale in enumerate(scales):
        rows, dropped = _rows(geometry, chosen, scale, projection, all_rows)
        # A pictorial view may be drawn smaller than the orthographic ones (ISO 5456-3
        # puts no scale on it); at most two steps down the series.
        for iso_scale in scales[index : index + 3]:
            scales_of = {name: iso_scale if name == ISO else scale for name in geometry}
            extents = {n: _extent(geometry[n], scales_of[n], rows[n]) for n in geometry}
            positions, size = _grid(extents, area, projection)
            if size[0] <= area[2] - area[0] and size[1] <= area[3] - area[1]:
                return _finish(
                    geometry, chosen, scales_of, True, positions, rows, dropped, free, title_block
                )
    return _finish(geometry, chosen, scales_of, False, positions, rows, dropped, free, title_block)


def fitted_layout(
    views, chosen, working, title_block, projection, scales, floor, all_rows=False
) -> Layout:
    """A layout at a scale no smaller than floor: when the dimensions do not fit, the
    drafter's least important defaults go first (a case's targets are never left out
    to save room; a smaller scale is taken before that)."""
    keep, trimmed = list(chosen), []
    allowed = tuple(s for s in scales if s >= floor - 1e-12) or scales[-1:]
    while True:
        plan = layout(views, keep, working, title_block, projection, allowed, all_rows)
        defaults = [i for i, c in enumerate(keep) if c.target is None]
        if plan.fits or not defaults:
            break
        cut = set(defaults[-max(1, len(defaults) // 4) :])
        trimmed += [c for i, c in enumerate(keep) if i in cut]
        keep = [c for i, c in enumerate(keep) if i not in cut]
    if not plan.fits:
        plan = layout(views, keep, working, title_block, projection, scales, all_rows)
    plan.dropped += [(c, "left out to fit the sheet") for c in trimmed]
    return plan


def estimated_sheet(sizes: dict, sheets: dict, projection="first") -> tuple:
    """(sheet, scale): the smallest sheet on which the estimated scale draws the front
    view at least READABLE_FRONT long; when none does, the smallest with the largest
    scale (a small part enlarged as far as ISO 5455 goes).
    sheets: {name: (frame, title block)}, smallest first."""
    front = max(sizes["Front"])
    estimates = [
        (name, estimated_scale(sizes, working, title_block, projection))
        for name, (working, title_block) in sheets.items()
    ]
    for name, scale in estimates:
        if front * scale >= READABLE_FRONT:
            return name, scale
    largest = max(scale for _name, scale in estimates)
    return next((name, scale) for name, scale in estimates if scale == largest)


def sheet_layout(
    views, chosen, sheets: dict, first: str, projection, scales, floor, all_rows=False
) -> tuple:
    """(sheet, layout): at the first of scales (the one the views were projected at) on
    the sheet first, the least important defaults left out to fit; else on the next
    larger sheet that holds the rest; else on sheet first at the largest scale that fits
    (fitted_layout)."""
    names = list(sheets)
    working, title_block = sheets[first]
    # The least important defaults go before the sheet grows: the targets decide it.
    plan = fitted_layout(
        views, chosen, working, title_block, projection, scales[:1], scales[0], all_rows
    )
    if plan.fits:
        return first, plan
    for name in names[names.index(first) + 1 :]:
        working, title_block = sheets[name]
        plan = fitted_layout(
            views, chosen, working, title_block, projection, scales[:1], scales[0], all_rows
        )
        if plan.fits:
            return name, plan
    working, title_block = sheets[first]
    return first, fitted_layout(
        views, chosen, working, title_block, projection, scales, floor, all_rows
    )


def planned_sheet(views, candidates, targets, sheets, first, projection, scales, floor) -> tuple:
    """(chosen, sheet, layout): the dimensions chosen for the targets (plan.chosen_dimensions)
    laid out (sheet_layout); a target the layout leaves out for room in one view is shown
    in another view that shows it, as a drafter moves a dimension to where it fits
    (REPLANS rounds at most; the round that leaves out fewest targets is kept). Targets
    still left out for room then get every row they need, when the sheet still fits them
    at a scale no smaller than floor (NIST FTC-08's pocket 273.24 x 186.12 and boss width
    204.91, the longest spans of their views); else the best round stands (a sheet of
    hole positions a row each would take any scale: FTC-09's went to 1:1000)."""
    avoid = frozenset()
    best = None
    for _round in range(REPLANS + 1):
        chosen = plan_module.chosen_dimensions(candidates, targets, avoid)
        sheet, plan = sheet_layout(views, chosen, sheets, first, projection, scales, floor)
        lost = _lost_targets(plan)
        if best is None or len(lost) < best[0]:
            best = (len(lost), chosen, sheet, plan)
        if not lost or lost <= avoid:
            break
        avoid = avoid | lost
    count, chosen, sheet, plan = best
    if count:
        sheet_all, plan_all = sheet_layout(
            views, chosen, sheets, first, projection, scales, floor, all_rows=True
        )
        if (
            plan_all.fits
            and plan_all.scale >= floor - 1e-12
            and len(_lost_targets(plan_all)) < count
        ):
            return chosen, sheet_all, plan_all
    return chosen, sheet, plan


def _lost_targets(plan) -> set:
    return {(c.target, c.view) for c, _ in plan.dropped if c.target is not None}


def estimated_scale(sizes: dict, working, title_block, projection="first") -> float:
    """The scale a layout will most likely take, from the views' sizes alone (model mm,
    {name: (width, height)}) and a typical band of dimensions on each dimensioned side:
    hidden-line removal then runs once at the right scale instead of twice."""
    m = SHEET_MARGIN
    area = (working[0] + m, title_block[3] + m, working[2] - m, working[3] - m)
    for index, scale in enumerate(SCALES):
        extents = {}
        for name, (width, height) in sizes.items():
            sides = SIDES[projection].get(name, ())
            # the pictorial view may go two steps smaller, as the layout allows
            at = SCALES[min(index + 2, len(SCALES) - 1)] if name == ISO else scale
            extents[name] = (
                width * at / 2 + (ESTIMATED_BAND if "left" in sides else 0),
                width * at / 2 + (ESTIMATED_BAND if "right" in sides else 0),
                height * at / 2 + (ESTIMATED_BAND if "bottom" in sides else 0),
                height * at / 2 + (ESTIMATED_BAND if "top" in sides else 0),
            )
        _, size = _grid(extents, area, projection)
        if size[0] <= area[2] - area[0] and size[1] <= area[3] - area[1]:
            return scale
    return SCALES[-1]


def _rows(geometry, chosen, scale, projection, all_rows=False):
    """Linear dimensions in rows beside their view: {view: [(candidate, anchor)]}.
    all_rows: a case's target takes as many rows as it needs (planned_sheet's last try)."""
    rows = {name: [] for name in geometry}
    dropped = []
    for name, view in geometry.items():
        x0, y0, x1, y1 = view.bbox()
        horizontal_side, vertical_side = SIDES[projection].get(name, ("top", "right"))
        mine = [c for c in chosen if c.view == name]
        # A drafter's default whose two extension lines nearly coincide on the sheet is
        # no dimension one can read (a 0.04 mm step at 1:5); a target stays.
        dropped += [(c, _unreadable) for c in mine if _degenerate(c, scale)]
        mine = [c for c in mine if not _degenerate(c, scale)]
        across = [c for c in mine if c.kind == "DistanceX"]
        upright = [c for c in mine if c.kind == "DistanceY"]
        for items, axis, side in ((across, 0, horizontal_side), (upright, 1, vertical_side)):
            # Rows that would grow the band too wide continue on the view's other side.
            placed, over = _stack(items, axis, side, (x0, y0, x1, y1), scale, PREFERRED[axis])
            # The other side takes as many rows again; more only for a case's targets. An
            # overall size, the outermost row, is never left out for room: it takes the row
            # beyond the others (NIST FTC-09's 139 targets lost the overall 279.4).
            limit = MAX_ROWS if any(c.target for c in over) else PREFERRED[axis]
            more, lost = _stack(
                over, axis, OPPOSITE[side], (x0, y0, x1, y1), scale, limit, True, all_rows
            )
            rows[name] += placed + more
            dropped += [(c, "no room beside the view") for c in lost]
    return rows, dropped


_unreadable = (
    f"unreadable at this scale: extension lines closer than {MIN_SHEET_SPAN:g} mm, "
    f"an angle's leg shorter than {MIN_ANGLE_LEG:g} mm or an arc's radius under "
    f"{MIN_SHEET_RADIUS:g} mm on the sheet"
)


def _degenerate(candidate: Candidate, scale: float) -> bool:
    """A default no one can read at this scale: extension lines that merge, or an angle
    between stubs (the short straight pieces hidden-line removal leaves of blends)."""
    if candidate.target is not None:
        return False
    if candidate.kind == "Angle":
        apex, far1, far2 = candidate.points
        return min(math.dist(apex, far1), math.dist(apex, far2)) * scale < MIN_ANGLE_LEG
    if candidate.kind in ("Radius", "Diameter"):
        _center, (radius, _) = candidate.points
        return radius * scale < MIN_SHEET_RADIUS
    if candidate.kind not in ("DistanceX", "DistanceY"):
        return False
    low, high = _span(candidate, 0 if candidate.kind == "DistanceX" else 1)
    return (high - low) * scale < MIN_SHEET_SPAN


def _stack(items, axis, side, bbox, scale, limit, overall_kept=False, targets_kept=False):
    """Rows (axis 0: horizontal dimensions) or columns (axis 1) of dimensions: shortest
    nearest the view, a dimension outside every dimension it spans, labels never touching.
    Returns (placed [(candidate, anchor)], those that needed more than limit rows);
    overall_kept: an overall size takes a row beyond limit rather than being lost (one per
    view and axis: the band grows by a row at most); targets_kept: so does a target."""
    items = sorted(items, key=lambda c: (_span(c, axis)[1] - _span(c, axis)[0], _span(c, axis)))
    occupied = []  # per row: [(low, high)]
    row_of = []  # (span, row)
    placed, lost = [], []
    widest = max((text_width(c.text) for c in items), default=0.0)
    pitch = ROW_PITCH if axis == 0 else max(ROW_PITCH, widest + 2 * LABEL_GAP)
    for c in items:
        low, high = (v * scale for v in _span(c, axis))
        middle = (low + high) / 2
        reach = text_width(c.text) / 2 if axis == 0 else TEXT_HEIGHT
        extent = (min(low, middle - reach) - LABEL_GAP, max(high, middle + reach) + LABEL_GAP)
        row = 1 + max(
            (r for (lo, hi), r in row_of if lo >= low - 1e-9 and hi <= high + 1e-9), default=-1
        )
        kept = (overall_kept and c.role == "overall") or (targets_kept and c.target is not None)
        cap = math.inf if kept else limit
        while row < cap and any(_overlap(extent, o) for o in _row(occupied, row)):
            row += 1
        if row >= cap:
            lost.append(c)
            continue
        _row(occupied, row).append(extent)
        row_of.append(((low, high), row))
        edge = _edge(bbox, axis, side, scale)
        sign = 1 if side in ("top", "right") else -1
        if axis == 0:
            offset = FIRST_ROW + row * pitch + (0 if sign > 0 else TEXT_HEIGHT)
            anchor = (middle, edge + sign * offset)
        else:
            offset = FIRST_ROW + widest / 2 + row * pitch
            anchor = (edge + sign * offset, middle - TEXT_HEIGHT / 2)
        placed.append((c, anchor))
    return placed, lost


def _row(occupied, row):
    while len(occupied) <= row:
        occupied.append([])
    return occupied[row]


def _span(candidate: Candidate, axis: int) -> tuple:
    a, b = candidate.points
    return tuple(sorted((a[axis], b[axis])))


def _edge(bbox, axis, side, scale):
    x0, y0, x1, y1 = bbox
    if axis == 0:
        return (y1 if side == "top" else y0) * scale
    return (x1 if side == "right" else x0) * scale


def _overlap(a, b) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _extent(view: ViewGeometry, scale: float, rows) -> tuple:
    """(left, right, below, above) distances from the view centre that its drawing and its
    dimension rows take."""
    x0, y0, x1, y1 = view.bbox()
    left, right, below, above = -x0 * scale, x1 * scale, -y0 * scale, y1 * scale
    for c, anchor in rows:
        bx0, by0, bx1, by1 = text_box(anchor, c.text)
        left, right = max(left, -bx0), max(right, bx1)
        below, above = max(below, -by0), max(above, by1)
    return left + LABEL_GAP, right + LABEL_GAP, below + LABEL_GAP, above + LABEL_GAP


def _grid(extents, area, projection):
    """Centres of the views on the sheet: views in one column share x, in one row share y
    (projection alignment), and the block is centred in the drawing area."""
    cells = {name: CELLS[projection][name] for name in extents}
    columns = sorted({c for _, c in cells.values()})
    rows = sorted({r for r, _ in cells.values()})
    left = {c: max(extents[n][0] for n, (_, cc) in cells.items() if cc == c) for c in columns}
    right = {c: max(extents[n][1] for n, (_, cc) in cells.items() if cc == c) for c in columns}
    below = {r: max(extents[n][2] for n, (rr, _) in cells.items() if rr == r) for r in rows}
    above = {r: max(extents[n][3] for n, (rr, _) in cells.items() if rr == r) for r in rows}
    width = sum(left[c] + right[c] for c in columns) + VIEW_GAP * (len(columns) - 1)
    height = sum(below[r] + above[r] for r in rows) + VIEW_GAP * (len(rows) - 1)
    x = area[0] + (area[2] - area[0] - width) / 2
    xs = {}
    for c in columns:
        xs[c] = x + left[c]
        x += left[c] + right[c] + VIEW_GAP
    y = area[3] - (area[3] - area[1] - height) / 2
    ys = {}
    for r in rows:
        ys[r] = y - above[r]
        y -= above[r] + below[r] + VIEW_GAP
    positions = {name: (xs[c], ys[r]) for name, (r, c) in cells.items()}
    return positions, (width, height)


def _finish(geometry, chosen, scales_of, fits, positions, rows, dropped, area, title_block):
    scale = max(scales_of.values())
    placed = []
    for name, items in rows.items():
        px, py = positions[name]
        for c, anchor in items:
            text_at = (px + anchor[0], py + anchor[1])
            shift = linear_shift(c, scale)
            label = (text_at[0] - shift[0], text_at[1] - shift[1])
            placed.append(Placed(c, label, text_box(text_at, c.text)))
    obstacles = np.concatenate(
        [
            _outline_points(geometry, positions, scales_of),
            _construction_points(chosen, positions, scale),
        ]
    )
    lost = list(dropped)
    linear = {id(p.candidate) for p in placed}
    for c in chosen:
        if id(c) in linear or c.view not in positions or any(c is d for d, _ in dropped):
            continue
        spot = _free_spot(c, positions[c.view], scale, placed, obstacles, area, title_block)
        if spot is None:
            lost.append((c, "no free place for the label"))
        else:
            placed.append(spot)
    order = {id(c): i for i, c in enumerate(chosen)}
    placed.sort(key=lambda p: order[id(p.candidate)])
    return Layout(scale, scales_of.get(ISO, scale), fits, positions, placed, lost)


def _outline_points(geometry, positions, scales_of):
    points = [np.zeros((0, 2))]
    for name, view in geometry.items():
        if view.outline:
            px, py = positions[name]
            points.append(np.asarray(view.outline, dtype=float) * scales_of[name] + (px, py))
    return np.concatenate(points)


def _construction_points(chosen, positions, scale) -> np.ndarray:
    """Points of the construction lines and circles the dimensions add (a pitch circle):
    drawn on the sheet too, so no label may sit on them."""
    points = [np.zeros((0, 2))]
    for c in chosen:
        if c.cosmetic is None or c.view not in positions:
            continue
        kind, first, second = c.cosmetic
        if kind == "line":
            t = np.linspace(0.0, 1.0, 50)[:, None]
            xy = np.asarray(first) + (np.asarray(second) - np.asarray(first)) * t
        else:
            a = np.linspace(0.0, 2 * math.pi, 360)
            xy = np.c_[first[0] + second * np.cos(a), first[1] + second * np.sin(a)]
        points.append(xy * scale + positions[c.view])
    return np.concatenate(points)


def _free_spot(c, position, scale, placed, obstacles, area, title_block, far=False):
    """A label position for a diameter, radius, angle or sloping length where the text
    touches neither another label nor a drawn line; for a target, else where it touches
    no label; for a target angle with neither near its apex, about its legs' far ends
    (far: FAR_ANGLE)."""
    px, py = position
    width = text_width(c.text)
    tries = []
    if c.kind in ("Diameter", "Radius"):
        center, (radius, _) = c.points
        cx, cy = px + center[0] * scale, py + center[1] * scale
        for distance in _SEARCH["radial_distances_mm"]:
            reach = radius * scale + distance + width / 2
            for degrees in _SEARCH["radial_angles_deg"]:
                a = math.radians(degrees)
                tries.append(((cx + reach * math.cos(a), cy + reach * math.sin(a)), (0.0, 0.0)))
    elif c.kind == "Angle":
        apex, far1, far2 = c.points
        ax, ay = px + apex[0] * scale, py + apex[1] * scale
        u = _bisector(apex, far1, far2)
        # far: along the bisector at the legs' far ends (an apex off the sheet: two
        # near-parallel edges), else near the apex
        legs = min(math.dist(apex, far1), math.dist(apex, far2)) * scale if far else 0.0
        search = FAR_ANGLE if far else _SEARCH
        for distance in search["angle_distances_mm"]:
            for turn in search["angle_turns_deg"]:
                a = math.atan2(u[1], u[0]) + math.radians(turn)
                reach = legs + distance + width / 2
                tries.append(((ax + reach * math.cos(a), ay + reach * math.sin(a)), (0.0, 0.0)))
    else:  # sloping length: beside the line's middle, on either side
        (x1, y1), (x2, y2) = c.points
        mx, my = px + (x1 + x2) / 2 * scale, py + (y1 + y2) / 2 * scale
        nx, ny = -(y2 - y1), x2 - x1
        length = math.hypot(nx, ny) or 1.0
        shift = linear_shift(c, scale)
        for distance in _SEARCH["sloping_distances_mm"]:
            for sign in (1, -1):
                text_at = (mx + sign * distance * nx / length, my + sign * distance * ny / length)
                tries.append((text_at, shift))
    # A label on a drawn line is unreadable: only a case's target may sit so, when no
    # clear place is left.
    labels = np.array([p.box for p in placed]).reshape(-1, 4)
    # Only the obstacles near the tried places can touch a label: one pass over all of
    # them per dimension, not one per place tried.
    reach = max(width, TEXT_HEIGHT) + 2 * LABEL_GAP
    xs = [t[0][0] for t in tries] or [px]
    ys = [t[0][1] for t in tries] or [py]
    near = obstacles[
        (obstacles[:, 0] >= min(xs) - reach)
        & (obstacles[:, 0] <= max(xs) + reach)
        & (obstacles[:, 1] >= min(ys) - reach)
        & (obstacles[:, 1] <= max(ys) + reach)
    ]
    for strict in (True, False) if c.target is not None else (True,):
        for text_at, shift in tries:
            box = text_box(text_at, c.text)
            if not _inside(box, area) or _overlap_box(box, title_block):
                continue
            g = _grown(box)
            if np.any(
                (g[0] < labels[:, 2])
                & (labels[:, 0] < g[2])
                & (g[1] < labels[:, 3])
                & (labels[:, 1] < g[3])
            ):
                continue
            # grown: the outline is sampled, a line may pass between two samples
            if strict and _touches(_grown(box), near):
                continue
            label = (text_at[0] - shift[0], text_at[1] - shift[1])
            return Placed(c, label, box)
    if c.kind == "Angle" and c.target is not None and not far:
        return _free_spot(c, position, scale, placed, obstacles, area, title_block, far=True)
    return None


def _bisector(apex, p, q) -> tuple:
    u = _unit(apex, p)
    v = _unit(apex, q)
    x, y = u[0] + v[0], u[1] + v[1]
    length = math.hypot(x, y)
    if length < 1e-9:
        return -u[1], u[0]
    return x / length, y / length


def _unit(a, b) -> tuple:
    length = math.dist(a, b) or 1.0
    return (b[0] - a[0]) / length, (b[1] - a[1]) / length


def _grown(box, margin=LABEL_GAP):
    return box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin


def _overlap_box(a, b) -> bool:
    return b is not None and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box, area) -> bool:
    return box[0] >= area[0] and box[1] >= area[1] and box[2] <= area[2] and box[3] <= area[3]


def _touches(box, points) -> bool:
    inside = (
        (points[:, 0] >= box[0])
        & (points[:, 0] <= box[2])
        & (points[:, 1] >= box[1])
        & (points[:, 1] <= box[3])
    )
    return bool(inside.any())


def overlapping_labels(boxes: list) -> list:
    """Pairs of indices of text boxes that overlap (the readability check on the export)."""
    pairs = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            if _overlap_box(a, boxes[j]):
                pairs.append((i, j))
    return pairs
