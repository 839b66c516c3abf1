# SPDX-License-Identifier: LGPL-2.1-or-later
"""One submitted script executed into a model file and a record of how it went.

The record is what a result's "code" section carries: the dialect, the script's hash, the
sandbox and limits it ran under, how long it took (codeSeconds: the script's own time, never
the scorer's), and either the model it made (its format and sha256) or the named failure.
With a keep folder (a campaign's), the model and record are kept there under a key of the
script's bytes, dialect, limits and harness: a script executed once is never executed again,
whatever is rescored.
"""

import dataclasses
import hashlib
import json
import os
import signal
import tempfile

from cadbench_wb.code import dialects, sandbox
from cadbench_wb.errors import DeliveryFailure, SandboxUnavailable
from cadbench_wb.inputs import checks as input_checks
from cadbench_wb.results.result import file_digest

MAX_SCRIPT_BYTES = 1 << 20  # a generated script of a part is a few kB
HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
REPORTED = (
    "code_syntax_error",
    "code_runtime_error",
    "code_memory",
    "no_result",
    "result_not_solid",
)
MEMORY_MARKERS = ("MemoryError", "bad_alloc", "Standard_OutOfMemory", "Cannot allocate memory")
MODEL_EXTENSIONS = {"step": ".step", "stl": ".stl"}
STARTED = b"cadbench-harness-started\n"  # harness.STARTED (that file imports nothing)


@dataclasses.dataclass
class Executed:
    record: dict  # the result's "code" section
    model_path: str | None  # the model file, None when the script failed
    executed_now: bool  # False when the keep folder had it

    @property
    def failure(self) -> DeliveryFailure | None:
        if self.model_path:
            return None
        return DeliveryFailure(self.record["status"], self.record["detail"])


def script_bytes(path: str) -> bytes:
    """The script's bytes, read as any untrusted file is (a FIFO or a device never opened)."""
    try:
        handle = input_checks.open_regular(path)
    except input_checks.FileProblem as problem:
        reason = "missing_candidate" if problem.kind == "missing" else "unreadable_file"
        raise DeliveryFailure(reason, str(problem)) from None
    with handle:
        data = handle.read(MAX_SCRIPT_BYTES + 1)
    shown = input_checks.printable(path)
    if not data:
        raise DeliveryFailure("empty_file", f"{shown}: the file has 0 bytes")
    if len(data) > MAX_SCRIPT_BYTES:
        raise DeliveryFailure(
            "too_large", f"{shown}: a script of more than {MAX_SCRIPT_BYTES} bytes"
        )
    return data


