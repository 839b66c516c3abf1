# SPDX-License-Identifier: LGPL-2.1-or-later
"""Why a target is not measurable on the reference: the reason an inspector would give.

Pure numpy. Asked only for targets seed 000's spectrum does not hold on the reference, in
this order (the first that applies): the case says why; a thread callout (a cosmetic
thread has no thread surface); a value the drawing rounds beyond the tolerance; a depth or
width that ends on an edge or a point (vertices, no face); a position of an axis (the
extended spectrum holds it; the closer of the two explanations wins); a length along a curve; a radius where the
model has a sharp corner; otherwise no face pair, surface or edge of that size.
"""

import math
import re

import numpy as np

from cadbench_wb import standard
from cadbench_wb.geometry import spectrum_geometry as geo

CODES = (
    "declared",
    "cosmetic_thread",
    "rounded_beyond_tolerance",
    "axis_or_point",
    "depth_to_edge",
    "between_edges",
    "along_curve",
    "sharp_corner",
    "no_face_pair",
    "no_surface",
)
_THREAD = re.compile(r"(\bM\d+(\.\d+)?\s*[xX×]|\bM\d+\b|thread|\bUNC\b|\bUNF\b|\bTHD\b)", re.I)
# A nearest value within this many tolerances reads as the drawing rounding the model.
ROUNDING_TOLERANCES = 3.0


def reason_of(dimension, spectrum, geometry, extended=None, cosmetic_diameters=()) -> dict:
    """{code, text} for a target the reference's spectrum does not hold. extended: a
    callable giving the extended spectrum (measured only when an axis might explain it)."""
    declared = (dimension.geometry or {}).get("none")
    if declared:
        return _reason("declared", declared)
    value, tol, kind = dimension.value, dimension.tolerance, dimension.kind
    callout = f"{dimension.source} {dimension.note}"
    thread_size = any(abs(2 * value - 2 * d) <= 2 * tol for d in cosmetic_diameters)
    if kind in ("diameter", "length") and (_THREAD.search(callout) or thread_size):
        return _reason(
            "cosmetic_thread",
            "a thread callout: the model carries the thread as a cosmetic one (a plain hole "
            "or shaft), so no thread surface states this size",
        )
    nearest = spectrum.nearest(kind, value)
    if nearest is not None and abs(nearest.value - value) <= ROUNDING_TOLERANCES * tol:
        return _reason(
            "rounded_beyond_tolerance",
            f"the nearest {kind} ({nearest.source} {', '.join(nearest.geometry)}) is "
            f"{nearest.value:.6g}, {abs(nearest.value - value):.4g} off: beyond the tolerance "
            f"{tol:.4g} (the drawing rounds the model's value)",
        )
    if kind == "length":
        return _length_reason(value, tol, spectrum, geometry, extended)
    if kind == "radius":
        return _reason(
            "sharp_corner",
            f"no face or edge of radius {value:g}{_nearest_text(nearest)}: a sharp corner "
            "where the drawing gives a radius",
        )
    if kind == "diameter":
        return _reason(
            "no_surface",
            f"no cylinder, sphere or circle of diameter {value:g}{_nearest_text(nearest)}",
        )
    return _reason("no_face_pair", f"no two faces or cone at {value:g} deg{_nearest_text(nearest)}")


def _length_reason(value, tol, spectrum, geometry, extended) -> dict:
    vertex = _vertex_distance(value, tol, geometry)
    hit = extended().closest("length", value, tol) if extended is not None else None
    axis = hit is not None and hit.source.startswith("axis")
    # The closer explanation wins; on a tie the axis (equal holes' seam vertices repeat
    # their centres' spacing exactly, so an axis distance always has a vertex twin).
    if vertex is not None and not (axis and abs(hit.value - value) <= vertex[0] + 1e-9):
        return vertex[1]
    if axis:
        return _reason(
            "axis_or_point",
            f"measured from an axis (a hole's centre line), not between faces: only the "
            f"extended spectrum holds it ({hit.source} {', '.join(hit.geometry)})",
        )
    circles = [
        (geometry.edge_size[i], i)
        for i, t in enumerate(geometry.edge_type)
        if t == "circle" and abs(2 * math.pi * geometry.edge_size[i] - value) <= tol
    ]
    if circles:
        return _reason(
            "along_curve",
            f"a length along a curve (the circumference of Edge{circles[0][1] + 1}, "
            f"radius {circles[0][0]:g}): no straight edge or face pair",
        )
    nearest = spectrum.nearest("length", value)
    return _reason(
        "no_face_pair",
        f"no face pair or straight edge at {value:g}{_nearest_text(nearest)}",
    )


def _vertex_distance(value, tol, geometry) -> tuple | None:
    """(deviation, reason): a plane to a vertex (a depth ending on an edge), or two vertices
    (a width between edges), along a plane direction of the part, measuring the target."""
    planes = [i for i, t in enumerate(geometry.face_type) if t == "plane"]
    if not planes or not len(geometry.vertices):
        return None
    normals = geometry.face_dir[planes]
    _, reps, _ = geo.direction_groups(normals)
    same = standard.SPECTRUM["same_level_mm"] * 1000
    vertices = _off_axis(geometry, same)
    best = None  # (deviation, code, direction): the closest explanation wins
    for direction in reps:
        on_direction = np.abs(np.abs(normals @ direction) - 1) < 1e-9
        plane_levels = np.unique(np.round(geometry.face_point[planes][on_direction] @ direction, 6))
        vertex_levels = np.unique(np.round(vertices @ direction, 6))
        if not len(vertex_levels):
            continue
        # Vertices that lie in no plane of this direction end a dimension on an edge.
        free = vertex_levels[np.min(np.abs(vertex_levels[:, None] - plane_levels[None]), 1) > same]
        if not len(free):
            continue
        for code, distances in (
            ("depth_to_edge", np.abs(free[:, None] - plane_levels[None])),
            ("between_edges", np.abs(free[:, None] - free[None])),
        ):
            deviation = float(np.min(np.abs(distances - value)))
            if deviation <= tol and (best is None or deviation < best[0] - 1e-9):
                best = (deviation, code, direction)
    if best is None:
        return None
    deviation, code, direction = best
    if code == "depth_to_edge":
        return deviation, _reason(
            code,
            "a depth ending on an edge or a point (a drill point, a notch's bottom): from a "
            f"face to an edge along {_direction_text(direction)}, no face pair",
        )
    return deviation, _reason(
        code, f"between two edges, not faces, along {_direction_text(direction)}: no face pair"
    )


def _off_axis(geometry, same: float) -> np.ndarray:
    """The vertices that lie on no axis of a cylinder or cone: a drill point's tip is a
    point of the hole's axis (an axis position), not an edge a depth could end on."""
    axial = [i for i, t in enumerate(geometry.face_type) if t in ("cylinder", "cone")]
    vertices = geometry.vertices
    if not axial or not len(vertices):
        return vertices
    keep = np.ones(len(vertices), bool)
    for i in axial:
        offset = vertices - geometry.face_point[i]
        along = offset @ geometry.face_dir[i]
        radial = np.linalg.norm(offset - np.outer(along, geometry.face_dir[i]), axis=1)
        keep &= radial > same
    return vertices[keep]


def _direction_text(direction) -> str:
    return "(" + ", ".join(f"{x:.3g}" for x in direction) + ")"


def _nearest_text(nearest) -> str:
    return "" if nearest is None else f" (nearest {nearest.value:.6g})"


def _reason(code: str, text: str) -> dict:
    return {"code": code, "text": text}
