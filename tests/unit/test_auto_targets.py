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
