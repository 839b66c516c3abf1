# SPDX-License-Identifier: LGPL-2.1-or-later
"""Labelled defects in the style of the public benchmarks' own fixtures: a reference STEP
and candidates with one documented fault each (or none), made with build123d -- another
CAD kernel front end than cadbench's own case builders, so the fixtures do not share our
construction code.

Run it with build123d installed in a separate venv (cadbench never imports it):

    /usr/bin/python3 -m venv /tmp/b123venv && /tmp/b123venv/bin/pip install build123d
    /tmp/b123venv/bin/python tools/make_labelled_defects.py tests/data/labelled

It writes <part>/reference.step and <part>/<label>.step per part, and labels.json: for
each candidate whether it is correct and which defect it carries (the text a FAIL must
name: every part between '|' appears in one line of the text output). The numbers below
are the construction's; tests read them from labels.json.
"""

import json
import os
import sys

from build123d import (
    Align,
    Box,
    Cylinder,
    Location,
    Part,
    Pos,
    RegularPolygon,
    Rot,
    SlotCenterToCenter,
    export_step,
    extrude,
)

THICKNESS = 10.0
# Every correct candidate is the reference in another pose (alignment must undo it).
POSE = Location((7.0, -4.0, 3.0), (11.0, 23.0, 31.0))


def plate_with_hole(diameter=10.0, x=30.0, hole=True) -> Part:
    """100 x 60 x 10 plate, corner at the origin; a through hole at (x, 30)."""
    part = Box(100, 60, THICKNESS, align=(Align.MIN, Align.MIN, Align.MIN))
    if hole:
        part -= Pos(x, 30, THICKNESS / 2) * Cylinder(diameter / 2, THICKNESS)
    return part


def four_holes(pitch_x=80.0, diameters=(8.0, 8.0, 8.0, 8.0)) -> Part:
    """120 x 80 x 8 plate centred on the origin, four holes on a pitch_x x 50 rectangle
    (a diameter of 0 leaves that hole out)."""
    part = Box(120, 80, 8)
    corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    for (sx, sy), diameter in zip(corners, diameters, strict=True):
        if diameter:
            part -= Pos(sx * pitch_x / 2, sy * 25.0, 0) * Cylinder(diameter / 2, 8)
    return part


def l_bracket(boss="hex", boss_turn=0.0, hole_shift=0.0) -> Part:
    """Base 80 x 50 x 8 and an upright 80 x 8 x 50 along its back edge; on the base a boss
    17 across flats (hex) or Ø17 (round), 6 high, at (40, 22); two Ø6.6 holes through
    the upright at x = 20 and 60 (+ hole_shift), z = 33."""
    part = Box(80, 50, 8, align=(Align.MIN, Align.MIN, Align.MIN))
    part += Pos(0, 42, 0) * Box(80, 8, 50, align=(Align.MIN, Align.MIN, Align.MIN))
    if boss == "hex":
        hexagon = Rot(0, 0, boss_turn) * RegularPolygon(17 / 2, 6, major_radius=False)
        part += Pos(40, 22, 8) * extrude(hexagon, 6)
    else:
        part += Pos(40, 22, 11) * Cylinder(17 / 2, 6)
    for x in (20.0, 60.0):
        part -= Pos(x + hole_shift, 46, 33) * Rot(90, 0, 0) * Cylinder(3.3, 8)
    return part


def slotted_plate(width=10.0, x=0.0) -> Part:
    """100 x 50 x 10 plate centred on the origin with a through slot, 30 between its end
    centres, width wide, centred at (x, 0)."""
    part = Box(100, 50, THICKNESS)
    slot = Pos(x, 0, -THICKNESS / 2) * extrude(SlotCenterToCenter(30, width), THICKNESS)
    return part - slot


PARTS = {
    "plate_hole": (
        plate_with_hole(),
        {
            "correct_moved": (POSE * plate_with_hole(), None),
            "hole_d9": (plate_with_hole(diameter=9.0), "Ø9 instead of Ø10"),
            "hole_moved_5mm": (plate_with_hole(x=35.0), "35 instead of 30"),
            "hole_missing": (plate_with_hole(hole=False), "Ø10 not found"),
        },
    ),
    "four_holes": (
        four_holes(),
        {
            "correct_moved": (POSE * four_holes(), None),
            "spacing_84": (four_holes(pitch_x=84.0), "84 instead of 80"),
            "one_hole_missing": (four_holes(diameters=(8, 8, 8, 0)), "Ø8 not found"),
            "one_hole_d9": (four_holes(diameters=(8, 8, 9, 8)), "Ø9 instead of Ø8"),
        },
    ),
    "l_bracket": (
        l_bracket(),
        {
            "correct_moved": (POSE * l_bracket(), None),
            "boss_round": (l_bracket(boss="round"), "across flats|17 not found"),
            "boss_turned_15": (l_bracket(boss_turn=15.0), "across flats|17 not found"),
            "holes_shifted_3mm": (l_bracket(hole_shift=3.0), "23 instead of 20"),
        },
    ),
    "slot": (
        slotted_plate(),
        {
            "correct_moved": (POSE * slotted_plate(), None),
            "slot_narrow_8": (slotted_plate(width=8.0), "8 instead of 10"),
            # Its end centres sit 35 from the plate's edges (15 off centre, half of 100
            # less 15): moved 5 along x, the one a drawing positions is not 35.
            "slot_moved_5mm": (slotted_plate(x=5.0), "instead of 35"),
        },
    ),
}


def main(out: str) -> int:
    labels = {}
    for name, (reference, candidates) in PARTS.items():
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        export_step(reference, os.path.join(folder, "reference.step"))
        labels[name] = {}
        for label, (shape, defect) in candidates.items():
            export_step(shape, os.path.join(folder, f"{label}.step"))
            labels[name][label] = {"correct": defect is None, "defect": defect}
    with open(os.path.join(out, "labels.json"), "w", encoding="utf-8") as handle:
        json.dump(labels, handle, indent=1, sort_keys=True, ensure_ascii=False)
        handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/labelled"))
