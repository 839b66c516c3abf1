# SPDX-License-Identifier: LGPL-2.1-or-later
"""Alignment does not depend on the pose a candidate is delivered in.

Partial-match pairs (a candidate missing a feature, a different part) are delivered in
seeded random poses; every pose must give the same shapeIoU within 0.002, and never less
than what an independent brute-force search finds (exact booleans over the 24 axis-aligned
rotations of the candidate as built, with its bounding box centred or cornered on the
reference's), or than the analytic optimum where the construction gives one.
"""

import itertools
import math

import numpy as np
import pytest

from cadbench_wb.app.model import placement
from cadbench_wb.app.shape import alignment
from cadbench_wb.app.shape import fidelity as shape_fidelity

POSES = 4  # seeded random poses per pair
SAME_WITHIN = 0.002  # the tolerance for "the same figure"


def _reference(fc, part):
    """40 x 30 x 20 block, through hole r5 at (12, 10), a 10 x 10 x 10 notch on one corner."""
    block = part.makeBox(40, 30, 20)
    block = block.cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0)))
    return block.cut(part.makeBox(10, 10, 10, fc.Vector(30, 20, 10))).Solids[0]


def _missing_notch(fc, part):
    block = part.makeBox(40, 30, 20)
    return block.cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0))).Solids[0]


def _other_part(fc, part):
    """A different part: a thinner 40 x 30 x 16 plate with a boss r6 x 6 on top, no notch."""
    plate = part.makeBox(40, 30, 16)
    plate = plate.fuse(part.makeCylinder(6, 6, fc.Vector(30, 15, 16)))
    return plate.cut(part.makeCylinder(5, 16, fc.Vector(12, 10, 0))).Solids[0]


def _random_pose(fc, shape, seed):
    rng = np.random.default_rng(seed)
    axis = rng.normal(size=3)
    copy = shape.copy()
    copy.rotate(fc.Vector(0, 0, 0), fc.Vector(*axis), float(rng.uniform(0, 360)))
    copy.translate(fc.Vector(*rng.uniform(-80, 80, size=3)))
    return copy


def _scored_iou(reference, candidate):
    found = alignment.align(reference, candidate)
    aligned = placement.placed(candidate, found.best.rotation, found.best.translation)
    figures = shape_fidelity.shape_figures(reference, aligned, found.aligned_meshes())["figures"]
    assert figures["checked"], figures["reason"]
    return figures["iou"]


def _brute_force_iou(fc, part, reference, candidate):
    """Best exact IoU over the 24 axis-aligned rotations of the candidate (as built, axis
    aligned like the reference) and three box placements per axis; Part booleans only."""
    import FreeCAD

    ref_box = reference.BoundBox
    best = 0.0
    for order in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            matrix = np.zeros((3, 3))
            for row, column in enumerate(order):
                matrix[row, column] = signs[row]
            if np.linalg.det(matrix) < 0:
                continue
            turned = candidate.copy()
            m = FreeCAD.Matrix()
            m.A11, m.A12, m.A13 = matrix[0]
            m.A21, m.A22, m.A23 = matrix[1]
            m.A31, m.A32, m.A33 = matrix[2]
            turned.transformShape(m)
            box = turned.BoundBox
            lows = (ref_box.XMin - box.XMin, ref_box.YMin - box.YMin, ref_box.ZMin - box.ZMin)
            highs = (ref_box.XMax - box.XMax, ref_box.YMax - box.YMax, ref_box.ZMax - box.ZMax)
            for choice in itertools.product(range(3), repeat=3):
                shift = [(lows[k], highs[k], (lows[k] + highs[k]) / 2)[choice[k]] for k in range(3)]
                placed = turned.copy()
                placed.translate(fc.Vector(*shift))
                common = reference.common(placed).Volume
                union = reference.Volume + placed.Volume - common
                best = max(best, common / union)
    return best


@pytest.fixture(scope="module")
def pairs(fc, part):
    return {
        "missing notch": (_reference(fc, part), _missing_notch(fc, part)),
        "other part": (_reference(fc, part), _other_part(fc, part)),
    }


# "other part" runs in `make test-slow` only (14 CPU-s): a different part in random poses
# against a brute-force search is test_alignment_global.py's fast test too.
@pytest.mark.parametrize(
    "name", ["missing notch", pytest.param("other part", marks=pytest.mark.slow)]
)
def test_partial_match_scores_the_same_in_every_delivered_pose(fc, part, pairs, name):
    reference, candidate = pairs[name]
    figures = [_scored_iou(reference, _random_pose(fc, candidate, seed)) for seed in range(POSES)]
    assert max(figures) - min(figures) <= SAME_WITHIN, figures
    if name == "missing notch":
        # The reference lies inside the candidate at the built pose: IoU = V(ref) / V(cand),
        # and no pose can do better (the common is at most the smaller volume). Within 0.002
        # of that optimum is also within 0.002 of anything a brute-force search can find, so
        # the search (648 exact booleans) is left to the pair without an analytic optimum.
        block, hole = 40 * 30 * 20, math.pi * 25 * 20
        optimum = (block - hole - 1000) / (block - hole)
        assert abs(min(figures) - optimum) <= SAME_WITHIN
        return
    brute = _brute_force_iou(fc, part, reference, candidate)
    assert min(figures) >= brute - SAME_WITHIN, (figures, brute)
