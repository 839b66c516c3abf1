# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run a scoring in a child process with a time and a memory limit.

A crash or hang in the CAD kernel must never take down the caller. The child writes the
stage it is in, and the file it reads, before each step; outcome.outcome_of reads what it
left behind (outcome.py says whose fault each ending is). Pure standard library: the parent
never imports FreeCAD.
"""

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from cadbench_wb.errors import EnvironmentBroken, UsageError
from cadbench_wb.results import result as results
from cadbench_wb.runtime import child_limits, freecad_env
from cadbench_wb.runtime import outcome as outcome_mod
from cadbench_wb.runtime.outcome import Ending, Job, Limits, Outcome, Stage, read_text

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_for_children() -> str:
    """An interpreter that can run the worker: this one, unless this is FreeCAD's binary."""
    explicit = os.environ.get("CADBENCH_PYTHON")
    if explicit:
        return explicit
    exe = sys.executable or ""
    if os.path.basename(exe).lower().startswith("python"):
        return exe
    # Inside FreeCAD's GUI the checkout's venv holds the dependencies FreeCAD's Python lacks.
    for candidate in (
        os.path.join(PACKAGE_PARENT, ".venv", "bin", "python"),
        os.path.join(sys.prefix, "bin", "python3"),
        shutil.which("python3"),
        "/usr/bin/python3",
    ):
        if candidate and os.path.exists(candidate):
            return candidate
    raise UsageError("no Python interpreter found to run the scoring worker")


# "1": a scoring child runs every stage in its own process (app/drawing/ahead.py draws in
# a child of its own otherwise, when a second core is free).
SERIAL_STAGES = "CADBENCH_SERIAL_STAGES"


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def stages_serial_when_saturated(env: dict, parallel: int) -> dict:
    """env for children of which `parallel` run at once: with as many scorings as cores
    (a campaign, the demo), drawing ahead in a further process only adds a second reading
    of both files per job, so every stage runs in the scoring process (unless env says)."""
    if parallel >= cores():
        env = dict(env)
        env.setdefault(SERIAL_STAGES, "1")
    return env


def child_interpreter(code: str, **popen):
    """A fresh interpreter (never a fork: time_budget.py says why) running CODE as a
    scoring child does: python_for_children with child_environment; POPEN sets its pipes."""
    command = [python_for_children(), "-c", code]
    return subprocess.Popen(command, env=child_environment(), **popen)


def child_environment() -> dict:
    """The environment of a scoring child: this package importable, one OpenMP and one
    OpenBLAS thread, and UTF-8 streams (FreeCAD 1.0 starts children with LANG=C, an ASCII
    stdout)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH", "")) if p)
    # `python -m` and `-c` put the working folder first on sys.path: a child started inside
    # a folder of deliveries would import a delivered `cadbench_wb/` (or `numpy/`) instead
    # of ours, running code from a candidate. PYTHONSAFEPATH (Python >= 3.11, as every
    # FreeCAD this supports ships) leaves it out.
    env["PYTHONSAFEPATH"] = "1"
    env.setdefault("OMP_NUM_THREADS", "1")
    # One OpenBLAS thread: its buffers scale with its threads, so that the memory a scoring
    # needs (standard.MIN_MEMORY_MB) does not grow with the machine's cores, and the
    # self-test's BLAS step (app/model/kernel_selftest.py) takes the only buffer it will need.
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    # The Addon Manager's pip folder: appended in the child (cadbench_wb/__init__.py).
    addon = freecad_env.additional_packages_dirs()
    if addon and freecad_env.ADDON_PACKAGES_VARIABLE not in env:
        env[freecad_env.ADDON_PACKAGES_VARIABLE] = os.pathsep.join(addon)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_job(job, limits: Limits | None = None, on_start=None) -> Outcome:
    """The outcome of one job (an outcome.Job, or its dict) run in a fresh child under
    the limits: a value, or a named failure (outcome.outcome_of reads every ending).

    on_start(process, stage_path), if given, is called once the child runs: the GUI polls
    the stage file for progress and cancels by killing the child's process group."""
    from cadbench_wb.runtime import memory_use  # noqa: PLC0415 - resource: POSIX only

    job = Job.of(job)
    limits = limits or Limits()
    asked = limits.memory_mb
    memory_mb, clamped = memory_use.fitted_mb(asked)
    limits = dataclasses.replace(limits, memory_mb=memory_mb)
    outcome = settled(job, limits, _run_child(job, limits, on_start))
    if clamped is None or outcome.value is None:
        return outcome
    # Said in the JSON: the figures are the same under a smaller limit, but a memory
    # failure then names the smaller one.
    note = {"memoryMb": memory_mb, "askedMemoryMb": asked, "note": clamped}
    return dataclasses.replace(outcome, value=dict(outcome.value, memoryLimit=note))


