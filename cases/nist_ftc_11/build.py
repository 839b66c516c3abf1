# SPDX-License-Identifier: LGPL-2.1-or-later
"""NIST FTC-11 (metric ring): sample candidates made from the committed NIST STEP.

The reference is NIST's own file and is committed; only the candidates are generated.
Ring geometry read from the file: z is the axis, the underside is z = -1.5, the web's
top z = 0.425 (web 1.925), O.D. Ø63 and I.D. Ø32 walls up to z = 0, and two R1.5 beads
(tori, centres at r = 30 and r = 17.5 on z = 0).
"""

import os

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector
REFERENCE = "nist_ftc_11_asme1_rb.stp"
OD, ID, UNDERSIDE, WEB_TOP = 63.0, 32.0, -1.5, 0.425
INNER_BEAD_CLEAR = 19.5  # between the inner bead (to r 18.94) and the outer one (from 28.56)


def reference_solid(case_dir):
    return Part.read(os.path.join(case_dir, REFERENCE)).Solids[0]


def thicker_web(reference, extra=0.1):
    """The whole ring 0.1 thicker from below: an annulus Ø32..Ø63 x 0.1 added."""
    slab = Part.makeCylinder(OD / 2, extra, V(0, 0, UNDERSIDE - extra)).cut(
        Part.makeCylinder(ID / 2, extra, V(0, 0, UNDERSIDE - extra))
    )
    return reference.fuse(slab).removeSplitter().Solids[0]


def without_inner_bead(reference):
    """The inner bead cut flush with the web's top."""
    cutter = Part.makeCylinder(INNER_BEAD_CLEAR, 3.0, V(0, 0, WEB_TOP))
    return reference.cut(cutter).removeSplitter().Solids[0]


def build(out_dir, case_dir):
    reference = reference_solid(case_dir)
    samples.write_standard_samples(reference, out_dir, mirror_normal=(1, 0, 0))
    samples.write_step(thicker_web(reference), out_dir, "candidates/wrong_web_thickness.step")
    samples.write_step(without_inner_bead(reference), out_dir, "candidates/missing_inner_bead.step")
