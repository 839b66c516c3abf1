# SPDX-License-Identifier: LGPL-2.1-or-later
"""A stage that fails or dies on a candidate is judged by its perfect-copy control: the
same stage run on the reference moved by the candidate's pose (runner.settled).

Every failure is real: the worker's fault hook (worker._injected_fault) makes the scoring
child raise a RuntimeError, or read address 0 (a real SIGSEGV, which FreeCAD 0.20's own
handler used to turn into a silent exit 1), as that stage begins. 'FAULT moved' hits only
the candidate (its file name holds "moved"); a bare FAULT hits the control too. The holed
block and its moved copy are a perfect pair: every metric that is measured is 1.0.
"""

import dataclasses
import signal

import pytest
from conftest import run_cli, score_json

from cadbench_wb.metrics import verdicts
from cadbench_wb.metrics.measured import Measured

CONTROL = "the reference moved by the candidate's pose (the perfect-copy control)"


def _scored(models, fault, *extra):
    return score_json(models["holed"], models["holed_moved"], *extra, env={"CADBENCH_FAULT": fault})


@pytest.mark.parametrize("fault", ["segv:shapeIoU", "raise:shapeIoU"])
def test_a_stage_that_fails_on_its_control_too_is_not_checked_and_the_rest_stand(models, fault):
    result = _scored(models, fault)
    assert result["delivered"] is True and result["failure"] is None
    assert result["shapeIoU"] is None and "stageFailures" not in result
    entry = result["verdicts"]["shapeIoU"]
    assert entry["verdict"] == "NOT CHECKED"
    assert entry["control"]["of"] == CONTROL and entry["control"]["stage"] == "shapeIoU"
    assert CONTROL in entry["reason"]
    if fault.startswith("segv"):  # each death says how it died, and where
        assert "(SIGSEGV)" in entry["control"]["candidate"]
        assert "Segmentation fault in" in entry["control"]["failed"]
    else:
        assert "RuntimeError: injected failure" in entry["control"]["failed"]
    # The other metric measured on this pair keeps its figure (the pair is perfect).
    assert result["semanticMatch"] == 1.0
    assert result["verdicts"]["semanticMatch"]["verdict"] == "PASS"
    assert result["verdict"]["formal"] == "NOT CHECKED"


@pytest.mark.parametrize("fault", ["segv:shapeIoU moved", "raise:shapeIoU moved"])
def test_a_failure_the_control_does_not_share_is_the_candidates_evaluator_error(models, fault):
    result = _scored(models, fault)
    assert result["delivered"] is False
    assert result["failure"]["reason"] == "evaluator_error"
    assert "stage 'shapeIoU'" in result["failure"]["detail"]
    assert result["shapeIoU"] == 0.0 and result["verdicts"]["shapeIoU"]["verdict"] == "FAIL"


def test_in_process_the_same_control_gives_the_same_result(models):
    fault = "raise:shapeIoU"
    child = _scored(models, fault)
    here = _scored(models, fault, "--in-process")
    child.pop("timing"), here.pop("timing")
    assert here == child


def test_a_kernel_crash_in_process_dies_by_its_signal_with_a_message(models):
    # FreeCAD 0.20's SIGSEGV handler ends the process with exit(1) and no word; the scorer
    # puts the default action back with Python's fault handler chained to it.
    status, out, err = run_cli(
        "score", models["holed"], models["holed_moved"], "--in-process", "--only", "drawing",
        env={"CADBENCH_FAULT": "segv:drawingMatch"},
    )  # fmt: skip
    assert status == -signal.SIGSEGV, (status, err)
    assert "Fatal Python error: Segmentation fault" in err
    assert 'File "' in err and "_injected_fault" in err and out == ""


def test_a_stage_that_writes_no_verdict_raises_never_passes_silently(fc):
    # Issue 28: a requested metric with no verdict used to leave result.finish's case
    # verdict PASS without it. Measured in a control (control_pose), the stage's failure
    # raises as it is; on a candidate it is stage_failed's NOT CHECKED, judged by the control.
    from cadbench_wb.app import facts, scoring
    from cadbench_wb.metrics import registry

    context = facts.Facts(None, options={"control_pose": [0.0] * 12}, result={"verdicts": {}})
    metric = registry.by_name("semanticMatch")
    bare = dataclasses.replace(metric, requires=())  # the requirements need real models
    stages = []
    with pytest.raises(scoring.StageWroteNoVerdict, match="semanticMatch"):
        scoring._run_stage(context, bare, stages.append, lambda c: None)

    def returns_its_measurement(c):
        return Measured(1.0, {"features": {"matched": []}}, reason="all matched")

    scoring._run_stage(context, bare, stages.append, returns_its_measurement)
    assert stages == ["semanticMatch", "semanticMatch"]
    # The orchestrator wrote the value, the output and the verdict built from the reason.
    assert context.result["semanticMatch"] == 1.0
    assert context.result["features"] == {"matched": []}
    entry = context.result["verdicts"]["semanticMatch"]
    assert entry == verdicts.verdict("semanticMatch", 1.0, reason="all matched")


def test_a_stage_that_writes_an_undeclared_key_raises(fc):
    # The result's keys are the registry's: a stage writing another metric's figure or
    # verdict, or a key no line declares, is the scorer's bug, never a silent extra field.
    from cadbench_wb.app import facts, scoring
    from cadbench_wb.metrics import registry

    bare = dataclasses.replace(registry.by_name("semanticMatch"), requires=())
    for stray in ("shapeIoU", "featureCount"):
        context = facts.Facts(None, options={"control_pose": [0.0] * 12}, result={"verdicts": {}})
        returned = Measured(1.0, {"features": {}, stray: 1.0})
        with pytest.raises(scoring.UndeclaredOutput, match=f"returned undeclared.*{stray}"):
            scoring._run_stage(context, bare, lambda name: None, lambda c, m=returned: m)
        assert "semanticMatch" not in context.result["verdicts"]  # nothing half-written
    # A measure writing into the result itself, even its own declared keys, bypasses the
    # orchestrator: refused, as another metric's verdict is.
    for written in ("features", "verdicts.shapeIoU"):
        context = facts.Facts(None, options={"control_pose": [0.0] * 12}, result={"verdicts": {}})

        def writes(c, written=written):
            if written.startswith("verdicts."):
                c.result["verdicts"]["shapeIoU"] = {"verdict": "PASS"}
            else:
                c.result[written] = {}
            return Measured(1.0)

        with pytest.raises(scoring.UndeclaredOutput, match=f"result itself: {written}"):
            scoring._run_stage(context, bare, lambda name: None, writes)
