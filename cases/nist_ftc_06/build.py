# SPDX-License-Identifier: LGPL-2.1-or-later
"""NIST FTC-06 (inch design, rev D): sample candidates made from the committed NIST STEP.

The reference is NIST's own file and is committed; only the candidates are generated.
OpenCASCADE reads the inch file in mm. The four Ø.415 holes with Ø.625 x .50
counterbores run along -y through the 1.25 in (31.75 mm) base plate: hole y 0..19.05,
counterbore y 19.05..31.75, axes at x = +-133.35, z = -57.15 and -184.15.
"""

import math
import os

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector
Y = V(0, 1, 0)
REFERENCE = "nist_ftc_06_asme1_rd.stp"
INCH = 25.4
HOLE, COUNTERBORE = 0.415 * INCH, 0.625 * INCH
HOLE_LENGTH, COUNTERBORE_DEPTH = 0.75 * INCH, 0.5 * INCH
HOLE_AXES = [(x, z) for x in (133.35, -133.35) for z in (-57.15, -184.15)]
WRONG_HOLE = 11.0


def reference_solid(case_dir):
    return Part.read(os.path.join(case_dir, REFERENCE)).Solids[0]


def bigger_holes(reference, diameter=WRONG_HOLE):
    """The four Ø10.541 holes drilled out to Ø11 below their counterbores."""
    solid = reference
    for x, z in HOLE_AXES:
        solid = solid.cut(Part.makeCylinder(diameter / 2, HOLE_LENGTH, V(x, 0, z), Y))
    return solid.removeSplitter().Solids[0]


def filled_holes(reference):
    """The four counterbored holes filled: plain plate there."""
    plugs = []
    for x, z in HOLE_AXES:
        plugs.append(Part.makeCylinder(HOLE / 2, HOLE_LENGTH, V(x, 0, z), Y))
        plugs.append(Part.makeCylinder(COUNTERBORE / 2, COUNTERBORE_DEPTH, V(x, HOLE_LENGTH, z), Y))
    return reference.fuse(plugs).removeSplitter().Solids[0]


def removed_volume(diameter=WRONG_HOLE):
    return 4 * math.pi * ((diameter / 2) ** 2 - (HOLE / 2) ** 2) * HOLE_LENGTH


def filled_volume():
    return (
        4 * math.pi * ((HOLE / 2) ** 2 * HOLE_LENGTH + (COUNTERBORE / 2) ** 2 * COUNTERBORE_DEPTH)
    )


def build(out_dir, case_dir):
    reference = reference_solid(case_dir)
    samples.write_standard_samples(reference, out_dir, mirror_normal=(1, 0, 0))
    samples.write_step(bigger_holes(reference), out_dir, "candidates/wrong_hole_diameter.step")
    samples.write_step(
        filled_holes(reference), out_dir, "candidates/missing_counterbored_holes.step"
    )
