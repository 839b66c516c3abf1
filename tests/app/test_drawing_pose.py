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


def test_pose_draws_the_candidate_as_the_metric_aligned_it(fc, part, tmp_path):
    block = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0)))
    reference = str(tmp_path / "reference.step")
    block.exportStep(reference)
    stood = block.copy()
    stood.rotate(fc.Vector(0, 0, 0), fc.Vector(1, 0, 0), 90)
    stood.translate(fc.Vector(100, -20, 7))
    candidate = str(tmp_path / "stood.step")
    stood.exportStep(candidate)
    result = tmp_path / "result.json"
    status, _, stderr = run_cli(
        "score", reference, candidate, "--only", "shape", "--json", str(result)
    )
    assert status == 0, stderr
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
