# SPDX-License-Identifier: LGPL-2.1-or-later
"""The same child death gives the same outcome in every front door.

Each death is real: the worker's fault hook (worker._injected_fault) makes the scoring child
allocate until its real RLIMIT_AS refuses (memory), sleep past the real time limit (timeout),
or hang until this test SIGKILLs it from outside (kill). Front doors: `cadbench score`, the
demo's scorer, the workbench's ScoringThread (run without a window), the campaign's local
pool and a real Dask LocalCluster. What each must give follows from whose fault the death is
(outcome.py): memory and time exhausted at the candidate's alignment are the candidate's
scored failures; a kill from outside is nobody's (worker_lost).
"""

import contextlib
import json
import os
import signal
import threading

import pytest
from children import scoring_children
from conftest import run_cli

from cadbench_wb import standard
from cadbench_wb.runtime import outcome

MEMORY_MB = 2048  # enough for FreeCAD and a box; the fault hook allocates past it
TIMEOUT_S = 20  # start, self-test and loading two boxes take 3-6 s: a margin of three or more
# The fault and the killer hit only candidates whose name holds TOKEN: one per test process,
# so a killer never takes another xdist worker's victim (or another run's on the machine).
TOKEN = f"victim{os.getpid()}"
FAULTS = {"memory": "memory:alignment", "timeout": "hang:alignment", "kill": "hang:alignment"}
# The failure reason each death must end in: the candidate's scored failure, or nobody's.
EXPECTED = {"memory": "memory", "timeout": "timeout", "kill": "worker_lost"}


@pytest.fixture(scope="module")
def files(part, tmp_path_factory):
    root = tmp_path_factory.mktemp("outcomes")
    case_dir = root / "box_case"
    case_dir.mkdir()
    part.makeBox(10, 8, 6).exportStep(str(case_dir / "reference.step"))
    (case_dir / "case.yaml").write_text(
        "id: box_case\ntitle: a box\nreference: reference.step\ngroup: boxes\nanchoring: false\n"
    )
    candidate = root / f"{TOKEN}.step"
    part.makeBox(10.5, 8, 6).exportStep(str(candidate))
    return {
        "case": str(case_dir),
        "reference": str(case_dir / "reference.step"),
        "candidate": str(candidate),
        "root": root,
    }


def job_of(files) -> outcome.Job:
    options = outcome.Options(only=("shape",))
    return outcome.Job("score", files["reference"], files["candidate"], options, files["case"])


class Killer:
    """SIGKILLs, from outside, every scoring child (single-shot or reused) that reports the
    stage 'alignment' on a file holding TOKEN: the stage file's second line names the file."""

    def __init__(self):
        self.killed = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _watch(self):
        while not self._stop.is_set():
            for pid, stage_path in scoring_children():
                stage = outcome.Stage.read(stage_path)
                if pid in self.killed or stage.name != "alignment" or TOKEN not in stage.file:
                    continue
                try:
                    os.kill(pid, signal.SIGKILL)
                    self.killed.append(pid)
                except ProcessLookupError:
                    pass
            self._stop.wait(0.2)


def assert_outcome(death, result=None, error=None, memory_mb=MEMORY_MB):
    """result: a score result dict; error: (reason, detail) of a named failure."""
    wanted = EXPECTED[death]
    if death == "kill":
        assert result is None and error is not None, result
        assert error[0] == "worker_lost" and "SIGKILL" in error[1]
        return
    assert error is None, error
    assert result["delivered"] is False and result["failure"]["reason"] == wanted
    assert result["shapeIoU"] == 0.0 and result["verdicts"]["shapeIoU"]["verdict"] == "FAIL"
    assert "stage 'alignment'" in result["failure"]["detail"]
    if death == "memory":
        assert f"{memory_mb} MB memory limit" in result["failure"]["detail"]


DEATHS = sorted(FAULTS)


@pytest.mark.parametrize("death", DEATHS)
def test_score_command(files, death):
    env = {"CADBENCH_FAULT": f"{FAULTS[death]} {TOKEN}"}
    with Killer() if death == "kill" else contextlib.nullcontext():
        status, out, err = run_cli(
            "score", "--case", files["case"], files["candidate"], "--only", "shape",
            "--json", "-", "--memory-mb", str(MEMORY_MB), "--timeout", str(TIMEOUT_S), env=env,
        )  # fmt: skip
    assert "Traceback" not in err
    if death == "kill":
        assert status == 6 and out == "" and err.count("\n") == 1, err
        assert_outcome(death, error=tuple(err.split(": ", 2)[1:]))
    else:
        assert status == 0, err
        assert_outcome(death, result=json.loads(out))


