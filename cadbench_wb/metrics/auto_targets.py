# SPDX-License-Identifier: LGPL-2.1-or-later
"""Automatic case targets: the dimensions a drafter puts on a reference's drawing, each
bound to the reference faces that carry it.

Pure numpy on plain data (no FreeCAD). The drawing planner (drafting/plan.py, run on the
reference's TechDraw views by app/cases/auto.py) decides *what* is dimensioned; feature
recognition adds the sizes of each feature the views do not state (counterbores, slots,
bosses across flats). This module only says *where* each one sits on the solid: a planned
dimension names points of a view, and a view point is a model line along the view
direction, so a level of a length is the planes (or hole axes) at that coordinate, a hole
callout the cylinders of that size seen end-on, an angle the two planes seen edge-on.
Nothing here chooses a dimension: there is one planner.
"""

import numpy as np

from cadbench_wb import standard

# Model coordinates closer than this are one level (the planner's own level tolerance).
LEVEL_MM = standard.DRAWING["plan"]["level_tolerance_mm"]
# Directions this close (|cos|) are parallel; this far from it (|cos| below) perpendicular.
PARALLEL = 1 - 1e-6
PERPENDICULAR = 1e-6
RADIUS_REL = 1e-4
# Params measured from the feature to the surface it opens in or stands on (a depth, a
# height, a step's width to the edge): bound to the feature's faces and the planes its edges
# meet; every other param is bound to the feature's own faces (a slot's width is between
# its walls, never the plate's thickness it runs through).
TO_NEIGHBOURS = ("depth", "counterbore_depth", "height")
# Per feature type, the params that are a drafter's dimensions, and their kind.
FEATURE_PARAMS = {
    "hole": (
        ("diameter", "diameter"),
        ("counterbore_diameter", "diameter"),
        ("counterbore_depth", "length"),
        ("countersink_diameter", "diameter"),
        ("countersink_angle", "angle"),
        ("depth", "length"),
    ),
    "boss": (("diameter", "diameter"), ("length", "length"), ("width", "length")),
    "slot": (("width", "length"), ("length", "length"), ("depth", "length")),
    "pocket": (("length", "length"), ("width", "length"), ("depth", "length")),
    "step": (("width", "length"), ("height", "length")),
    "groove": (("width", "length"), ("depth", "length")),
    "fillet": (("radius", "radius"),),
    "chamfer": (("angle", "angle"),),
    "breakthrough": (("length", "length"), ("width", "length")),
    "thread": (("major_diameter", "diameter"),),
}


def _unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    n = np.linalg.norm(v)
    return v / n if n else v


def _direction(entry) -> np.ndarray:
    """The view direction: x cross y (TechDraw's y is the direction cross x)."""
    return _unit(np.cross(entry["x"], entry["y"]))


def _model_point(entry, point) -> np.ndarray:
    return (
        np.asarray(entry["origin"], float)
        + point[0] * np.asarray(entry["x"], float)
        + point[1] * np.asarray(entry["y"], float)
    )


