# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run a scoring in a child process with a time and a memory limit.

A crash or hang in the CAD kernel must never take down the caller. The child writes the
stage it is in before each step; when it dies or is stopped, the stage says whose fault it
was: the reference's (a loud ReferenceInvalid), the candidate's (a delivery failure, seed
001: timeout / evaluator_error), or nobody's (killed from outside: WorkerLost, NOT CHECKED).
Pure standard library: the parent never imports FreeCAD.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from cadbench_wb import result as results
from cadbench_wb import standard
from cadbench_wb.errors import EnvironmentBroken, ReferenceInvalid, UsageError, WorkerLost

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SELFTEST_PREFIX = "selftest:"  # app/kernel_selftest.py writes selftest:OPERATION
KERNEL_CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGILL}


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


def child_environment() -> dict:
    """The environment of a scoring child: this package importable, one OpenMP thread, and
    UTF-8 streams (FreeCAD 1.0 starts children with LANG=C, an ASCII stdout)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH", "")) if p)
    env.setdefault("OMP_NUM_THREADS", "1")
    # The Addon Manager's pip folder: appended in the child (cadbench_wb/__init__.py).
    from cadbench_wb import freecad_env  # noqa: PLC0415

    addon = freecad_env.additional_packages_dirs()
    if addon and freecad_env.ADDON_PACKAGES_VARIABLE not in env:
        env[freecad_env.ADDON_PACKAGES_VARIABLE] = os.pathsep.join(addon)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _limits(memory_mb: int, timeout: float | None = None):
    """Run in the child before exec: its own process group, its memory limit, and two ways
    to die with its parent, so that a killed scorer never leaves a kernel job running."""

    def apply():
        import resource  # noqa: PLC0415

        os.setsid()
        if memory_mb:
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if timeout:
            # CPU seconds can only be fewer than wall seconds: a backstop for when the
            # parent that would enforce the wall-clock limit is gone.
            seconds = int(timeout) + 30
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
        _die_with_parent()

    return apply


def _die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG)."""
    try:
        import ctypes  # noqa: PLC0415

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the CPU limit remains the backstop


def run_job(
    job: dict,
    timeout: float = standard.DEFAULT_TIMEOUT_S,
    memory_mb: int = standard.DEFAULT_MEMORY_MB,
    on_start=None,
) -> dict:
    """The worker's outcome: {"result": ...} or {"error": ...}; failures of the child
    are turned into a candidate failure result, ReferenceInvalid, EnvironmentBroken or
    WorkerLost.

    on_start(process, stage_path), if given, is called once the child runs: the GUI polls
    the stage file for progress and cancels by killing the child's process group."""
    outcome, death = _run_child(job, timeout, memory_mb, on_start)
    if outcome is not None:
        return outcome
    outcome = outcome_of_death(job, *death)
    return confirmed_crash(job, outcome, death, timeout, memory_mb)


