# SPDX-License-Identifier: LGPL-2.1-or-later
"""One job and one outcome: the typed job every front door builds once, and the one reading
of whatever a scoring child left behind as a result or a named failure.

`cadbench score`, `demo`, `drawing`, the workbench and campaigns (the local pool and Dask)
all turn a child's ending into an Outcome through outcome_of (runner.settled adds the control
run that confirms a crash), so the same child death gives the same outcome in every front
door. Whose fault it was follows from the stage the child wrote last, and the file it was
reading then (Stage):

- the scorer's own, before any model was read (its start, its kernel self-test):
  environment_broken, exit 8;
- the reference's (the case or reference file was being read): reference_invalid, exit 4;
- the candidate's (from the moment the candidate file is touched): the candidate's scored
  failure, `timeout`, `memory` (the limit named) or `evaluator_error`;
- nobody's, when the child was ended from outside (SIGKILL, SIGTERM): worker_lost, exit 6.

Pure standard library: the parent never imports FreeCAD.
"""

import dataclasses
import json
import os
import re
import signal

from cadbench_wb import errors, standard
from cadbench_wb.code import delivery
from cadbench_wb.results import result as results

START = "start"
SELFTEST_PREFIX = "selftest:"  # app/model/kernel_selftest.py writes selftest:OPERATION
REFERENCE_STAGE = "reference"
CANDIDATE_STAGE = "candidate"
KERNEL_CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGILL}
# The CPU-time backstop (child_limits.py, RLIMIT_CPU) ends a child that ran out of time so.
TIME_SIGNALS = {signal.SIGXCPU}
# What an exhausted memory limit leaves in a dead child's log (Python, C++, OpenCASCADE, libc).
MEMORY_MARKERS = ("MemoryError", "bad_alloc", "Standard_OutOfMemory", "Cannot allocate memory")
# Options that change figures: they go into the result and its fingerprint; paths do not.
PUBLIC_OPTIONS = ("only", "no_align", "spectrum")
CANDIDATE_REASONS = {"timeout": "timeout", "memory": "memory", "crash": "evaluator_error"}


