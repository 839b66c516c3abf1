# SPDX-License-Identifier: LGPL-2.1-or-later
"""outcome.outcome_of: every ending a child can leave, read once (pure: no FreeCAD)."""

import signal

import pytest

from cadbench_wb import errors, standard
from cadbench_wb.campaign import layout
from cadbench_wb.runtime import memory_use, outcome

JOB = outcome.Job("score", "/r/reference.step", "/c/cand.step", outcome.Options(only=("shape",)))
LIMITS = outcome.Limits(30, 1000)


def ended(stage, **how):
    return outcome.outcome_of(JOB, LIMITS, outcome.Ending(outcome.Stage(stage, "/x/f.step"), **how))


def test_the_job_dict_round_trips_and_is_written_in_one_place():
    job = outcome.Job(
        "score", "r.step", "c.step", outcome.Options(("shape",), True, "extended", "/d"), "/case"
    )
    data = job.as_dict()
    assert data["options"] == {
        "only": ["shape"], "no_align": True, "spectrum": "extended", "export_diff": "/d",
    }  # fmt: skip
    assert outcome.Job.from_dict(data) == job and outcome.Job.of(data) == job
    assert job.options.public() == {"no_align": True, "only": ["shape"], "spectrum": "extended"}
    control = job.control("shapeIoU")
    assert control.candidate == "r.step" and control.options.only == ("shapeIoU",)
    assert control.options.export_diff is None and control.control_stage == "shapeIoU"


def test_a_control_job_carries_the_candidates_pose_for_a_metric_stage_only():
    pose = tuple(float(i) for i in range(12))
    job = outcome.Job("score", "r.step", "c.step", unchecked={"drawingMatch": {"candidate": "x"}})
    control = job.control("drawingMatch", pose)
    assert control.control_pose == pose and control.candidate == "r.step"
    assert control.unchecked == {} and control.options.only == ("drawingMatch",)
    assert outcome.Job.from_dict(control.as_dict()) == control
    assert outcome.Job.from_dict(job.as_dict()) == job
    assert job.control("alignment", pose).control_pose is None  # before the pose exists


def test_stage_file_carries_the_pose_once_aligned(tmp_path):
    path = str(tmp_path / "stage.txt")
    pose = (0.1 + 0.2, 1 / 3, *range(10))  # floats that print long come back exact
    outcome.Stage("drawingMatch", "/c/cand.step", tuple(map(float, pose))).write(path)
    assert outcome.Stage.read(path).pose == tuple(map(float, pose))
    with open(path, "w") as handle:  # a child that died writing the line: no pose
        handle.write("drawingMatch\n/c/cand.step\n[0.1, 0.2")
    assert outcome.Stage.read(path) == outcome.Stage("drawingMatch", "/c/cand.step")


def test_last_words_are_the_last_fatal_error_and_its_innermost_frame():
    log = (
        "QCoreApplication::applicationFilePath: Please instantiate the QApplication object\n"
        "Fatal Python error: Aborted\n\nCurrent thread 0x00007f01 (most recent call first):\n"
        '  File "/old/job.py", line 3 in old\n'
        "Fatal Python error: Segmentation fault\n\n"
        "Current thread 0x00007f318c57c040 (most recent call first):\n"
        '  File "/w/cadbench_wb/app/drawing/techdraw.py", line 212 in make_view\n'
        '  File "/w/cadbench_wb/app/drawing/stage.py", line 9 in _drawn\n\n'
        "Extension modules: FreeCAD, Part (total: 2)\n"
    )
    words = outcome.last_words(log)
    assert words == "Segmentation fault in techdraw.py line 212, in make_view"
    assert outcome.last_words("Fatal Python error: Aborted\n") == "Aborted"
    assert outcome.last_words("a log without a fatal error\n") == ""
    ending = outcome.Ending(
        outcome.Stage("drawingMatch", "/c/cand.step"), returncode=-11, last_words=words
    )
    detail = outcome.outcome_of(JOB, LIMITS, ending).value["failure"]["detail"]
    assert detail == (
        "the scoring process died (SIGSEGV) in stage 'drawingMatch' (cand.step): " + words
    )


def test_stage_file_holds_the_step_and_the_file(tmp_path):
    path = str(tmp_path / "stage.txt")
    assert outcome.Stage.read(path) == outcome.Stage("start", "")  # not written yet
    outcome.Stage("candidate", "/c/cand\udcff.step").write(path)  # a name that is not UTF-8
    stage = outcome.Stage.read(path)
    assert stage.name == "candidate" and stage.file.endswith(".step")
    assert outcome.Stage("alignment").described() == "stage 'alignment'"


@pytest.mark.parametrize(
    "stage,party",
    [("start", "environment"), ("selftest:compound", "environment"), ("reference", "reference"),
     ("candidate", "candidate"), ("alignment", "candidate"), ("drawingMatch", "candidate")],
)  # fmt: skip
def test_each_stage_belongs_to_one_party(stage, party):
    assert outcome.Stage(stage).party == party


@pytest.mark.parametrize(
    "how,reason",
    [({"timed_out": True}, "timeout"), ({"returncode": -signal.SIGXCPU}, "timeout"),
     ({"returncode": -signal.SIGABRT, "log_tail": "std::bad_alloc"}, "memory"),
     ({"returncode": 1, "log_tail": "MemoryError"}, "memory"),
     ({"returncode": -signal.SIGSEGV}, "evaluator_error"),
     ({"answer": {"error": {"reason": "memory", "detail": "out of memory"}}}, "memory")],
)  # fmt: skip
def test_on_the_candidate_each_exhaustion_is_its_scored_failure(how, reason):
    got = ended("alignment", **how)
    assert got.error is None and got.value["delivered"] is False
    assert got.value["failure"]["reason"] == reason and got.value["shapeIoU"] == 0.0
    assert "stage 'alignment' (f.step)" in got.value["failure"]["detail"]
    assert got.confirm == ("alignment" if reason == "evaluator_error" else None)
    if reason == "memory" and "answer" not in how:
        assert "1000 MB memory limit" in got.value["failure"]["detail"]


