# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run one OpenCASCADE computation in a forked child that is stopped at a time budget.

OCC's booleans cannot be interrupted from Python (they hold the interpreter for as long as
they run: minutes on some real parts), so a route that may not pay off is run in a copy of
this process and abandoned when its budget is spent, instead of being waited for and then
discarded. The child shares the parent's memory pages (fork), so nothing is re-read.
"""

import os
import pickle
import select
import signal
import time


class BudgetSpent(Exception):
    """The computation did not finish within its budget (or its child died)."""


def call_within(function, budget_s: float):
    """function()'s (picklable) return value, computed in a forked child; raises
    BudgetSpent after budget_s seconds, and re-raises the child's exception as RuntimeError.

    Where fork is not available the function runs in this process, without a budget.
    """
    if not hasattr(os, "fork"):
        return function()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, and leave without running any clean-up
        os.close(read_end)
        try:
            payload = pickle.dumps(("ok", function()))
        except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
            payload = pickle.dumps(("error", f"{type(exc).__name__}: {exc}"))
        with os.fdopen(write_end, "wb") as handle:
            handle.write(payload)
        os._exit(0)
    os.close(write_end)
    chunks = []
    deadline = time.monotonic() + budget_s
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([read_end], [], [], remaining)[0]:
                os.kill(pid, signal.SIGKILL)
                raise BudgetSpent(f"stopped after {budget_s:.1f} s")
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    if not chunks:
        raise BudgetSpent("the computation's process died without an answer")
    status, value = pickle.loads(b"".join(chunks))
    if status == "error":
        raise RuntimeError(value)
    return value
