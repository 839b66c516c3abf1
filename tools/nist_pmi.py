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

    python3 tools/nist_pmi.py SOURCE.stp OUT.json --unit-mm 25.4

(tests/data/nist/PROVENANCE.md names the source; the part files are inch designs, so
values and points are multiplied by 25.4 to be in the millimetres OpenCASCADE reads.)
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--unit-mm", type=float, default=1.0, help="mm per file length unit")
    args = parser.parse_args(argv)
    with open(args.source, encoding="latin-1") as handle:
        callouts = diameters_of(handle.read(), args.unit_mm)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump({"source": args.source.rsplit("/", 1)[-1], "diameters": callouts}, handle,
                  indent=1, sort_keys=True)  # fmt: skip
        handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
