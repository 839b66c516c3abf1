# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read a NIST AP242 file's semantic PMI: each diameter callout's nominal value and the
holes it is attached to (the cylinders' axes), written as a small JSON for the tests.

The PMI is NIST's own association of a dimension with the faces that carry it, made with
the part in the CAD system: an independent truth for located recall (which faces carry a
target). Read as plain STEP text (entity graph), no CAD kernel:
DIMENSIONAL_CHARACTERISTIC_REPRESENTATION -> DIMENSIONAL_SIZE (kind 'diameter') -> its
SHAPE_ASPECT (a COMPOSITE_GROUP_SHAPE_ASPECT's members through SHAPE_ASPECT_RELATIONSHIP)
-> GEOMETRIC_ITEM_SPECIFIC_USAGE -> ADVANCED_FACE -> CYLINDRICAL_SURFACE -> its axis point.
The nominal value is the SHAPE_DIMENSION_REPRESENTATION's 'nominal value' measure.

    python3 tools/nist_pmi.py SOURCE.stp OUT.json [--all] [--unit-mm 25.4]

--all writes every dimensional characteristic (diameters, radii, spherical sizes, linear
distances, thicknesses) with the faces, edges, axis lines and gauge circles each is
attached to (dimensions_of). Units are read from the file (the nominal value's unit and
the geometric context's length unit, 25.4 for an inch); --unit-mm and --geometry-unit-mm
override them (FTC-07 and FTC-08 state no geometric unit context that this reads:
--geometry-unit-mm 25.4). tests/data/nist/PROVENANCE.md names the sources.
"""

import argparse
import json
import re
import sys

ENTITY = re.compile(r"#(\d+)\s*=\s*(.*?);\s*(?=#\d+\s*=|ENDSEC)", re.S)
REFERENCE = re.compile(r"#(\d+)")
NUMBER = re.compile(r"[-+]?\d+\.?\d*(?:[eE][-+]?\d+)?")


def entities_of(text: str) -> dict:
    return {int(m.group(1)): m.group(2).replace("\n", "") for m in ENTITY.finditer(text)}


def _refs(body: str) -> list[int]:
    return [int(x) for x in REFERENCE.findall(body)]


def _users(entities: dict) -> dict:
    users = {}
    for key, body in entities.items():
        for ref in _refs(body):
            users.setdefault(ref, []).append(key)
    return users


def _aspects(entities, users, aspect: int) -> list[int]:
    """The aspect and, for a composite group, its members (related aspects)."""
    found = [aspect]
    for user in users.get(aspect, []):
        body = entities[user]
        if body.startswith("SHAPE_ASPECT_RELATIONSHIP"):
            related = _refs(body)[1]
            if related != aspect:
                found += _aspects(entities, users, related)
    return found


def _faces(entities, users, aspect: int) -> list[int]:
    faces = []
    for item in _aspects(entities, users, aspect):
        for user in users.get(item, []):
            body = entities[user]
            if body.startswith("GEOMETRIC_ITEM_SPECIFIC_USAGE"):
                faces += [r for r in _refs(body) if entities[r].startswith("ADVANCED_FACE")]
    return faces


def _axis_point(entities, face: int, unit: float):
    """The cylinder's axis point and direction of an ADVANCED_FACE (None for other kinds)."""
    surface = _refs(entities[face])[-1]
    if not entities[surface].startswith("CYLINDRICAL_SURFACE"):
        return None
    placement = entities[_refs(entities[surface])[0]]
    point, direction = (entities[r] for r in _refs(placement)[:2])
    xyz = [float(v) * unit for v in NUMBER.findall(point.split("(", 2)[2])[:3]]
    axis = [float(v) for v in NUMBER.findall(direction.split("(", 2)[2])[:3]]
    radius = float(NUMBER.findall(entities[surface].rsplit(",", 1)[1])[0]) * unit
    return {
        "point": [round(v, 6) for v in xyz],
        "axis": [round(v, 9) for v in axis],
        "radius": round(radius, 6),
    }


SURFACES = {
    "PLANE": "plane",
    "CYLINDRICAL_SURFACE": "cylinder",
    "CONICAL_SURFACE": "cone",
    "SPHERICAL_SURFACE": "sphere",
    "TOROIDAL_SURFACE": "torus",
}


def _surface_of(entities, face: int, unit: float):
    """{type, point, axis[, radius]} of an ADVANCED_FACE's surface: its placement's
    location and axis, and for a cylinder or sphere its radius (None for other surfaces)."""
    surface = _refs(entities[face])[-1]
    body = entities[surface]
    kind = next((v for k, v in SURFACES.items() if body.startswith(k + "(")), None)
    if kind is None:
        return None
    placement = entities[_refs(body)[0]]
    point, direction = (entities[r] for r in _refs(placement)[:2])
    found = {
        "type": kind,
        "point": [round(float(v) * unit, 6) for v in NUMBER.findall(point.split("(", 2)[2])[:3]],
        "axis": [round(float(v), 9) for v in NUMBER.findall(direction.split("(", 2)[2])[:3]],
    }
    if kind in ("cylinder", "sphere"):
        found["radius"] = round(float(NUMBER.findall(body.rsplit(",", 1)[1])[0]) * unit, 6)
    return found


def _aspect_of(entities, users, aspect: int, unit: float) -> dict:
    """{surfaces: the faces' surfaces, other: the entity types of the other items it names
    (a TRIMMED_CURVE axis line, a COMPOSITE_CURVE gauge circle, an EDGE_CURVE)}."""
    surfaces, other = [], []
    for item in _aspects(entities, users, aspect):
        for user in users.get(item, []):
            if not entities[user].startswith("GEOMETRIC_ITEM_SPECIFIC_USAGE"):
                continue
            for ref in _refs(entities[user])[2:]:
                if entities[ref].startswith("ADVANCED_FACE"):
                    surface = _surface_of(entities, ref, unit)
                    surfaces.append(surface or {"type": "other"})
                elif not entities[ref].startswith(("SHAPE_REPRESENTATION", "REPRESENTATION")):
                    other.append(_curve_of(entities, ref, unit))
    return {"surfaces": surfaces, "other": other}


def _point(entities, ref: int, unit: float) -> list:
    body = entities[ref]
    return [round(float(v) * unit, 6) for v in NUMBER.findall(body.split("(", 2)[2])[:3]]


def _curve_of(entities, ref: int, unit: float) -> dict:
    """An item that is not a face: an EDGE_CURVE's end points, a TRIMMED_CURVE's line
    (point, direction) or a COMPOSITE_CURVE's circle (centre, axis, radius)."""
    body = entities[ref]
    kind = body.split("(", 1)[0]
    found = {"type": kind}
    if kind == "EDGE_CURVE":
        found["points"] = [_point(entities, _refs(entities[v])[0], unit) for v in _refs(body)[:2]]
        return found
    curve = ref
    while entities[curve].startswith(("COMPOSITE_CURVE", "TRIMMED_CURVE")):
        curve = _refs(entities[curve])[0]
    body = entities[curve]
    if body.startswith("LINE"):
        point, vector = _refs(body)[:2]
        found["line"] = {
            "point": _point(entities, point, unit),
            "direction": _point(entities, _refs(entities[vector])[0], 1.0),
        }
    elif body.startswith("CIRCLE"):
        placement = _refs(body)[0]
        centre, axis = _refs(entities[placement])[:2]
        found["circle"] = {
            "centre": _point(entities, centre, unit),
            "axis": _point(entities, axis, 1.0),
            "radius": round(float(NUMBER.findall(body.rsplit(",", 1)[1])[0]) * unit, 6),
        }
    return found


def dimensions_of(text: str, unit: float, geometry_unit: float) -> list[dict]:
    """Every dimensional characteristic of the PMI, in file order: [{entity, kind, value,
    aspects: [{surfaces, other}, ...]}], one aspect for a size (a diameter, a radius, a
    width), two for a location (a linear distance from the first to the second). unit:
    mm per PMI length unit; geometry_unit: mm per unit of the solid's points."""
    entities = entities_of(text)
    users = _users(entities)
    found = []
    for key in sorted(entities):
        body = entities[key]
        if not body.startswith("DIMENSIONAL_CHARACTERISTIC_REPRESENTATION"):
            continue
        characteristic, representation = _refs(body)[:2]
        head = entities[characteristic]
        kind = re.findall(r"'([^']*)'", head)[0]
        aspects = _refs(head)[:1] if head.startswith("DIMENSIONAL_SIZE") else _refs(head)[:2]
        measures = [entities[r] for r in _refs(entities[representation])]
        nominal = next(m for m in measures if "'nominal value'" in m)
        number = NUMBER.findall(nominal.split("_MEASURE(", 1)[1])[0]
        value = float(number) * (1.0 if "PLANE_ANGLE" in nominal else unit)
        found.append(
            {
                "entity": key,
                "kind": kind,
                "value": round(value, 6),
                "aspects": [_aspect_of(entities, users, a, geometry_unit) for a in aspects],
            }
        )
    return found


def diameters_of(text: str, unit: float) -> list[dict]:
    """[{value, faces: [{point, axis, radius}]}] per diameter callout, in file order."""
    entities = entities_of(text)
    users = _users(entities)
    callouts = []
    for key in sorted(entities):
        body = entities[key]
        if not body.startswith("DIMENSIONAL_CHARACTERISTIC_REPRESENTATION"):
            continue
        size, representation = _refs(body)[:2]
        if not entities[size].startswith("DIMENSIONAL_SIZE") or "'diameter'" not in entities[size]:
            continue
        measures = [entities[r] for r in _refs(entities[representation])]
        nominal = next(m for m in measures if "'nominal value'" in m)
        value = float(NUMBER.findall(nominal.split("LENGTH_MEASURE(", 1)[1])[0]) * unit
        faces = _faces(entities, users, _refs(entities[size])[0])
        cylinders = [c for c in (_axis_point(entities, f, unit) for f in faces) if c]
        callouts.append({"entity": key, "value": round(value, 6), "cylinders": cylinders})
    return callouts


def _mm_of(entities, unit: int) -> float | None:
    body = entities[unit]
    if "LENGTH_UNIT" not in body:
        return None
    if "'INCH'" in body.upper():
        return 25.4
    if "'MILLIMETRE'" in body.upper() or ".MILLI.,.METRE." in body:
        return 1.0
    if "SI_UNIT($,.METRE.)" in body:
        return 1000.0
    return None


def units_of(text: str) -> tuple:
    """(mm per PMI length unit, mm per unit of the solid): the unit of the first nominal
    value's measure and the length unit of the first GLOBAL_UNIT_ASSIGNED_CONTEXT."""
    entities = entities_of(text)
    geometry = next(
        (
            mm
            for key in sorted(entities)
            if "GLOBAL_UNIT_ASSIGNED_CONTEXT(" in entities[key]
            for ref in _refs(entities[key].split("GLOBAL_UNIT_ASSIGNED_CONTEXT(", 1)[1])
            if (mm := _mm_of(entities, ref)) is not None
        ),
        1.0,
    )
    value = next(
        (
            mm
            for key in sorted(entities)
            if "'nominal value'" in entities[key] and "LENGTH_MEASURE(" in entities[key]
            if (mm := _mm_of(entities, _refs(entities[key].split("LENGTH_MEASURE(", 1)[1])[0]))
            is not None
        ),
        geometry,
    )
    return value, geometry


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--unit-mm", type=float, help="mm per PMI length unit (default: read)")
    parser.add_argument("--geometry-unit-mm", type=float, help="mm per solid unit (default: read)")
    parser.add_argument(
        "--all", action="store_true", help="every dimensional characteristic, not diameters"
    )
    args = parser.parse_args(argv)
    with open(args.source, encoding="latin-1") as handle:
        text = handle.read()
    source = args.source.rsplit("/", 1)[-1]
    value_unit, geometry_unit = units_of(text)
    value_unit = value_unit if args.unit_mm is None else args.unit_mm
    geometry_unit = geometry_unit if args.geometry_unit_mm is None else args.geometry_unit_mm
    if args.all:
        data = {"source": source, "dimensions": dimensions_of(text, value_unit, geometry_unit)}
    else:
        data = {"source": source, "diameters": diameters_of(text, value_unit)}
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
        handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
