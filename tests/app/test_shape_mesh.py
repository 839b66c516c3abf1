# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mesh candidates: B-rep-only figures are not applicable (with the reason), never a FAIL
by construction; the shape figure still holds."""

from conftest import score_json


def test_features_of_a_mesh_candidate_are_not_applicable(models):
    result = score_json(models["holed"], models["holed_stl"], "--only", "shape,features")
    assert result["candidate"]["fromMesh"] is True
    assert result["semanticMatch"] is None
    entry = result["verdicts"]["semanticMatch"]
    assert entry["applicable"] is False
    assert "triangle mesh" in entry["reason"]
    # The shape figure is still measured on the mesh (its facets cut the hole's arcs).
    assert 0.99 < result["shapeIoU"] <= 1.0