@dataclasses.dataclass(frozen=True)
class Options:
    """What a scoring computes and where it keeps files (`--only`, `--no-align`, ...)."""

    only: tuple | None = None
    no_align: bool = False
    spectrum: str | None = None
    export_diff: str | None = None
    drawing_dir: str | None = None

    @classmethod
    def from_dict(cls, data: dict | None) -> "Options":
        data = dict(data or {})
        only = data.get("only")
        return cls(
            only=tuple(only) if only else None,
            no_align=bool(data.get("no_align")),
            spectrum=data.get("spectrum"),
            export_diff=data.get("export_diff"),
            drawing_dir=data.get("drawing_dir"),
        )

    def as_dict(self) -> dict:
        """The options as the job and the store key carry them (only what is set)."""
        data = {}
        if self.only:
            data["only"] = list(self.only)
        if self.no_align:
            data["no_align"] = True
        for key in ("spectrum", "export_diff", "drawing_dir"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data

    def public(self) -> dict:
        return {k: v for k, v in sorted(self.as_dict().items()) if k in PUBLIC_OPTIONS}


@dataclasses.dataclass(frozen=True)
class Limits:
    """The time (wall seconds) and memory (MB of address space) a child may use per job."""

    timeout: float = standard.DEFAULT_TIMEOUT_S
    memory_mb: int = standard.DEFAULT_MEMORY_MB

    @classmethod
    def of(cls, timeout: float | None = None, memory_mb: int | None = None) -> "Limits":
        """The limits asked for, the defaults where nothing was asked."""
        return cls(timeout or standard.DEFAULT_TIMEOUT_S, memory_mb or standard.DEFAULT_MEMORY_MB)


@dataclasses.dataclass(frozen=True)
class Job:
    """One piece of work for a child: score a candidate ("score"), read and check one model
    and write the checked shape as BREP ("load", the workbench), or draw a model ("drawing").

    as_dict() is the one place the job dict the child reads is written."""

    kind: str = "score"
    reference: str = ""
    candidate: str = ""
    options: Options = Options()
    case: str | None = None
    control_stage: str | None = None  # a control job: the reference up to this stage
    # A control job of a metric stage: the candidate's pose (rotation row by row, then
    # translation: 12 floats); the reference is moved by it and that stage run on it.
    control_pose: tuple | None = None
    # Metrics left NOT CHECKED because their stage failed on the candidate and on its
    # perfect-copy control too: {metric: {"candidate": what happened, "control": ...}}.
    unchecked: dict = dataclasses.field(default_factory=dict)
    role: str = CANDIDATE_STAGE  # "load": which model
    output: str | None = None  # "load": the BREP to write
    params: dict = dataclasses.field(default_factory=dict)  # "drawing": its arguments
    # The case as the parent loaded and validated it (case_data_of): the child rebuilds it
    # instead of reading case.yaml again. None: the child loads `case` itself.
    case_data: dict | None = None
    # A code submission (code/execution.py): its execution record, and "model", the model
    # file it made (None when it failed: the record names the failure).
    code: dict | None = None

    @classmethod
    def of(cls, job) -> "Job":
        return job if isinstance(job, Job) else cls.from_dict(job)

    @classmethod
    def from_dict(cls, data: dict) -> "Job":
        return cls(
            kind=data.get("kind", "score"),
            reference=data.get("reference", ""),
            candidate=data.get("candidate", ""),
            options=Options.from_dict(data.get("options")),
            case=data.get("case"),
            control_stage=data.get("control_stage"),
            control_pose=tuple(data["control_pose"]) if data.get("control_pose") else None,
            unchecked=dict(data.get("unchecked") or {}),
            role=data.get("role", CANDIDATE_STAGE),
            output=data.get("output"),
            params=dict(data.get("params") or {}),
            case_data=data.get("case_data"),
            code=data.get("code"),
        )

    def as_dict(self) -> dict:
        data = {
            "kind": self.kind,
            "reference": self.reference,
            "candidate": self.candidate,
            "options": self.options.as_dict(),
            "case": self.case,
        }
        for key in ("control_stage", "output", "case_data", "unchecked", "code"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        if self.control_pose:
            data["control_pose"] = list(self.control_pose)
        if self.kind == "load":
            data["role"] = self.role
        if self.params:
            data["params"] = dict(self.params)
        return data

    def control(self, stage: str, pose=None) -> "Job":
        """The perfect-copy control of `stage` (runner.settled), files off: the reference
        moved by the candidate's pose (12 floats, Stage.pose) and that metric stage run on
        it; without a pose (a stage before the alignment), the reference scored against
        itself up to `stage`."""
        only = (stage,) if stage in results.METRICS else self.options.only
        options = dataclasses.replace(self.options, export_diff=None, drawing_dir=None, only=only)
        return dataclasses.replace(
            self,
            candidate=self.reference,
            options=options,
            control_stage=stage,
            control_pose=tuple(float(x) for x in pose)
            if pose and stage in results.METRICS
            else None,
            unchecked={},
            code=None,
        )


def case_data_of(case) -> dict | None:
    """A loaded cases.Case as plain data for Job.case_data (None when its raw YAML holds
    something JSON cannot carry, a date say: the child then reads case.yaml itself)."""
    data = dataclasses.asdict(case)
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return None
    return data


@dataclasses.dataclass(frozen=True)
class Stage:
    """The step a child was in, the file it was reading, and once the candidate is aligned
    its pose (the stage file's lines: name, file, pose as JSON): a death in a metric stage
    is checked on the reference moved by that pose (runner.settled)."""

    name: str = START
    file: str = ""
    pose: tuple | None = None  # rotation row by row, then translation: 12 floats

    @classmethod
    def read(cls, path: str) -> "Stage":
        lines = read_text(path).split("\n")
        name = lines[0].strip() or START
        pose = None
        if len(lines) > 2 and lines[2].strip():
            try:
                pose = tuple(float(x) for x in json.loads(lines[2]))
            except (ValueError, TypeError):
                pose = None  # a stage file cut short by the death: no control pose
            if pose is not None and len(pose) != 12:
                pose = None
        return cls(name, lines[1].strip() if len(lines) > 1 else "", pose)

    def write(self, path: str) -> None:
        with open(path, "w", encoding="utf-8", errors="backslashreplace") as handle:
            if self.pose is not None:
                handle.write(f"{self.name}\n{self.file}\n{json.dumps(list(self.pose))}\n")
            else:
                handle.write(f"{self.name}\n{self.file}\n" if self.file else self.name)

    @property
    def party(self) -> str:
        """Whose step it was: "environment", "reference" or "candidate"."""
        if self.name == START or self.name.startswith(SELFTEST_PREFIX):
            return "environment"
        return "reference" if self.name == REFERENCE_STAGE else "candidate"

    def described(self) -> str:
        on = f" ({os.path.basename(self.file)})" if self.file else ""
        return f"stage '{self.name}'{on}"


@dataclasses.dataclass(frozen=True)
class Ending:
    """What a child left behind for one job: its answer, or how it died."""

    stage: Stage
    answer: dict | None = None  # what it wrote back; None when it died or was stopped
    returncode: int | None = None
    timed_out: bool = False
    log_tail: str = ""
    # What the dead child said last (last_words of its whole log): the signal and the
    # innermost Python frame, from Python's fault handler (freecad_env.crashes_named).
    last_words: str = ""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A job's outcome: a value (a score result, including the candidate's scored failure;
    a load or drawing summary) or a named failure (error, with its exit status)."""

    value: dict | None = None
    error: errors.CadbenchError | None = None
    confirm: str | None = None  # a crash on the candidate, to be confirmed at this stage

    @property
    def result(self) -> dict:
        """The value, or the failure raised with its exit status."""
        if self.error is not None:
            raise self.error
        return self.value

    def as_answer(self) -> dict:
        """The outcome as the workbench panel reads it: {"result": ...} or {"error": ...}."""
        if self.error is not None:
            return {"error": {"reason": self.error.reason, "detail": self.error.detail}}
        return {"result": self.value}


def outcome_of(job: Job, limits: Limits, ending: Ending) -> Outcome:
    """The one reading of a child's ending, for every front door (see the module doc)."""
    answer = ending.answer
    if answer is None:
        return _death(job, limits, ending)
    if "error" not in answer:
        (value,) = answer.values()
        return Outcome(value=value)
    error = answer["error"]
    reason, detail = error.get("reason", "internal_error"), error.get("detail", "")
    if reason == "memory":
        return _blamed(job, limits, ending.stage, "memory", detail, "")
    return Outcome(error=errors.error_of(reason, detail))


def _death(job: Job, limits: Limits, ending: Ending) -> Outcome:
    returncode = ending.returncode
    signum = -returncode if returncode and returncode < 0 else None
    if ending.timed_out or signum in TIME_SIGNALS:
        kind, what = "timeout", f"no result within {limits.timeout:g} s"
    elif any(marker in ending.log_tail for marker in MEMORY_MARKERS):
        kind = "memory"
        what = (
            f"the scoring process died ({death_name(returncode)}) out of memory: the "
            f"{limits.memory_mb} MB memory limit (--memory-mb) exhausted"
        )
    elif signum in KERNEL_CRASH_SIGNALS or (returncode and returncode > 0):
        kind, what = "crash", f"the scoring process died ({death_name(returncode)})"
    else:
        name = signal.Signals(signum).name if signum else "no result file"
        return Outcome(
            error=errors.WorkerLost(
                f"the scoring process was ended from outside ({name}) in {ending.stage.described()}"
            )
        )
    return _blamed(job, limits, ending.stage, kind, what, ending.log_tail, ending.last_words)


def _blamed(
    job: Job, limits: Limits, stage: Stage, kind: str, what: str, log: str, words: str = ""
) -> Outcome:
    """The failure of `kind` (timeout, memory, crash) put on the party whose stage it was;
    words: what the child said last (last_words), after the stage."""
    where = stage.described() + (f": {words}" if words else "")
    log = f"; log: {log}" if log else ""
    if stage.party == "environment":
        if kind == "memory":  # before any model: the limit given is too low for the scorer
            return Outcome(
                error=errors.UsageError(
                    f"{what} in {where}, before any model was read: --memory-mb "
                    f"{limits.memory_mb} is too low for the scorer itself{log}",
                    "memory",
                )
            )
        if stage.name.startswith(SELFTEST_PREFIX):
            operation = stage.name[len(SELFTEST_PREFIX) :]
            happened = "timed out" if kind == "timeout" else f"failed ({what})"
            detail = (
                f"FreeCAD's kernel {happened} in the scorer's own self-test ({operation}) before "
                f"any model was read: the installation is broken{log}"
            )
        else:
            detail = f"{what} in {where}, before any model was read: the scorer cannot run{log}"
        return Outcome(error=errors.EnvironmentBroken(detail))
    if stage.party == "reference":
        return Outcome(
            error=errors.ReferenceInvalid(f"the reference failed: {what} in {where}{log}")
        )
    reason = CANDIDATE_REASONS[kind]
    detail = f"{what} in {where}"
    if job.kind != "score":
        return Outcome(error=errors.DeliveryFailure(reason, detail))
    return Outcome(
        value=failure_result(job, reason, detail), confirm=stage.name if kind == "crash" else None
    )


def failure_result(job: Job, reason: str, detail: str) -> dict:
    """The candidate's scored failure: every requested metric 0 and FAIL, with the reason."""
    requested = results.requested_metrics(job.options.only)
    failed = results.failure_result(
        job.reference, job.candidate, job.options.public(), reason, detail, requested
    )
    if job.code:  # the model a script made timed out or crashed the scorer: say so
        return delivery.with_code(results.finish(failed), job)
    return results.finish(failed)


def last_words(log: str) -> str:
    """The last fatal error Python's fault handler wrote in a child's log, with the
    innermost Python frame it was in ("Segmentation fault in techdraw.py line 212, in
    make_view"), or "": file names and line numbers only, so the same death reads the same."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if not line.startswith("Fatal Python error:"):
            continue
        what = line[len("Fatal Python error:") :].strip()
        for frame in lines[index + 1 :]:
            found = re.match(r'File "(.*)", line (\d+) in (.*)', frame)
            if found:
                name, number, function = found.groups()
                return f"{what} in {os.path.basename(name)} line {number}, in {function}"
        return what
    return ""


def death_name(returncode) -> str:
    if returncode and returncode < 0:
        return signal.Signals(-returncode).name
    return f"exit status {returncode}"


def read_text(path: str) -> str:
    """A small text file's content, or "" when it cannot be read."""
    try:
        with open(path, errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""
