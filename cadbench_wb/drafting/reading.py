# SPDX-License-Identifier: LGPL-2.1-or-later
"""Opening a DXF drawing, or saying in one named reason why it cannot be opened.

DWG has no open reader on these machines (ODA's converter is proprietary, LibreDWG is not
packaged), so only DXF is accepted; a DWG renamed .dxf is recognised by its signature and
named as such. Binary DXF is DXF (AutoCAD writes it with DXFOUT's binary option) and ezdxf
reads it, so it is accepted and reported as binary.
"""

import logging
import os

from cadbench_wb.errors import CadbenchError

# Reasons a file cannot be read as a drawing (dxf-check reports them as its failure).
UNREADABLE_REASONS = (
    "missing_file",
    "empty_file",
    "dwg_not_dxf",
    "not_dxf",
    "truncated_dxf",
    "unreadable_dxf",
    "empty_model_space",
)
BINARY_DXF_SENTINEL = b"AutoCAD Binary DXF\r\n\x1a\x00"


class DrawingUnreadable(CadbenchError):
    """The file cannot be read as a DXF drawing; ``reason`` is one of UNREADABLE_REASONS."""

    exit_status = 2

    def __init__(self, reason: str, detail: str):
        if reason not in UNREADABLE_REASONS:
            raise ValueError(f"unknown reason {reason!r}")
        super().__init__(detail, reason)


def quiet_ezdxf() -> None:
    """ezdxf logs warnings about copies and unknown objects; the JSON says what matters."""
    logging.getLogger("ezdxf").setLevel(logging.ERROR)


def file_format(path: str) -> str:
    """'ascii', 'binary', 'dwg', 'empty' or 'other', from the first bytes only."""
    with open(path, "rb") as handle:
        head = handle.read(32)
    if not head:
        return "empty"
    if head.startswith(BINARY_DXF_SENTINEL):
        return "binary"
    if head[:4] == b"AC10" and head[4:6].isdigit():
        return "dwg"
    try:
        head.decode("ascii")
    except UnicodeDecodeError:
        # DXF is text; a UTF-8 BOM or an 8-bit comment may still open it: let ezdxf decide.
        return "ascii" if head.lstrip(b"\xef\xbb\xbf").lstrip()[:1].isdigit() else "other"
    return "ascii"


def _ends_with_eof(path: str, binary: bool) -> bool:
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        handle.seek(max(0, size - 64))
        tail = handle.read()
    if binary:
        return b"EOF\x00" in tail
    return tail.rstrip().endswith(b"EOF")


def read_drawing(path: str, *, require_model_space: bool = True):
    """The ezdxf document of a DXF file; raises DrawingUnreadable with the reason."""
    import ezdxf  # noqa: PLC0415 - heavy, only when a drawing is read
    from ezdxf.lldxf.const import DXFError  # noqa: PLC0415

    quiet_ezdxf()
    if not os.path.isfile(path):
        raise DrawingUnreadable("missing_file", f"{path}: no such file")
    kind = file_format(path)
    if kind == "empty":
        raise DrawingUnreadable("empty_file", f"{path}: the file is empty")
    if kind == "dwg":
        with open(path, "rb") as handle:
            version = handle.read(6).decode("ascii", "replace")
        raise DrawingUnreadable(
            "dwg_not_dxf",
            f"{path}: a DWG file ({version}) named .dxf; no open DWG reader is installed "
            "here, export the drawing as DXF",
        )
    if kind == "other":
        raise DrawingUnreadable("not_dxf", f"{path}: binary data that is not DXF")
    if kind == "ascii" and not ezdxf.is_dxf_file(path):
        raise DrawingUnreadable("not_dxf", f"{path}: text that does not start like DXF")
    if not _ends_with_eof(path, kind == "binary"):
        raise DrawingUnreadable("truncated_dxf", f"{path}: the file ends before its EOF marker")
    try:
        doc = ezdxf.readfile(path)
    except OSError as exc:
        raise DrawingUnreadable("not_dxf", f"{path}: {exc}") from None
    except (DXFError, UnicodeDecodeError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise DrawingUnreadable("unreadable_dxf", f"{path}: {type(exc).__name__}: {exc}") from None
    if require_model_space and len(doc.modelspace()) == 0:
        raise DrawingUnreadable("empty_model_space", f"{path}: model space holds no entities")
    return doc
