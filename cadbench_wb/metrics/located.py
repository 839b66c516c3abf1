# SPDX-License-Identifier: LGPL-2.1-or-later
"""Located dimension matching: a target counts where the geometry that carries it is.

Pure numpy and scipy. Seed 000's dimensionRecall accepts a value anywhere in the body's
spectrum; an inspector measures the feature the drawing points at. Here each reference
measurement of a target (a spectrum entry: a cylinder, a face pair, an edge, ...) is a
*member*; its faces and edges are mapped to the candidate geometry of the same type that
sits nearest after alignment (both bodies in the reference frame), and the same quantity
is measured again there. A pattern is as many members as it has features, so one wrong
hole of twelve costs one twelfth.

Correspondence: curved faces (cylinder, cone, sphere, torus) and edges are paired one to
one, nearest first, so a filled hole cannot borrow its neighbour;
planes go to the nearest parallel plane of the same orientation (a face split differently
by another CAD system is still that face). Nothing farther than ``max_offset`` counts.
"""

import dataclasses

import numpy as np

from cadbench_wb import standard

CURVED = ("cylinder", "cone", "sphere", "torus")
EDGE_SOURCES = ("edge_length", "circle")
# Float slack on a tolerance comparison, as in dimension_matching.py.
_SLACK = 1e-9


@dataclasses.dataclass
class Geometry:
    """Per face and per edge of one shape: type, location point, direction, size."""

    face_type: list
    face_point: np.ndarray
    face_dir: np.ndarray
    face_size: np.ndarray  # radius (cylinder, sphere, torus minor), half angle (cone)
    face_convex: np.ndarray
    face_major: np.ndarray  # a torus' major radius (its place around the axis), else 0
    face_extent: np.ndarray  # a cylinder's half length along its axis, else 0
    edge_type: list
    edge_point: np.ndarray
    edge_dir: np.ndarray
    edge_size: np.ndarray  # length (line), radius (circle)
    # A revolved face's meridian circle (its seam): placed on the revolution axis, with its
    # centre's distance from that axis here, so a turn about the axis does not move it.
    edge_major: np.ndarray
    edge_faces: list
    vertices: np.ndarray
    diagonal: float

    @classmethod
    def from_rows(cls, face_rows, edge_rows, edge_faces, vertices, diagonal) -> "Geometry":
        def column(rows, k, width=None):
            data = np.array([r[k] for r in rows], float)
            return data.reshape(-1, width) if width else data.reshape(-1)

        return cls(
            face_type=[r[0] for r in face_rows],
            face_point=column(face_rows, 1, 3),
            face_dir=_unit(column(face_rows, 2, 3)),
            face_size=column(face_rows, 3),
            face_convex=np.array([bool(r[5]) for r in face_rows], bool),
            face_major=column(face_rows, 4),
            face_extent=np.array([r[6] if len(r) > 6 else 0.0 for r in face_rows], float),
            edge_type=[r[0] for r in edge_rows],
            edge_point=column(edge_rows, 1, 3),
            edge_dir=_unit(column(edge_rows, 2, 3)),
            edge_size=column(edge_rows, 3),
            edge_major=column(edge_rows, 4),
            edge_faces=[list(f) for f in edge_faces],
            vertices=np.asarray(vertices, float).reshape(-1, 3),
            diagonal=float(diagonal),
        )

    def point(self, element: tuple) -> np.ndarray:
        kind, index = element
        return (self.face_point if kind == "Face" else self.edge_point)[index]

    def describe(self, element: tuple) -> dict:
        """What the JSON says about one face or edge: its name, type, centre and axis."""
        if not hasattr(self, "_rounded"):
            # Rounded once per shape: a pattern's members describe hundreds of elements.
            self._rounded = {
                "Face": (
                    np.round(self.face_point, 6).tolist(),
                    np.round(self.face_dir, 6).tolist(),
                ),
                "Edge": (
                    np.round(self.edge_point, 6).tolist(),
                    np.round(self.edge_dir, 6).tolist(),
                ),
            }
        kind, index = element
        points, dirs = self._rounded[kind]
        element_type = (self.face_type if kind == "Face" else self.edge_type)[index]
        entry = {"element": f"{kind}{index + 1}", "type": element_type, "centre": points[index]}
        if element_type in ("plane",):
            entry["normal"] = dirs[index]
        elif element_type == "line":
            entry["direction"] = dirs[index]
        elif element_type != "sphere":
            entry["axis"] = dirs[index]
        return entry


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1)
    out = vectors.copy()
    nonzero = norms > 0
    out[nonzero] /= norms[nonzero][:, None]
    return out


