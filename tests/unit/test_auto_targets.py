# SPDX-License-Identifier: LGPL-2.1-or-later
"""Automatic targets on plain data: binding a planned dimension to faces, the summary
lines that name a defect, pattern callouts (no FreeCAD)."""

import numpy as np

from cadbench_wb.case_model.cases import Dimension
from cadbench_wb.metrics import auto_targets
from cadbench_wb.metrics.located import Geometry
from cadbench_wb.metrics.located_dimensions import pattern_count
from cadbench_wb.results import report


def _plate_geometry():
    """A 100 x 60 x 10 plate's six planes (x, y, z levels) and a Ø10 hole at (30, 30)."""
    faces = [
        ("plane", (0, 30, 5), (-1, 0, 0), 0, 0, False),
        ("plane", (100, 30, 5), (1, 0, 0), 0, 0, False),
        ("plane", (50, 0, 5), (0, -1, 0), 0, 0, False),
        ("plane", (50, 60, 5), (0, 1, 0), 0, 0, False),
        ("plane", (50, 30, 0), (0, 0, -1), 0, 0, False),
        ("plane", (50, 30, 10), (0, 0, 1), 0, 0, False),
        ("cylinder", (30, 30, 5), (0, 0, 1), 5.0, 0, False, 5.0),
    ]
    return Geometry.from_rows(faces, [], [], np.zeros((0, 3)), 117.0)


# The front view of the plate seen from +z: view x is model x, view y is model y.
FRONT = {"origin": [50, 30, 5], "x": [1, 0, 0], "y": [0, 1, 0], "view": "Front"}


def test_a_length_binds_the_planes_at_its_levels_and_a_position_the_hole_axis():
    binder = auto_targets.Binder(_plate_geometry())
    overall = dict(FRONT, family="length", role="overall", key=("length", ("x", 0.0), ("x", 100.0)))
    assert binder.bind(overall) == ([0, 1], None)
    position = dict(FRONT, family="length", role="position", key=("length", ("x", 0), ("x", 30)))
    assert binder.bind(position) == ([0, 6], None)
    nowhere = dict(FRONT, family="length", role="step", key=("length", ("x", 0), ("x", 42)))
    faces, why = binder.bind(nowhere)
    assert faces is None and "x = 42" in why


def test_a_hole_callout_binds_the_cylinders_of_its_size_seen_end_on():
    binder = auto_targets.Binder(_plate_geometry())
    hole = dict(FRONT, family="diameter", role="hole", value=10.0, points=[[-20, 0]], key=())
    assert binder.bind(hole) == ([6], None)
    other = dict(hole, value=12.0)
    assert binder.bind(other)[0] is None
    side = dict(hole, x=[0, 1, 0], y=[0, 0, 1])  # seen from the side: not end-on
    assert binder.bind(side)[0] is None


def test_pattern_count_reads_a_drafters_callout():
    assert pattern_count(Dimension("a", "diameter", 12, source="4X Ø12")) == 4
    assert pattern_count(Dimension("a", "diameter", 12, source="4 x Ø12")) == 4
    assert pattern_count(Dimension("a", "diameter", 12, source="front view: Ø12")) is None


def test_the_summary_names_a_wrong_member_and_a_missing_one():
    member = {"status": "wrong_value", "candidate": {"value": 9.0}}
    missing = {"status": "no_geometry_here", "candidate": None}
    row = {
        "id": "D4",
        "kind": "diameter",
        "target": 10.0,
        "callout": "drawing Front: 2X ⌀10 (hole)",
        "located": {"status": "not_found", "found": 0, "total": 2, "members": [member, missing]},
    }
    (head, line) = report.missed_lines({"dimensions": [row]})
    assert head == "targets not met at their place:"
    assert "Ø9 instead of Ø10" in line and "Ø10 not found at its place (1 missing)" in line
    assert "2 of 2 members" in line


def _corners_geometry():
    """A pocket's four R3 corners (cylinders 0-3 along z), its floor (plane 4), and two
    halves of one R5 ball (spheres 5 and 6, centre (0, 0, 20))."""
    faces = [("cylinder", (x, y, 0), (0, 0, 1), 3.0, 0, False, 2.0) for x, y in
             ((0, 0), (40, 0), (40, 20), (0, 20))]  # fmt: skip
    faces += [("plane", (20, 10, -2), (0, 0, 1), 0, 0, False)]
    faces += [("sphere", (0, 0, 20), (0, 0, 0), 5.0, 0, False)] * 2
    return Geometry.from_rows(faces, [], [], np.zeros((0, 3)), 60.0)


def test_a_round_is_stated_only_where_a_chosen_target_binds_every_face_of_that_size():
    geometry = _corners_geometry()
    fillets = {"kind": "radius", "value": 3.0, "faces": [0, 1, 2, 3, 4], "own": [0, 1, 2, 3, 4]}
    two_corners = [{"kind": "radius", "value": 3.0, "faces": [0, 1]}]
    # The drawing's R3 names two corners: the other two are not stated (pocket's floor,
    # no radius of its own, needs no target).
    assert not auto_targets.covered(fillets, two_corners, geometry)
    all_corners = two_corners + [{"kind": "radius", "value": 3.0, "faces": [2, 3]}]
    assert auto_targets.covered(fillets, all_corners, geometry)
    assert not auto_targets.covered(fillets, [dict(two_corners[0], value=3.5)], geometry)
    # A length keeps the shared-face rule: a slot's width on one of its walls.
    width = {"kind": "length", "value": 40.0, "faces": [0, 1], "own": [0, 1]}
    assert auto_targets.covered(width, [{"kind": "length", "value": 40.0, "faces": [1]}], geometry)


def test_more_than_half_a_ball_is_sized_by_its_diameter_less_by_its_radius():
    geometry = _corners_geometry()
    ball = {"type": "fillet", "kind": "convex", "params": {"radius": 5.0},
            "faces": ["Face6", "Face7"], "axis": None}  # fmt: skip
    hemisphere = 2 * np.pi * 5.0**2
    areas = [1.0] * 5 + [0.3 * hemisphere, 0.8 * hemisphere]  # 1.1 hemispheres
    (target,) = auto_targets.feature_targets([dict(ball, id="F1")], geometry, areas)
    assert (target["kind"], target["value"]) == ("diameter", 10.0)
    assert "spherical diameter" in target["source"]
    areas = [1.0] * 5 + [0.3 * hemisphere, 0.6 * hemisphere]  # 0.9 of a hemisphere
    (target,) = auto_targets.feature_targets([dict(ball, id="F1")], geometry, areas)
    assert (target["kind"], target["value"]) == ("radius", 5.0)
