# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which model formats cadbench reads, and a content sniff that needs no CAD kernel.

The sniff runs before any file reaches OpenCASCADE, so an empty file, a renamed archive
or a file of the wrong kind gets a named reason instead of a kernel error.
"""

import os
import zipfile

from cadbench_wb import standard
from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.inputs import checks as input_checks
from cadbench_wb.inputs import fcstd_archive

FORMATS = {
    ".fcstd": "fcstd",
    ".step": "step",
    ".stp": "step",
    ".brep": "brep",
    ".brp": "brep",
    ".iges": "iges",
    ".igs": "iges",
    ".stl": "stl",
    ".obj": "obj",
}

MESH_FORMATS = ("stl", "obj")


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
    problem = _content_problem(fmt, path, head)
    if problem:
        raise DeliveryFailure("unreadable_file", f"{_shown(path)}: {problem}")
    return fmt


def _shown(path: str) -> str:
    return input_checks.printable(path)


def _content_problem(fmt: str, path: str, head: bytes) -> str | None:
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if fmt == "fcstd":
        if not zipfile.is_zipfile(path):
            return "not a FreeCAD document (an FCStd is a zip archive)"
        # The archive's limits (members, names, inflated size) before anything is listed.
        with fcstd_archive.opened_archive(path) as archive:
            if "Document.xml" not in archive.namelist():
                return "zip archive without Document.xml: not a FreeCAD document"
        return None
    if fmt == "step" and not text.upper().startswith(b"ISO-10303-21"):
        return "does not start with ISO-10303-21: not a STEP file"
    if fmt == "brep" and b"CASCADE Topology" not in head and b"DBRep_DrawableShape" not in head:
        return "no 'CASCADE Topology' header: not an OpenCASCADE BREP file"
    if fmt == "iges" and len(text) < 80:
        return "too short for an IGES file"
    if fmt == "stl":
        return _stl_problem(path, text)
    if fmt == "obj" and b"\x00" in head:
        return "binary data in a Wavefront OBJ (a text format)"
    return None


def _stl_problem(path: str, text: bytes) -> str | None:
    size = os.path.getsize(path)
    if size >= 84:
        with open(path, "rb") as handle:
            handle.seek(80)
            count = int.from_bytes(handle.read(4), "little")
        if 84 + 50 * count == size:
            return None if count else "binary STL with no triangles"
    if text.lower().startswith(b"solid"):
        return None
    return "neither ASCII STL ('solid ...') nor a binary STL of consistent size"
