# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench drawing --pose RESULT.json`: the candidate drawn as the scorer aligned it.

The candidate is the reference block (40 x 30 x 20, Ø10 hole at (12, 10)) stood on its end
(90° about X) and moved: once the alignment of its score result is applied it is the
reference again, so its drawing must print exactly what the reference's drawing prints.
"""

import json

from conftest import run_cli


def _printed(report) -> list:
    return sorted((d["view"] or "", d["printed"]) for d in report["displayed"])


def _scored_pair(fc, part, tmp_path, axis, degrees, shift, name):
    """(reference, candidate, result.json) of the block and its copy turned about axis by
    degrees and moved by shift, scored shape-only."""
    block = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0)))
    reference = str(tmp_path / "reference.step")
    block.exportStep(reference)
    moved = block.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(*axis), degrees)
    moved.translate(fc.Vector(*shift))
    candidate = str(tmp_path / f"{name}.step")
    moved.exportStep(candidate)
    result = tmp_path / "result.json"
    status, _, stderr = run_cli(
        "score", reference, candidate, "--only", "shape", "--json", str(result)
    )
    assert status == 0, stderr
    return reference, candidate, result


def test_pose_draws_the_candidate_as_the_metric_aligned_it(fc, part, tmp_path):
    reference, candidate, result = _scored_pair(
        fc, part, tmp_path, (1, 0, 0), 90, (100, -20, 7), "stood"
    )
    assert json.loads(result.read_text())["shapeIoU"] > 0.999

    drawn = {}
    for name, model, extra in (
        ("reference", reference, ()),
        ("posed", candidate, ("--pose", str(result))),
        ("delivered", candidate, ()),
    ):
        status, stdout, stderr = run_cli(
            "drawing", model, "--out", str(tmp_path / name), "--json", "-", *extra
        )
        assert status == 0, stderr
        drawn[name] = json.loads(stdout)
    assert drawn["posed"]["pose"] == "aligned as in result.json"
    assert drawn["reference"]["pose"] == "as delivered"
    assert _printed(drawn["posed"]) == _printed(drawn["reference"])
    assert drawn["posed"]["drawing"]["scale"] == drawn["reference"]["drawing"]["scale"]
    # Drawn as delivered, the stood block shows its faces in other views: the pose matters.
    assert _printed(drawn["delivered"]) != _printed(drawn["reference"])


def test_a_pose_file_without_an_alignment_is_a_named_usage_error(tmp_path, fc, part):
    model = str(tmp_path / "box.step")
    part.makeBox(10, 10, 10).exportStep(model)
    bad = tmp_path / "bad.json"
    bad.write_text('{"shape": {}}')
    status, _, stderr = run_cli("drawing", model, "--out", str(tmp_path / "o"), "--pose", str(bad))
    assert status == 2 and "not a score result with a shape alignment" in stderr
    assert "Traceback" not in stderr


def test_a_skew_turn_is_drawn_in_the_scored_pose_even_from_rounded_digits(fc, part, tmp_path):
    """37° about (1, 2, 3), the bundled perfect_moved pose: no matrix entry is 0 or 1, so
    its printed digits leave R^T R - I at 1e-10 -- which OCC refused as a scaling before
    the rotation was written in full and made orthonormal where it is read."""
    import numpy as np

    reference, candidate, result = _scored_pair(
        fc, part, tmp_path, (1, 2, 3), 37, (120, -45, 30), "turned"
    )
    scored = json.loads(result.read_text())
    rotation = np.array(scored["shape"]["alignment"]["rotation"])
    assert np.abs(rotation.T @ rotation - np.eye(3)).max() < 1e-14  # written in full
    # A result written to ten digits (as before): read, it is made orthonormal again.
    rounded = tmp_path / "rounded.json"
    alignment = scored["shape"]["alignment"]
    alignment["rotation"] = [[float(f"{v:.10g}") for v in row] for row in alignment["rotation"]]
    again = np.array(alignment["rotation"])
    assert np.abs(again.T @ again - np.eye(3)).max() > 1e-12  # what OCC refused
    rounded.write_text(json.dumps(scored))
    status, stdout, stderr = run_cli(
        "drawing", reference, "--out", str(tmp_path / "ref"), "--json", "-"
    )
    assert status == 0, stderr
    expected = _printed(json.loads(stdout))
    for name, pose in (("full", result), ("rounded", rounded)):
        status, stdout, stderr = run_cli(
            "drawing", candidate, "--out", str(tmp_path / name), "--json", "-", "--pose", str(pose)
        )
        assert status == 0, (name, stderr)
        assert _printed(json.loads(stdout)) == expected, name


def test_a_pose_that_is_no_rotation_is_refused_by_name(fc, part, tmp_path):
    model = str(tmp_path / "box.step")
    part.makeBox(10, 10, 10).exportStep(model)
    scaling = tmp_path / "scaling.json"
    alignment = {"rotation": [[1.1, 0, 0], [0, 1.1, 0], [0, 0, 1.1]], "translation": [0, 0, 0]}
    scaling.write_text(json.dumps({"shape": {"alignment": alignment}}))
    args = ("drawing", model, "--out", str(tmp_path / "o"), "--pose", str(scaling))
    status, _, stderr = run_cli(*args)
    assert status == 2 and "is not a rotation" in stderr and "Traceback" not in stderr