def max_offset(diagonal: float) -> float:
    """How far (mm) the corresponding candidate geometry may sit from the mapped reference
    geometry (standard.LOCATED)."""
    p = standard.LOCATED
    return max(p["max_offset_mm"], p["max_offset_diagonals"] * diagonal)


def parse_element(name: str) -> tuple:
    """("Face", 2) for "Face3": the 0-based index of a sub-element name."""
    for kind in ("Face", "Edge"):
        if name.startswith(kind) and name[len(kind) :].isdigit():
            return (kind, int(name[len(kind) :]) - 1)
    raise ValueError(f"not a face or edge name: {name!r}")


class Correspondence:
    """Reference face or edge -> the candidate face or edge at its place (or None).

    Each element type is paired on first use only (most targets never touch edges).
    Curved faces and edges: the pairs within the limit come from a k-d tree, and are taken
    nearest first, each element once (O(n log n), where a full assignment matrix would be
    quadratic in memory on a 2,000-face part)."""

    def __init__(self, reference: Geometry, candidate: Geometry):
        self.reference = reference
        self.candidate = candidate
        self.limit = max_offset(reference.diagonal)
        self.cos_parallel = np.cos(np.radians(standard.LOCATED["parallel_deg"]))
        self._pairs: dict[tuple, tuple | None] = {}
        # Reference element -> the first element of its site (a hole split into two
        # half-cylinders is one site, one member of a pattern).
        self.site: dict[tuple, tuple] = {}
        self._done: set = set()
        self._planes = None

    def _type(self, element: tuple) -> str:
        kind, index = element
        return (self.reference.face_type if kind == "Face" else self.reference.edge_type)[index]

    def _ensure(self, element: tuple) -> None:
        key = (element[0], self._type(element))
        if key not in self._done:
            self._done.add(key)
            if key[1] in CURVED or key[1] in ("line", "circle"):
                self._assign(*key)

    def site_of(self, element: tuple) -> tuple:
        self._ensure(element)
        return self.site.get(element, element)

    def of(self, element: tuple):
        """(candidate element, offset mm) or None when nothing of that type is near."""
        self._ensure(element)
        if element in self._pairs:
            return self._pairs[element]
        kind, index = element
        if kind == "Face" and self.reference.face_type[index] == "plane":
            self._pairs[element] = self._nearest_plane(index)
            return self._pairs[element]
        return None

    @staticmethod
    def _rows(geometry: Geometry, kind: str, element_type: str) -> np.ndarray:
        types = geometry.face_type if kind == "Face" else geometry.edge_type
        return np.array([i for i, t in enumerate(types) if t == element_type], np.int64)

    def _assign(self, kind: str, element_type: str) -> None:
        ref_all = self._rows(self.reference, kind, element_type)
        ref_rows, ref_groups = _sites(self.reference, kind, ref_all)
        cand_rows, _ = _sites(self.candidate, kind, self._rows(self.candidate, kind, element_type))
        for rep, members in zip(ref_rows.tolist(), ref_groups, strict=True):
            for row in members:
                self.site[(kind, row)] = (kind, rep)
                self._pairs[(kind, row)] = None
        if not len(ref_rows) or not len(cand_rows):
            return
        r, c, cost = self._candidate_pairs(kind, ref_rows, cand_rows)
        order = np.lexsort((c, r, cost))  # nearest first; ties by row: deterministic
        used_ref, used_cand = set(), set()
        for k in order.tolist():
            if r[k] in used_ref or c[k] in used_cand:
                continue
            used_ref.add(r[k])
            used_cand.add(c[k])
            found = (kind, int(cand_rows[c[k]]))
            for row in ref_groups[r[k]]:
                offset = float(
                    np.linalg.norm(self.reference.point((kind, row)) - self.candidate.point(found))
                )
                self._pairs[(kind, row)] = (found, offset)
        if element_type == "cylinder":
            self._within_longer(ref_rows, ref_groups, cand_rows, used_ref)

    def _within_longer(self, ref_rows, ref_groups, cand_rows, used_ref) -> None:
        """A reference cylinder left without a partner lies on a longer candidate cylinder
        of its axis (a shaft whose groove is missing is one Ø25, not two; a bolt without a
        modeled thread has one shank under the crest's strips): that cylinder is it."""
        ref, cand = self.reference, self.candidate
        for r, rep in enumerate(ref_rows.tolist()):
            if r in used_ref:
                continue
            offsets = ref.face_point[rep] - cand.face_point[cand_rows]
            axes = cand.face_dir[cand_rows]
            along = np.einsum("ij,ij->i", offsets, axes)
            sideways = np.linalg.norm(offsets - axes * along[:, None], axis=1)
            ok = (
                (np.abs(axes @ ref.face_dir[rep]) >= self.cos_parallel)
                & (cand.face_convex[cand_rows] == ref.face_convex[rep])
                & (sideways <= self.limit + _SLACK)
                & (np.abs(along) <= cand.face_extent[cand_rows] + _SLACK)
            )
            if not np.any(ok):
                continue
            cost = np.where(
                ok, sideways + np.abs(cand.face_size[cand_rows] - ref.face_size[rep]), np.inf
            )
            best = int(np.argmin(cost))
            found = ("Face", int(cand_rows[best]))
            for row in ref_groups[r]:
                self._pairs[("Face", row)] = (found, float(sideways[best]))

    def _candidate_pairs(self, kind: str, ref_rows, cand_rows):
        """(ref site, candidate site, cost) of the pairs that may correspond: within the
        limit, parallel, on the same side (a hole never answers for a shaft). The cost adds
        the size difference to the distance, so a tube's bore and its outer wall, which
        share axis and middle, cannot swap."""
        from scipy.spatial import cKDTree  # noqa: PLC0415 - heavy: loaded on first use

        ref, cand = self.reference, self.candidate
        if kind == "Face":
            points = (ref.face_point, cand.face_point)
            dirs = (ref.face_dir, cand.face_dir)
            sizes = (ref.face_size, cand.face_size)
            majors = (ref.face_major, cand.face_major)
            sides = (ref.face_convex, cand.face_convex)
        else:
            points = (ref.edge_point, cand.edge_point)
            dirs = (ref.edge_dir, cand.edge_dir)
            sizes = (ref.edge_size, cand.edge_size)
            majors = (ref.edge_major, cand.edge_major)
            sides = (np.zeros(len(ref.edge_size), bool), np.zeros(len(cand.edge_size), bool))
        tree = cKDTree(points[1][cand_rows])
        found = tree.query_ball_point(points[0][ref_rows], r=self.limit + _SLACK)
        r = np.array([i for i, hits in enumerate(found) for _ in hits], np.int64)
        c = np.array([j for hits in found for j in hits], np.int64)
        if not len(r):
            return r, c, np.zeros(0)
        a, b = ref_rows[r], cand_rows[c]
        distance = np.linalg.norm(points[0][a] - points[1][b], axis=1)
        da, db = dirs[0][a], dirs[1][b]
        # A sphere has no axis: any direction will do.
        no_axis = (np.linalg.norm(da, axis=1) == 0) | (np.linalg.norm(db, axis=1) == 0)
        parallel = no_axis | (np.abs(np.einsum("ij,ij->i", da, db)) >= self.cos_parallel)
        ok = parallel & (sides[0][a] == sides[1][b])
        cost = (
            distance
            + np.abs(sizes[0][a] - sizes[1][b])
            # Concentric tori share centre and axis: the major radius tells them apart.
            + np.abs(majors[0][a] - majors[1][b])
        )
        return r[ok], c[ok], cost[ok]

    def _nearest_plane(self, index: int):
        ref, cand = self.reference, self.candidate
        if self._planes is None:
            self._planes = self._rows(cand, "Face", "plane")
        rows = self._planes
        if not len(rows):
            return None
        aligned = cand.face_dir[rows] @ ref.face_dir[index] >= self.cos_parallel
        if not np.any(aligned):
            return None
        rows = rows[aligned]
        distance = np.linalg.norm(cand.face_point[rows] - ref.face_point[index], axis=1)
        best = int(np.argmin(distance))  # the first of equal distances: deterministic
        if distance[best] > self.limit + _SLACK:
            return None
        return (("Face", int(rows[best])), float(distance[best]))


