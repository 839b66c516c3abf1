# SPDX-License-Identifier: LGPL-2.1-or-later
"""Moved copies of public NIST test parts measure 1.0 by the exact route.

The parts (tests/data/nist, public domain) are valid solids with BOPCheck defects, the
kind on which exact booleans used to be refuted after minutes. A perfect copy in another
pose must align and measure IoU 1.0 +- 0.002 by the exact booleans, confirmed."""

import os

import pytest
from conftest import ROOT, score_json

from cadbench_wb.app.cases import samples

NIST = os.path.join(ROOT, "tests", "data", "nist")


def _moved_copy(part, name, tmp_path):
    solid = part.read(os.path.join(NIST, name)).Solids[0]
    return samples.write_step(samples.moved(solid), str(tmp_path), f"{name}.moved.step")


def _check_perfect_copy(part, name, tmp_path):
    moved = _moved_copy(part, name, tmp_path)
    result = score_json(os.path.join(NIST, name), moved, "--only", "shape")
    shape = result["shape"]
    assert shape["method"] == "exact", shape["reason"]
    assert abs(result["shapeIoU"] - 1.0) <= 0.002
    assert 0.0 <= result["shapeIoU"] <= 1.0
    assert "vertex snap" in shape["alignment"]["origin"]


def test_moved_ctc01_measures_one_by_the_exact_route(part, tmp_path):
    _check_perfect_copy(part, "nist_ctc_01_asme1_rd.stp", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["nist_ftc_06_asme1_rd.stp", "nist_ftc_09_asme1_rd.stp", "nist_ftc_08_asme1_rc.stp"]
)
def test_moved_nist_parts_measure_one_by_the_exact_route(part, tmp_path, name):
    _check_perfect_copy(part, name, tmp_path)
