# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mounting plate with rounded corners and four counterbored holes for M6 socket-head
screws (ISO 4762 / ISO 273 medium: Ø6.6 through, counterbore Ø11 x 6.4)."""

import math

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector

LENGTH, WIDTH, THICKNESS, CORNER = 100.0, 60.0, 12.0, 8.0
HOLE, COUNTERBORE, COUNTERBORE_DEPTH = 6.6, 11.0, 6.4
PITCH_X, PITCH_Y = 80.0, 40.0


def hole_centres():
    x0, y0 = (LENGTH - PITCH_X) / 2, (WIDTH - PITCH_Y) / 2
    return [(x0, y0), (x0 + PITCH_X, y0), (x0, y0 + PITCH_Y), (x0 + PITCH_X, y0 + PITCH_Y)]


def plate(depth=COUNTERBORE_DEPTH, counterbored=4):
    solid = Part.makeBox(LENGTH, WIDTH, THICKNESS)
    # Vertical corner rounds: each removes (1 - pi/4) R^2 per unit height.
    for cx, cy, sx, sy in (
        (0, 0, 1, 1),
        (LENGTH, 0, -1, 1),
        (0, WIDTH, 1, -1),
        (LENGTH, WIDTH, -1, -1),
    ):
        corner = Part.makeBox(
            CORNER, CORNER, THICKNESS, V(min(cx, cx + sx * CORNER), min(cy, cy + sy * CORNER), 0)
        )
        keep = Part.makeCylinder(CORNER, THICKNESS, V(cx + sx * CORNER, cy + sy * CORNER, 0))
        solid = solid.cut(corner.cut(keep))
    for index, (x, y) in enumerate(hole_centres()):
        solid = solid.cut(Part.makeCylinder(HOLE / 2, THICKNESS, V(x, y, 0)))
        if index < counterbored:
            solid = solid.cut(Part.makeCylinder(COUNTERBORE / 2, depth, V(x, y, THICKNESS - depth)))
    return solid.removeSplitter().Solids[0]


def volume(depth=COUNTERBORE_DEPTH, counterbored=4):
    """The analytic volume (case.yaml's expectations are written from it)."""
    body = LENGTH * WIDTH * THICKNESS - 4 * (1 - math.pi / 4) * CORNER**2 * THICKNESS
    body -= 4 * math.pi * (HOLE / 2) ** 2 * THICKNESS
    ring = math.pi * ((COUNTERBORE / 2) ** 2 - (HOLE / 2) ** 2)
    return body - counterbored * ring * depth


def build(out_dir, case_dir):
    reference = plate()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_standard_samples(reference, out_dir, mirror_normal=(1, 0, 0))
    samples.write_step(plate(depth=5.4), out_dir, "candidates/wrong_counterbore_depth.step")
    samples.write_step(plate(counterbored=3), out_dir, "candidates/missing_counterbore.step")