def settled(job: Job, limits: Limits, ending: Ending, run=None) -> Outcome:
    """outcome.outcome_of, with every failure of the scorer on a candidate checked on its
    perfect-copy control (README "Never the candidate's fault when the scorer is broken"):
    the same stage run on the reference moved by the candidate's pose. A failure the
    control shares is the scorer's: that metric is NOT CHECKED, naming the control, and
    the other metrics keep their figures; a failure it does not share is the candidate's
    evaluator_error. Before the candidate is aligned the control is the reference scored
    against itself up to the stage; a crash there too is environment_broken.

    run(job, limits) -> Ending runs a control or a repeat (default: a fresh child;
    worker.in_process for `score --in-process`). The one function every front door
    (runner, campaign pool, Dask, score --in-process) turns an ending into an outcome with."""
    run = run or _run_child
    outcome = outcome_mod.outcome_of(job, limits, ending)
    if job.control_stage:
        return outcome
    if outcome.confirm is not None:
        return _death_controlled(job, limits, ending, outcome, run)
    failures = (outcome.value or {}).get("stageFailures") if job.kind == "score" else None
    if failures:
        return _failures_controlled(job, limits, outcome.value, failures, run)
    return outcome


def _death_controlled(job: Job, limits: Limits, ending: Ending, outcome: Outcome, run):
    """A child that died on the candidate in stage outcome.confirm, judged by its control."""
    stage = outcome.confirm
    pose = ending.stage.pose
    if stage in results.METRICS and pose is not None:
        failed = _control_failure(run(job.control(stage, pose), limits))
        if failed is None:
            return outcome  # the control passes that stage: the death is the candidate's
        died = outcome.value["failure"]["detail"]
        again = dataclasses.replace(
            job, unchecked={**job.unchecked, stage: {"candidate": died, "control": failed}}
        )
        # The other metrics are measured again, this stage left out.
        return settled(again, limits, run(again, limits), run)
    control = run(job.control(stage), limits)
    if control.answer is not None:
        error = control.answer.get("error") or {}
        if error.get("reason") == EnvironmentBroken.reason:
            return Outcome(error=EnvironmentBroken(error.get("detail", "")))
        return outcome  # the reference passes that stage: the crash is the candidate's
    if control.timed_out:
        return outcome  # the reference is merely slow there: the candidate's crash stands
    return Outcome(
        error=EnvironmentBroken(
            f"FreeCAD's kernel dies ({outcome_mod.death_name(ending.returncode)}) in stage "
            f"'{outcome.confirm}' on the reference scored against itself too: the scorer is "
            f"broken, not the candidate; log: {control.log_tail}"
        )
    )


def _failures_controlled(job: Job, limits: Limits, result: dict, failures: dict, run):
    """A result whose listed stages raised on the candidate, each judged by its control."""
    result = dict(result)
    result.pop("stageFailures")
    for metric, detail in sorted(failures["stages"].items()):
        failed = _control_failure(run(job.control(metric, failures["pose"]), limits))
        if failed is None:
            why = (
                f"stage '{metric}' failed on the candidate ({detail}) and not on {results.CONTROL}"
            )
            return Outcome(value=outcome_mod.failure_result(job, "evaluator_error", why))
        results.unchecked_by_control(result, metric, detail, failed)
    return Outcome(value=results.with_case_verdict(result))


def _control_failure(control: Ending) -> str | None:
    """How a control failed, or None when it passed its stage (a control that only ran out
    of time is slow there, not failing: the candidate's failure stands)."""
    if control.answer is not None:
        if "error" not in control.answer:
            return None
        error = control.answer["error"]
        return f"{error.get('reason', 'internal_error')}: {error.get('detail', '')}"
    if control.timed_out:
        return None
    died = f"the scoring process died ({outcome_mod.death_name(control.returncode)})"
    return f"{died}: {control.last_words}" if control.last_words else died


def _run_child(job: Job, limits: Limits, on_start=None) -> Ending:
    """Run one job in a fresh child and report how it ended."""
    with tempfile.TemporaryDirectory(prefix="cadbench-job-") as tmp:
        job_path = os.path.join(tmp, "job.json")
        result_path = os.path.join(tmp, "result.json")
        stage_path = os.path.join(tmp, "stage.txt")
        with open(job_path, "w", encoding="utf-8") as handle:
            json.dump(job.as_dict(), handle)
        # Started with start_new_session=True (its own process group), it sets its own
        # memory limit and CPU backstop and dies with its parent, so that a killed scorer
        # never leaves a kernel job running (child_limits.py; never a preexec_fn, which
        # would make Python fork() this whole process instead of vfork).
        env = child_limits.environment(child_environment(), limits.memory_mb, limits.timeout)
        started = time.perf_counter()
        with open(os.path.join(tmp, "log.txt"), "wb") as log:
            process = subprocess.Popen(
                [
                    python_for_children(),
                    "-m",
                    "cadbench_wb.runtime.worker",
                    job_path,
                    result_path,
                    stage_path,
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env=env,
                start_new_session=True,
                cwd=os.getcwd(),
            )
            if on_start is not None:
                on_start(process, stage_path)
            timed_out = False
            try:
                process.wait(timeout=limits.timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(process)
        elapsed = time.perf_counter() - started
        stage = Stage.read(stage_path)
        if os.path.exists(result_path):
            with open(result_path, encoding="utf-8") as handle:
                answer = json.load(handle)
            if "result" in answer:
                answer["result"].setdefault("timing", {})["process"] = round(elapsed, 4)
            return Ending(stage, answer, process.returncode)
        log = read_text(os.path.join(tmp, "log.txt"))
        log_tail = log[-400:].strip().replace("\n", " | ")
    return Ending(stage, None, process.returncode, timed_out, log_tail, outcome_mod.last_words(log))


def _kill_group(process) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