class Binder:
    """Binds planned dimensions to faces of one reference (its located.Geometry)."""

    def __init__(self, geometry):
        self.g = geometry
        types = np.array(geometry.face_type, dtype=object)
        self.planes = np.flatnonzero(types == "plane")
        self.cylinders = np.flatnonzero(types == "cylinder")
        self.cones = np.flatnonzero(types == "cone")

    def bind(self, entry) -> tuple:
        """(sorted face indices, None) or (None, why no face carries it)."""
        family, role = entry["family"], entry["role"]
        if family == "length" and entry["key"][0] == "length":
            return self._length(entry)
        if family == "diameter" and role == "hole":
            return self._seen_end_on(entry, entry["value"] / 2, through_centre=False)
        if family == "diameter" and role == "shaft":
            return self._shaft(entry)
        if family == "diameter" and role == "pitch":
            return self._pitch(entry)
        if family == "radius":
            return self._seen_end_on(entry, entry["value"], through_centre=True)
        if family == "angle":
            return self._angle(entry)
        return None, f"a {role} {family} the planner offers only for a case's targets"

    def _cylinders_along(self, direction, radius) -> np.ndarray:
        g, rows = self.g, self.cylinders
        if not len(rows):
            return rows
        along = np.abs(g.face_dir[rows] @ direction) >= PARALLEL
        sized = np.abs(g.face_size[rows] - radius) <= RADIUS_REL * max(1.0, radius)
        return rows[along & sized]

    def _off_line(self, rows, point, direction) -> np.ndarray:
        """Distance of each cylinder's axis from the model line through point."""
        offsets = self.g.face_point[rows] - point
        return np.linalg.norm(offsets - np.outer(offsets @ direction, direction), axis=1)

    def _seen_end_on(self, entry, radius, through_centre):
        """A hole callout (NX Ø: every cylinder of that size along the view, the count the
        view shows) or a radius (the arc the planner drew: the cylinder on its centre)."""
        direction = _direction(entry)
        rows = self._cylinders_along(direction, radius)
        if through_centre and len(rows):
            on = np.zeros(len(rows), bool)
            for point in [entry["points"][0], *entry.get("arcs", [])]:
                centre = _model_point(entry, point)
                on |= self._off_line(rows, centre, direction) <= LEVEL_MM
            rows = rows[on]
        if not len(rows):
            return None, "no cylinder of that size seen end-on in the view"
        return sorted(int(r) for r in rows), None

    def _shaft(self, entry):
        direction = _direction(entry)
        g, rows = self.g, self.cylinders
        radius = entry["value"] / 2
        ok = (
            (np.abs(g.face_dir[rows] @ direction) <= PERPENDICULAR)
            & (np.abs(g.face_size[rows] - radius) <= RADIUS_REL * max(1.0, radius))
            & g.face_convex[rows]
        )
        found = rows[ok]
        if not len(found):
            return None, "no outer cylinder of that diameter"
        return sorted(int(r) for r in found), None

    def _pitch(self, entry):
        direction = _direction(entry)
        centre = _model_point(entry, entry["points"][0])
        pitch = entry["value"] / 2
        g, rows = self.g, self.cylinders
        along = rows[np.abs(g.face_dir[rows] @ direction) >= PARALLEL] if len(rows) else rows
        if not len(along):
            return None, "no hole axis on the pitch circle"
        on = np.abs(self._off_line(along, centre, direction) - pitch) <= LEVEL_MM
        found = along[on]
        if len(found) < 3:
            return None, "fewer than three hole axes on the pitch circle"
        return sorted(int(r) for r in found), None

    def _level(self, axis_name: str, coordinate: float) -> np.ndarray:
        """The faces that make a level of a length: planes square to the axis there, else
        hole or shaft axes there, else rounds whose far side is there."""
        e = np.zeros(3)
        e["xyz".index(axis_name)] = 1.0
        g = self.g
        if len(self.planes):
            rows = self.planes
            ok = (np.abs(g.face_dir[rows] @ e) >= PARALLEL) & (
                np.abs(g.face_point[rows] @ e - coordinate) <= LEVEL_MM
            )
            if np.any(ok):
                return rows[ok]
        round_rows = np.concatenate([self.cylinders, self.cones]).astype(np.int64)
        if not len(round_rows):
            return round_rows
        square = np.abs(g.face_dir[round_rows] @ e) <= PERPENDICULAR
        at_axis = np.abs(g.face_point[round_rows] @ e - coordinate) <= LEVEL_MM
        if np.any(square & at_axis):
            return round_rows[square & at_axis]
        offset = np.abs(g.face_point[round_rows] @ e - coordinate)
        convex = g.face_convex[round_rows]
        tangent = square & convex & (np.abs(offset - g.face_size[round_rows]) <= LEVEL_MM)
        return round_rows[tangent]

    def _length(self, entry):
        _, first, second = entry["key"]
        faces = []
        for axis_name, coordinate in (first, second):
            level = self._level(axis_name, coordinate)
            if not len(level):
                return None, f"no plane, axis or round at {axis_name} = {coordinate:g}"
            faces += level.tolist()
        return sorted(set(int(f) for f in faces)), None

    def _angle(self, entry):
        """The planes seen edge-on as the angle's two lines, else a cone's taper."""
        direction = _direction(entry)
        apex, *ends = (np.asarray(p, float) for p in entry["points"][:3])
        faces = []
        for end in ends[:2]:
            normal = _normal_3d(entry, _unit(end - apex))
            middle = _model_point(entry, (apex + end) / 2)
            found = self._planes_through(middle, normal)
            if not len(found):
                faces = []
                break
            faces += found.tolist()
        if faces:
            return sorted(set(int(f) for f in faces)), None
        g, rows = self.g, self.cones
        if len(rows):
            square = np.abs(g.face_dir[rows] @ direction) <= PERPENDICULAR
            half = np.abs(g.face_size[rows] - entry["value"] / 2) <= standard.ANGULAR_TOLERANCE_DEG
            if np.any(square & half):
                return sorted(int(r) for r in rows[square & half]), None
        return None, "no plane seen edge-on along the angle's lines, no cone of that taper"

    def _planes_through(self, point, normal) -> np.ndarray:
        g, rows = self.g, self.planes
        if not len(rows):
            return rows
        ok = (np.abs(g.face_dir[rows] @ normal) >= PARALLEL) & (
            np.abs((g.face_point[rows] - point) @ normal) <= LEVEL_MM
        )
        return rows[ok]


