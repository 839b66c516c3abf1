# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every tuned drawing number in standard.DRAWING, tested at its boundary.

Pure Python on constructed values: each test puts one input just inside and one just
outside the number's boundary (the numbers' reasons are in standard.py). Those that need
the FreeCAD kernel are in tests/app/test_drawing_standard_kernel.py; MIN_SHEET_SPAN,
MIN_SHEET_RADIUS and READABLE_FRONT in test_drawing_rules.py.
"""

import math

import pytest

from cadbench_wb import standard
from cadbench_wb.app.drawing import origin as drawing_origin
from cadbench_wb.app.drawing import pose as drawing_pose
from cadbench_wb.drafting import circles as drawing_circles
from cadbench_wb.drafting import layout as drawing_layout
from cadbench_wb.drafting import plan as drawing_plan
from cadbench_wb.drafting import sheet_checks as drawing_checks
from cadbench_wb.drafting.plan import Candidate, Line

DRAWING = standard.DRAWING


def test_module_names_are_the_standards_numbers():
    # the modules read the standard; nothing is tuned twice
    assert drawing_plan.LEVEL_TOLERANCE == DRAWING["plan"]["level_tolerance_mm"]
    assert drawing_layout.ROW_PITCH == DRAWING["layout"]["row_pitch_mm"]
    assert drawing_checks.MIN_TEXT_CLEARANCE == DRAWING["checks"]["min_text_clearance_mm"]
    assert drawing_pose.FACING_RATIO == DRAWING["pose"]["facing_ratio"]
    assert drawing_circles.PITCH_ANGLE_TOLERANCE_DEG == DRAWING["plan"]["pitch_angle_tolerance_deg"]


def test_levels_merge_within_the_level_tolerance():
    tol = DRAWING["plan"]["level_tolerance_mm"]
    assert len(drawing_plan._levels([(0.0, 0), (0.99 * tol, 1)])) == 1
    assert len(drawing_plan._levels([(0.0, 0), (1.01 * tol, 1)])) == 2


def test_a_line_is_axis_parallel_within_the_axis_tolerance():
    tol = DRAWING["plan"]["axis_tolerance"]
    assert Line(0, (0.0, 0.0), (100.0, 100 * 0.9 * tol)).horizontal
    assert not Line(0, (0.0, 0.0), (100.0, 100 * 1.1 * tol)).horizontal
    assert Line(0, (0.0, 0.0), (100 * 0.9 * tol, 100.0)).vertical
    assert not Line(0, (0.0, 0.0), (100 * 1.1 * tol, 100.0)).vertical


def _two_walls(gap):
    """A view with two vertical lines gap apart joined by one horizontal line (one level
    across: no vertical distance)."""
    a, b, c, d = (0.0, 0.0), (0.0, 10.0), (gap, 0.0), (gap, 10.0)
    lines = [Line(0, a, b), Line(1, c, d), Line(2, a, c)]
    return drawing_plan.ViewGeometry(
        name="Front", lines=lines, arcs=[], vertices=list(enumerate((a, b, c, d))),
        outline=[a, b, c, d], shafts=[], origin=(0.0, 0.0, 0.0), x_axis=(1.0, 0.0, 0.0),
        y_axis=(0.0, 0.0, 1.0), edge_count=3,
    )  # fmt: skip


def test_no_length_below_the_minimum_value():
    smallest = DRAWING["plan"]["min_value_mm"]
    above = [c for c in drawing_plan.linear_candidates(_two_walls(1.01 * smallest))]
    below = [c for c in drawing_plan.linear_candidates(_two_walls(0.99 * smallest))]
    assert [(c.kind, c.value) for c in above] == [("DistanceX", 1.01 * smallest)]
    assert below == []


def test_printed_decimals_round_at_half_the_last_digit():
    decimals = DRAWING["plan"]["decimals"]
    half = 0.5 * 10**-decimals
    length = drawing_plan.FORMATS["length"]
    assert drawing_plan.printed_text(length, 75 + 0.99 * half) == "75"  # 75.00499 -> 75
    assert drawing_plan.printed_text(length, 75 + 1.01 * half) == "75.01"
    assert drawing_plan.printed_text(drawing_plan.FORMATS["radius"], 5.004) == "R5"


def test_holes_are_a_bolt_circle_within_the_pitch_angle_tolerance():
    tol = DRAWING["plan"]["pitch_angle_tolerance_deg"]

    def spaced(error_deg):
        angles = [0.0, 90.0, 180.0 + error_deg, 270.0]
        return [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in angles]

    # gaps 90 + e, 90 - e: max - min = 2e
    assert drawing_circles._evenly_spaced(spaced(0.49 * tol), (0.0, 0.0))
    assert not drawing_circles._evenly_spaced(spaced(0.51 * tol), (0.0, 0.0))


def test_polygonal_outline_keeps_lines_from_its_share_of_the_view():
    share = DRAWING["views"]["coarse_min_line_rel"]
    size = 100.0
    long = Line(0, (0.0, 0.0), (1.01 * share * size, 0.0))
    short = Line(1, (0.0, 5.0), (0.99 * share * size, 5.0))
    sloping = Line(2, (0.0, 0.0), (50.0, 50.0))
    assert drawing_plan.polygonal_outline([long, short, sloping], size) == [long]


def test_outline_sampling_step_is_its_share_of_the_view():
    step = DRAWING["views"]["outline_step_rel"] * 100.0
    assert drawing_plan.outline_count(5 * step, 100.0) == 6
    assert drawing_plan.outline_count(5 * step - 1e-9, 100.0) == 5
    assert drawing_plan.outline_count(0.0, 100.0) == 2
    assert drawing_plan.outline_count(1e6, 100.0) == 400


def test_a_view_centre_needs_enough_pairs_agreeing_within_one_bin():
    pairs = DRAWING["views"]["origin_min_pairs"]
    bin_mm = DRAWING["views"]["origin_bin_mm"]
    model = [(0.0, 0.0), (10.0, 0.0), (10.0, 7.0), (3.0, 5.0)]
    seen = [(x - 3.0, y - 4.0) for x, y in model]  # the view centred on (3, 4)
    assert drawing_origin.shared_offset(model, seen) == pytest.approx((3.0, 4.0))
    assert drawing_origin.shared_offset(model[: pairs - 1], seen[: pairs - 1]) is None
    # an offset off by a tenth of a bin still counts, by two bins no longer
    near = [(x + 0.1 * bin_mm, y) for x, y in seen[:pairs]]
    assert drawing_origin.shared_offset(model[:pairs], near) == pytest.approx((3.0, 4.0))
    spread = [(x + 2 * i * bin_mm, y) for i, (x, y) in enumerate(seen[:pairs])]
    assert drawing_origin.shared_offset(model[:pairs], spread) is None


def test_a_threaded_part_has_enough_free_form_faces_by_count_and_share():
    faces, share = DRAWING["pose"]["heavy_faces"], DRAWING["pose"]["heavy_share"]
    total = int(faces / share)  # 80: exactly the share
    assert drawing_pose.threaded_by_count(faces, total)
    assert not drawing_pose.threaded_by_count(faces - 1, total)
    assert not drawing_pose.threaded_by_count(faces, total + 1)


def _label(x, y, text="10"):
    return drawing_layout.text_box((x, y), text)


def test_text_box_is_the_text_height_tall():
    height = DRAWING["layout"]["text_height_mm"]
    x0, y0, x1, y1 = _label(0.0, 0.0)
    assert y1 - y0 == pytest.approx(1.3 * height)  # descenders 0.3 of a height
    assert x1 > x0


def test_dimension_rows_start_at_the_first_row_and_keep_their_pitch():
    first, pitch = DRAWING["layout"]["first_row_mm"], DRAWING["layout"]["row_pitch_mm"]
    assert drawing_layout.FIRST_ROW == first and drawing_layout.ROW_PITCH == pitch

    def length(low, high, index):
        return Candidate(
            "length", high - low, "Front", "DistanceX", (f"Vertex{index}", "Vertex9"), "step",
            ("length", index), ((low, 0.0), (high, 0.0)),
        )  # fmt: skip

    # nested spans: each needs its own row, shortest nearest the view
    items = [length(0.0, 20.0, 0), length(0.0, 40.0, 1), length(0.0, 60.0, 2)]
    placed, lost = drawing_layout._stack(items, 0, "top", (0.0, 0.0, 60.0, 10.0), 1.0, 5)
    assert lost == []
    heights = sorted(anchor[1] for _c, anchor in placed)
    assert heights[0] - 10.0 == pytest.approx(first)
    assert [b - a for a, b in zip(heights, heights[1:], strict=False)] == pytest.approx(
        [pitch, pitch]
    )


def test_dimensions_beyond_the_preferred_rows_are_lost_to_this_side():
    rows = DRAWING["layout"]["preferred_rows"]

    def length(high, index):
        return Candidate(
            "length", high, "Front", "DistanceX", (f"Vertex{index}", "Vertex99"), "step",
            ("length", index), ((0.0, 0.0), (high, 0.0)),
        )  # fmt: skip

    items = [length(10.0 * (i + 1), i) for i in range(rows + 1)]
    placed, lost = drawing_layout._stack(items, 0, "top", (0.0, 0.0, 100.0, 10.0), 1.0, rows)
    assert len(placed) == rows and len(lost) == 1


def test_text_clearance_and_box_tolerance_in_the_sheet_checks():
    clearance = DRAWING["checks"]["min_text_clearance_mm"]
    box = (0.0, 0.0, 10.0, 4.0)
    just_clear = drawing_checks._grown(box, clearance)
    import numpy as np

    outside = np.array([[10.0 + 1.01 * clearance, 2.0]])
    inside = np.array([[10.0 + 0.99 * clearance, 2.0]])
    assert not drawing_checks._inside_any(outside, just_clear)
    assert drawing_checks._inside_any(inside, just_clear)
    tolerance = DRAWING["checks"]["box_tolerance_mm"]
    view = (0.0, 0.0, 50.0, 50.0)
    touching = (50.0 - 0.99 * 2 * tolerance, 10.0, 80.0, 20.0)  # reaches in < 2 tolerances
    crossing = (50.0 - 1.01 * 2 * tolerance, 10.0, 80.0, 20.0)
    assert not drawing_checks._overlap(
        drawing_checks._shrunk(touching), drawing_checks._shrunk(view)
    )
    assert drawing_checks._overlap(drawing_checks._shrunk(crossing), drawing_checks._shrunk(view))


def test_a_radius_label_takes_the_first_free_place_of_the_search():
    import numpy as np

    search = DRAWING["label_search"]
    radius = Candidate(
        "radius", 5.0, "Front", "Radius", ("Edge1",), "radius", ("radius", 5.0),
        ((0.0, 0.0), (5.0, 0.0)),
    )  # fmt: skip
    area = (0.0, 0.0, 400.0, 300.0)
    free = drawing_layout._free_spot(radius, (200.0, 150.0), 1.0, [], np.zeros((0, 2)), area, None)
    width = drawing_layout.text_width(radius.text)
    reach = 5.0 + search["radial_distances_mm"][0] + width / 2
    angle = math.radians(search["radial_angles_deg"][0])
    expected = (200.0 + reach * math.cos(angle), 150.0 + reach * math.sin(angle))
    assert free.label == pytest.approx(expected)
    # that place taken by another label: the search's second direction
    taken = drawing_layout.Placed(radius, expected, drawing_layout.text_box(expected, "R5"))
    second = drawing_layout._free_spot(
        radius, (200.0, 150.0), 1.0, [taken], np.zeros((0, 2)), area, None
    )
    angle = math.radians(search["radial_angles_deg"][1])
    assert second.label == pytest.approx(
        (200.0 + reach * math.cos(angle), 150.0 + reach * math.sin(angle))
    )
