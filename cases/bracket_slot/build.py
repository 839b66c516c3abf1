# SPDX-License-Identifier: LGPL-2.1-or-later
"""L-bracket with an adjustment slot in its base and a hole in its upright.

x runs along the base from the upright's outer face, y across the 50 mm width, z up.
The slot and the hole sit off the middle, so the part has no mirror plane: its mirror
image is a different part with the same dimensions.
"""

import math

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector
Y = V(0, 1, 0)
X = V(1, 0, 0)

LENGTH, WIDTH, BASE_T = 80.0, 50.0, 8.0
HEIGHT, UPRIGHT_T = 50.0, 6.0
BEND = 4.0
SLOT_WIDTH, SLOT_CENTRES, SLOT_X, SLOT_Y = 10.0, 20.0, 40.0, 30.0
HOLE, HOLE_Y, HOLE_Z = 8.0, 18.0, 32.0


def bracket(hole=HOLE, slot=True):
    solid = Part.makeBox(LENGTH, WIDTH, BASE_T)
    solid = solid.fuse(Part.makeBox(UPRIGHT_T, WIDTH, HEIGHT))
    # Inner bend: a square minus a quarter cylinder adds (1 - pi/4) R^2 per unit width.
    square = Part.makeBox(BEND, WIDTH, BEND, V(UPRIGHT_T, 0, BASE_T))
    round_ = Part.makeCylinder(BEND, WIDTH, V(UPRIGHT_T + BEND, 0, BASE_T + BEND), Y)
    solid = solid.fuse(square.cut(round_))
    if slot:
        r = SLOT_WIDTH / 2
        x0, x1 = SLOT_X, SLOT_X + SLOT_CENTRES
        cutter = Part.makeBox(SLOT_CENTRES, SLOT_WIDTH, BASE_T, V(x0, SLOT_Y - r, 0))
        cutter = cutter.fuse(
            [
                Part.makeCylinder(r, BASE_T, V(x0, SLOT_Y, 0)),
                Part.makeCylinder(r, BASE_T, V(x1, SLOT_Y, 0)),
            ]
        )
        solid = solid.cut(cutter)
    solid = solid.cut(Part.makeCylinder(hole / 2, UPRIGHT_T, V(0, HOLE_Y, HOLE_Z), X))
    return solid.removeSplitter().Solids[0]


def volume(hole=HOLE, slot=True):
    """The analytic volume (case.yaml's expectations are written from it)."""
    body = LENGTH * WIDTH * BASE_T + UPRIGHT_T * WIDTH * (HEIGHT - BASE_T)
    body += (1 - math.pi / 4) * BEND**2 * WIDTH
    if slot:
        body -= (SLOT_CENTRES * SLOT_WIDTH + math.pi * (SLOT_WIDTH / 2) ** 2) * BASE_T
    return body - math.pi * (hole / 2) ** 2 * UPRIGHT_T


def build(out_dir, case_dir):
    reference = bracket()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_standard_samples(reference, out_dir, mirror_normal=(0, 1, 0))
    samples.write_step(bracket(hole=9.0), out_dir, "candidates/wrong_hole_diameter.step")
    samples.write_step(bracket(slot=False), out_dir, "candidates/missing_slot.step")
