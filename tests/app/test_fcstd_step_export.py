# SPDX-License-Identifier: LGPL-2.1-or-later
"""An FCStd scored against its own STEP export scores 1.0 (a few documents, not all).

The STEP files in tests/data/fcstd/step were exported by FreeCAD's GUI from the solids it
displays (tools/fcstd_truth.py --step): one pre-Body PartDesign document (0.15), an
Assembly4 assembly of links to three sibling documents (0.19), and a PartDesign Body
written by FreeCAD 1.0. shapeIoU of a model against its own export must be 1 within the
scorer's own tolerance (0.002: the mesh cross-check's floor).
"""

import os

import pytest

from cadbench_wb.app.scoring import score_files

CORPUS = os.path.join(os.path.dirname(__file__), "..", "data", "fcstd")
EXPORTED = {
    "freecad020/motor_mount_inch.fcstd": "motor_mount_inch.step",
    "assembly4/Asm4_Example3/asm_Hypnotic.fcstd": "asm_Hypnotic.step",
    "freecad100/PartDesignExample.FCStd": "PartDesignExample.step",
}


@pytest.mark.parametrize("relpath", sorted(EXPORTED))
def test_fcstd_scores_one_against_its_own_step_export(fc, relpath):
    step = os.path.join(CORPUS, "step", EXPORTED[relpath])
    result = score_files(step, os.path.join(CORPUS, relpath), {"only": ["shapeIoU"]})
    assert result["delivered"] is True
    assert result["shapeIoU"] == pytest.approx(1.0, abs=0.002)
    assert result["candidate"]["solids"] == result["reference"]["solids"]
    assert result["candidate"]["volume"] == pytest.approx(result["reference"]["volume"], rel=1e-6)
