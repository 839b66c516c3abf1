# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a pick in the 3D view measures, for authoring a case's target dimensions.

Given a shape and the sub-elements an author picked (``Edge3``, ``Face1``+``Face5``,
two cylinders, two vertices), the measurement a drawing would state. The scorer's own
spectrum (app/dimensions/spectrum.py) is asked first, so a picked dimension is one the scorer can
find, and it says in which spectrum mode (default, or extended for axis positions). Picks
the spectrum does not hold (two vertices, a free edge) are measured directly and declared
``none``: the author is told the scorer cannot re-measure them. FreeCAD layer: imports
Part and TechDraw only, never the GUI.
"""

import itertools
import math
import re

import numpy as np
import Part

from cadbench_wb.app.dimensions import location
from cadbench_wb.app.dimensions.spectrum import spectrum_of
from cadbench_wb.case_model import cases
from cadbench_wb.metrics import dimension_matching as dims

# Planes closer to parallel than this (degrees) are parallel: they give a distance.
PARALLEL_DEG = 1e-6
# A circle or cylinder sweeping at least this much of 360 degrees is full: a diameter.
FULL_TURN_DEG = 359.999
MODES = ("default", "extended")

# TechDraw dimension types and the kind each gives in a case.
TECHDRAW_KINDS = {
    "Distance": "length",
    "DistanceX": "length",
    "DistanceY": "length",
    "Radius": "radius",
    "Diameter": "diameter",
    "Angle": "angle",
    "Angle3Pt": "angle",
}
_NAME = re.compile(r"^(Edge|Face|Vertex)(\d+)$")


def spectra_of(shape) -> dict:
    """{mode: Spectrum} of a reference, both modes (compute once per reference)."""
    return {mode: spectrum_of(shape, mode) for mode in MODES}


def spectrum_picks(spectra: dict, names: list[str]) -> list[dict]:
    """{kind, value, source, spectrum} of every spectrum measurement made of exactly the
    picked sub-elements, in the first mode that has any (a full circle is both a
    diameter and a radius in the spectrum)."""
    wanted = sorted(names)
    parsed = [_NAME.match(n) for n in names]
    if not all(parsed):
        return []
    kinds = [m.group(1) for m in parsed]
    indices = [int(m.group(2)) - 1 for m in parsed]
    for mode in MODES:
        found = []
        for block in spectra[mode].blocks:
            row = _row_of(block, wanted, kinds, indices)
            if row is not None:
                value = float(block.values[row])
                found.append(
                    {
                        "kind": block.family,
                        "value": value,
                        "source": "+".join(names),
                        "spectrum": mode,
                    }
                )
        if found:
            return found
    return []


def _row_of(block, wanted, kinds, indices) -> int | None:
    if block.names is not None:
        return next((r for r, n in enumerate(block.names) if sorted(n) == wanted), None)
    if len(block.elements) != len(kinds) or block.indices is None:
        return None
    for order in itertools.permutations(range(len(kinds))):
        if any(block.elements[c] != kinds[o] for c, o in enumerate(order)):
            continue
        hit = np.ones(len(block.values), bool)
        for column, o in enumerate(order):
            hit &= block.indices[:, column] == indices[o]
        if hit.any():
            return int(np.argmax(hit))
    return None


def spectrum_declarations(spectra: dict, dimensions: list) -> list[str]:
    """Per case Dimension: 'default', 'extended' or 'none', the mode that measures it on
    the reference (what case.yaml's ``spectrum:`` must declare)."""
    declared = []
    for dimension in dimensions:
        found = [m for m in MODES if dims.match(dimension, spectra[m]) is not None]
        declared.append(found[0] if found else "none")
    return declared


def measurement_of(shape, names: list[str], spectra: dict | None = None) -> dict | None:
    """{kind, value, source, spectrum} of the picked sub-elements, or None when the pick
    gives no dimension a drawing would state (a free curve, two skew faces, ...)."""
    direct = _direct_measurement(shape, names)
    found = spectrum_picks(spectra, names) if spectra is not None else []
    if found:
        # What a drawing states decides among the spectrum's readings: a full circle is
        # dimensioned by its diameter, an arc by its radius.
        preferred = [f for f in found if direct and f["kind"] == direct[0]]
        measured = (preferred or found)[0]
    elif direct is not None and direct[1] > 0:
        measured = {"kind": direct[0], "value": direct[1], "source": "+".join(names)}
    else:
        return None
    measured["spectrum"] = None
    if spectra is not None:
        # Declared by value, as `cadbench case verify` checks it.
        target = cases.Dimension("pick", measured["kind"], measured["value"])
        measured["spectrum"] = spectrum_declarations(spectra, [target])[0]
    return measured


def _direct_measurement(shape, names: list[str]):
    """(kind, value) of the picked sub-elements by their geometry alone, or None."""
    elements = [shape.getElement(name) for name in names]
    kinds = [name.rstrip("0123456789") for name in names]
    measured = None
    if kinds == ["Edge"]:
        measured = _edge(elements[0])
    elif kinds == ["Face"]:
        measured = _face(elements[0])
    elif kinds == ["Face", "Face"]:
        measured = _face_pair(*elements)
    elif kinds == ["Vertex", "Vertex"]:
        measured = ("length", elements[0].Point.distanceToPoint(elements[1].Point))
    elif kinds == ["Edge", "Edge"]:
        measured = _edge_pair(*elements)
    return measured


def _edge(edge):
    curve = edge.Curve
    if isinstance(curve, Part.Line):
        return "length", edge.Length
    if isinstance(curve, Part.Circle):
        sweep = math.degrees(edge.LastParameter - edge.FirstParameter)
        if sweep >= FULL_TURN_DEG:
            return "diameter", 2 * curve.Radius
        return "radius", curve.Radius
    return None


def _face(face):
    surface = face.Surface
    u0, u1, _, _ = face.ParameterRange
    full = math.degrees(u1 - u0) >= FULL_TURN_DEG
    if isinstance(surface, Part.Cylinder):
        return ("diameter", 2 * surface.Radius) if full else ("radius", surface.Radius)
    if isinstance(surface, Part.Sphere):
        return "diameter", 2 * surface.Radius
    if isinstance(surface, Part.Toroid):
        return "radius", surface.MinorRadius  # a fillet: its rounding radius
    if isinstance(surface, Part.Cone):
        return "angle", 2 * abs(math.degrees(surface.SemiAngle))  # SemiAngle can be negative
    return None


def _face_pair(a, b):
    if not (isinstance(a.Surface, Part.Plane) and isinstance(b.Surface, Part.Plane)):
        return None
    na = _outward_normal(a)
    nb = _outward_normal(b)
    between = math.degrees(na.getAngle(nb))
    if min(between, 180 - between) <= PARALLEL_DEG:
        return "length", abs((b.CenterOfMass - a.CenterOfMass).dot(na))
    return "angle", min(between, 180.0 - between)  # the acute side, as a slope is stated


def _edge_pair(a, b):
    if isinstance(a.Curve, Part.Line) and isinstance(b.Curve, Part.Line):
        da, db = a.Curve.Direction, b.Curve.Direction
        if da.cross(db).Length < math.radians(PARALLEL_DEG):
            return "length", a.distToShape(b)[0]
        return "angle", math.degrees(da.getAngle(db))
    return None


def _outward_normal(face):
    u0, u1, v0, v1 = face.ParameterRange
    return face.normalAt((u0 + u1) / 2, (v0 + v1) / 2)


def techdraw_dimensions(page) -> list[dict]:
    """{kind, value, source} of every dimension on a TechDraw page, in model units.

    Reads getRawValue() (what the dimension measures), not the printed text: headless
    FreeCAD 0.20 prints no number (see FREECAD_NOTES.md)."""
    found = []
    for view in page.Views:
        if view.TypeId != "TechDraw::DrawViewDimension":
            continue
        kind = TECHDRAW_KINDS.get(view.Type)
        value = view.getRawValue()
        if kind is None or not value > 0:
            continue
        found.append({"kind": kind, "value": value, "source": f"TechDraw {view.Label}"})
    return found


def place_binding(shape, names: list) -> dict | None:
    """The place form of a binding to picked faces (case.yaml ``geometry: {at: ...}``): per
    face its centre of mass projected on the face, with the faces' common normal (planes)
    or axis (cylinders, cones, tori). None when a pick is not a face, or when the place does
    not name exactly the picked faces again (a point on a shared edge with no direction to
    settle it): the author then binds by hand, or keeps the inferred binding."""
    faces = []
    for name in names:
        match = _NAME.match(name)
        if not match or match.group(1) != "Face" or int(match.group(2)) > len(shape.Faces):
            return None
        faces.append(int(match.group(2)) - 1)
    if not faces:
        return None
    binding = {"at": [_on_face(shape.Faces[f]) for f in faces]}
    direction = _common_direction([shape.Faces[f] for f in faces])
    if direction is not None:
        binding[direction[0]] = direction[1]
    dimension = cases.Dimension("pick", "length", 1.0)
    try:
        resolved = location.resolved_place(dimension, binding, shape)
    except location.BindingInvalid:
        return None
    return binding if resolved["faces"] == set(faces) else None


def _on_face(face) -> list:
    """The face's centre of mass, projected on the face (a hole's centre lies on its axis,
    off the face; an L-shaped face's may lie outside it)."""
    point = face.distToShape(Part.Vertex(face.CenterOfMass))[1][0][0]  # (on face, on vertex)
    return [_rounded(v) for v in point]


def _common_direction(faces):
    """("normal", n) for parallel planes, ("axis", a) for parallel axes, else None."""
    if all(f.Surface.TypeId == "Part::GeomPlane" for f in faces):
        vectors, key = [f.normalAt(0, 0) for f in faces], "normal"
    elif all(f.Surface.TypeId != "Part::GeomPlane" and hasattr(f.Surface, "Axis") for f in faces):
        vectors, key = [f.Surface.Axis for f in faces], "axis"
    else:
        return None
    first = np.array(vectors[0], float)
    first /= np.linalg.norm(first)
    cosine = math.cos(math.radians(PARALLEL_DEG))
    if any(abs(np.dot(first, np.array(v, float)) / np.linalg.norm(v)) < cosine for v in vectors):
        return None
    return key, [_rounded(v) for v in first]


def _rounded(value: float) -> float:
    """6 decimals (a nanometre is far inside the 0.05 mm the place is resolved within);
    -0.0 written as 0."""
    return round(float(value), 6) + 0.0
