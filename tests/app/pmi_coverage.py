# SPDX-License-Identifier: LGPL-2.1-or-later
"""How many of a NIST part's semantic PMI dimensions an automatic case states, matched by
value *and* by the faces it is bound to (issue 29's bar: 80 % of those measurable on the
solid). The PMI (tools/nist_pmi.py --all) names, per dimension, the faces or the edges,
axis lines and gauge circles it is attached to; here they are found on the solid by their
geometry alone (same surface, same edge ends), with no cadbench code.

A PMI dimension is *measurable on the solid* when each of its aspects is faces of the
solid, an edge between them or a line that is a cylinder's axis. One attached to
construction geometry only (a gauge line on a dovetail's flank, a gauge circle on a cone)
is reported with the reason and counted apart.

A size (diameter, radius, width) is stated when the targets of that kind and value
(within the target's tolerance) are bound to every face of its aspect that carries that
kind (cylinders for a diameter or radius, spheres for a spherical one); a location (linear
distance) when one length target of that value is bound to faces of both its aspects.
"""

import numpy as np

PLACE_MM = 0.01  # a PMI point and a model point are one within this (far below any gap)
RADIUS_MM = 1e-4
KINDS = {
    "diameter": ("diameter", ("Part::GeomCylinder",), 0.5),
    "spherical diameter": ("diameter", ("Part::GeomSphere",), 0.5),
    "radius": ("radius", ("Part::GeomCylinder",), 1.0),
    "spherical radius": ("radius", ("Part::GeomSphere",), 1.0),
    "size": ("length", (), 1.0),
    "thickness": ("length", (), 1.0),
}


SHAPES_OF = (("line", "line"), ("circle", "gauge circle"))


def _parallel(a, b) -> bool:
    return abs(abs(float(np.dot(a, b))) - 1) < 1e-6


def _on_axis(surface, point, axis) -> bool:
    """Whether a surface of revolution turns about the PMI's axis line (point, axis)."""
    direction = np.array(surface.Axis)
    offset = point - np.array(surface.Center)
    return _parallel(direction, axis) and np.linalg.norm(np.cross(offset, direction)) < PLACE_MM


def _surface_faces(shape, surface) -> list[int]:
    point, axis = np.array(surface["point"]), np.array(surface["axis"])
    found = []
    for index, face in enumerate(shape.Faces):
        own = face.Surface
        kind = surface["type"]
        if kind == "plane" and own.TypeId == "Part::GeomPlane":
            normal = np.array(own.Axis)
            if (
                _parallel(normal, axis)
                and abs((point - np.array(own.Position)) @ normal) < PLACE_MM
            ):
                found.append(index)
        elif kind == "cylinder" and own.TypeId == "Part::GeomCylinder":
            if abs(own.Radius - surface["radius"]) <= RADIUS_MM and _on_axis(own, point, axis):
                found.append(index)
        elif kind == "sphere" and own.TypeId == "Part::GeomSphere":
            centre = np.array(own.Center)
            if (
                np.linalg.norm(point - centre) < PLACE_MM
                and abs(own.Radius - surface["radius"]) < RADIUS_MM
            ):
                found.append(index)
        elif kind in ("cone", "torus") and own.TypeId in ("Part::GeomCone", "Part::GeomToroid"):
            if _on_axis(own, point, axis):
                found.append(index)
    return found


def _edge_faces(shape, ends) -> list[int]:
    """The faces on either side of the solid's edge with these two end points."""
    ends = [np.array(p) for p in ends]
    found = set()
    for edge in shape.Edges:
        points = [np.array(v.Point) for v in edge.Vertexes]
        if len(points) == 2 and all(
            min(np.linalg.norm(p - q) for q in points) < PLACE_MM for p in ends
        ):
            found.update(
                index
                for index, face in enumerate(shape.Faces)
                if any(edge.isSame(e) for e in face.Edges)
            )
    return sorted(found)


def _axis_faces(shape, line, radius=None) -> list[int]:
    """The cylinders whose axis is this line (and of this radius, when given)."""
    point, direction = np.array(line["point"]), np.array(line["direction"])
    found = []
    for index, face in enumerate(shape.Faces):
        own = face.Surface
        if own.TypeId != "Part::GeomCylinder" or not _parallel(np.array(own.Axis), direction):
            continue
        if radius is not None and abs(own.Radius - radius) > RADIUS_MM:
            continue
        offset = point - np.array(own.Center)
        if np.linalg.norm(np.cross(offset, np.array(own.Axis))) < PLACE_MM:
            found.append(index)
    return found


def aspect_faces(shape, aspect) -> tuple:
    """(face indices of the solid, why not measurable or None)."""
    faces = set()
    for surface in aspect["surfaces"]:
        matched = _surface_faces(shape, surface) if surface["type"] != "other" else []
        if not matched:
            return [], f"no face of the solid is its {surface['type']}"
        faces.update(matched)
    for item in aspect["other"]:
        if item["type"] == "EDGE_CURVE":
            matched = _edge_faces(shape, item["points"])
        elif "line" in item:
            matched = _axis_faces(shape, item["line"])  # a hole's or a boss's axis
        elif "circle" in item:
            circle = item["circle"]  # a hole's or a boss's rim
            line = {"point": circle["centre"], "direction": circle["axis"]}
            matched = _axis_faces(shape, line, circle["radius"])
        else:
            matched = []
        if not matched and item["type"] != "EDGE_CURVE":
            # A gauge line or circle, or a placement (NIST FTC-08: a coordinate system).
            shape_of = next((n for k, n in SHAPES_OF if k in item), item["type"])
            return [], f"attached to a construction {shape_of}, not to faces of the solid"
        if not matched:
            return [], "no edge of the solid has its end points"
        faces.update(matched)
    return sorted(faces), None


def coverage(case, shape, pmi: list, bindings: list) -> list[dict]:
    """Per PMI dimension: {entity, kind, value, measurable, why, stated}. bindings:
    location.bindings_of(case, shape) (the faces each target is bound to)."""
    faces_of = {
        d.id: set(b.get("faces") or ()) for d, b in zip(case.dimensions, bindings, strict=True)
    }
    rows = []
    for item in pmi:
        aspects, why = [], None
        for aspect in item["aspects"]:
            faces, why = aspect_faces(shape, aspect)
            if why:
                break
            aspects.append(set(faces))
        row = {"entity": item["entity"], "kind": item["kind"], "value": item["value"]}
        row.update(measurable=why is None, why=why, stated=False)
        if why is None:
            row["stated"] = _stated(case, faces_of, shape, item, aspects)
        rows.append(row)
    return rows


def _close(dimension, value) -> bool:
    return abs(dimension.value - value) <= dimension.tolerance


def _stated(case, faces_of, shape, item, aspects) -> bool:
    if item["kind"] in KINDS or len(aspects) != 2:
        kind, carriers, _ = KINDS.get(item["kind"], ("angle", (), 1.0))
        needed = {
            f for f in aspects[0] if not carriers or shape.Faces[f].Surface.TypeId in carriers
        }
        bound = set()
        for d in case.dimensions:
            if d.kind == kind and _close(d, item["value"]):
                bound |= faces_of[d.id]
        return bool(needed) and needed <= bound
    first, second = aspects
    kind = "angle" if "angle" in item["kind"] else "length"  # angular or linear location
    return any(
        d.kind == kind
        and _close(d, item["value"])
        and faces_of[d.id] & first
        and faces_of[d.id] & second
        for d in case.dimensions
    )
