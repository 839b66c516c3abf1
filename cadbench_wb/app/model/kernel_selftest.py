# SPDX-License-Identifier: LGPL-2.1-or-later
"""The scoring child's start-up self-test: the kernel operations scoring relies on, on two
unit-size boxes whose answers are known by construction (a few tens of ms in all).

A broken installation (FreeCAD 1.0's Part without Mod/Part on the path segfaults in
makeCompound) must be reported as the scorer's own breakage, never as the candidate's
evaluator_error (seed 004: NOT CHECKED is for what is not the candidate's doing). Each
operation writes its stage ('selftest:compound', ...) first, so that a crash names it.
Every scoring process checks the kernel it actually runs, once: a worker reused for many
jobs (campaigns) keeps the answer, since the kernel loaded in a process does not change.
"""

import math
import os

import FreeCAD
import Part

from cadbench_wb import resources
from cadbench_wb.app.model.kernel_compat import finished_views
from cadbench_wb.errors import EnvironmentBroken

# The two boxes: 2 x 2 x 2 at the origin and the same moved 1 along x. Their common part is
# 4, their union 12 and the General Fuse splits them into 3 solids (analytic).
SIDE = 2.0
SHIFT = 1.0
RELATIVE_TOLERANCE = 1e-9  # exact arithmetic on planar boxes: any error is a broken kernel


def _boxes():
    first = Part.makeBox(SIDE, SIDE, SIDE)
    second = Part.makeBox(SIDE, SIDE, SIDE, FreeCAD.Vector(SHIFT, 0, 0))
    return first, second


def _close(value: float, expected: float) -> bool:
    return math.isclose(value, expected, rel_tol=RELATIVE_TOLERANCE, abs_tol=1e-12)


def compound_problem() -> str:
    first, second = _boxes()
    compound = Part.makeCompound([first, second])
    if len(compound.Solids) != 2 or not _close(compound.Volume, 2 * SIDE**3):
        return f"{len(compound.Solids)} solids, volume {compound.Volume:g} (expected 2, 16)"
    return ""


def general_fuse_problem() -> str:
    first, second = _boxes()
    pieces = first.generalFuse([second])[0].Solids
    union = SIDE**2 * (SIDE + SHIFT)
    volume = sum(piece.Volume for piece in pieces)
    if len(pieces) != 3 or not _close(volume, union):
        return f"{len(pieces)} pieces, volume {volume:g} (expected 3, {union:g})"
    return ""


def tessellation_problem() -> str:
    first, _ = _boxes()
    points, triangles = first.tessellate(0.1)
    if len(points) < 8 or len(triangles) < 12:
        return f"{len(points)} points, {len(triangles)} triangles (a box has at least 8 and 12)"
    return ""


def projection_problem() -> str:
    """A TechDraw view of the box, as the drawing stage makes one: four visible edges."""
    import TechDraw  # noqa: F401, PLC0415 - registers the TechDraw document objects

    first, _ = _boxes()
    doc = FreeCAD.newDocument("cadbench_selftest")
    try:
        model = doc.addObject("Part::Feature", "Box")
        model.Shape = first
        page = doc.addObject("TechDraw::DrawPage", "Page")
        template = doc.addObject("TechDraw::DrawSVGTemplate", "Template")
        template.Template = os.path.join(resources.TEMPLATES, "A3_Landscape_ISO7200TD.svg")
        page.Template = template  # FreeCAD 1.0 refuses views on a page without one
        view = doc.addObject("TechDraw::DrawViewPart", "View")
        view.Source = [model]
        view.Direction = FreeCAD.Vector(0, -1, 0)
        page.addView(view)
        doc.recompute()
        finished_views([view])
        edges = len(view.getVisibleEdges())
    finally:
        FreeCAD.closeDocument(doc.Name)
    return "" if edges == 4 else f"{edges} visible edges of a box seen from the front (expected 4)"


# OpenBLAS takes its work buffer (up to 128 MB of address space) at its first call, and
# when the memory limit refuses it, it retries for ever: inside numpy's eigh in alignment
# (geometry/rigid.py), a hang that was charged to the candidate as its timeout. The room is
# reserved and given back first (a MemoryError here is the scorer's: the limit is too low
# for it), then one eigh takes the buffer, which every later call reuses.
BLAS_BUFFER_BYTES = 128 << 20


def blas_problem() -> str:
    import numpy as np  # noqa: PLC0415 - heavy: loaded on first use

    room = np.empty(2 * BLAS_BUFFER_BYTES, dtype=np.uint8)  # address space only, untouched
    del room
    # A diagonal tensor's eigenvalues are its diagonal (ascending), known by construction.
    values, _vectors = np.linalg.eigh(np.diag([3.0, 1.0, 2.0]))
    if not np.allclose(values, [1.0, 2.0, 3.0], rtol=RELATIVE_TOLERANCE):
        return f"eigenvalues of diag(3, 1, 2) came out as {values.tolist()}"
    return ""


OPERATIONS = {
    "blas": ("numpy's LAPACK (eigh)", blas_problem),
    "compound": ("Part.makeCompound", compound_problem),
    "general_fuse": ("General Fuse (BOPAlgo_Builder)", general_fuse_problem),
    "tessellation": ("Shape.tessellate", tessellation_problem),
    "projection": ("TechDraw projection", projection_problem),
}


# The operations that gave their known answer in this process.
PASSED: set = set()


def check(stage=lambda name: None, drawing: bool = True) -> None:
    """Raise EnvironmentBroken, with one line saying what is broken, unless every operation
    gives its known answer. drawing=False skips the TechDraw projection (no drawing stage).
    An operation that passed once in this process is not run again."""
    for name, (label, problem_of) in OPERATIONS.items():
        if (name == "projection" and not drawing) or name in PASSED:
            continue
        stage(f"selftest:{name}")
        try:
            problem = problem_of()
        except MemoryError:
            raise  # the limit given is too low for the scorer itself (outcome.py: usage)
        except Exception as exc:  # any failure here is the installation's
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            raise EnvironmentBroken(f"FreeCAD kernel self-test failed: {label}: {problem}")
        PASSED.add(name)