def _normal_3d(entry, line) -> np.ndarray:
    """The model normal of the plane a view line shows edge-on: square to the line, in
    the view's plane."""
    x, y = np.asarray(entry["x"], float), np.asarray(entry["y"], float)
    return _unit(-line[1] * x + line[0] * y)


def feature_faces(feature, geometry) -> list[int]:
    """A feature's own faces and the planes its edges meet (the face a hole opens in, a
    slot's floor level): what its depth and height are measured to."""
    own = {int(n[4:]) - 1 for n in feature.get("faces", []) if n.startswith("Face")}
    planes = {i for i, t in enumerate(geometry.face_type) if t == "plane"}
    neighbours = set()
    for faces in geometry.edge_faces:
        if own & set(faces):
            neighbours.update(f for f in faces if f in planes)
    return sorted(own | neighbours)


def feature_targets(features: list, geometry, areas=None) -> list[dict]:
    """Sizes of recognised features as targets {kind, value, faces, source}; equal
    features of one family (same type, kind, attributes, sizes, axis direction) are one
    pattern callout over all their faces ('4X Ø12'), as a drafter writes it. areas: the
    faces' areas (a round that is more than half a ball is sized by its diameter)."""
    groups = {}
    for feature in features:
        params = FEATURE_PARAMS.get(feature.get("type"), ())
        values = tuple(
            (name, kind, round(float(feature["params"][name]), 4))
            for name, kind in params
            if isinstance(feature.get("params", {}).get(name), (int, float))
            and feature["params"][name] > 0
        )
        if not values:
            continue
        axis = feature.get("axis") or (0, 0, 0)
        axis = tuple(abs(round(float(a), 3)) + 0.0 for a in axis)
        attributes = tuple(sorted((feature.get("attributes") or {}).items()))
        key = (feature["type"], feature.get("kind", ""), attributes, values, axis)
        groups.setdefault(key, []).append(feature)
    found = []
    for (ftype, kind, _attributes, values, _axis), members in groups.items():
        faces = sorted({f for m in members for f in feature_faces(m, geometry)})
        own = sorted({int(n[4:]) - 1 for m in members for n in m["faces"] if n[4:].isdigit()})
        ids = ", ".join(m["id"] for m in members)
        count = f"{len(members)}X " if len(members) > 1 else ""
        names = _param_names(ftype, kind, members[0])
        ball = _ball(members[0], geometry, areas)
        for name, dimension_kind, value in values:
            if ftype == "chamfer" and name == "angle" and value >= 180:
                continue
            if ball and name == "radius":
                # ASME Y14.5 and ISO 129: a sphere is sized SØ, a part of one (a ball
                # corner, a blend) SR; more than half a ball is a sphere (NIST FTC-06's
                # domes: SØ1.25 in its PMI).
                name, dimension_kind, value = "spherical diameter", "diameter", 2 * value
            label = f"{count}{ftype} {kind} {names.get(name, name)}".replace("  ", " ")
            to_neighbours = name in TO_NEIGHBOURS or (ftype == "step" and name == "width")
            found.append(
                {
                    "kind": dimension_kind,
                    "value": value,
                    "faces": faces if to_neighbours else own,
                    "own": own,
                    "count": len(members),
                    "source": f"feature {ids}: {label}",
                }
            )
    return found


