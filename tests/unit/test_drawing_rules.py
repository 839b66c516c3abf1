# SPDX-License-Identifier: LGPL-2.1-or-later
"""A drafter's rules in the drawing's planning and layout, on constructed view geometry.

Pure Python: views are built from lines and circles whose sizes are the construction's
(no FreeCAD), so every expected figure is the one the geometry was made with.
"""

import math

import numpy as np

from cadbench_wb.drafting import circles as drawing_circles
from cadbench_wb.drafting import layout as drawing_layout
from cadbench_wb.drafting import plan as plan_module
from cadbench_wb.drafting.plan import Arc, Candidate, Line, ViewGeometry


def _plate_view(holes, width=200.0, height=120.0, radius=3.5) -> ViewGeometry:
    """A width x height rectangle centred on the origin with full round holes."""
    x, y = width / 2, height / 2
    corners = [(-x, -y), (x, -y), (x, y), (-x, y)]
    lines = [Line(i, corners[i], corners[(i + 1) % 4]) for i in range(4)]
    arcs = [Arc(4 + i, c, radius, True, 360.0, True) for i, c in enumerate(holes)]
    vertices = list(enumerate(corners + list(holes)))
    return ViewGeometry(
        name="Front",
        lines=lines,
        arcs=arcs,
        vertices=vertices,
        outline=corners,
        shafts=[],
        origin=(0.0, 0.0, 0.0),
        x_axis=(1.0, 0.0, 0.0),
        y_axis=(0.0, 0.0, 1.0),
        edge_count=4 + len(holes),
    )


def test_holes_at_a_rectangles_corners_get_no_pitch_circle():
    # Any four points at a rectangle's corners lie on one circle (here Ø(√(160² + 80²))):
    # a drafter locates such holes by coordinates, never by a pitch circle drawn across.
    view = _plate_view([(-80, -40), (80, -40), (80, 40), (-80, 40)])
    assert drawing_circles.bolt_circle_candidates(view) == []


def test_evenly_spaced_holes_get_their_pitch_circle():
    holes = [(30 * math.cos(k * math.pi / 3), 30 * math.sin(k * math.pi / 3)) for k in range(6)]
    (found,) = drawing_circles.bolt_circle_candidates(_plate_view(holes))
    assert found.family == "diameter" and abs(found.value - 60.0) < 1e-9


def test_pitch_circle_outside_the_part_is_not_drawn():
    # four holes evenly on a Ø150 circle, the plate only 120 high: the circle would run
    # off the part
    holes = [(75 * math.cos(k * math.pi / 2), 75 * math.sin(k * math.pi / 2)) for k in range(4)]
    assert drawing_circles.bolt_circle_candidates(_plate_view(holes, width=200, height=120)) == []


def test_equal_holes_are_called_out_with_their_count():
    view = _plate_view([(-80, -40), (80, -40), (80, 40), (-80, 40)], radius=3.5)
    diameters = [c for c in drawing_circles.radial_candidates(view) if c.family == "diameter"]
    assert {c.text for c in diameters} == {"4X ⌀7"}
    # hidden-line removal may return each circle as two half arcs: still four holes
    halves = _plate_view([(-80, -40), (80, -40), (80, 40), (-80, 40)], radius=3.5)
    halves.arcs = [
        Arc(10 + 2 * i + k, a.center, a.radius, False, 180.0, True)
        for i, a in enumerate(halves.arcs)
        for k in range(2)
    ]
    diameters = [c for c in drawing_circles.radial_candidates(halves) if c.family == "diameter"]
    assert {c.text for c in diameters} == {"4X ⌀7"}
    single = _plate_view([(0, 0)], radius=5.0)
    (one,) = [c for c in drawing_circles.radial_candidates(single) if c.family == "diameter"]
    assert one.text == "⌀10"


def _step(value, target=None) -> Candidate:
    return Candidate(
        "length", value, "Front", "DistanceX", ("Vertex0", "Vertex1"), "step",
        ("length", value), ((0.0, 0.0), (value, 0.0)), target=target,
    )  # fmt: skip


def test_a_step_whose_extension_lines_merge_on_the_sheet_is_left_out():
    # MIN_SHEET_SPAN (1 mm) is the boundary: a 5 mm step at 1:5 spans exactly 1 mm.
    assert not drawing_layout._degenerate(_step(5.0), 0.2)
    assert drawing_layout._degenerate(_step(4.99), 0.2)
    assert drawing_layout._degenerate(_step(0.04), 0.2)
    # a case's target is never left out for this
    assert not drawing_layout._degenerate(_step(0.04, target="T1"), 0.2)


