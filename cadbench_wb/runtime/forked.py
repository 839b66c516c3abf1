# SPDX-License-Identifier: LGPL-2.1-or-later
"""A child forked from this process, with the part of subprocess.Popen's interface that a
kept helper child needs (stdin, stdout, pid, poll, wait, kill).

A copy of a process whose thread pools run can deadlock on their locks (time_budget.py's
reason for fresh interpreters), so a fork is made only while this process runs a single
thread (single_threaded): then no lock can be held by a thread the copy lacks. A scoring
child forks its exact-boolean child so right after importing FreeCAD, before numpy, scipy
and manifold3d start threads: the copy has FreeCAD loaded without paying for a second
interpreter and a second FreeCAD start (0.13 CPU-s of a small pair's whole process).
"""

import os
import signal
import subprocess
import sys
import time

from cadbench_wb.runtime import child_limits


def single_threaded() -> bool:
    """Whether this process runs exactly one thread (Linux: /proc; elsewhere: unknown, so
    no)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


class ForkedChild:
    """run() in a forked copy of this process, its stdin and stdout pipes from and to this
    one (binary, as Popen's with PIPE), stderr to /dev/null, every other descriptor closed
    (a campaign worker's message channel, a log) and no atexit function of this process run
    in it: it ends with os._exit when run() returns or raises."""

    def __init__(self, run, name: str = "cadbench-child"):
        to_child, child_in = os.pipe()
        child_out, from_child = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child: measured by its answers
            status = 1
            try:
                os.dup2(to_child, 0)
                os.dup2(from_child, 1)
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 2)
                os.closerange(3, _max_descriptor())
                _die_with_parent(name)
                sys.stdin = open(0, encoding="utf-8", closefd=False)
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
                sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
                run()
                status = 0
            finally:
                try:
                    sys.stdout.flush()
                finally:
                    os._exit(status)
        os.close(to_child)
        os.close(from_child)
        self.pid = pid
        self.returncode = None
        self.stdin = os.fdopen(child_in, "wb")
        self.stdout = os.fdopen(child_out, "rb")

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pid, status = self.pid, 0
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The exit status (minus the signal that ended it); subprocess.TimeoutExpired when
        it still runs after timeout seconds."""
        if timeout is None:
            if self.returncode is None:
                try:
                    _, status = os.waitpid(self.pid, 0)
                    self.returncode = os.waitstatus_to_exitcode(status)
                except ChildProcessError:
                    self.returncode = 0
            return self.returncode
        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"forked child {self.pid}", timeout)
            time.sleep(0.005)
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _max_descriptor() -> int:
    try:
        return os.sysconf("SC_OPEN_MAX")
    except (ValueError, OSError):
        return 1024


def _die_with_parent(name: str) -> None:
    """Linux: SIGKILL this child when its parent dies (a fork does not inherit the parent's
    own PR_SET_PDEATHSIG), and name it (its command line is its parent's: ps -o comm, top
    and /proc/PID/comm tell it from a scoring child by this name)."""
    if child_limits.die_with_parent() and os.getppid() == 1:
        os._exit(0)
    try:
        import ctypes  # noqa: PLC0415 - in the child only

        libc = ctypes.CDLL(None)
        libc.prctl(15, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)  # 15 = PR_SET_NAME
    except (OSError, AttributeError):
        pass