def _run_child(job: dict, timeout, memory_mb, on_start=None):
    """(outcome, None) when the child wrote one, else (None, the death's particulars as
    outcome_of_death takes them)."""
    with tempfile.TemporaryDirectory(prefix="cadbench-job-") as tmp:
        job_path = os.path.join(tmp, "job.json")
        result_path = os.path.join(tmp, "result.json")
        stage_path = os.path.join(tmp, "stage.txt")
        with open(job_path, "w") as handle:
            json.dump(job, handle)
        env = child_environment()
        started = time.perf_counter()
        with open(os.path.join(tmp, "log.txt"), "wb") as log:
            process = subprocess.Popen(
                [
                    python_for_children(),
                    "-m",
                    "cadbench_wb.worker",
                    job_path,
                    result_path,
                    stage_path,
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env=env,
                preexec_fn=_limits(memory_mb, timeout),
                cwd=os.getcwd(),
            )
            if on_start is not None:
                on_start(process, stage_path)
            timed_out = False
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(process)
        elapsed = time.perf_counter() - started
        stage = read_text(stage_path) or "start"
        if os.path.exists(result_path):
            with open(result_path) as handle:
                outcome = json.load(handle)
            if "result" in outcome:
                outcome["result"].setdefault("timing", {})["process"] = round(elapsed, 4)
            return outcome, None
        log_tail = read_text(os.path.join(tmp, "log.txt"))[-400:].strip().replace("\n", " | ")
    return None, (process.returncode, timed_out, stage, timeout, memory_mb, log_tail)


def outcome_of_death(job, returncode, timed_out, stage, timeout, memory_mb, log_tail) -> dict:
    """Whose fault a child's death was, from its stage (shared with campaign/pool.py)."""
    on_reference = stage in ("start", "reference")
    if stage.startswith(SELFTEST_PREFIX):
        operation = stage[len(SELFTEST_PREFIX) :]
        why = "timed out" if timed_out else f"died ({_death_name(returncode)})"
        raise EnvironmentBroken(
            f"FreeCAD's kernel {why} in the scorer's own self-test ({operation}) before any "
            f"model was read: the installation is broken; log: {log_tail}"
        )
    if timed_out:
        what = f"no result within {timeout:g} s while in stage '{stage}'"
        if on_reference:
            raise ReferenceInvalid(f"the reference timed out: {what}")
        return candidate_failure(job, "timeout", what)
    signum = -returncode if returncode and returncode < 0 else None
    if signum in KERNEL_CRASH_SIGNALS or (returncode and returncode > 0):
        what = f"the scoring process died ({_death_name(returncode)}) in stage '{stage}'"
        if "MemoryError" in log_tail or "bad_alloc" in log_tail:
            what += f" after exceeding the {memory_mb} MB memory limit"
        if on_reference:
            raise ReferenceInvalid(f"{what}; log: {log_tail}")
        return candidate_failure(job, "evaluator_error", what)
    name = signal.Signals(signum).name if signum else "no result file"
    raise WorkerLost(f"the scoring process was ended from outside ({name}) in stage '{stage}'")


def _death_name(returncode) -> str:
    if returncode and returncode < 0:
        return signal.Signals(-returncode).name
    return f"exit status {returncode}"


def confirmed_crash(job: dict, outcome: dict, death: tuple, timeout, memory_mb) -> dict:
    """A kernel crash on the candidate stands only if the reference, scored against itself
    up to the same stage, does not crash there too; if it does, the scorer's kernel is
    broken (EnvironmentBroken), not the candidate. Timeouts are not re-checked."""
    returncode, timed_out, stage = death[:3]
    failure = outcome["result"].get("failure") or {}
    if timed_out or failure.get("reason") != "evaluator_error" or job.get("control_stage"):
        return outcome
    options = dict(job.get("options") or {})
    options.pop("export_diff", None)
    options.pop("drawing_dir", None)
    if stage in results.METRICS:
        options["only"] = [stage]
    control = dict(job, candidate=job["reference"], options=options, control_stage=stage)
    control_outcome, control_death = _run_child(control, timeout, memory_mb)
    error = (control_outcome or {}).get("error") or {}
    if error.get("reason") == EnvironmentBroken.reason:
        raise EnvironmentBroken(error.get("detail", ""))
    if control_outcome is not None or control_death[1]:
        return outcome  # the reference passes that stage (or is merely slow): the candidate's
    raise EnvironmentBroken(
        f"FreeCAD's kernel dies ({_death_name(returncode)}) in stage '{stage}' on the "
        f"reference scored against itself too: the scorer is broken, not the candidate; "
        f"log: {control_death[-1]}"
    )


def candidate_failure(job, reason, detail) -> dict:
    options = job.get("options") or {}
    requested = results.requested_metrics(options.get("only"))
    public = {k: v for k, v in sorted(options.items()) if k in ("only", "no_align", "spectrum")}
    failed = results.failure_result(
        job["reference"], job["candidate"], public, reason, detail, requested
    )
    return {"result": results.finish(failed)}


def _kill_group(process) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def read_text(path: str) -> str:
    """A small text file's content, or "" when it cannot be read."""
    try:
        with open(path, errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""
