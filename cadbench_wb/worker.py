# SPDX-License-Identifier: LGPL-2.1-or-later
"""The child process that reads and measures untrusted models.

``python -m cadbench_wb.worker JOB.json RESULT.json STAGE.txt``: runs one scoring and
writes the result. Before each stage it writes the stage's name to STAGE.txt, so that the
parent can tell, after a crash or a timeout, whether the reference or the candidate was
being handled when the kernel went down.
"""

import json
import sys


class _ControlDone(Exception):
    """A control job got past the stage it checks."""


def run(job: dict, stage_path: str) -> dict:
    """{"result": ...}, {"error": ...} or, for a control job, {"control": "passed"}.

    A control job (runner.py, after a crash on a candidate) scores the reference against
    itself up to the stage that crashed, and stops as the next stage begins."""
    control_stage = job.get("control_stage")
    seen = []

    def stage(name: str) -> None:
        if control_stage and control_stage in seen:
            raise _ControlDone(name)
        seen.append(name)
        with open(stage_path, "w") as handle:
            handle.write(name)
        _injected_fault(name, job)

    from cadbench_wb.errors import CadbenchError  # noqa: PLC0415

    try:
        kind = job.get("kind", "score")
        if kind == "score":
            from cadbench_wb.app import kernel_selftest, scoring  # noqa: PLC0415

            options = job.get("options") or {}
            drawn = job.get("case") and "drawingMatch" in results_requested(options)
            kernel_selftest.check(stage, drawing=bool(drawn))

            case = None
            if job.get("case"):
                from cadbench_wb import cases  # noqa: PLC0415

                case = cases.load_case(job["case"])
            scored = scoring.score_files(
                job["reference"], job["candidate"], job.get("options"), case=case, stage=stage
            )
            return {"control": "passed"} if control_stage else {"result": scored}
        raise ValueError(f"unknown job kind {kind!r}")
    except _ControlDone:
        return {"control": "passed"}
    except CadbenchError as exc:
        return {"error": {"reason": exc.reason, "detail": exc.detail, "class": type(exc).__name__}}
    except MemoryError:
        return {"error": {"reason": "memory", "detail": "out of memory", "class": "MemoryError"}}
    except Exception as exc:  # reported to the parent as one line, never a traceback
        hint = ""
        if isinstance(exc, ModuleNotFoundError):  # an install without its packages
            hint = "; `python -m cadbench_wb.dependencies` says how to install what is missing"
        return {
            "error": {
                "reason": "internal_error",
                "detail": f"{type(exc).__name__}: {exc}{hint}",
                "class": type(exc).__name__,
            }
        }


def results_requested(options: dict) -> tuple:
    from cadbench_wb import result as results  # noqa: PLC0415

    return results.requested_metrics(options.get("only"))


def _injected_fault(stage: str, job: dict) -> None:
    """Test hook: CADBENCH_FAULT=hang:candidate or crash:alignment makes this worker hang or
    abort like a kernel would at that stage (selftest:compound, ...: in its self-test), so
    the parent's handling can be tested for real. 'crash:alignment NAME_PART' hits only
    candidates whose file name contains NAME_PART (a crash that is the candidate's doing);
    without it every job is hit, the reference scored against itself included."""
    import os  # noqa: PLC0415

    fault, _, name_part = os.environ.get("CADBENCH_FAULT", "").strip().partition(" ")
    kind, _, where = fault.partition(":")
    if where != stage:
        return
    if name_part and name_part not in os.path.basename(job.get("candidate", "")):
        return
    if kind == "hang":
        import time  # noqa: PLC0415

        time.sleep(3600)
    elif kind == "crash":
        os.abort()


def main(argv: list[str]) -> int:
    from cadbench_wb import console  # noqa: PLC0415

    console.utf8_stdio()
    try:
        return _run_files(*argv)
    finally:
        console.flush_all()  # the log the parent reads after a crash keeps its last lines


def _run_files(job_path: str, result_path: str, stage_path: str) -> int:
    with open(job_path) as handle:
        job = json.load(handle)
    outcome = run(job, stage_path)
    with open(result_path + ".tmp", "w") as handle:
        json.dump(outcome, handle)
    import os  # noqa: PLC0415

    os.replace(result_path + ".tmp", result_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
