# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a threaded pair's scoring no longer does twice (issue 11, "a threaded pair under
10 s") gives what doing it again gave: the drawing child's reading of an already checked
file is the shape loading scores, and a shape's thread test is answered once."""

import os

import pytest
from conftest import ROOT

from cadbench_wb.app.model import loading, placement, thread_flanks

THREADS = os.path.join(ROOT, "tests", "data", "threads")
BOLT = os.path.join(ROOT, "cases", "thread_bolt_m8", "reference.step")


@pytest.mark.parametrize(
    "path",
    [BOLT, os.path.join(THREADS, "bd_m8_nut_rh_chamfer.step")],
    ids=["partdesign_bolt", "bd_warehouse_nut"],
)
def test_scored_shape_is_the_shape_load_model_scores(fc, path):
    """Bit for bit (the BREP text holds every coordinate to 17 digits): a drawing of one
    is a drawing of the other."""
    loaded = loading.load_model(path, "candidate").shape
    read = loading.scored_shape(path, "candidate")
    assert read.exportBrepToString() == loaded.exportBrepToString()


def test_scored_shape_of_several_solids_is_their_checked_union(fc, part, tmp_path):
    """Two overlapping boxes: the union load_model makes (it needs their volumes), not the
    first solid of the file."""
    boxes = part.makeCompound(
        [part.makeBox(10, 10, 10), part.makeBox(10, 10, 10, fc.Vector(5, 0, 0))]
    )
    path = str(tmp_path / "two_boxes.step")
    boxes.exportStep(path)
    read = loading.scored_shape(path, "candidate")
    assert read.Volume == pytest.approx(1500.0, rel=1e-9)  # 15 x 10 x 10 by construction
    assert read.exportBrepToString() == loading.load_model(path).shape.exportBrepToString()


def test_a_placed_copy_shares_the_thread_answer_of_its_original(fc, part):
    """The moved copy of the threaded bolt reads as threaded; a plain box that was never
    registered as a copy of anything is read on its own and has none."""
    import numpy as np

    bolt = loading.load_model(BOLT, "reference").shape
    assert thread_flanks.has_modeled_thread(bolt)
    turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    moved = placement.placed(bolt, turn, np.array([3.0, 4.0, 5.0]))
    thread_flanks.same_thread_as(moved, bolt)
    assert thread_flanks.has_modeled_thread(moved)
    assert thread_flanks.modeled_thread_found(moved)  # what reading the copy itself says
    assert not thread_flanks.has_modeled_thread(part.makeBox(10, 10, 10))