def _sites(geometry: Geometry, kind: str, rows: np.ndarray):
    """Elements of one type that are one feature: same place, direction, size and side
    (the halves of a split hole). Returns (first row per site, rows of each site).

    Keys on a grid of same_place_mm (directions on 1e-6, sign-normalised): halves of one
    feature agree to kernel precision, far inside a cell, and hashing keeps it O(n)."""
    same = standard.LOCATED["same_place_mm"]
    if kind == "Face":
        points, dirs, sizes = geometry.face_point, geometry.face_dir, geometry.face_size
        sides = geometry.face_convex
        majors = geometry.face_major
    else:
        points, dirs, sizes = geometry.edge_point, geometry.edge_dir, geometry.edge_size
        sides = np.zeros(len(points), bool)
        majors = geometry.edge_major
    if not len(rows):
        return np.zeros(0, np.int64), []
    d = dirs[rows]
    flip = np.take_along_axis(d, np.argmax(np.abs(d), axis=1)[:, None], axis=1) < 0
    d = np.where(flip, -d, d)
    keys = np.column_stack(
        [
            sides[rows].astype(float),
            np.round(sizes[rows] / same),
            np.round(majors[rows] / same),
            np.round(points[rows] / same),
            np.round(d * 1e6),
        ]
    ).astype(np.int64)
    firsts, groups, site_of_key = [], [], {}
    for row, key in zip(rows.tolist(), map(tuple, keys.tolist()), strict=True):
        site = site_of_key.get(key)
        if site is None:
            site_of_key[key] = len(firsts)
            firsts.append(row)
            groups.append([row])
        else:
            groups[site].append(row)
    return np.array(firsts, np.int64), groups


