# SPDX-License-Identifier: LGPL-2.1-or-later
"""The child process that reads and measures untrusted models.

``python -m cadbench_wb.runtime.worker JOB.json RESULT.json STAGE.txt``: runs one job (outcome.Job:
a scoring, the workbench's read-and-check of one model, a drawing) and writes the answer.
Before each step it writes the stage's name and the file it reads to STAGE.txt, so that the
parent can tell, after a crash or a timeout, whether the reference or the candidate was
being handled when the kernel went down (outcome.py). The reference (and its case) is read
before the candidate is touched.
"""

import argparse
import ctypes
import functools
import json
import os
import sys
import tempfile
import time

from cadbench_wb.code import delivery
from cadbench_wb.errors import CadbenchError, DeliveryFailure
from cadbench_wb.inputs import delivered
from cadbench_wb.results import result as results
from cadbench_wb.runtime import console, memory_use
from cadbench_wb.runtime.outcome import CANDIDATE_STAGE, REFERENCE_STAGE, Ending, Job, Stage


class _ControlDone(Exception):
    """A control job got past the stage it checks."""


def run(job: dict, stage_path: str) -> dict:
    """{"result": ...}, {"loaded": ...}, {"drawing": ...}, {"error": ...} or, for a control
    job, {"control": "passed"}.

    A control job (runner.settled, after a crash on a candidate) scores the reference
    against itself up to the stage that crashed, and stops as the next stage begins."""
    job = Job.from_dict(job)
    stage = _stage_writer(job, stage_path)
    try:
        if job.kind == "score":
            scratch = None if stage_path == os.devnull else os.path.dirname(stage_path)
            return _score(job, stage, scratch or None)
        if job.kind == "load":
            return _load(job, stage)
        if job.kind == "drawing":
            return _drawing(job, stage)
        raise ValueError(f"unknown job kind {job.kind!r}")
    except _ControlDone:
        return {"control": "passed"}
    except CadbenchError as exc:
        return {"error": {"reason": exc.reason, "detail": exc.detail, "class": type(exc).__name__}}
    except MemoryError:
        detail = memory_use.exhausted_detail("the scoring process")
        return {"error": {"reason": "memory", "detail": detail, "class": "MemoryError"}}
    except Exception as exc:  # reported to the parent as one line, never a traceback
        hint = ""
        if isinstance(exc, ModuleNotFoundError):  # an install without its packages
            hint = (
                "; `python -m cadbench_wb.runtime.dependencies` says how to install what is missing"
            )
        return {
            "error": {
                "reason": "internal_error",
                "detail": f"{type(exc).__name__}: {exc}{hint}",
                "class": type(exc).__name__,
            }
        }


def in_process(job, limits=None):
    """A job run in this process (trusted files, no isolation) as a child would run it, and
    its outcome.Ending: `score --in-process`, and its controls (runner.settled's run).
    Here, not in runner.py: the scorer's sealed modules reach runner.py, never this."""
    job = Job.of(job)
    with tempfile.TemporaryDirectory(prefix="cadbench-job-") as tmp:
        stage_path = os.path.join(tmp, "stage.txt")
        answer = run(job.as_dict(), stage_path)
        return Ending(Stage.read(stage_path), answer)


def _stage_writer(job, stage_path: str):
    """stage(name): write the step about to begin, and the file it reads, to the stage file
    (outcome.Stage), so that whoever reads it after a death knows whose file it was."""
    seen = []
    # The file a stage works on by default: its party's (measuring stages: the candidate's).
    files = {"reference": job.reference, "candidate": job.candidate}
    pose = []  # the candidate's, once aligned: every later stage line carries it

    def stage(name: str, file: str | None = None) -> None:
        if job.control_stage and job.control_stage in seen:
            raise _ControlDone(name)
        seen.append(name)
        if file is None:
            file = files.get(Stage(name).party, "")
        Stage(name, file, tuple(pose) or None).write(stage_path)
        _injected_fault(name, job)

    def aligned(rotation, translation) -> None:
        pose[:] = [float(x) for x in (*rotation.ravel(), *translation.ravel())]

    stage.aligned = aligned
    return stage


def _score(job, stage, scratch: str | None = None) -> dict:
    """Score one candidate: the self-test, then the case and the reference read and checked,
    then the candidate (each file hashed under its own stage, so a stall is put on the party
    whose file stalls), then the scoring itself."""
    from cadbench_wb.app import scoring  # noqa: PLC0415 - FreeCAD-only
    from cadbench_wb.app.model import kernel_selftest  # noqa: PLC0415 - FreeCAD-only

    drawn = job.case and "drawingMatch" in results.requested_metrics(job.options.only)
    kernel_selftest.check(stage, drawing=bool(drawn))
    case = None
    if job.case:
        stage(REFERENCE_STAGE, job.case)
        case = case_of(job)
    options = job.options.as_dict()
    if job.control_pose:
        options["control_pose"] = list(job.control_pose)
    if job.unchecked:
        options["unchecked"] = dict(job.unchecked)
    scored = functools.partial(
        scoring.score_files, job.reference, options=options, case=case, stage=stage,
        aligned=stage.aligned,
    )  # fmt: skip
    if job.control_stage:  # (a control job's candidate is its reference)
        scored(job.reference)
        return {"control": "passed"}
    stage(REFERENCE_STAGE)
    results.file_digest(job.reference)  # read once here; the result reuses the digest
    stage(CANDIDATE_STAGE)
    refused = (job.params or {}).get("refused")
    if refused:  # found before reading (a campaign's link out of the submissions folder)
        failure = DeliveryFailure(refused["reason"], refused["detail"])
        return {"result": scored(job.candidate, refused=failure)}
    # A code submission is scored by the model its script made (code/delivery.py).
    candidate, failure = delivery.scored_file(job)
    if failure is not None:  # the script made no model: nothing to read
        result = scored(candidate, refused=failure)
    else:
        result = _scored_bytes(candidate, scored, scratch)
    return {"result": delivery.with_code(result, job) if job.code else result}


