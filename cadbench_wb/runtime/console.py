# SPDX-License-Identifier: LGPL-2.1-or-later
"""Standard output that holds up under every FreeCAD: UTF-8 whatever the locale, flushed
before the process ends, and kept for the result alone when the result goes to stdout.

FreeCAD 1.0 runs its children with LANG=C (an ASCII stdout: a printed 'Ø' raises
UnicodeEncodeError), freecadcmd 1.0 drops buffered output at exit, and a recompute can
print progress on the C level (TechDraw's 'has finished finding hidden lines').
"""

import atexit
import contextlib
import ctypes
import os
import sys

_RESULT_STREAM = None  # the real stdout while stdout_for_result_only() is active


def utf8_stdio() -> None:
    """Write stdout and stderr as UTF-8, whatever the locale says."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (stream.encoding or "").lower() not in ("utf-8", "utf8"):
            with contextlib.suppress(ValueError, OSError):
                reconfigure(encoding="utf-8", errors="backslashreplace")
        elif reconfigure is not None and getattr(stream, "errors", "") == "strict":
            # A file name that is not UTF-8 (a lone surrogate) must print, not raise.
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def flush_all() -> None:
    """Flush Python's streams and the C library's (FreeCAD's console writes there)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(ValueError, OSError, AttributeError):
            stream.flush()
    _flush_c_streams()


def exit_now(status: int) -> None:
    """End this process with status once its atexit functions have run and its streams are
    flushed, skipping the interpreter's teardown: a scoring child's modules, FreeCAD's
    documents and OpenCASCADE's shapes are freed one by one there, 0.05 to 0.2 CPU-s of a
    small pair's whole process (issue 33) spent on memory the kernel takes back at once."""
    try:
        atexit._run_exitfuncs()  # what a normal exit runs first (a kept child waited for)
    finally:
        flush_all()
        os._exit(status if isinstance(status, int) else 3)


def _flush_c_streams() -> None:
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass  # no C library to ask: nothing was buffered there by us


@contextlib.contextmanager
def stdout_for_result_only(active: bool = True):
    """While active, everything written to stdout (Python's print and the C level, file
    descriptor 1) goes to stderr; write_result() alone reaches the real stdout."""
    global _RESULT_STREAM  # one stdout per process
    if not active or _RESULT_STREAM is not None:
        yield
        return
    flush_all()
    saved = os.dup(1)
    os.dup2(2, 1)
    previous = sys.stdout
    _RESULT_STREAM = open(saved, "w", encoding="utf-8", closefd=False)
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        flush_all()
        _RESULT_STREAM.flush()
        _RESULT_STREAM = None
        sys.stdout = previous
        os.dup2(saved, 1)
        os.close(saved)


def write_result(text: str) -> None:
    """The command's result (its JSON) on the real stdout."""
    stream = _RESULT_STREAM or sys.stdout
    stream.write(text)
    stream.flush()