def test_the_sheet_is_the_smallest_that_draws_the_part_readably():
    # a 160 x 60 x 40 bracket: the front view at 1:2 is 80 mm long, at least READABLE_FRONT
    a4 = ((10, 10, 287, 200), (107, 10, 287, 48))
    a3 = ((20, 10, 410, 287), (230, 10, 410, 70))
    a2 = ((20, 10, 584, 410), (404, 10, 584, 70))
    sizes = {"Front": (160, 40), "Top": (160, 60), "Right": (60, 40), "Iso": (190, 150)}
    sheet, scale = drawing_layout.estimated_sheet(sizes, {"A4": a4, "A3": a3, "A2": a2})
    assert 160 * scale >= drawing_layout.READABLE_FRONT
    smaller = {"A4": a4, "A3": a3, "A2": a2}
    names = list(smaller)
    if names.index(sheet) > 0:
        below = smaller[names[names.index(sheet) - 1]]
        assert 160 * drawing_layout.estimated_scale(sizes, *below) < drawing_layout.READABLE_FRONT
    assert scale in drawing_layout.SCALES


def test_a_round_too_small_to_see_on_the_sheet_is_left_out():
    def radius(value, target=None):
        return Candidate(
            "radius", value, "Front", "Radius", ("Edge1",), "radius",
            ("radius", value), ((0.0, 0.0), (value, 0.0)), target=target,
        )  # fmt: skip

    # MIN_SHEET_RADIUS (1 mm) is the boundary: an R5 at 1:5 is drawn 1 mm
    assert not drawing_layout._degenerate(radius(5.0), 0.2)
    assert drawing_layout._degenerate(radius(4.99), 0.2)
    assert not drawing_layout._degenerate(radius(0.4, target="R"), 0.5)


def _length(view, low, high, role, target=None, kind="DistanceX") -> Candidate:
    """A horizontal (or, kind DistanceY, vertical) length from low to high in a view."""
    if kind == "DistanceX":
        points = ((low, 0.0), (high, 0.0))
    else:
        points = ((0.0, low), (0.0, high))
    return Candidate(
        "length", high - low, view, kind, ("Vertex0", "Vertex1"), role,
        ("length", view, kind, low, high), points, target=target,
    )  # fmt: skip


def test_an_overall_size_is_never_left_out_for_room():
    # 16 hole positions from the left edge of a 200 mm plate, each spanning the shorter
    # ones (a row each), then the overall 200: PREFERRED rows on the top, MAX_ROWS below
    # take 5 + 8 = 13 positions; the other 3 have no row, the overall takes the row beyond.
    view = _plate_view([])
    preferred, most = drawing_layout.PREFERRED[0], drawing_layout.MAX_ROWS
    positions = [
        _length("Front", -100.0, -100.0 + 10 * k, "position", f"P{k}") for k in range(1, 17)
    ]
    overall = _length("Front", -100.0, 100.0, "overall", "D1")
    rows, dropped = drawing_layout._rows({"Front": view}, positions + [overall], 0.5, "first")
    placed = [c.target for c, _ in rows["Front"]]
    assert "D1" in placed
    assert len(dropped) == 16 - preferred - most
    assert {c.target for c, _ in dropped} == {f"P{k}" for k in range(preferred + most + 1, 17)}


def test_a_target_is_shown_in_the_same_view_in_any_pose():
    # One length seen in two views: the projection's rounding (1e-12) differs with the
    # copy's pose and must not decide the view; the front view is a drafter's first.
    from cadbench_wb.case_model.cases import Dimension

    target = Dimension(id="D4", kind="length", value=304.8)
    front = _length("Front", 0.0, 304.8 + 1e-12, "overall")
    bottom = _length("Bottom", 0.0, 304.8, "overall")
    for candidates in ([front, bottom], [bottom, front]):
        (chosen, *_) = plan_module.chosen_dimensions(candidates, [target])
        assert chosen.view == "Front" and chosen.target == "D4"
    # the layout had no room for it in the front view: shown in the other one
    (chosen, *_) = plan_module.chosen_dimensions([front, bottom], [target], {("D4", "Front")})
    assert chosen.view == "Bottom"
    # and where no other view shows it, it stays where it was
    (chosen, *_) = plan_module.chosen_dimensions([front], [target], {("D4", "Front")})
    assert chosen.view == "Front"