def _ball(feature: dict, geometry, areas) -> bool:
    """Whether a round feature is more than half of one ball: its faces are spheres of one
    centre and radius whose areas add up to more than a hemisphere's."""
    own = [int(n[4:]) - 1 for n in feature.get("faces", []) if n[4:].isdigit()]
    if areas is None or not own or any(geometry.face_type[f] != "sphere" for f in own):
        return False
    radius = float(geometry.face_size[own[0]])
    centre = geometry.face_point[own[0]]
    if any(
        abs(float(geometry.face_size[f]) - radius) > RADIUS_REL * max(1.0, radius)
        or np.linalg.norm(geometry.face_point[f] - centre) > LEVEL_MM
        for f in own
    ):
        return False
    return sum(areas[f] for f in own) > 2 * np.pi * radius**2


def _param_names(ftype: str, kind: str, feature: dict) -> dict:
    """A drafter's words for a param: a hexagonal boss (six walls and a top) has its
    width across flats and its length across corners."""
    if ftype == "boss" and kind == "prismatic" and len(feature.get("faces", [])) == 7:
        return {"width": "across flats", "length": "across corners"}
    return {}


def covered(target: dict, chosen: list, geometry=None) -> bool:
    """Whether chosen targets already state this one: same kind, value within the default
    tolerance, on the faces that carry it. A round size (radius, diameter) is stated where
    the chosen targets of that value are bound to every face of the feature that has that
    size (a drawing's R3.17 seen on two corners of a pocket does not state the other two);
    another kind, or without geometry, where they share faces with the feature's own (not
    the planes it opens in: a slot's width is not the plate's thickness)."""
    tolerance = max(
        standard.LINEAR_TOLERANCE_ABS_MM, standard.LINEAR_TOLERANCE_REL * abs(target["value"])
    )
    if target["kind"] == "angle":
        tolerance = standard.ANGULAR_TOLERANCE_DEG
    faces = set(target.get("own") or target["faces"])
    same = [
        c
        for c in chosen
        if c["kind"] == target["kind"] and abs(c["value"] - target["value"]) <= tolerance
    ]
    carriers = _carriers(target, faces, geometry) if geometry is not None else set()
    if carriers:
        return carriers <= {f for c in same for f in c["faces"]}
    return any(faces & set(c["faces"]) for c in same)


def _carriers(target: dict, faces: set, geometry) -> set:
    """The faces among these whose own radius is the target's round size."""
    if target["kind"] not in ("radius", "diameter"):
        return set()
    radius = target["value"] / (2 if target["kind"] == "diameter" else 1)
    slack = RADIUS_REL * max(1.0, radius)
    return {
        f
        for f in faces
        if geometry.face_type[f] in ("cylinder", "sphere", "torus")
        and abs(float(geometry.face_size[f]) - radius) <= slack
    }


# The planner's roles a crowded sheet may leave out (the layout drops them first too):
# where a feature sits and how it is spaced. A feature's own size (a hole callout, an
# overall size, a radius, an angle) and a recognised feature's stay targets, shown or not.
SPARE_ROLES = ("position", "step", "pitch", "between", "datum", "edge", "obtuse", "fallback")


def drawing_target(entry: dict, faces: list[int]) -> dict:
    text = entry["text"]
    return {
        "kind": entry["family"],
        "value": round(float(entry["value"]), 6),
        "faces": faces,
        "count": entry.get("count", 1),
        "role": entry["role"],
        "source": f"drawing {entry['view']}: {text} ({entry['role']})",
    }