def measure(family: str, source: str, elements: list, geometry: Geometry, reference_value, ref):
    """The quantity a spectrum source states, measured on these elements of a geometry.

    ``ref`` (the reference geometry and elements) settles what the elements alone cannot:
    whether an angle is read on its acute or obtuse side, a tangent on the far or near side
    of a round, and along which plane direction two axes are apart."""
    g = geometry
    kinds = [k for k, _ in elements]
    idx = [i for _, i in elements]
    if source in ("cylinder", "sphere", "torus") or (source == "circle" and kinds == ["Edge"]):
        size = g.face_size[idx[0]] if kinds[0] == "Face" else g.edge_size[idx[0]]
        return 2 * float(size) if family == "diameter" else float(size)
    if source == "edge_length":
        return float(g.edge_size[idx[0]])
    if source == "cone_half_angle":
        return float(g.face_size[idx[0]])
    if source == "cone_full_angle":
        return 2 * float(g.face_size[idx[0]])
    if source == "face_distance":
        a, b = idx
        normal = g.face_dir[a]
        return abs(float((g.face_point[b] - g.face_point[a]) @ normal))
    if source == "face_angle":
        a, b = idx
        acute = float(np.degrees(np.arccos(min(1.0, abs(float(g.face_dir[a] @ g.face_dir[b]))))))
        return acute if reference_value <= 90 + _SLACK else 180.0 - acute
    if source in ("axis_position", "axis_tangent", "axis_distance"):
        return _axis_measure(source, idx, g, reference_value, ref)
    if source == "bolt_circle":
        return _bolt_circle_diameter(idx, g)
    if source == "hole_depth":
        return _hole_depth(idx, g)
    raise ValueError(f"no located measure for {source!r}")


