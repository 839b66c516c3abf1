# SPDX-License-Identifier: LGPL-2.1-or-later
"""A scoring child's limits, set by the child itself as the first thing it does.

The parent (runner.py, case_model/auto_cases.py) starts the child with
``start_new_session=True`` (its own process group) and names the limits in the child's
environment (LIMITS_VARIABLE: memory MB, CPU seconds, the parent's pid); cadbench_wb/__init__.py
applies them before anything else is imported, so before FreeCAD or any candidate is read.
Not a preexec_fn: that forces CPython to fork() the whole parent (FreeCAD's GUI: its page
tables copied, 0.1-0.6 s of the GUI thread) instead of vfork, and is unsafe in threaded
parents. Pure standard library.
"""

import ctypes
import os
import signal
import sys

LIMITS_VARIABLE = "CADBENCH_CHILD_LIMITS"

# CPU seconds can only be fewer than wall seconds: a backstop above the wall-clock limit,
# for when the parent that would enforce it is gone.
CPU_MARGIN_S = 30


def environment(env: dict, memory_mb: int | None, timeout: float | None) -> dict:
    """ENV plus the limits a child started from this process applies to itself."""
    cpu = int(timeout) + CPU_MARGIN_S if timeout else 0
    return dict(env, **{LIMITS_VARIABLE: f"{int(memory_mb or 0)} {cpu} {os.getpid()}"})


def apply_from_environment() -> None:
    """Apply (and remove, so that this child's own children do not take its parent for
    theirs) the limits LIMITS_VARIABLE names. A child that cannot set them exits."""
    spec = os.environ.pop(LIMITS_VARIABLE, None)
    if not spec:
        return
    try:
        memory_mb, cpu, parent = (int(field) for field in spec.split())
        apply(memory_mb, cpu, parent)
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"cadbench: the scoring process could not set its limits ({exc})\n")
        sys.stderr.flush()
        os._exit(70)  # EX_SOFTWARE


def apply(memory_mb: int, cpu_seconds: int, parent_pid: int) -> None:
    """Its memory limit (address space), its CPU-time backstop, and death with its parent."""
    import resource  # noqa: PLC0415 - Unix-only

    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if cpu_seconds:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    die_with_parent(parent_pid)


def die_with_parent(parent_pid: int = 0) -> bool:
    """Linux: SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG); whether
    that was set (elsewhere the CPU limit remains the backstop). parent_pid: the parent it
    was started by; one that died before the signal was set has left this process to
    another (init, a subreaper): then it dies now."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return False
    if parent_pid and os.getppid() != parent_pid:
        os.kill(os.getpid(), signal.SIGKILL)
    return True