@pytest.mark.parametrize(
    "stage,how,error",
    [("reference", {"timed_out": True}, errors.ReferenceInvalid),
     ("reference", {"returncode": -signal.SIGSEGV}, errors.ReferenceInvalid),
     ("selftest:compound", {"returncode": -signal.SIGABRT}, errors.EnvironmentBroken),
     ("start", {"timed_out": True}, errors.EnvironmentBroken),
     ("start", {"returncode": 1, "log_tail": "MemoryError"}, errors.UsageError),
     ("alignment", {"returncode": -signal.SIGKILL}, errors.WorkerLost),
     ("candidate", {"returncode": 0}, errors.WorkerLost)],
)  # fmt: skip
def test_what_is_not_the_candidates_doing_is_a_named_failure(stage, how, error):
    got = ended(stage, **how)
    assert got.value is None and type(got.error) is error
    with pytest.raises(error):
        got.result  # noqa: B018 - raising is the point


def test_answers_keep_their_reason_and_status():
    assert ended("alignment", answer={"result": {"x": 1}}).value == {"x": 1}
    for reason, status in (("reference_invalid", 4), ("usage_error", 2), ("case_invalid", 2),
                           ("environment_broken", 8), ("freecad_unavailable", 5),
                           ("worker_lost", 6), ("internal_error", 3)):  # fmt: skip
        got = ended("alignment", answer={"error": {"reason": reason, "detail": "d"}})
        assert got.error.reason == reason and got.error.exit_status == status
        assert got.as_answer() == {"error": {"reason": reason, "detail": "d"}}
    assert type(errors.error_of("unreadable_file", "d")) is errors.DeliveryFailure


def test_a_load_jobs_candidate_failure_is_a_delivery_failure():
    job = outcome.Job("load", candidate="/c/cand.step", role="candidate", output="/o.brep")
    got = outcome.outcome_of(job, LIMITS, outcome.Ending(outcome.Stage("candidate"), None, -6))
    assert isinstance(got.error, errors.DeliveryFailure)
    assert got.error.reason == "evaluator_error"


def test_memory_is_exhausted_from_the_stated_share_of_the_limit_on():
    share = standard.MEMORY_EXHAUSTED_SHARE
    assert memory_use.near_limit(share * 1000, 1000)
    assert not memory_use.near_limit(share * 1000 - 0.01, 1000)
    assert not memory_use.near_limit(10**9, None)  # no limit: never exhausted


def test_names_that_are_not_utf8_are_shown_escaped():
    assert layout.shown("sysA") == "sysA"
    assert layout.shown("sys\udcff") == "sys\\xff"  # os.listdir's form of the byte 0xff
    assert layout.shown("système") == "système"


def test_a_case_loaded_once_is_rebuilt_equal_in_the_child():
    import os

    from cadbench_wb import resources
    from cadbench_wb.case_model import cases
    from cadbench_wb.runtime import worker

    for case in cases.discover_cases(resources.CASES):
        job = outcome.Job(
            "score", case.reference_path, "c.step", case=case.path,
            case_data=outcome.case_data_of(case),
        )  # fmt: skip
        job = outcome.Job.from_dict(json_round_trip(job.as_dict()))
        assert worker.case_of(job) == case
        moved = outcome.Job.from_dict(dict(job.as_dict(), case="/scratch/copy"))
        assert worker.case_of(moved).path == "/scratch/copy"  # a Dask task's copy
        assert worker.case_of(moved).reference_path == os.path.join("/scratch/copy", case.reference)


def json_round_trip(data):
    import json

    return json.loads(json.dumps(data))


def test_a_death_in_a_metric_stage_is_judged_by_its_control_on_the_candidates_pose():
    """runner.settled, with the jobs it starts recorded: the control of a death in a metric
    stage is that stage on the reference in the candidate's pose; when it dies too the job
    is run again with that metric left unchecked, and the figures of that run stand."""
    from cadbench_wb.runtime import runner

    pose = tuple(float(i) for i in range(12))
    died = outcome.Ending(outcome.Stage("shapeIoU", "/c/cand.step", pose), returncode=-11)
    again = {"result": {"shapeIoU": None, "delivered": True, "verdicts": {}}}
    started = []

    def run(job, limits):
        started.append(job)
        if job.control_stage:
            return outcome.Ending(outcome.Stage("shapeIoU", "/r/reference.step", pose), None, -11)
        return outcome.Ending(outcome.Stage("shapeIoU"), again)

    settled = runner.settled(JOB, LIMITS, died, run=run)
    control, repeat = started
    assert control.control_stage == "shapeIoU" and control.control_pose == pose
    assert control.candidate == JOB.reference
    assert repeat.unchecked["shapeIoU"]["control"] == "the scoring process died (SIGSEGV)"
    assert "in stage 'shapeIoU'" in repeat.unchecked["shapeIoU"]["candidate"]
    assert settled.value is again["result"]
    # A control that only runs out of time is slow there: the candidate's failure stands.
    slow = runner.settled(
        JOB, LIMITS, died, run=lambda job, limits: outcome.Ending(died.stage, timed_out=True)
    )
    assert slow.value["failure"]["reason"] == "evaluator_error"
