# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hub flange with six bolt holes on a Ø90 bolt circle: the reference and its samples.

z is the flange's axis; the flange face lies on z = 0. Built from primitives (cylinders,
a torus for the hub fillet, a cone for the rim chamfer) so every volume is analytic.
"""

import math

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector

OUTER, THICKNESS = 120.0, 16.0
HUB, HEIGHT = 60.0, 36.0
BORE = 40.0
HOLES, HOLE, BOLT_CIRCLE = 6, 11.0, 90.0
HUB_FILLET = 3.0
CHAMFER = 1.5  # x 45 deg on the rim's lower edge


def flange(bore=BORE, bolt_circle=BOLT_CIRCLE, chamfer=True):
    solid = Part.makeCylinder(OUTER / 2, THICKNESS)
    solid = solid.fuse(Part.makeCylinder(HUB / 2, HEIGHT))
    # Concave R3 fillet where the hub meets the flange: a ring minus a torus.
    r = HUB / 2
    ring = Part.makeCylinder(r + HUB_FILLET, HUB_FILLET, V(0, 0, THICKNESS)).cut(
        Part.makeCylinder(r, HUB_FILLET, V(0, 0, THICKNESS))
    )
    torus = Part.makeTorus(r + HUB_FILLET, HUB_FILLET, V(0, 0, THICKNESS + HUB_FILLET))
    solid = solid.fuse(ring.cut(torus))
    if chamfer:
        # The 45 deg chamfer: what lies outside a cone through the rim's lower edge.
        rim = OUTER / 2
        outside = Part.makeCylinder(rim + 1, CHAMFER).cut(
            Part.makeCone(rim - CHAMFER, rim, CHAMFER)
        )
        solid = solid.cut(outside)
    solid = solid.cut(Part.makeCylinder(bore / 2, HEIGHT))
    for k in range(HOLES):
        angle = 2 * math.pi * k / HOLES
        centre = V(bolt_circle / 2 * math.cos(angle), bolt_circle / 2 * math.sin(angle), 0)
        solid = solid.cut(Part.makeCylinder(HOLE / 2, THICKNESS, centre))
    return solid.removeSplitter().Solids[0]


def build(out_dir, case_dir):
    reference = flange()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_standard_samples(reference, out_dir, mirror_normal=(0, 1, 0))
    samples.write_step(flange(bore=42.0), out_dir, "candidates/wrong_bore.step")
    samples.write_step(flange(chamfer=False), out_dir, "candidates/missing_chamfer.step")
    samples.write_step(flange(bolt_circle=95.0), out_dir, "candidates/bolt_circle_95.step")
