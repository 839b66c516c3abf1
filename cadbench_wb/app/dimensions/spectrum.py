# SPDX-License-Identifier: LGPL-2.1-or-later
"""The measurement spectrum of a solid: every quantity a drawing could state about it.

Seed 000's definition (mode "default"): straight edge lengths and distances between
parallel planar faces (family length); diameters and radii of cylinders, circles, arcs
and spheres, and the minor radius of tori (fillets); angles between planar faces and the
half and full angles of cones. Hole-axis positions have no pair of faces, so they are not
measured in this mode (seed 000: 14 of 17 for its bearing block).

Mode "extended" adds what needs an axis: axis-to-face distances (and the tangent of a
convex cylinder beyond its axis, e.g. the overall height over a round top), axis-to-axis
distances (straight and along each plane direction) and bolt-circle diameters; and a
drilled blind hole's depth, from the face it opens in to the rim of its drill point (ASME
Y14.5 and ISO 129 state it there, not to the point's tip; no pair of planes carries it).

Every measurement names the sub-elements it comes from (``Face3``, ``Edge7``) so the GUI
can select them. Work stays near-linear: planes are bucketed by normal direction and only
levels of one direction are paired (pruned beyond a count, geometry/spectrum_geometry.py).
"""

import math

import numpy as np
import Part

from cadbench_wb import standard
from cadbench_wb.geometry import spectrum_geometry as geo
from cadbench_wb.metrics.dimension_matching import Block, Spectrum

HOLE_AXIS_MM = standard.SPECTRUM["hole_axis_mm"]


def spectrum_of(shape, mode: str = "default", diagonal: float | None = None) -> Spectrum:
    """The typed measurements of a shape (one solid or a compound of solids). diagonal:
    the shape's diagonal_of when already known (the tight box is the costliest step)."""
    if mode not in ("default", "extended"):
        raise ValueError(f"unknown spectrum mode {mode!r}")
    parts = _Parts(shape)
    blocks = parts.edge_blocks() + parts.curved_face_blocks()
    planes = parts.plane_groups()
    blocks += parts.plane_distance_blocks(planes)
    blocks += parts.angle_blocks(planes)
    if mode == "extended":
        blocks += parts.axis_blocks(planes)
        blocks += parts.hole_depth_blocks()
    return Spectrum(blocks, mode, diagonal_of(shape) if diagonal is None else diagonal)


def diagonal_of(shape) -> float:
    """The tight bounding-box diagonal (OCC's plain BoundBox is loose around tori)."""
    box = shape.optimalBoundingBox() if hasattr(shape, "optimalBoundingBox") else shape.BoundBox
    return float(box.DiagonalLength)


def _vec(v) -> tuple:
    return (v.x, v.y, v.z)


def _block(family, source, values, elements, indices) -> Block:
    values = np.asarray(values, float)
    indices = np.asarray(indices, np.int64).reshape(len(values), len(elements))
    # Degenerate pieces (a cone's apex circle, a sliver edge) state no dimension.
    keep = values > standard.SPECTRUM["same_level_mm"]
    return Block(family, source, values[keep], tuple(elements), indices[keep])