def harness_sha256() -> str:
    with open(HARNESS, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def execution_key(source: bytes, dialect: str, limits: sandbox.CodeLimits, trusted: bool) -> str:
    """What an execution depends on: a change of any of it executes the script again."""
    parts = {
        "script": hashlib.sha256(source).hexdigest(),
        "dialect": dialect,
        "limits": limits.as_dict(),
        "harness": harness_sha256(),
        "sandboxed": not trusted,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def checked_sandbox(trust_code: bool) -> None:
    """Raise SandboxUnavailable unless a sandbox can be made or the operator trusts code."""
    if trust_code:
        return
    why = sandbox.availability()
    if why:
        raise SandboxUnavailable(f"{why}; code submissions are refused (--trust-code runs them)")


def execute(
    script: str,
    declared: str | None = None,
    limits: sandbox.CodeLimits | None = None,
    trust_code: bool = False,
    keep_dir: str | None = None,
) -> Executed:
    """Run the script in the sandbox (or find its earlier run in keep_dir). A failure of the
    script is in the record (Executed.failure); a missing sandbox or environment raises
    SandboxUnavailable; an unreadable or undeclarable script raises DeliveryFailure.
    Without keep_dir the model goes to a new temporary folder, the caller's to remove."""
    limits = limits or sandbox.CodeLimits()
    source = script_bytes(script)
    dialect = dialects.dialect_of(source, declared)
    checked_sandbox(trust_code)
    try:
        python, read_only = dialects.interpreter_of(dialect)
    except FileNotFoundError as exc:
        raise SandboxUnavailable(f"no environment for {dialect} scripts: {exc}") from None
    key = execution_key(source, dialect, limits, trust_code)
    if keep_dir:
        kept = _kept(keep_dir, key)
        if kept:
            return kept
    with open(HARNESS, "rb") as handle:
        files = {"harness.py": handle.read(), "script.py": source}
    arguments = [dialect, "{inside}/script.py", *(read_only[:1] if dialect == "freecad" else [])]
    ran = sandbox.run(python, files, arguments, read_only, limits, sandboxed=not trust_code)
    record = {
        "dialect": dialect,
        "dialectDeclared": bool(declared),
        "scriptSha256": hashlib.sha256(source).hexdigest(),
        "sandbox": "none (--trust-code)" if trust_code else sandbox.version(),
        "limits": limits.as_dict(),
        "codeSeconds": round(ran.wall_seconds, 3),
    }
    if not ran.channel.startswith(STARTED) and not ran.timed_out and not ran.output_exceeded:
        # The harness never began: the sandbox or the dialect's interpreter is broken here.
        raise SandboxUnavailable(
            f"the sandbox did not start (exit status {ran.returncode}): "
            + (ran.log_tail.strip().splitlines() or [""])[-1][:300]
        )
    status, detail, fmt, model = _answer_of(ran, limits)
    # The sandbox's processes are not the parent's children: their CPU time is what the
    # harness measured of itself (the script may forge it; it is reported, never used).
    record["codeCpuSeconds"] = _reported_cpu(ran)
    record.update(status=status, detail=detail, modelFormat=fmt)
    record["modelSha256"] = hashlib.sha256(model).hexdigest() if model else None
    return _kept_now(keep_dir, key, record, model)


def _answer_of(ran: sandbox.Ran, limits: sandbox.CodeLimits) -> tuple:
    """(status, detail, model format, model bytes) of a run: the harness's answer, or the
    named failure its ending shows."""
    if ran.output_exceeded:
        return (
            "code_runtime_error",
            f"the script wrote more than {limits.output_mb} MB to stdout/stderr, or a model "
            f"of more than {limits.model_mb} MB: it was stopped",
            None,
            b"",
        )
    # RLIMIT_CPU's signal, as the process died of it or as bwrap passes it on (128 + n).
    cpu_killed = ran.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU)
    if ran.timed_out or cpu_killed:
        return ("code_timeout", f"the script did not finish within {limits.timeout:g} s", None, b"")
    head, _, model = ran.channel.removeprefix(STARTED).partition(b"\n")
    try:
        answer = json.loads(head.decode("utf-8"))
        status = answer["status"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        answer, status = None, None
    if status == "ok" and answer.get("format") in MODEL_EXTENSIONS and model:
        return "ok", "", answer["format"], model
    if status in REPORTED:
        return status, str(answer.get("detail", ""))[:500], None, b""
    tail = ran.log_tail.strip().splitlines()[-1:] or [""]
    if any(marker in ran.log_tail for marker in MEMORY_MARKERS):
        return (
            "code_memory",
            f"the script ran out of its {limits.memory_mb} MB: {tail[0][:300]}",
            None,
            b"",
        )
    ending = f"exit status {ran.returncode}"
    number = -ran.returncode if (ran.returncode or 0) < 0 else (ran.returncode or 0) - 128
    if number > 0 and number in signal.valid_signals():  # a death, or bwrap passing one on
        ending = f"{ending}, {signal.Signals(number).name}"
    return (
        "code_runtime_error",
        f"the script's process ended ({ending}) without an answer: {tail[0][:300]}".rstrip(": "),
        None,
        b"",
    )


def _reported_cpu(ran: sandbox.Ran) -> float | None:
    try:
        head = ran.channel.removeprefix(STARTED).partition(b"\n")[0]
        value = json.loads(head.decode("utf-8")).get("cpuSeconds")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None
    return round(float(value), 3) if isinstance(value, (int, float)) else None


def _paths(keep_dir: str, key: str) -> tuple[str, str]:
    return os.path.join(keep_dir, f"{key}.json"), os.path.join(keep_dir, key)


def _kept(keep_dir: str, key: str) -> Executed | None:
    record_path, stem = _paths(keep_dir, key)
    try:
        with open(record_path, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError):
        return None
    model_path = None
    if record.get("status") == "ok":
        model_path = stem + MODEL_EXTENSIONS[record["modelFormat"]]
        if file_digest(model_path) != record.get("modelSha256"):
            return None  # the kept model was changed or lost: execute again
    return Executed(record, model_path, executed_now=False)


def _kept_now(keep_dir: str | None, key: str, record: dict, model: bytes) -> Executed:
    if not keep_dir:
        keep_dir = tempfile.mkdtemp(prefix="cadbench-model-")
    os.makedirs(keep_dir, exist_ok=True)
    record_path, stem = _paths(keep_dir, key)
    model_path = None
    if record["status"] == "ok":
        model_path = stem + MODEL_EXTENSIONS[record["modelFormat"]]
        with open(model_path + ".tmp", "wb") as handle:
            handle.write(model)
        os.replace(model_path + ".tmp", model_path)
    with open(record_path + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(record, handle, sort_keys=True)
    os.replace(record_path + ".tmp", record_path)
    return Executed(record, model_path, executed_now=True)
