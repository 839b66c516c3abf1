# SPDX-License-Identifier: LGPL-2.1-or-later
"""Stepped turned shaft with two 1 x 45° chamfers, a ring groove and a shoulder fillet.

The solid is the profile (z along the axis, r outwards) revolved a full turn, so its
faces are exact planes, cylinders, cones and one torus, and every volume follows from
Pappus' theorem.
"""

import math

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector

LENGTH = 150.0
END_D, COLLAR_D, JOURNAL_D = 25.0, 40.0, 30.0
COLLAR_START, COLLAR_LENGTH = 50.0, 20.0
GROOVE_AT, GROOVE_WIDTH, GROOVE_D = 12.0, 3.0, 21.0
CHAMFER = 1.0
FILLET = 1.5


def shaft(groove_d=GROOVE_D, groove=True):
    r_end, r_collar, r_journal = END_D / 2, COLLAR_D / 2, JOURNAL_D / 2
    z_collar_end = COLLAR_START + COLLAR_LENGTH
    points = [(0, 0), (0, r_end - CHAMFER), (CHAMFER, r_end)]
    if groove:
        g0, g1 = GROOVE_AT, GROOVE_AT + GROOVE_WIDTH
        points += [(g0, r_end), (g0, groove_d / 2), (g1, groove_d / 2), (g1, r_end)]
    points += [(COLLAR_START, r_end), (COLLAR_START, r_collar), (z_collar_end, r_collar)]
    # (z_collar_end, r_journal + FILLET) -> arc -> (z_collar_end + FILLET, r_journal)
    points += [(z_collar_end, r_journal + FILLET)]
    after_arc = [
        (z_collar_end + FILLET, r_journal),
        (LENGTH - CHAMFER, r_journal),
        (LENGTH, r_journal - CHAMFER),
        (LENGTH, 0),
    ]
    edges = _polyline(points)
    centre = (z_collar_end + FILLET, r_journal + FILLET)
    middle = (
        centre[0] - FILLET * math.cos(math.pi / 4),
        centre[1] - FILLET * math.sin(math.pi / 4),
    )
    edges.append(Part.Arc(_v(points[-1]), _v(middle), _v(after_arc[0])).toShape())
    edges += _polyline(after_arc)
    edges += _polyline([after_arc[-1], points[0]])
    face = Part.Face(Part.Wire(edges))
    solid = face.revolve(V(0, 0, 0), V(0, 0, 1), 360)
    return Part.Solid(solid.Shells[0]) if not solid.Solids else solid.Solids[0]


def _v(point):
    z, r = point
    return V(r, 0, z)  # the profile lies in the xz plane; z is the axis


def _polyline(points):
    return [
        Part.LineSegment(_v(a), _v(b)).toShape()
        for a, b in zip(points[:-1], points[1:], strict=True)
        if a != b
    ]


def build(out_dir, case_dir):
    reference = shaft()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_standard_samples(reference, out_dir, mirror_normal=(1, 0, 0))
    samples.write_step(shaft(groove_d=20.0), out_dir, "candidates/wrong_groove_diameter.step")
    samples.write_step(shaft(groove=False), out_dir, "candidates/missing_groove.step")
