# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which model formats cadbench reads, and a content sniff that needs no CAD kernel.

The sniff runs before any file reaches OpenCASCADE, so an empty file, a renamed archive
or a file of the wrong kind gets a named reason instead of a kernel error.

TABLE is the one list of formats: a format's name, its extensions and its sniff. Each
format's reader is its line in app/loading.py's LOADERS, keyed by the same name (a test
checks that the two tables name the same formats).
"""

import dataclasses
import os
from collections.abc import Callable

from cadbench_wb import standard
from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.inputs import checks as input_checks


@dataclasses.dataclass(frozen=True)
class Format:
    """One model format: its name (the result's `found.format`), its file extensions
    (lower case, with the dot), and why a file's first 512 bytes are not of this format
    (problem(path, head) -> a sentence, or None when they look right)."""

    name: str
    extensions: tuple[str, ...]
    problem: Callable[[str, bytes], str | None]
    mesh: bool = False


def _text(head: bytes) -> bytes:
    """The first bytes without a UTF-8 byte order mark and leading white space."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")


def _fcstd_problem(path: str, head: bytes) -> str | None:
    # Here: zipfile (and its bz2, lzma) is no cost of a job that reads no FCStd file.
    import zipfile  # noqa: PLC0415 - FCStd files only

    from cadbench_wb.inputs import fcstd_archive  # noqa: PLC0415 - FCStd files only

    if not zipfile.is_zipfile(path):
        return "not a FreeCAD document (an FCStd is a zip archive)"
    # The archive's limits (members, names, inflated size) before anything is listed.
    with fcstd_archive.opened_archive(path) as archive:
        if "Document.xml" not in archive.namelist():
            return "zip archive without Document.xml: not a FreeCAD document"
    return None


def _step_problem(path: str, head: bytes) -> str | None:
    if not _text(head).upper().startswith(b"ISO-10303-21"):
        return "does not start with ISO-10303-21: not a STEP file"
    return None


def _brep_problem(path: str, head: bytes) -> str | None:
    if b"CASCADE Topology" not in head and b"DBRep_DrawableShape" not in head:
        return "no 'CASCADE Topology' header: not an OpenCASCADE BREP file"
    return None


def _iges_problem(path: str, head: bytes) -> str | None:
    return "too short for an IGES file" if len(_text(head)) < 80 else None


def _stl_problem(path: str, head: bytes) -> str | None:
    size = os.path.getsize(path)
    if size >= 84:
        with open(path, "rb") as handle:
            handle.seek(80)
            count = int.from_bytes(handle.read(4), "little")
        if 84 + 50 * count == size:
            return None if count else "binary STL with no triangles"
    if _text(head).lower().startswith(b"solid"):
        return None
    return "neither ASCII STL ('solid ...') nor a binary STL of consistent size"


def _obj_problem(path: str, head: bytes) -> str | None:
    return "binary data in a Wavefront OBJ (a text format)" if b"\x00" in head else None


# Adding a format: its line here (name, extensions, sniff) and its loader in app/loading.py.
TABLE = (
    Format("fcstd", (".fcstd",), _fcstd_problem),
    Format("step", (".step", ".stp"), _step_problem),
    Format("brep", (".brep", ".brp"), _brep_problem),
    Format("iges", (".iges", ".igs"), _iges_problem),
    Format("stl", (".stl",), _stl_problem, mesh=True),
    Format("obj", (".obj",), _obj_problem, mesh=True),
)
BY_NAME = {fmt.name: fmt for fmt in TABLE}
# Extension -> format name, for what only sorts files by kind (campaigns, the GUI's lists).
FORMATS = {extension: fmt.name for fmt in TABLE for extension in fmt.extensions}
MESH_FORMATS = tuple(fmt.name for fmt in TABLE if fmt.mesh)


def format_of(path: str) -> str:
    """The format name of a model file, from its extension."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        known = ", ".join(sorted(FORMATS))
        raise DeliveryFailure(
            "unsupported_format",
            f"{os.path.basename(path)}: extension {ext or '(none)'!r} "
            f"is not a model format cadbench reads ({known})",
        )
    return FORMATS[ext]


def checked_format(path: str) -> str:
    """The format of a candidate file after checking it exists, is a regular file this
    process may read (looked at by type before any open: a FIFO or a device is refused
    unopened), has bytes and looks right."""
    try:
        handle = input_checks.open_regular(path)
    except input_checks.FileProblem as problem:
        if problem.kind == "missing":
            raise DeliveryFailure("missing_candidate", str(problem)) from None
        raise DeliveryFailure("unreadable_file", str(problem)) from None
    with handle:
        fmt = format_of(path)
        size = os.fstat(handle.fileno()).st_size
        if size == 0:
            raise DeliveryFailure("empty_file", f"{_shown(path)}: the file has 0 bytes")
        if size > standard.CANDIDATE_MAX_BYTES:
            raise DeliveryFailure(
                "too_large",
                f"{_shown(path)}: {size} bytes > {standard.CANDIDATE_MAX_BYTES} (standard."
                "INPUT_SIZE candidate_max_bytes): refused by its size, unread",
            )
        try:
            head = handle.read(512)
        except OSError as exc:  # EIO, EISDIR on odd file systems
            raise DeliveryFailure(
                "unreadable_file", f"{_shown(path)}: cannot be read ({exc.strerror})"
            ) from None
    problem = BY_NAME[fmt].problem(path, head)
    if problem:
        raise DeliveryFailure("unreadable_file", f"{_shown(path)}: {problem}")
    return fmt


def _shown(path: str) -> str:
    return input_checks.printable(path)
