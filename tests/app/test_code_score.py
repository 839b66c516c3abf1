# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench score REF CAND.py`: a FreeCAD-Python script run in the sandbox, its model scored;
its failures named; no sandbox, no run (unless --trust-code)."""

import hashlib
import json

import pytest
from conftest import run_cli

from cadbench_wb.code import sandbox

BLOCK = """import FreeCAD as App
import Part
doc = App.newDocument("block")
box = doc.addObject("Part::Box", "Box")
box.Length, box.Width, box.Height = 10, 20, 30
doc.recompute()
"""
needs_sandbox = pytest.mark.skipif(
    sandbox.availability() is not None, reason=f"no OS sandbox: {sandbox.availability()}"
)


@pytest.fixture(scope="module")
def reference(part, tmp_path_factory):
    path = tmp_path_factory.mktemp("code") / "block.step"
    part.makeBox(10, 20, 30).exportStep(str(path))
    return str(path)


def scored(reference, script, *extra, env=None):
    status, out, err = run_cli(
        "score", reference, str(script), "--only", "shape", "--json", "-", *extra, env=env
    )
    return status, (json.loads(out) if status == 0 else None), err


@needs_sandbox
def test_a_freecad_script_is_run_in_the_sandbox_and_its_model_scored(reference, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(BLOCK)
    status, result, err = scored(reference, script)
    assert status == 0, err
    assert result["delivered"] is True and result["shapeIoU"] == 1.0
    assert result["candidate"]["sha256"] == hashlib.sha256(BLOCK.encode()).hexdigest()
    code = result["code"]
    assert code["dialect"] == "freecad" and code["status"] == "ok"
    assert code["sandbox"].startswith("bubblewrap")
    assert len(code["modelSha256"]) == 64 and code["modelFormat"] == "step"
    # The script's time is apart from the scorer's, and a timing (not in the figures).
    assert result["timing"]["code"] > 0 and "codeSeconds" not in code
    assert result["fieldFigures"]["voxelIoU64"]["value"] == 1.0


@needs_sandbox
@pytest.mark.parametrize(
    ("body", "reason", "detail"),
    [
        ("import Part\nraise ValueError('no such face')\n", "code_runtime_error",
         "line 2: ValueError: no such face"),
        ("import Part\nresult = Part.makeCircle(5)\n", "result_not_solid", "no solid"),
        ("import Part\nx = 1\n", "no_result", "left no result"),
    ],
)  # fmt: skip
def test_a_failing_script_is_a_named_delivery_failure(reference, tmp_path, body, reason, detail):
    script = tmp_path / "failing.py"
    script.write_text(body)
    status, result, err = scored(reference, script)
    assert status == 0, err
    assert result["delivered"] is False and result["shapeIoU"] == 0.0
    assert result["failure"]["reason"] == reason and detail in result["failure"]["detail"]
    assert result["code"]["status"] == reason
    assert result["fieldFigures"]["chamferDistance"]["value"] is None


def test_without_a_sandbox_code_is_refused_unless_trusted(reference, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(BLOCK)
    no_bwrap = {"PATH": str(tmp_path)}  # no bwrap on it
    status, _, err = scored(reference, script, env=no_bwrap)
    assert status == 5
    assert err.strip().splitlines()[-1].startswith("cadbench score: sandbox_unavailable:")
    status, result, err = scored(reference, script, "--trust-code", env=no_bwrap)
    assert status == 0, err
    assert result["shapeIoU"] == 1.0 and result["code"]["sandbox"] == "none (--trust-code)"


@needs_sandbox
def test_a_model_that_hangs_the_scorer_is_a_timeout_with_its_code_record(reference, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(BLOCK)
    # The scorer hangs on the candidate (the worker's test hook, as a pathological model
    # would): the script ran fine, its model is charged `timeout`, not the script.
    status, result, err = scored(
        reference, script, "--timeout", "20", env={"CADBENCH_FAULT": "hang:candidate"}
    )
    assert status == 0, err
    assert result["failure"]["reason"] == "timeout"
    assert result["code"]["status"] == "ok" and result["code"]["dialect"] == "freecad"
    assert result["candidate"]["sha256"] == hashlib.sha256(BLOCK.encode()).hexdigest()
    assert result["fieldFigures"]["voxelIoU64"]["value"] is None
