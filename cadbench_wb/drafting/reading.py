# SPDX-License-Identifier: LGPL-2.1-or-later
"""Opening a DXF drawing, or saying in one named reason why it cannot be opened.

DWG has no open reader on these machines (ODA's converter is proprietary, LibreDWG is not
packaged), so only DXF is accepted; a DWG renamed .dxf is recognised by its signature and
named as such. Binary DXF is DXF (AutoCAD writes it with DXFOUT's binary option) and ezdxf
reads it, so it is accepted and reported as binary.
"""

import logging
import math
import os

from cadbench_wb import standard
from cadbench_wb.errors import CadbenchError
from cadbench_wb.inputs import checks as input_checks

# Reasons a file cannot be read as a drawing (dxf-check reports them as its failure).
UNREADABLE_REASONS = (
    "missing_file",
    # A special file (FIFO, device, folder, socket; refused unopened) or one the OS will not
    # let this process read (the detail gives the OS's reason).
    "unreadable_file",
    "empty_file",
    "dwg_not_dxf",
    "not_dxf",
    "truncated_dxf",
    "unreadable_dxf",
    "empty_model_space",
    # Blocks placing blocks deeper than standard.DXF_MAX_BLOCK_DEPTH (measured iteratively
    # before anything follows the references recursively).
    "blocks_too_deep",
    # A coordinate, radius or other number that is NaN or infinite: nothing can be measured;
    # or beyond standard.DXF_MAX_COORDINATE, where differences overflow.
    "non_finite_coordinates",
    "coordinates_out_of_range",
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
    from ezdxf.lldxf.const import DXFError  # noqa: PLC0415 - heavy: loaded on first use

    quiet_ezdxf()
    try:
        input_checks.checked_file(path)  # by type before any open: a FIFO would block
    except input_checks.FileProblem as problem:
        reason = "missing_file" if problem.kind == "missing" else "unreadable_file"
        raise DrawingUnreadable(reason, str(problem)) from None
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
    depth = block_depth(doc)
    if depth > standard.DXF_MAX_BLOCK_DEPTH:
        raise DrawingUnreadable(
            "blocks_too_deep",
            f"{path}: blocks nest {depth} levels deep, more than "
            f"{standard.DXF_MAX_BLOCK_DEPTH} (standard.DXF_MAX_BLOCK_DEPTH)",
        )
    found = first_bad_number(doc)
    if found:
        reason, where = found
        what = {
            "non_finite_coordinates": "a NaN or infinite number",
            "coordinates_out_of_range": f"a number beyond +-{standard.DXF_MAX_COORDINATE:g} "
            "(standard.DXF_MAX_COORDINATE)",
        }[reason]
        raise DrawingUnreadable(reason, f"{path}: {where} holds {what}")
    return doc


def _layouts(doc) -> list:
    return [doc.modelspace(), *(layout for layout in doc.layouts if not layout.is_modelspace)]


def block_depth(doc) -> int:
    """The longest chain of block references in the drawing (model space placing a block of
    lines: 1), through every block definition, placed or not (ezdxf's audit follows them
    all); found iteratively, a reference cycle counted once."""
    inserted: dict[str, set] = {}
    for block in doc.blocks:
        inserted[block.name] = {i.dxf.name for i in block.query("INSERT")}
    depth: dict[str, int] = {}
    for name in inserted:
        stack, on_path = [(name, False)], set()
        while stack:
            current, finished = stack.pop()
            if finished:
                on_path.discard(current)
                children = [c for c in inserted.get(current, ()) if c in depth]
                depth[current] = 1 + max((depth[c] for c in children), default=0)
                continue
            if current in depth or current in on_path:
                continue  # measured, or a cycle (ezdxf's audit reports it)
            on_path.add(current)
            stack.append((current, True))
            stack.extend((c, False) for c in inserted.get(current, ()) if c not in depth)
    # depth counts blocks along the longest chain; the references between them are one
    # fewer (model and paper space are blocks too: *Model_Space placing B is one level).
    return max((d - 1 for d in depth.values()), default=0)


def _numbers(value):
    """The floats inside a DXF attribute value (a number, a Vec2/Vec3, a tuple of them)."""
    if isinstance(value, float):
        yield value
    elif isinstance(value, (tuple, list)) or hasattr(value, "__iter__") and hasattr(value, "x"):
        for item in value:
            yield from _numbers(item)


def _point_lists(entity):
    """Coordinates an entity keeps outside its DXF attributes (polyline points, spline
    control points, mesh and leader vertices)."""
    kind = entity.dxftype()
    if kind == "LWPOLYLINE":
        yield from entity.get_points("xyseb")
    elif kind == "SPLINE":
        yield from entity.control_points
        yield from entity.fit_points
        yield entity.knots()
        yield entity.weights()
    elif kind in ("MESH", "LEADER"):
        yield from entity.vertices
    elif kind == "POLYLINE":
        for vertex in entity.vertices:
            yield from (v for v in vertex.dxf.all_existing_dxf_attribs().values())
    elif kind == "INSERT":
        for attrib in entity.attribs:
            yield from attrib.dxf.all_existing_dxf_attribs().values()


def first_bad_number(doc) -> tuple[str, str] | None:
    """(reason, 'LINE #1A') of the first entity (model or paper space, or a block) with a
    NaN, an infinite or an out-of-range number among its coordinates, or None."""
    for layout in [*_layouts(doc), *doc.blocks]:
        for entity in layout:
            values = list(entity.dxf.all_existing_dxf_attribs().values())
            try:
                values.extend(_point_lists(entity))
            except (AttributeError, TypeError, ValueError):
                pass  # an entity ezdxf cannot list points of is judged by its attributes
            numbers = [x for value in values for x in _numbers(value)]
            where = f"{entity.dxftype()} #{entity.dxf.get('handle', '?')}"
            if not all(math.isfinite(x) for x in numbers):
                return "non_finite_coordinates", where
            if any(abs(x) > standard.DXF_MAX_COORDINATE for x in numbers):
                return "coordinates_out_of_range", where
    return None
