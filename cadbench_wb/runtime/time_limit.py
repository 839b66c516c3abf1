# SPDX-License-Identifier: LGPL-2.1-or-later
"""A wall-clock limit for work done in this process (`dxf-check`, `drawing-score`: ezdxf
and numpy, no CAD kernel, so no child process): SIGALRM raises TimeLimitReached in the
main thread when the limit passes. A BaseException, so that the readers' own
`except Exception` (a malformed entity raises anything) cannot take it for a bad file.
Pure standard library; where there is no SIGALRM (Windows) the work runs unlimited."""

import contextlib
import signal
import threading


class TimeLimitReached(BaseException):
    """The limit given to wall_clock passed."""


@contextlib.contextmanager
def wall_clock(seconds: float | None):
    """Run the block under a limit of `seconds` (None: no limit)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not seconds or not usable:
        yield
        return

    def expired(_signum, _frame):
        raise TimeLimitReached(seconds)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
