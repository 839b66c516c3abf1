# SPDX-License-Identifier: LGPL-2.1-or-later
"""shapeIoU against analytic answers, on the real FreeCAD kernel."""

import math

from conftest import score_json


def test_moved_copy_aligns_to_one(models):
    result = score_json(models["holed"], models["holed_moved"])
    assert result["delivered"] is True
    assert abs(result["shapeIoU"] - 1.0) <= 0.002
    assert result["shape"]["method"] == "exact"
    assert abs(result["shape"]["alignment"]["rotationAngleDeg"] - 37.0) < 0.05
    assert result["verdicts"]["shapeIoU"]["verdict"] == "PASS"


def test_chiral_part_in_any_pose_aligns_to_one(models):
    result = score_json(models["chiral"], models["chiral_moved"])
    assert abs(result["shapeIoU"] - 1.0) <= 0.002
    assert result["shape"]["alignment"]["ambiguous"] is False


def test_bigger_hole_gives_the_exact_volume_ratio(models):
    # Same block, hole radius 6 instead of 5: the candidate lies inside the reference,
    # so IoU = V(candidate) / V(reference).
    block = 40 * 30 * 20
    expected = (block - math.pi * 36 * 20) / (block - math.pi * 25 * 20)
    result = score_json(models["holed"], models["holed_bigger_hole"])
    assert abs(result["shapeIoU"] - expected) < 1e-6
    assert abs(result["shape"]["precision"] - 1.0) < 1e-6
    assert abs(result["shape"]["recall"] - expected) < 1e-6


def test_uniformly_scaled_box_scores_one_over_s_cubed(models):
    result = score_json(models["box"], models["box_scaled"])
    assert abs(result["shapeIoU"] - 1 / 1.02**3) < 2e-4
    assert abs(result["shape"]["volume_ratio"] - 1.02**3) < 1e-9
    assert abs(result["shape"]["size_ratio_x"] - 1.02) < 1e-6


def test_mirror_image_of_a_chiral_part_is_not_aligned_onto_it(models):
    result = score_json(models["chiral"], models["chiral_mirror"])
    assert result["shapeIoU"] < 0.95
    rotation = result["shape"]["alignment"]["rotation"]
    det = (
        rotation[0][0] * (rotation[1][1] * rotation[2][2] - rotation[1][2] * rotation[2][1])
        - rotation[0][1] * (rotation[1][0] * rotation[2][2] - rotation[1][2] * rotation[2][0])
        + rotation[0][2] * (rotation[1][0] * rotation[2][1] - rotation[1][1] * rotation[2][0])
    )
    assert abs(det - 1.0) < 1e-9


def test_symmetric_part_reports_equally_good_poses(models):
    result = score_json(models["box"], models["box"])
    alignment = result["shape"]["alignment"]
    assert result["shapeIoU"] == 1.0
    assert alignment["ambiguous"] is True
    assert len(alignment["alternatives"]) >= 1
    assert "note" in result["verdicts"]["shapeIoU"]


def test_cross_checks_agree_with_the_exact_booleans(models):
    result = score_json(models["holed"], models["holed_bigger_hole"])
    cross = result["shape"]["crossCheck"]
    assert cross["exactConsistent"] is True
    assert cross["residuals"]["inclusionExclusion"] < 1e-9
    low, high = cross["sampledInterval95"]
    assert low - 0.01 <= result["shapeIoU"] <= high + 0.01
    # Point sampling confirms the exact figure on its own here, so the mesh boolean (the
    # slow witness on near-coincident faces) is not run, and says so.
    assert cross["agree"]["exact_sampling"] is True
    assert cross["meshIoU"] is None
    from cadbench_wb.app.shape import fidelity  # FreeCAD layer

    assert cross["meshFailure"] == fidelity.MESH_NOT_NEEDED


def test_scoring_twice_gives_identical_json_outside_timing(models):
    first = score_json(models["chiral"], models["chiral_moved"])
    second = score_json(models["chiral"], models["chiral_moved"])
    first.pop("timing")
    second.pop("timing")
    assert first == second


def test_stl_candidate_is_converted_and_said_so(models):
    result = score_json(models["holed"], models["holed_stl"])
    assert result["delivered"] is True
    assert result["candidate"]["fromMesh"] is True
    # The STL's facets cut the hole's arcs: a little material is added, not much.
    assert 0.99 < result["shapeIoU"] <= 1.0


def test_disjoint_solids_are_scored_together_and_counted(models):
    result = score_json(models["box"], models["two_disjoint"], "--no-align")
    assert result["candidate"]["solids"] == 2
    expected = 50 * 40 * 30 / (50 * 40 * 30 + 1000)
    assert abs(result["shapeIoU"] - expected) < 1e-9


def test_export_diff_writes_step_and_glb(models, tmp_path):
    result = score_json(
        models["holed"], models["holed_bigger_hole"], "--export-diff", str(tmp_path)
    )
    files = result["diffFiles"]
    assert files["extra"] is None  # the candidate lies inside the reference
    for key in ("missing", "common"):
        assert (tmp_path / f"diff_{key}.step").stat().st_size > 0
        assert (tmp_path / f"diff_{key}.glb").read_bytes()[:4] == b"glTF"