class _Parts:
    """The faces and edges of one shape, classified once."""

    def __init__(self, shape):
        self.Part = Part
        self.shape = shape
        self.faces = shape.Faces
        self.edges = shape.Edges
        self.min_sweep = math.radians(standard.SPECTRUM["diameter_min_sweep_deg"])

    # -- edges -----------------------------------------------------------------------------
    def edge_blocks(self) -> list:
        lengths, length_idx, radii, radius_idx, diameters, diameter_idx = [], [], [], [], [], []
        for index, edge in enumerate(self.edges):
            try:
                curve = edge.Curve
            except TypeError:  # curve types Part cannot wrap (offset curves): not measured
                continue
            if isinstance(curve, self.Part.Line):
                lengths.append(edge.Length)
                length_idx.append(index)
            elif isinstance(curve, self.Part.Circle):
                radii.append(curve.Radius)
                radius_idx.append(index)
                first, last = edge.ParameterRange
                if last - first >= self.min_sweep:
                    diameters.append(2 * curve.Radius)
                    diameter_idx.append(index)
        return [
            _block("length", "edge_length", lengths, ("Edge",), length_idx),
            _block("radius", "circle", radii, ("Edge",), radius_idx),
            _block("diameter", "circle", diameters, ("Edge",), diameter_idx),
        ]

    # -- curved faces ------------------------------------------------------------------------
    def curved_face_blocks(self) -> list:
        rows = {key: ([], []) for key in _CURVED_SOURCES}
        self.axes = []  # (centre, direction, face index, radius or None, convex)
        for index, face in enumerate(self.faces):
            surface = _surface(face)
            if isinstance(surface, self.Part.Cylinder):
                u0, u1, _, _ = face.ParameterRange
                _add(rows, "cylinder_radius", surface.Radius, index)
                if u1 - u0 >= self.min_sweep:
                    _add(rows, "cylinder_diameter", 2 * surface.Radius, index)
                convex = _is_convex(face, surface)
                self.axes.append(
                    (_vec(surface.Center), _vec(surface.Axis), index, surface.Radius, convex)
                )
            elif isinstance(surface, self.Part.Cone):
                half = abs(math.degrees(surface.SemiAngle))  # OCC reports it signed
                _add(rows, "cone_half_angle", half, index)
                _add(rows, "cone_full_angle", 2 * half, index)
                self.axes.append((_vec(surface.Apex), _vec(surface.Axis), index, None, False))
            elif isinstance(surface, self.Part.Sphere):
                _add(rows, "sphere_radius", surface.Radius, index)
                _add(rows, "sphere_diameter", 2 * surface.Radius, index)
            elif isinstance(surface, self.Part.Toroid):
                _add(rows, "torus_minor_radius", surface.MinorRadius, index)
        return [
            _block(_CURVED_SOURCES[key][0], _CURVED_SOURCES[key][1], values, ("Face",), idx)
            for key, (values, idx) in rows.items()
        ]

    # -- planes ------------------------------------------------------------------------------
    def plane_groups(self) -> list:
        """Per parallel direction: (direction, level values, first face per level, faces)."""
        normals, points, indices = [], [], []
        for index, face in enumerate(self.faces):
            surface = _surface(face)
            if isinstance(surface, self.Part.Plane):
                normals.append(_vec(surface.Axis))
                points.append(_vec(surface.Position))
                indices.append(index)
        if not indices:
            return []
        normals = np.array(normals)
        normals /= np.linalg.norm(normals, axis=1)[:, None]
        points = np.array(points)
        indices = np.array(indices, np.int64)
        labels, reps, _ = geo.direction_groups(normals)
        groups = []
        for group, direction in enumerate(reps):
            members = indices[labels == group]
            offsets = points[labels == group] @ direction
            values, first = geo.levels(offsets, members)
            groups.append((direction, values, first, members))
        return groups

    def plane_distance_blocks(self, groups) -> list:
        values, pairs = [], []
        for _, levels, first, _ in groups:
            i, j = geo.level_pairs(len(levels))
            values.append(levels[j] - levels[i])
            pairs.append(np.stack([first[i], first[j]], axis=1))
        if not values:
            return []
        return [
            _block(
                "length",
                "face_distance",
                np.concatenate(values),
                ("Face", "Face"),
                np.concatenate(pairs),
            )
        ]

    def angle_blocks(self, groups) -> list:
        """Angles between plane directions: each pair gives the angle and its supplement
        (a drawing may state the acute or the obtuse side of a slope)."""
        m = len(groups)
        if m < 2:
            return []
        directions = np.array([g[0] for g in groups])
        representative = np.array([int(np.min(g[3])) for g in groups])
        if m <= standard.SPECTRUM["angle_all_pairs_max"]:
            i, j = np.triu_indices(m, k=1)
        else:
            i, j = self._pruned_direction_pairs(groups)
        acute = geo.unsigned_angles_deg(directions[i], directions[j])
        keep = acute > math.degrees(standard.SPECTRUM["parallel_rad"])
        i, j, acute = i[keep], j[keep], acute[keep]
        obtuse = 180.0 - acute
        right = np.isclose(acute, 90.0, rtol=0, atol=1e-9)
        values = np.concatenate([acute, obtuse[~right]])
        faces = np.stack([representative[i], representative[j]], axis=1)
        faces = np.concatenate([faces, faces[~right]])
        return [_block("angle", "face_angle", values, ("Face", "Face"), faces)]

    def _pruned_direction_pairs(self, groups):
        """Many directions: angles of adjacent faces, and of every direction against the
        largest-area directions (the datum planes a drawing measures slopes from)."""
        group_of_face = {}
        for g, (_, _, _, members) in enumerate(groups):
            for face in members.tolist():
                group_of_face[face] = g
        faces_of_edge: dict[int, set] = {}
        for face in group_of_face:
            for edge in self.faces[face].Edges:
                faces_of_edge.setdefault(edge.hashCode(), set()).add(group_of_face[face])
        pairs = set()
        for owners in faces_of_edge.values():
            owners = sorted(owners)
            pairs.update((a, b) for k, a in enumerate(owners) for b in owners[k + 1 :])
        areas = np.array([sum(self.faces[f].Area for f in g[3].tolist()) for g in groups])
        datums = np.argsort(-areas, kind="stable")[: standard.SPECTRUM["angle_datum_directions"]]
        for datum in datums.tolist():
            pairs.update((min(datum, g), max(datum, g)) for g in range(len(groups)) if g != datum)
        pairs = np.array(sorted(pairs), np.int64).reshape(-1, 2)
        return pairs[:, 0], pairs[:, 1]

    # -- extended: axes ----------------------------------------------------------------------
    def axis_blocks(self, plane_groups) -> list:
        if not self.axes:
            return []
        centres = np.array([a[0] for a in self.axes])
        directions = np.array([a[1] for a in self.axes])
        directions /= np.linalg.norm(directions, axis=1)[:, None]
        labels, reps, _ = geo.direction_groups(directions)
        blocks = []
        for group, direction in enumerate(reps):
            members = np.flatnonzero(labels == group)
            axes = self._distinct_axes(members, centres, direction)
            blocks += self._axis_plane_blocks(axes, direction, plane_groups)
            blocks += self._axis_axis_blocks(axes)
            blocks += self._bolt_circle_blocks(axes)
        return blocks

    def _distinct_axes(self, members, centres, direction) -> list:
        """Coaxial faces (a hole's cylinder and its chamfer cone) share one axis."""
        feet = geo.perpendicular_feet(centres[members], direction)
        keys = np.round(feet / standard.SPECTRUM["same_level_mm"]).astype(np.int64)
        axes: dict[tuple, dict] = {}
        for row, member in enumerate(members.tolist()):
            _, _, face, radius, convex = self.axes[member]
            axis = axes.setdefault(
                tuple(keys[row].tolist()),
                {"foot": feet[row], "face": face, "radii": [], "convex": []},
            )
            axis["face"] = min(axis["face"], face)
            if radius is not None and convex:
                axis["convex"].append((radius, face))
            elif radius is not None:
                axis["radii"].append(radius)  # a hole's (or a slot end's) radius
        return sorted(axes.values(), key=lambda a: a["face"])

    def _axis_plane_blocks(self, axes, direction, plane_groups) -> list:
        tol = standard.SPECTRUM["parallel_rad"]
        values, pairs, tangent_values, tangent_pairs = [], [], [], []
        axis_faces = np.array([a["face"] for a in axes], np.int64)
        feet = np.array([a["foot"] for a in axes])
        for normal, levels, first, _ in plane_groups:
            if abs(float(normal @ direction)) > tol:
                continue  # only planes parallel to the axis have a distance to it
            axis_levels = feet @ normal
            merged = np.concatenate([levels, axis_levels])
            is_axis = np.concatenate([np.zeros(len(levels), bool), np.ones(len(axes), bool)])
            faces = np.concatenate([first, axis_faces])
            order = np.argsort(merged, kind="stable")
            i, j = geo.level_pairs(len(merged))
            a, b = order[i], order[j]
            keep = is_axis[a] | is_axis[b]
            a, b = a[keep], b[keep]
            distance = np.abs(merged[b] - merged[a])
            # An axis lying in a plane, or two axes side by side along it: no distance.
            apart = distance > standard.SPECTRUM["same_level_mm"]
            a, b, distance = a[apart], b[apart], distance[apart]
            both_axes = is_axis[a] & is_axis[b]
            values.append(distance)
            pairs.append(np.stack([faces[a], faces[b]], axis=1))
            # A convex round beyond its axis: the plane's distance to its far and near side.
            for k in np.flatnonzero(~both_axes).tolist():
                axis_row = (a[k] if is_axis[a[k]] else b[k]) - len(levels)
                plane_face = faces[b[k]] if is_axis[a[k]] else faces[a[k]]
                for radius, face in axes[axis_row]["convex"]:
                    for value in (distance[k] + radius, distance[k] - radius):
                        if value > standard.SPECTRUM["same_level_mm"]:
                            tangent_values.append(value)
                            tangent_pairs.append((face, plane_face))
        blocks = []
        if values:
            blocks.append(
                _block(
                    "length",
                    "axis_position",
                    np.concatenate(values),
                    ("Face", "Face"),
                    np.concatenate(pairs),
                )
            )
        if tangent_values:
            blocks.append(
                _block("length", "axis_tangent", tangent_values, ("Face", "Face"), tangent_pairs)
            )
        return blocks

    def _axis_axis_blocks(self, axes) -> list:
        if len(axes) < 2:
            return []
        feet = np.array([a["foot"] for a in axes])
        faces = np.array([a["face"] for a in axes], np.int64)
        i, j = geo.point_pairs(feet)
        distance = np.linalg.norm(feet[j] - feet[i], axis=1)
        return [
            _block(
                "length",
                "axis_distance",
                distance,
                ("Face", "Face"),
                np.stack([faces[i], faces[j]], axis=1),
            )
        ]

    def _bolt_circle_blocks(self, axes) -> list:
        """Three or more equal holes at one distance from a centre: a bolt circle. Centres
        tried: the holes' centroid and the axes of the largest holes (a flange's bore)."""
        same = standard.SPECTRUM["same_level_mm"]
        holes = [a for a in axes if a["radii"]]
        classes: dict[int, list] = {}
        for axis in holes:
            classes.setdefault(round(min(axis["radii"]) / same), []).append(axis)
        largest = sorted(holes, key=lambda a: (-max(a["radii"]), a["face"]))
        largest = largest[: standard.SPECTRUM["angle_datum_directions"]]
        values, names = [], []
        for members in classes.values():
            if len(members) < 3:
                continue
            feet = np.array([m["foot"] for m in members])
            centres = [feet.mean(axis=0)] + [
                a["foot"] for a in largest if all(a is not m for m in members)
            ]
            for centre in centres:
                radii = np.linalg.norm(feet - centre, axis=1)
                buckets: dict[int, list] = {}
                for row, radius in enumerate(radii.tolist()):
                    if radius > same:
                        buckets.setdefault(round(radius / same), []).append(row)
                for rows in buckets.values():
                    if len(rows) >= 3:
                        diameter = 2 * float(radii[rows[0]])
                        if any(abs(diameter - v) <= same for v in values):
                            continue
                        values.append(diameter)
                        names.append(tuple(f"Face{members[r]['face'] + 1}" for r in sorted(rows)))
        if not values:
            return []
        return [Block("diameter", "bolt_circle", np.array(values), names=names)]

    # -- extended: drilled depths -----------------------------------------------------------
    def hole_depth_blocks(self) -> list:
        """Each blind hole's depth to the rim of its drill point: (entry plane, bore, cone).

        A drill point is a cone that meets a hole's bore (a concave coaxial cylinder of the
        same radius) in a circle and narrows beyond it. The planes square to the axis that
        the hole's coaxial faces reach, on the bore's side, are where it is measured from:
        the face it opens in (and a counterbore's floor on the way)."""
        cones = [i for i, f in enumerate(self.faces) if isinstance(_surface(f), self.Part.Cone)]
        if not cones:
            return []
        owners = self._edge_owners()
        values, triples, seen = [], [], set()
        for cone in cones:
            for bore, rim in self._drill_rims(cone, owners):
                axis = np.array(_vec(self.faces[bore].Surface.Axis))
                first, last = rim.ParameterRange
                level = float(np.array(_vec(rim.valueAt((first + last) / 2))) @ axis)
                side = float(np.array(_vec(self.faces[bore].CenterOfMass)) @ axis) - level
                for plane, plane_level in self._entry_planes(bore, axis, owners):
                    depth = (plane_level - level) * math.copysign(1.0, side)
                    key = (round(depth, 6), round(level, 6), plane_level, self._axis_key(bore))
                    if depth > standard.SPECTRUM["same_level_mm"] and key not in seen:
                        seen.add(key)
                        values.append(depth)
                        triples.append((plane, bore, cone))
        if not values:
            return []
        return [_block("length", "hole_depth", values, ("Face", "Face", "Face"), triples)]

    def _edge_owners(self) -> dict:
        """edge hashCode -> indices of the faces it bounds."""
        owners: dict[int, list] = {}
        for index, face in enumerate(self.faces):
            for edge in face.Edges:
                owners.setdefault(edge.hashCode(), []).append(index)
        return owners

    def _axis_key(self, face: int) -> tuple:
        surface = self.faces[face].Surface
        axis = np.array(_vec(surface.Axis))
        foot = geo.perpendicular_feet(np.array([_vec(surface.Center)]), axis)[0]
        return tuple(np.round(foot / HOLE_AXIS_MM).astype(np.int64).tolist())

    def _coaxial(self, face: int, point, axis) -> bool:
        """Whether a face is a cylinder or cone turning about the line (point, axis)."""
        surface = _surface(self.faces[face])
        if not isinstance(surface, (self.Part.Cylinder, self.Part.Cone)):
            return False
        if abs(abs(float(np.array(_vec(surface.Axis)) @ axis)) - 1) > 1e-9:
            return False
        centre = surface.Center if isinstance(surface, self.Part.Cylinder) else surface.Apex
        offset = np.array(_vec(centre)) - point
        return float(np.linalg.norm(np.cross(offset, axis))) <= HOLE_AXIS_MM

    def _drill_rims(self, cone: int, owners: dict) -> list:
        """[(bore face, rim edge)] where this cone is the point of a drilled hole."""
        surface = self.faces[cone].Surface
        axis, apex_point = np.array(_vec(surface.Axis)), np.array(_vec(surface.Apex))
        apex = float(apex_point @ axis)
        found = []
        for edge in self.faces[cone].Edges:
            if edge.Degenerated:  # the apex (NIST CTC-04's have no 3D curve at all)
                continue
            # The rim is a circle, or a B-spline where another exporter wrote the
            # intersection (NIST FTC-06's AP242 file): one point of it gives its level.
            first, last = edge.ParameterRange
            on_rim = np.array(_vec(edge.valueAt((first + last) / 2))) - apex_point
            level = float(on_rim @ axis) + apex
            radius = float(np.linalg.norm(np.cross(on_rim, axis)))
            for bore in owners.get(edge.hashCode(), ()):
                bore_surface = _surface(self.faces[bore])
                if (
                    not isinstance(bore_surface, self.Part.Cylinder)
                    or abs(bore_surface.Radius - radius) > HOLE_AXIS_MM
                    or not self._coaxial(bore, apex_point, axis)
                    or _is_convex(self.faces[bore], bore_surface)
                ):
                    continue
                side = float(np.array(_vec(self.faces[bore].CenterOfMass)) @ axis) - level
                if (apex - level) * side < 0:  # the point beyond the rim, the bore before it
                    found.append((bore, edge))
        return found

    def _entry_planes(self, bore: int, axis, owners: dict) -> list:
        """[(plane face, level)] that the hole's coaxial faces reach, square to its axis,
        one face per level (the lowest index). Only a round leads on to a plane, and only
        a plane or a coaxial round to a round, so the walk stays in the hole."""
        point = np.array(_vec(self.faces[bore].Surface.Center))
        seen, queue, levels = {bore}, [bore], {}
        while queue:
            face = queue.pop()
            from_plane = isinstance(_surface(self.faces[face]), self.Part.Plane)
            for edge in self.faces[face].Edges:
                for other in owners.get(edge.hashCode(), ()):
                    if other in seen:
                        continue
                    surface = _surface(self.faces[other])
                    if isinstance(surface, self.Part.Plane):
                        normal = np.array(_vec(surface.Axis))
                        if from_plane or abs(abs(float(normal @ axis)) - 1) > 1e-9:
                            continue
                        level = round(float(np.array(_vec(surface.Position)) @ axis), 6)
                        levels[level] = min(levels.get(level, other), other)
                    elif not self._coaxial(other, point, axis):
                        continue
                    seen.add(other)
                    queue.append(other)
        return sorted((face, level) for level, face in levels.items())


# Curved-face rows: key -> (family, source).
_CURVED_SOURCES = {
    "cylinder_radius": ("radius", "cylinder"),
    "cylinder_diameter": ("diameter", "cylinder"),
    "cone_half_angle": ("angle", "cone_half_angle"),
    "cone_full_angle": ("angle", "cone_full_angle"),
    "sphere_radius": ("radius", "sphere"),
    "sphere_diameter": ("diameter", "sphere"),
    "torus_minor_radius": ("radius", "torus"),
}


def _surface(face):
    try:
        return face.Surface
    except TypeError:  # surface types Part cannot wrap: not measured
        return None


def _add(rows: dict, key: str, value: float, index: int) -> None:
    rows[key][0].append(value)
    rows[key][1].append(index)


def _is_convex(face, surface) -> bool:
    """A shaft or a round top (normal points away from the axis), not a hole or a fillet
    in a corner (normal points towards it)."""
    u0, u1, v0, v1 = face.ParameterRange
    u, v = (u0 + u1) / 2, (v0 + v1) / 2
    point = face.valueAt(u, v)
    normal = face.normalAt(u, v)
    axis = surface.Axis
    offset = point - surface.Center
    radial = offset - axis * offset.dot(axis)
    return normal.dot(radial) > 0
