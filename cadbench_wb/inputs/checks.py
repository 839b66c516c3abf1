# SPDX-License-Identifier: LGPL-2.1-or-later
r"""Checks on what the operator and the candidate hand in, made before any work starts.

Pure standard library (no FreeCAD, no YAML): the front doors call these in the parent and
the readers call them again in the child, so that a file that cannot be read, a special
file, a path that leaves its case folder or a meaningless option gets a named reason
instead of a traceback, a hang or the wrong party's blame.

- A path is looked at with ``os.stat`` before anything opens it: a FIFO would block an
  ``open`` for ever (and the stall would be blamed on whatever stage ran before), a device
  can be endless, a socket cannot be opened at all. Only regular files are opened, and
  then with O_NONBLOCK and a second check of the opened descriptor, so that a file swapped
  for a FIFO between the two looks is still refused.
- File names are bytes on Linux: Python carries a byte that is not UTF-8 as a lone
  surrogate (PEP 383, surrogateescape). ``printable()`` turns such a name into the
  documented escaped form ``\xHH`` (each undecodable byte) so that every JSON cadbench
  writes is valid UTF-8.
"""

import argparse
import math
import os
import stat

from cadbench_wb import standard

# File kinds by what os.stat says, for the one-line reason of a refused special file.
_SPECIAL_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


class FileProblem(Exception):
    """Why a path cannot be read as a file. ``kind`` is one of ``missing`` (nothing
    there), ``special`` (a folder, FIFO, device or socket: refused without opening it) or
    ``unreadable`` (the OS refuses to open it: permission, a symlink loop, ...)."""

    def __init__(self, kind: str, path: str, detail: str):
        super().__init__(f"{printable(path)}: {detail}")
        self.kind, self.path, self.detail = kind, path, detail


def os_reason(exc: OSError) -> str:
    """The OS's own words for a failed call ('Permission denied'), never a traceback."""
    return exc.strerror or type(exc).__name__


def _kind_of(mode: int) -> str | None:
    for test, name in _SPECIAL_KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def checked_file(path: str) -> os.stat_result:
    """The stat of a regular file that this process can open; raises FileProblem.

    The file is opened (non-blocking) and closed again, so that 'Permission denied' is
    found here, with the OS's reason, rather than deep inside a reader."""
    handle = open_regular(path)
    try:
        return os.fstat(handle.fileno())
    finally:
        handle.close()


def open_regular(path: str):
    """A binary file object of a regular file, opened without ever blocking on a FIFO or
    a device; raises FileProblem (missing, special, unreadable)."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        raise FileProblem("missing", path, "no such file") from None
    except OSError as exc:  # a symlink loop, a name too long, a folder we may not enter
        raise FileProblem("unreadable", path, f"cannot be read ({os_reason(exc)})") from None
    kind = _kind_of(found.st_mode)
    if kind is not None:
        raise FileProblem("special", path, f"is {kind}, not a file: refused without opening it")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise FileProblem("unreadable", path, f"cannot be read ({os_reason(exc)})") from None
    opened = os.fstat(fd)
    kind = _kind_of(opened.st_mode)
    if kind is not None:  # swapped between the stat and the open
        os.close(fd)
        raise FileProblem("special", path, f"is {kind}, not a file: refused")
    return os.fdopen(fd, "rb")


def inside_folder(folder: str, relative: str) -> str | None:
    """The real path of ``relative`` under ``folder`` if it stays inside the folder once
    every symlink is resolved (os.path.realpath), else None. A symlink in a case folder
    that points outside it is refused like a literal '../' path."""
    if os.path.isabs(relative) or ".." in relative.replace("\\", "/").split("/"):
        return None
    root = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(folder, relative))
    if os.path.commonpath([root, target]) != root:
        return None
    return target


def printable(text: str) -> str:
    r"""text with every undecodable file-name byte (a lone surrogate from surrogateescape)
    written as ``\xHH``, and any other lone surrogate as ``\udXXX``: valid UTF-8."""
    if not isinstance(text, str):
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte (U+D800...)
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def kernel_safe_name(path: str) -> bool:
    """Whether a path can be handed to FreeCAD/OpenCASCADE, which take file names as
    UTF-8 text: a name with undecodable bytes cannot (it is read through a symlink)."""
    try:
        path.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


# --- command-line option types (argparse: a bad value is a usage error, exit 2) ---


def timeout_seconds(text: str) -> float:
    """--timeout: a finite number of seconds from standard.MIN_TIMEOUT_S to MAX_TIMEOUT_S."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give the time limit in seconds, a finite number above 0"
        )
    if value < standard.MIN_TIMEOUT_S:
        raise argparse.ArgumentTypeError(
            f"{text!r}: at least {standard.MIN_TIMEOUT_S} s: a scoring process needs about a "
            "second to start before it reads any model (standard.MIN_TIMEOUT_S)"
        )
    if value > standard.MAX_TIMEOUT_S:
        raise argparse.ArgumentTypeError(
            f"{text!r}: at most {standard.MAX_TIMEOUT_S} s (a week) per scoring"
        )
    return value


def memory_megabytes(text: str) -> int:
    """--memory-mb: whole MB from standard.MIN_MEMORY_MB to standard.MAX_MEMORY_MB."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give the memory limit in whole MB") from None
    if value > standard.MAX_MEMORY_MB:
        raise argparse.ArgumentTypeError(
            f"{value} MB: at most {standard.MAX_MEMORY_MB} MB (4 TiB) per scoring process"
        )
    if value < standard.MIN_MEMORY_MB:
        raise argparse.ArgumentTypeError(
            f"{value} MB: the scoring process needs at least {standard.MIN_MEMORY_MB} MB "
            "(numpy, FreeCAD and OpenBLAS' buffer, and the scoring of a bundled case: standard.py)"
        )
    return value


def add_limit_arguments(parser, each: str = "") -> None:
    """--timeout and --memory-mb, validated as above, for every command that scores in a
    child; EACH says what one limit covers ("per job")."""
    parser.add_argument(
        "--timeout",
        type=timeout_seconds,
        default=None,
        help=f"seconds{each} (default {standard.DEFAULT_TIMEOUT_S})",
    )
    parser.add_argument(
        "--memory-mb",
        type=memory_megabytes,
        default=None,
        help=f"memory limit{each} (default {standard.DEFAULT_MEMORY_MB}, "
        f"at least {standard.MIN_MEMORY_MB})",
    )


def output_file(text: str) -> str:
    """--json PATH: '-' (stdout), or a file in a folder that exists (found out before the
    scoring, not after it when the result is to be written)."""
    if text == "-":
        return text
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"{printable(text)!r}: no folder {printable(folder)!r}")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{printable(text)!r} is a folder, not a file name")
    return text


# Dask's communication schemes (distributed.comm registry): anything else cannot connect.
DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


def dask_address(text: str) -> str:
    """--scheduler: SCHEME://HOST:PORT with a scheme Dask knows, or HOST:PORT (tcp)."""
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in DASK_SCHEMES:
        raise argparse.ArgumentTypeError(
            f"{printable(text)!r}: unknown scheme {scheme!r}; a Dask scheduler address is "
            f"{'|'.join(DASK_SCHEMES)}://HOST:PORT, e.g. tcp://10.0.0.5:8786"
        )
    if not rest.strip() or rest.startswith(":"):
        raise argparse.ArgumentTypeError(f"{printable(text)!r}: no host in the address")
    return text