def _scored_bytes(candidate: str, scored, scratch: str | None) -> dict:
    """The scoring of exactly the bytes its result's sha256 names (inputs/delivered.py): a
    private copy of the candidate (in scratch: the folder of the stage file, which the
    parent removes whatever becomes of this process), or the file in place hashed before
    and after. scored(path): the scoring of the file at path."""
    with delivered.scored_copy(candidate, scratch) as path:
        before = results.file_digest(path)
        result = scored(path)
        if path == candidate:
            delivered.check_unchanged(path, before)
    return delivered.renamed(result, path, candidate)


def case_of(job):
    """The job's cases.Case: rebuilt from the data the parent loaded and validated, at the
    folder the job names (a Dask task's scratch copy); read from case.yaml without it."""
    from cadbench_wb.case_model import cases  # noqa: PLC0415 - heavy: loaded on first use

    if not job.case_data:
        return cases.load_case(job.case)
    data = dict(job.case_data, path=job.case)
    data["dimensions"] = [cases.Dimension(**entry) for entry in data.get("dimensions") or []]
    return cases.Case(**data)


def _load(job, stage) -> dict:
    """Read and check one model as the scorer does, and write its checked shape as BREP
    (the workbench shows that file, never the untrusted one)."""
    from cadbench_wb.app.model import kernel_selftest, loading  # noqa: PLC0415 - FreeCAD-only

    kernel_selftest.check(stage, drawing=False)
    path = job.reference if job.role == "reference" else job.candidate
    stage(job.role, path)
    model = loading.load_model(path, job.role)
    model.shape.exportBrep(job.output)
    return {"loaded": {"path": path, "brep": job.output, "summary": model.summary()}}


def _drawing(job, stage) -> dict:
    """`cadbench drawing`'s report, made here so that the model is read in a child."""
    from cadbench_wb.app.drawing import model_report  # noqa: PLC0415 - FreeCAD-only
    from cadbench_wb.app.model import kernel_selftest  # noqa: PLC0415 - FreeCAD-only

    kernel_selftest.check(stage, drawing=True)
    stage("candidate", job.candidate)
    args = argparse.Namespace(model=job.candidate, case=job.case, **job.params)
    return {"drawing": model_report.report_of(args, stage)}


def _injected_fault(stage: str, job) -> None:
    """Test hook: CADBENCH_FAULT=hang:candidate, crash:alignment, segv:drawingMatch,
    memory:candidate or raise:shapeIoU makes this worker hang, abort, read address 0 (a
    real SIGSEGV, as a kernel bug gives), exhaust its memory limit or raise (a
    RuntimeError, as a stage's own bug would) at that stage (selftest:compound, ...: in
    its self-test), so the parent's handling can be tested for real. 'crash:alignment NAME_PART' hits only
    candidates whose file name contains NAME_PART (a crash that is the candidate's doing);
    without it every job is hit, the reference scored against itself included."""
    fault, _, name_part = os.environ.get("CADBENCH_FAULT", "").strip().partition(" ")
    kind, _, where = fault.partition(":")
    if where != stage:
        return
    if name_part and name_part not in os.path.basename(job.candidate):
        return
    if kind == "hang":
        time.sleep(3600)
    elif kind == "crash":
        os.abort()
    elif kind == "memory":
        _exhaust_memory()
    elif kind == "segv":
        ctypes.string_at(0)
    elif kind == "raise":
        raise RuntimeError(f"injected failure in stage '{stage}'")


def _exhaust_memory() -> None:
    """Allocate until the memory limit refuses (a real MemoryError under the real RLIMIT_AS,
    as a zip-bomb or a huge mesh would), then let it propagate like any allocation failure.
    numpy.empty reserves address space without touching it: reaching an 8 GB limit takes
    milliseconds and no real RAM, where zero-filled bytearrays took seconds of page faults,
    past the time limit on a loaded machine (the limit counts address space, not RSS)."""
    import numpy  # noqa: PLC0415 - heavy: loaded on first use

    held = []
    while True:
        held.append(numpy.empty(64 * 1024 * 1024, dtype=numpy.uint8))


def main(argv: list[str]) -> int:
    console.utf8_stdio()
    try:
        return _run_files(*argv)
    finally:
        console.flush_all()  # the log the parent reads after a crash keeps its last lines


def exact_child_forked() -> None:
    """FreeCAD imported, and the exact-boolean child forked while this process still runs
    one thread (time_budget.fork_spare): a scoring whose exact route runs then starts no
    second interpreter. Quietly nothing where it cannot be (the scoring starts one then);
    a FreeCAD that will not import fails as before, in the job's self-test."""
    try:
        from cadbench_wb.runtime.freecad_env import import_freecad  # noqa: PLC0415 - heavy

        import_freecad()
        from cadbench_wb.app.shape import exact_child, time_budget  # noqa: PLC0415 - FreeCAD-only

        time_budget.fork_spare(exact_child.serve)
    except Exception:  # the job itself reports a broken installation
        pass


def _run_files(job_path: str, result_path: str, stage_path: str) -> int:
    with open(job_path, encoding="utf-8") as handle:
        job = json.load(handle)
    if job.get("kind") == "score" and not job.get("control_stage"):
        exact_child_forked()
    outcome = run(job, stage_path)
    with open(result_path + ".tmp", "w") as handle:
        json.dump(outcome, handle)
    os.replace(result_path + ".tmp", result_path)
    return 0


if __name__ == "__main__":
    console.exit_now(main(sys.argv[1:]))
