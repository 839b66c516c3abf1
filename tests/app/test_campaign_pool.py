# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reused scoring processes: a crash, a hang or a kill each end the way seed 004 says."""

import os
import signal

import pytest
from test_campaign_support import CASES, write_case

from cadbench_wb.campaign import pool
from cadbench_wb.runtime import outcome


@pytest.fixture(scope="module")
def boxes(part, tmp_path_factory):
    """One case (box_a) and candidates named for what the fault hook does to them."""
    root = tmp_path_factory.mktemp("pool")
    case_dir = str(root / "box_a")
    write_case(case_dir, "box_a", CASES["box_a"], part)
    x, y, z, _, _ = CASES["box_a"]
    paths = {}
    for name, factor in (("good1", 1.02), ("good2", 1.04), ("good3", 1.06), ("bad", 1.08)):
        paths[name] = str(root / f"{name}.step")
        part.makeBox(x * factor, y, z).exportStep(paths[name])
    return {"case": case_dir, "reference": os.path.join(case_dir, "reference.step"), **paths}


def jobs_for(boxes, *names):
    return [
        pool.Job(
            name,
            {
                "kind": "score",
                "reference": boxes["reference"],
                "candidate": boxes[name],
                "options": {"only": ["shape"]},
                "case": boxes["case"],
            },
        )
        for name in names
    ]


def run_pool(jobs, workers=1, timeout=60, fault=None, tmp_path=None, on_tick=None):
    env = None
    if fault is not None:
        fault_file = tmp_path / "fault.txt"
        fault_file.write_text(fault)
        from cadbench_wb.runtime import runner

        env = runner.child_environment()
        env["CADBENCH_FAULT_FILE"] = str(fault_file)
    local = pool.LocalPool(workers, timeout=timeout, memory_mb=4096, env=env)
    done = {}
    local.run(jobs, lambda job, outcome: done.setdefault(job.key, (job, outcome)),
              on_tick or (lambda: None))  # fmt: skip
    return local, done


def test_one_worker_scores_many_jobs(boxes):
    local, done = run_pool(jobs_for(boxes, "good1", "good2", "good3"))
    assert local.started_workers == 1
    for name, factor in (("good1", 1.02), ("good2", 1.04), ("good3", 1.06)):
        job, outcome = done[name]
        assert outcome["status"] == pool.SCORED and job.attempts == 1
        assert outcome["result"]["shapeIoU"] == pytest.approx(1 / factor, abs=1e-6)


def test_a_kernel_crash_fails_that_candidate_and_the_worker_is_replaced(boxes, tmp_path):
    jobs = jobs_for(boxes, "good1", "bad", "good2")
    local, done = run_pool(jobs, fault="crash:shapeIoU bad", tmp_path=tmp_path)
    result = done["bad"][1]["result"]
    assert result["delivered"] is False and result["failure"]["reason"] == "evaluator_error"
    assert "SIGABRT" in result["failure"]["detail"] and result["shapeIoU"] == 0.0
    assert done["good2"][1]["result"]["delivered"] is True
    assert local.started_workers == 2


def test_a_hang_is_the_candidates_timeout(boxes, tmp_path):
    jobs = jobs_for(boxes, "bad", "good1")
    local, done = run_pool(
        jobs, workers=2, timeout=5, fault="hang:alignment bad", tmp_path=tmp_path
    )
    result = done["bad"][1]["result"]
    assert result["failure"]["reason"] == "timeout" and "alignment" in result["failure"]["detail"]
    assert done["good1"][1]["result"]["delivered"] is True


def test_a_crash_on_the_reference_is_never_the_candidates_fault(boxes, tmp_path):
    local, done = run_pool(jobs_for(boxes, "bad"), fault="crash:reference bad", tmp_path=tmp_path)
    outcome = done["bad"][1]
    assert outcome["status"] == pool.NOT_CHECKED and outcome["reason"] == "reference_invalid"


def _killer(local, tmp_path, kills_wanted):
    """on_tick: kill (from outside) the worker hanging on 'bad'; after the wanted number of
    kills, lift the fault so that the retry can finish."""
    kills = []

    def tick():
        for worker in local.workers:
            job = worker.job
            stage = outcome.Stage.read(worker.stage_path)  # its name, then the file it reads
            # Only while the fault still hangs it: a retry's honest alignment is left alone.
            hanging = len(kills) < kills_wanted
            if job is not None and job.key == "bad" and stage.name == "alignment" and hanging:
                if len(kills) + 1 >= kills_wanted:
                    (tmp_path / "fault.txt").write_text("")
                os.kill(worker.pid, signal.SIGKILL)
                kills.append(worker.pid)

    return tick, kills


def _run_with_killer(boxes, tmp_path, kills_wanted):
    fault_file = tmp_path / "fault.txt"
    fault_file.write_text("hang:alignment bad")
    from cadbench_wb.runtime import runner

    env = runner.child_environment()
    env["CADBENCH_FAULT_FILE"] = str(fault_file)
    local = pool.LocalPool(1, timeout=60, memory_mb=4096, env=env)
    tick, kills = _killer(local, tmp_path, kills_wanted)
    done = {}
    local.run(jobs_for(boxes, "bad"), lambda j, o: done.setdefault(j.key, (j, o)), tick)
    return done["bad"], kills


def test_a_worker_killed_from_outside_is_retried(boxes, tmp_path):
    (job, outcome), kills = _run_with_killer(boxes, tmp_path, kills_wanted=1)
    assert len(kills) == 1 and job.attempts == 2
    assert outcome["status"] == pool.SCORED and outcome["result"]["delivered"] is True


def test_a_job_lost_four_times_is_not_checked(boxes, tmp_path):
    (job, outcome), kills = _run_with_killer(boxes, tmp_path, kills_wanted=99)
    assert len(kills) == 1 + pool.RETRIES and job.attempts == 1 + pool.RETRIES
    assert outcome["status"] == pool.LOST and outcome["reason"] == "worker_lost"
    assert "SIGKILL" in outcome["detail"]


def test_a_worker_that_cannot_start_stops_the_campaign_with_one_reason(boxes):
    from cadbench_wb.errors import FreeCADUnavailable

    local = pool.LocalPool(1, timeout=10, memory_mb=60)  # too little to import FreeCAD
    with pytest.raises(FreeCADUnavailable, match="under a 60 MB memory limit"):
        local.run(jobs_for(boxes, "good1"), lambda job, outcome: None)
    assert local.started_workers == 1 and local.workers == []  # a named reason: no retry