def test_a_target_with_no_room_in_one_view_is_shown_in_another():
    # The 16 nested positions of test_an_overall_size_is_never_left_out_for_room, whose
    # three longest the front view has no row for; the top view shows the same three
    # lengths: the drafter moves them there, and every target is placed.
    from cadbench_wb.case_model.cases import Dimension

    front, top = _plate_view([]), _plate_view([])
    top.name = "Top"
    kept = drawing_layout.PREFERRED[0] + drawing_layout.MAX_ROWS
    spans = [(-100.0, -100.0 + 10 * k) for k in range(1, 17)]
    candidates = [_length("Front", a, b, "position") for a, b in spans]
    candidates += [_length("Top", a, b, "position") for a, b in spans[kept:]]
    targets = [Dimension(id=f"P{k}", kind="length", value=10.0 * k) for k in range(1, 17)]
    a2 = ((20, 10, 584, 410), (404, 10, 584, 70))
    chosen, sheet, plan = drawing_layout.planned_sheet(
        [front, top], candidates, targets, {"A2": a2}, "A2", "first", (0.5,), 0.5
    )
    assert [c for c, _ in plan.dropped if c.target] == []
    moved = sorted(c.target for c in chosen if c.view == "Top")
    assert moved == sorted(f"P{k}" for k in range(kept + 1, 17))
    # without the other view they take the rows they need where the sheet holds them at
    # the scale (A2 at 1:2) ...
    chosen, sheet, plan = drawing_layout.planned_sheet(
        [front, top], candidates[:16], targets, {"A2": a2}, "A2", "first", (0.5,), 0.5
    )
    assert [c for c, _ in plan.dropped if c.target] == [] and plan.fits and plan.scale == 0.5
    # ... and stay left out where it does not (A4: 16 rows of 7 mm and the 60 mm view
    # need 172 mm, its frame holds 142 above the title block)
    a4 = ((10, 10, 287, 200), (107, 10, 287, 48))
    chosen, sheet, plan = drawing_layout.planned_sheet(
        [front, top], candidates[:16], targets, {"A4": a4}, "A4", "first", (0.5,), 0.5
    )
    assert len([c for c, _ in plan.dropped if c.target]) == 16 - kept


def test_a_target_angle_whose_apex_is_off_the_sheet_is_labelled_at_its_legs():
    # A 2 degree draft: two edges from (-50, 0) and (50, 0) up to (+-48.25, 50), meeting
    # 1432 mm below (50 / tan 2 deg): at 1:1 every place near that apex is off an A3
    # sheet. A target is labelled on the bisector about the legs' far ends; a drafter's
    # default is not (it is left out instead, as before).
    half = math.radians(1.0)
    depth = 50.0 / math.tan(half)
    apex = (0.0, -depth)
    far = ((50.0 - 50 * math.tan(half), 50.0), (-(50.0 - 50 * math.tan(half)), 50.0))

    def angle(target=None):
        return Candidate(
            "angle", 2.0, "Front", "Angle", ("Edge1", "Edge2"), "angle",
            ("angle", 2.0), (apex, *far), target=target,
        )  # fmt: skip

    area, title_block = (25.0, 15.0, 405.0, 282.0), (230.0, 10.0, 410.0, 70.0)
    centre = (200.0, 180.0)
    no_obstacles = np.zeros((0, 2))
    assert (
        drawing_layout._free_spot(angle(), centre, 1.0, [], no_obstacles, area, title_block) is None
    )
    spot = drawing_layout._free_spot(angle("A1"), centre, 1.0, [], no_obstacles, area, title_block)
    assert spot is not None
    x0, y0, x1, y1 = spot.box
    assert area[0] <= x0 and x1 <= area[2] and area[1] <= y0 and y1 <= area[3]
    # on the bisector (x = the view's centre), within the band's height of the legs' ends
    assert abs((x0 + x1) / 2 - centre[0]) < 1e-6
    legs_end = centre[1] + 50.0
    assert abs((y0 + y1) / 2 - legs_end) <= 60.0 + drawing_layout.TEXT_HEIGHT
