# SPDX-License-Identifier: LGPL-2.1-or-later
"""Bearing block (pillow block): the reference and its sample candidates.

x runs along the 120 mm base, y across its 40 mm depth, z up from the base's underside.
Built from analytic primitives so every volume in case.yaml can be checked by hand.
"""

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector
Y = V(0, 1, 0)

BASE = (120.0, 40.0, 18.0)
RECESS = (50.0, 3.0)  # width along x (centred), depth from the underside; through in y
HOUSING_WIDTH, HOUSING_DEPTH = 60.0, 30.0
AXIS_HEIGHT, TOP_RADIUS = 45.0, 30.0
BORE = 35.0
HOLE, HOLE_SPACING = 11.0, 96.0
COUNTERBORE, COUNTERBORE_DEPTH = 18.0, 2.0
FILLET = 5.0
OIL_HOLE = 6.0


def bearing_block(hole=HOLE, spacing=HOLE_SPACING, oil_hole=True):
    length, depth, thickness = BASE
    centre_x, centre_y = length / 2, depth / 2
    y0 = centre_y - HOUSING_DEPTH / 2
    x0 = centre_x - HOUSING_WIDTH / 2
    solid = Part.makeBox(length, depth, thickness)
    recess = Part.makeBox(RECESS[0], depth, RECESS[1], V(centre_x - RECESS[0] / 2, 0, 0))
    housing = Part.makeBox(
        HOUSING_WIDTH, HOUSING_DEPTH, AXIS_HEIGHT - thickness, V(x0, y0, thickness)
    )
    top = Part.makeCylinder(TOP_RADIUS, HOUSING_DEPTH, V(centre_x, y0, AXIS_HEIGHT), Y)
    # Straight R5 fillets where the housing's sides meet the base: a square minus a quarter
    # cylinder, so the added volume is exactly (1 - pi/4) R^2 per unit length.
    fillets = []
    for side, outward in ((x0, -1.0), (x0 + HOUSING_WIDTH, 1.0)):
        corner_x = side if outward > 0 else side - FILLET
        square = Part.makeBox(FILLET, HOUSING_DEPTH, FILLET, V(corner_x, y0, thickness))
        round_x = side + outward * FILLET
        cutter = Part.makeCylinder(FILLET, HOUSING_DEPTH, V(round_x, y0, thickness + FILLET), Y)
        fillets.append(square.cut(cutter))
    solid = solid.cut(recess).fuse([housing, top] + fillets)
    solid = solid.cut(Part.makeCylinder(BORE / 2, HOUSING_DEPTH, V(centre_x, y0, AXIS_HEIGHT), Y))
    for x in (centre_x - spacing / 2, centre_x + spacing / 2):
        solid = solid.cut(Part.makeCylinder(hole / 2, thickness, V(x, centre_y, 0)))
        solid = solid.cut(
            Part.makeCylinder(
                COUNTERBORE / 2, COUNTERBORE_DEPTH, V(x, centre_y, thickness - COUNTERBORE_DEPTH)
            )
        )
    if oil_hole:
        top_z = AXIS_HEIGHT + TOP_RADIUS + 5
        solid = solid.cut(
            Part.makeCylinder(OIL_HOLE / 2, top_z - AXIS_HEIGHT, V(centre_x, centre_y, AXIS_HEIGHT))
        )
    return solid.removeSplitter().Solids[0]


def build(out_dir, case_dir):
    reference = bearing_block()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_standard_samples(reference, out_dir, mirror_normal=(1, 0, 0))
    samples.write_step(bearing_block(hole=12.0), out_dir, "candidates/wrong_hole_diameter.step")
    samples.write_step(bearing_block(oil_hole=False), out_dir, "candidates/missing_oil_hole.step")
    samples.write_step(bearing_block(spacing=90.0), out_dir, "candidates/hole_spacing_90.step")