@pytest.mark.parametrize("death", DEATHS)
def test_demo_scorer(files, death, monkeypatch):
    from cadbench_wb.commands import demo

    monkeypatch.setenv("CADBENCH_FAULT", f"{FAULTS[death]} {TOKEN}")
    with Killer() if death == "kill" else contextlib.nullcontext():
        result, error = demo._score(job_of(files), TIMEOUT_S)
    # demo scores under the default memory limit (it has no --memory-mb).
    error = tuple(error.split(": ", 1)) if error else None
    assert_outcome(death, result, error, memory_mb=standard.DEFAULT_MEMORY_MB)


@pytest.mark.parametrize("death", DEATHS)
def test_workbench_scoring_thread(fc, files, death, monkeypatch):
    from cadbench_wb.gui import job as gui_job

    monkeypatch.setenv("CADBENCH_FAULT", f"{FAULTS[death]} {TOKEN}")
    thread = gui_job.ScoringThread([job_of(files)], timeout=TIMEOUT_S, memory_mb=MEMORY_MB)
    answers = []
    thread.job_done.connect(lambda index, answer: answers.append(answer))
    with Killer() if death == "kill" else contextlib.nullcontext():
        thread.run()  # the QThread's body, in this thread: no window, no event loop needed
    (answer,) = answers
    error = answer.get("error")
    assert_outcome(
        death, answer.get("result"), (error["reason"], error["detail"]) if error else None
    )


def _pool_outcome(files, death, tmp_path):
    from cadbench_wb.campaign import pool
    from cadbench_wb.runtime import runner

    fault_file = tmp_path / "fault.txt"
    fault_file.write_text(f"{FAULTS[death]} {TOKEN}")
    env = runner.child_environment()
    env["CADBENCH_FAULT_FILE"] = str(fault_file)
    local = pool.LocalPool(1, timeout=TIMEOUT_S, memory_mb=MEMORY_MB, env=env)
    done = []
    with Killer() if death == "kill" else contextlib.nullcontext():
        local.run([pool.Job("k", job_of(files))], lambda job, got: done.append(got))
    return done


@pytest.mark.parametrize("death", DEATHS)
def test_campaign_pool(files, death, tmp_path):
    from cadbench_wb.campaign import pool

    (got,) = _pool_outcome(files, death, tmp_path)
    if got["status"] == pool.SCORED:
        assert_outcome(death, got["result"])
    else:
        assert got["status"] == (pool.LOST if death == "kill" else pool.NOT_CHECKED)
        assert_outcome(death, error=(got["reason"], got["detail"]))


@pytest.fixture(scope="module")
def cluster(files):
    """A real LocalCluster whose worker processes read the fault file named here."""
    from distributed import LocalCluster

    fault_file = files["root"] / "dask_fault.txt"
    fault_file.write_text("")
    previous = os.environ.get("CADBENCH_FAULT_FILE")
    os.environ["CADBENCH_FAULT_FILE"] = str(fault_file)
    local = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    yield local, fault_file
    local.close()
    if previous is None:
        os.environ.pop("CADBENCH_FAULT_FILE", None)
    else:
        os.environ["CADBENCH_FAULT_FILE"] = previous


@pytest.mark.parametrize("death", DEATHS)
def test_dask_cluster(files, cluster, death):
    from cadbench_wb.campaign import distributed, pool
    from cadbench_wb.case_model import cases

    local, fault_file = cluster
    fault_file.write_text(f"{FAULTS[death]} {TOKEN}")
    job = pool.Job("k", job_of(files), case=cases.load_case(files["case"]))
    done = []
    with Killer() if death == "kill" else contextlib.nullcontext():
        distributed.run_on_cluster(
            local.scheduler_address, [job], TIMEOUT_S, MEMORY_MB,
            lambda _job, got: done.append(got), lambda: None,
        )  # fmt: skip
    (got,) = done
    if got["status"] == pool.SCORED:
        assert_outcome(death, got["result"])
    else:
        assert_outcome(death, error=(got["reason"], got["detail"]))


def test_a_killed_child_is_killed_once_per_attempt_in_the_pool(files, tmp_path):
    """The pool retries a lost job (seed 004): the killer sees one child per attempt."""
    from cadbench_wb.campaign import pool

    with Killer() as killer:
        fault_file = tmp_path / "fault.txt"
        fault_file.write_text(f"hang:alignment {TOKEN}")
        from cadbench_wb.runtime import runner

        env = runner.child_environment()
        env["CADBENCH_FAULT_FILE"] = str(fault_file)
        local = pool.LocalPool(1, timeout=TIMEOUT_S, memory_mb=MEMORY_MB, env=env)
        done = []
        local.run([pool.Job("k", job_of(files))], lambda job, got: done.append((job, got)))
    ((job, got),) = done
    assert job.attempts == 1 + pool.RETRIES and len(killer.killed) == 1 + pool.RETRIES
    assert got["status"] == pool.LOST and got["reason"] == "worker_lost"
