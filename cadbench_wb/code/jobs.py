# SPDX-License-Identifier: LGPL-2.1-or-later
"""Code submissions at the front doors: the command-line options, and a scoring job whose
candidate is a script turned into one whose candidate is the model the script made (or the
script's named failure), executed in the sandbox before any scoring child starts."""

import atexit
import dataclasses
import hashlib
import json
import shutil
import tempfile

from cadbench_wb.code import dialects, sandbox
from cadbench_wb.errors import DeliveryFailure, UsageError
from cadbench_wb.results.result import file_digest


def _execution():
    """code/execution.py, imported when a script is run or stamped: `cadbench score` of a
    model file (every small pair) parses these options but runs no script."""
    from cadbench_wb.code import execution  # noqa: PLC0415 - scripts only

    return execution


def add_arguments(parser) -> None:
    """--dialect, --trust-code, --code-timeout, --code-memory-mb."""
    parser.add_argument(
        "--dialect",
        choices=dialects.DIALECTS,
        default=None,
        help="the dialect of code submissions (default: read off their imports)",
    )
    parser.add_argument(
        "--trust-code",
        action="store_true",
        help="run code submissions without the OS sandbox (rlimits only): trusted code only",
    )
    defaults = sandbox.CodeLimits()
    parser.add_argument(
        "--code-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"wall seconds a submitted script may run (default {defaults.timeout:g})",
    )
    parser.add_argument(
        "--code-memory-mb",
        type=int,
        default=None,
        metavar="MB",
        help=f"address space a submitted script may use (default {defaults.memory_mb})",
    )


def settings_of(args) -> dict:
    """The code options as a campaign's Settings.code and the store key carry them."""
    data = {}
    if getattr(args, "dialect", None):
        data["dialect"] = args.dialect
    if getattr(args, "trust_code", False):
        data["trust_code"] = True
    if getattr(args, "code_timeout", None):
        data["timeout"] = float(args.code_timeout)
    if getattr(args, "code_memory_mb", None):
        data["memory_mb"] = int(args.code_memory_mb)
    return data


def limits_of(settings: dict) -> sandbox.CodeLimits:
    limits = sandbox.CodeLimits()
    changes = {k: settings[k] for k in ("timeout", "memory_mb") if settings.get(k)}
    if changes.get("timeout", 1) <= 0 or changes.get("memory_mb", 256) < 256:
        raise UsageError("--code-timeout must be positive and --code-memory-mb at least 256")
    return dataclasses.replace(limits, **changes)


def code_stamp(settings: dict) -> str:
    """What a code submission's score depends on beyond the script's bytes: the limits it
    ran under, the harness, the sandbox (part of the campaign store's key)."""
    parts = {
        "limits": limits_of(settings).as_dict(),
        "dialect": settings.get("dialect"),
        "sandboxed": not settings.get("trust_code"),
        "harness": _execution().harness_sha256(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def prepared(job, settings: dict, keep_dir: str | None = None):
    """(job, Executed or None): a job whose candidate is a script gets its code record (the
    model file in it, or the failure). Raises SandboxUnavailable when scripts cannot run."""
    if not dialects.is_code(job.candidate) or job.code:
        return job, None
    limits = limits_of(settings)
    try:
        executed = _execution().execute(
            job.candidate,
            settings.get("dialect"),
            limits,
            trust_code=bool(settings.get("trust_code")),
            keep_dir=keep_dir,
        )
    except DeliveryFailure as failure:
        code = {
            "status": failure.reason,
            "detail": failure.detail,
            "dialect": settings.get("dialect"),
            "scriptSha256": file_digest(job.candidate),
            "limits": limits.as_dict(),
            "model": None,
        }
        return dataclasses.replace(job, code=code), None
    code = dict(executed.record, model=executed.model_path)
    return dataclasses.replace(job, code=code), executed


def for_command(job, args):
    """The job of a one-off command (`cadbench score`): a script candidate executed into a
    temporary folder that lives as long as the command."""
    if not dialects.is_code(job.candidate):
        return job

    folder = tempfile.mkdtemp(prefix="cadbench-executed-")
    atexit.register(shutil.rmtree, folder, True)
    return prepared(job, settings_of(args), folder)[0]


def prepared_all(payloads: list, settings: dict, keep_dir: str, workers: int) -> tuple:
    """prepared() for many jobs at once, `workers` scripts at a time (each a sandbox of its
    own); returns (jobs in order, how many scripts were executed now)."""
    if not any(dialects.is_code(p.candidate) for p in payloads):
        return payloads, 0
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - scripts only

    _execution().checked_sandbox(bool(settings.get("trust_code")))
    with ThreadPoolExecutor(max(1, workers)) as threads:
        done = list(threads.map(lambda p: prepared(p, settings, keep_dir), payloads))
    return [job for job, _ in done], sum(1 for _, e in done if e is not None and e.executed_now)