def _axis_offset(g: Geometry, axis_face: int, point: np.ndarray) -> np.ndarray:
    """The perpendicular offset from an axis to a point."""
    direction = g.face_dir[axis_face]
    offset = point - g.face_point[axis_face]
    return offset - direction * float(offset @ direction)


def _axis_measure(source, idx, g: Geometry, reference_value, ref) -> float:
    a, b = idx
    planes = [i for i in (a, b) if g.face_type[i] == "plane"]
    axes = [i for i in (a, b) if g.face_type[i] != "plane"]
    if source == "axis_distance":
        return float(np.linalg.norm(_axis_offset(g, axes[0], g.face_point[axes[1]])))
    if planes:
        plane, axis = planes[0], axes[0]
        distance = abs(float((g.face_point[axis] - g.face_point[plane]) @ g.face_dir[plane]))
        if source == "axis_position":
            return distance
        radius = float(g.face_size[axis])
        far_side = _far_side(ref, reference_value)
        return distance + radius if far_side else distance - radius
    # Two axes apart along a plane direction the names do not carry: take the reference's
    # direction that reproduces its value, and measure the candidate's offset along it.
    direction = _direction_between_axes(ref, reference_value)
    offset = _axis_offset(g, axes[0], g.face_point[axes[1]])
    return abs(float(offset @ direction)) if direction is not None else float("nan")


def _far_side(ref, reference_value) -> bool:
    geometry, elements = ref
    idx = [i for _, i in elements]
    plane = next(i for i in idx if geometry.face_type[i] == "plane")
    axis = next(i for i in idx if geometry.face_type[i] != "plane")
    distance = abs(
        float((geometry.face_point[axis] - geometry.face_point[plane]) @ geometry.face_dir[plane])
    )
    return abs(distance + geometry.face_size[axis] - reference_value) <= abs(
        distance - geometry.face_size[axis] - reference_value
    )


def _direction_between_axes(ref, reference_value):
    geometry, elements = ref
    a, b = (i for _, i in elements)
    offset = _axis_offset(geometry, a, geometry.face_point[b])
    planes = [i for i, t in enumerate(geometry.face_type) if t == "plane"]
    if not planes:
        return None
    normals = geometry.face_dir[planes]
    best = int(np.argmin(np.abs(np.abs(normals @ offset) - reference_value)))
    return normals[best]


def _bolt_circle_diameter(idx, g: Geometry) -> float:
    """A circle fitted through the hole axes (in the plane square to the first axis)."""
    direction = g.face_dir[idx[0]]
    points = np.array([g.face_point[i] for i in idx])
    points = points - np.outer(points @ direction, direction)
    centre = points.mean(axis=0)
    helper = np.array([1.0, 0, 0]) if abs(direction[0]) < 0.9 else np.array([0, 1.0, 0])
    u = np.cross(direction, helper)
    u /= np.linalg.norm(u)
    v = np.cross(direction, u)
    xy = np.stack([(points - centre) @ u, (points - centre) @ v], axis=1)
    # Algebraic (Kasa) fit: x^2 + y^2 = 2 a x + 2 b y + c.
    system = np.column_stack([2 * xy, np.ones(len(xy))])
    (a, b, c), *_ = np.linalg.lstsq(system, (xy**2).sum(axis=1), rcond=None)
    return 2 * float(np.sqrt(max(c + a * a + b * b, 0.0)))


def _hole_depth(idx, g: Geometry) -> float:
    """A drilled hole's depth (entry plane, bore, drill point): from the plane to the rim
    where the point's cone meets the bore, the apex's depth less the point's own height
    (the bore's radius over the tangent of the cone's half angle)."""
    plane, bore, cone = idx
    if (g.face_type[plane], g.face_type[bore], g.face_type[cone]) != ("plane", "cylinder", "cone"):
        return float("nan")
    apex = abs(float((g.face_point[cone] - g.face_point[plane]) @ g.face_dir[plane]))
    half = np.radians(float(g.face_size[cone]))
    if not 0 < half < np.pi / 2:
        return float("nan")
    return apex - float(g.face_size[bore]) / float(np.tan(half))


def within(value: float, target: float, tolerance: float) -> bool:
    return bool(np.isfinite(value)) and abs(value - target) <= tolerance + _SLACK
