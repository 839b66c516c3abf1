# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every broken delivery gets a named reason, delivered false, metrics 0, exit 0."""

import json

import pytest
from conftest import run_cli, score_json

CASES = {
    "missing": "missing_candidate",
    "empty": "empty_file",
    "garbage": "unreadable_file",
    "not_step": "unreadable_file",
    "unsupported": "unsupported_format",
    "empty_compound": "empty_model",
    "face_only": "no_solid",
    "open_shell_solid": "invalid_solid",
}


@pytest.mark.parametrize("name,reason", sorted(CASES.items()))
def test_broken_candidate_has_a_named_reason(models, name, reason):
    result = score_json(models["holed"], models[name])
    assert result["delivered"] is False
    assert result["failure"]["reason"] == reason
    assert result["shapeIoU"] == 0.0
    assert result["verdicts"]["shapeIoU"]["verdict"] == "FAIL"
    assert reason in result["verdicts"]["shapeIoU"]["reason"]


def test_hang_while_measuring_the_candidate_is_a_timeout(models):
    result = score_json(
        models["holed"],
        models["holed_moved"],
        "--timeout",
        "20",
        env={"CADBENCH_FAULT": "hang:alignment"},
    )
    assert result["failure"]["reason"] == "timeout"
    assert result["shapeIoU"] == 0.0


def test_kernel_crash_on_the_candidate_is_an_evaluator_error(models):
    # The crash hits this candidate only: the reference scored against itself passes.
    result = score_json(
        models["holed"], models["holed_moved"], env={"CADBENCH_FAULT": "crash:shapeIoU moved"}
    )
    assert result["failure"]["reason"] == "evaluator_error"
    assert "SIGABRT" in result["failure"]["detail"]


def test_crash_that_hits_the_reference_too_is_the_environment(models):
    # A kernel that dies aligning whatever it is given: never the candidate's FAIL. (A
    # metric stage that dies on its control too is that metric's NOT CHECKED instead:
    # test_stage_control.py.)
    status, out, err = run_cli(
        "score",
        models["holed"],
        models["holed_moved"],
        "--no-auto-targets",
        env={"CADBENCH_FAULT": "crash:alignment"},
    )
    assert status == 8 and out == ""
    assert err.startswith("cadbench score: environment_broken: ") and err.count("\n") == 1
    assert "'alignment'" in err and "reference scored against itself" in err


@pytest.mark.parametrize("operation", ["compound", "general_fuse", "tessellation"])
def test_crash_in_the_kernel_self_test_is_the_environment(models, operation):
    status, out, err = run_cli(
        "score",
        models["holed"],
        models["holed_moved"],
        "--json",
        "-",
        "--no-auto-targets",
        env={"CADBENCH_FAULT": f"crash:selftest:{operation}"},
    )
    assert status == 8 and out == ""
    assert "environment_broken" in err and f"self-test ({operation})" in err


def test_broken_reference_is_loud(models):
    status, out, err = run_cli("score", models["garbage"], models["holed"])
    assert status == 4
    assert "reference_invalid" in err
    assert "Traceback" not in err + out


def test_crash_while_reading_the_reference_blames_the_reference(models):
    status, _, err = run_cli(
        "score",
        models["holed"],
        models["holed_moved"],
        "--no-auto-targets",
        env={"CADBENCH_FAULT": "crash:reference"},
    )
    assert status == 4 and "reference_invalid" in err


def test_usage_errors_exit_2_with_one_line(models):
    status, out, err = run_cli("score", models["holed"], models["holed"], "--only", "colour")
    assert status == 2
    assert "unknown metric" in err and "Traceback" not in err
    status, _, err = run_cli("score", "/nonexistent.step", models["holed"])
    assert status == 2 and err.count("\n") == 1


def test_json_file_output(models, tmp_path):
    target = tmp_path / "r.json"
    status, out, _ = run_cli(
        "score", models["holed"], models["holed_moved"], "--json", str(target), "--no-auto-targets"
    )
    assert status == 0
    assert "Shape fidelity" in out
    assert json.loads(target.read_text())["shapeIoU"] == pytest.approx(1.0, abs=0.002)


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def test_killing_the_scorer_leaves_no_kernel_job_behind(models):
    """A scorer killed with SIGKILL must not leave its child measuring on (an orphan)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import ROOT

    env = dict(os.environ, CADBENCH_FAULT="hang:alignment")
    parent = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cadbench_wb",
            "score",
            models["holed"],
            models["holed_moved"],
            "--no-auto-targets",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    children = []
    while time.time() < deadline and not children:
        children = _children(parent.pid)
        time.sleep(0.2)
    assert children, "the scorer never started its worker"
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(os.path.exists(f"/proc/{c}/cmdline") for c in children):
        time.sleep(0.2)
    survivors = [
        c
        for c in children
        if os.path.exists(f"/proc/{c}/cmdline") and open(f"/proc/{c}/cmdline", "rb").read()
    ]
    assert survivors == []
