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
from cadbench_wb.errors import ReferenceInvalid, UsageError, WorkerLost

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL_CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGILL}


def python_for_children() -> str:
    """An interpreter that can run the worker: this one, unless this is FreeCAD's binary."""
    exe = sys.executable or ""
    if os.path.basename(exe).lower().startswith("python"):
        return exe
    for candidate in (
        os.path.join(sys.prefix, "bin", "python3"),
        shutil.which("python3"),
        "/usr/bin/python3",
    ):
        if candidate and os.path.exists(candidate):
            return candidate
    raise UsageError("no Python interpreter found to run the scoring worker")


def _limits(memory_mb: int):
    def apply():
        os.setsid()
        if memory_mb:
            import resource  # noqa: PLC0415

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run_job(
    job: dict,
    timeout: float = standard.DEFAULT_TIMEOUT_S,
    memory_mb: int = standard.DEFAULT_MEMORY_MB,
) -> dict:
    """The worker's outcome: {"result": ...} or {"error": ...}; failures of the child
    are turned into a candidate failure result, ReferenceInvalid or WorkerLost."""
    with tempfile.TemporaryDirectory(prefix="cadbench-job-") as tmp:
        job_path = os.path.join(tmp, "job.json")
        result_path = os.path.join(tmp, "result.json")
        stage_path = os.path.join(tmp, "stage.txt")
        with open(job_path, "w") as handle:
            json.dump(job, handle)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (PACKAGE_PARENT, env.get("PYTHONPATH", "")) if p
        )
        env.setdefault("OMP_NUM_THREADS", "1")
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
                preexec_fn=_limits(memory_mb),
                cwd=os.getcwd(),
            )
            timed_out = False
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(process)
        elapsed = time.perf_counter() - started
        stage = _read(stage_path) or "start"
        if os.path.exists(result_path):
            with open(result_path) as handle:
                outcome = json.load(handle)
            if "result" in outcome:
                outcome["result"].setdefault("timing", {})["process"] = round(elapsed, 4)
            return outcome
        log_tail = _read(os.path.join(tmp, "log.txt"))[-400:].strip().replace("\n", " | ")
    return _outcome_of_death(
        job, process.returncode, timed_out, stage, timeout, memory_mb, log_tail
    )


def _outcome_of_death(job, returncode, timed_out, stage, timeout, memory_mb, log_tail) -> dict:
    on_reference = stage in ("start", "reference")
    if timed_out:
        what = f"no result within {timeout:g} s while in stage '{stage}'"
        if on_reference:
            raise ReferenceInvalid(f"the reference timed out: {what}")
        return _candidate_failure(job, "timeout", what)
    signum = -returncode if returncode and returncode < 0 else None
    if signum in KERNEL_CRASH_SIGNALS or (returncode and returncode > 0):
        name = signal.Signals(signum).name if signum else f"exit status {returncode}"
        what = f"the scoring process died ({name}) in stage '{stage}'"
        if "MemoryError" in log_tail or "bad_alloc" in log_tail:
            what += f" after exceeding the {memory_mb} MB memory limit"
        if on_reference:
            raise ReferenceInvalid(f"{what}; log: {log_tail}")
        return _candidate_failure(job, "evaluator_error", what)
    name = signal.Signals(signum).name if signum else "no result file"
    raise WorkerLost(f"the scoring process was ended from outside ({name}) in stage '{stage}'")


def _candidate_failure(job, reason, detail) -> dict:
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


def _read(path: str) -> str:
    try:
        with open(path, errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""
