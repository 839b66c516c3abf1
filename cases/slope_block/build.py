# SPDX-License-Identifier: LGPL-2.1-or-later
"""Block with a 1:2 sloped top (26.565°, a non-45° angle) and a hole in its low step.

The profile (x along the length, z up) is extruded 40 mm along y, so every volume is
the profile's area (shoelace formula) times the depth, minus the hole.
"""

import math

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector

LENGTH, DEPTH, HEIGHT, LOW = 80.0, 40.0, 30.0, 7.5
TOP_FLAT = 10.0
SLOPE = 0.5  # rise over run: 1:2
HOLE, HOLE_FROM_END = 10.0, 12.5


def profile(slope=SLOPE):
    run = (HEIGHT - LOW) / slope
    return [
        (0, 0),
        (LENGTH, 0),
        (LENGTH, LOW),
        (TOP_FLAT + run, LOW),
        (TOP_FLAT, HEIGHT),
        (0, HEIGHT),
    ]


def slope_block(slope=SLOPE, hole=HOLE, with_hole=True):
    points = [V(x, 0, z) for x, z in profile(slope)]
    face = Part.Face(Part.makePolygon(points + points[:1]))
    solid = face.extrude(V(0, DEPTH, 0))
    if with_hole:
        solid = solid.cut(Part.makeCylinder(hole / 2, LOW, V(LENGTH - HOLE_FROM_END, DEPTH / 2, 0)))
    return solid.removeSplitter().Solids[0]


def volume(slope=SLOPE, hole=HOLE, with_hole=True):
    """The analytic volume (case.yaml's expectations are written from it)."""
    pts = profile(slope)
    area = 0.5 * abs(
        sum(x0 * z1 - x1 * z0 for (x0, z0), (x1, z1) in zip(pts, pts[1:] + pts[:1], strict=True))
    )
    return area * DEPTH - (math.pi * (hole / 2) ** 2 * LOW if with_hole else 0.0)


def build(out_dir, case_dir):
    reference = slope_block()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_standard_samples(reference, out_dir, mirror_normal=(0, 1, 0))
    samples.write_step(slope_block(hole=11.0), out_dir, "candidates/wrong_hole_diameter.step")
    samples.write_step(slope_block(with_hole=False), out_dir, "candidates/missing_hole.step")
    samples.write_step(
        slope_block(slope=math.tan(math.radians(27.0))), out_dir, "candidates/slope_27deg.step"
    )
