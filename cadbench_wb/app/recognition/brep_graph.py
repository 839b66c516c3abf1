# SPDX-License-Identifier: LGPL-2.1-or-later
"""A solid's faces as a graph: surface descriptors, shared edges, and edge convexity.

Feature recognition (features.py, feature_regions.py) reads only this graph. An edge is
convex where the material angle is below 180 degrees (a box's outer edges), concave where it
is above (a pocket's floor edges), smooth where the two faces are tangent (a fillet's
edges). Convexity is decided from the faces' oriented normals at the edge's middle and the
direction from the edge into the first face: n2 . d1 < 0 is convex.
"""

import dataclasses
import functools
import math

import FreeCAD
import numpy as np

from cadbench_wb import standard

RECOGNITION = standard.FEATURES["recognition"]
SMOOTH_DEG = RECOGNITION["smooth_deg"]  # faces meeting at less than this are tangent
# The bare 1e-12 below guard divisions by the length of a vector that may vanish (a point on
# an axis, a pole): they are not tuned.


@dataclasses.dataclass
class FaceInfo:
    index: int
    face: object
    kind: str  # Plane, Cylinder, Cone, Sphere, Toroid, BSplineSurface, ...
    normal: np.ndarray | None = None  # planes: oriented outward normal
    origin: np.ndarray | None = None  # planes: a point; axial surfaces: a point on the axis
    axis: np.ndarray | None = None  # axial surfaces, largest component positive
    radius: float | None = None  # cylinder radius, torus minor radius, sphere radius
    semi_angle: float | None = None  # cones, degrees, positive
    concave: bool | None = None  # axial surfaces: material outside (a hole's wall)
    span_deg: float | None = None  # cylinders and cones: angular extent of the face
    # The face's surface, asked for once: face.Surface builds a new geometry object on every
    # access (half the cost of the convexity of all edges on a 270-face part).
    surface: object = None

    @property
    def name(self) -> str:
        return f"Face{self.index + 1}"

    @functools.cached_property
    def area(self) -> float:
        # Measured when first asked for: OpenCASCADE integrates it over the surface, about
        # 5 ms per B-spline thread flank, and recognition asks only for a few faces' areas.
        return self.face.Area


@dataclasses.dataclass
class EdgeInfo:
    index: int
    edge: object
    faces: tuple  # indices of the two faces (one for a seam or a free edge)
    straight: bool
    circle: bool
    length: float
    owners: tuple = ()  # the FaceInfo of each of faces

    @functools.cached_property
    def kind(self) -> str:
        """convex, concave, smooth, seam or unknown. Decided when first asked for: the
        normals at the edge cost a projection onto each face (about 1 ms on a B-spline
        thread flank), and no recognition step asks about an edge between two faces a
        thread has claimed (74 of a modeled M8 bolt's 173 edges)."""
        if len(self.faces) < 2:
            return "seam"
        return _convexity(self.owners[0], self.owners[1], self.edge)


@dataclasses.dataclass
class Graph:
    shape: object
    faces: list[FaceInfo]
    edges: list[EdgeInfo]
    by_face: dict  # face index -> [edge index]
    size: float  # bounding-box diagonal

    def neighbours(self, index: int, kinds=None) -> list[int]:
        """Faces sharing an edge with face index (of the given edge kinds), sorted."""
        found = set()
        for e in self.by_face.get(index, []):
            edge = self.edges[e]
            if kinds is not None and edge.kind not in kinds:
                continue
            found.update(f for f in edge.faces if f != index)
        return sorted(found)

    def edges_between(self, first: int, second: int) -> list[EdgeInfo]:
        return [
            self.edges[e]
            for e in self.by_face.get(first, [])
            if second in self.edges[e].faces and first in self.edges[e].faces
        ]

    def wires(self, index: int) -> list[list[EdgeInfo]]:
        """The face's wires as lists of graph edges, the outer wire first."""
        face = self.faces[index].face
        lookup = {self.edges[e].edge.hashCode(): self.edges[e] for e in self.by_face[index]}
        result = []
        outer = face.OuterWire
        if self.faces[index].kind == "Plane" and len(face.Wires) > 1:
            # A planar face's outer wire encloses the others, so its box is the largest:
            # OpenCASCADE's OuterWire compares the wires' parameter-space boxes, which a
            # sewn face's curves can get wrong (a rebuilt mesh's top face named its boss's
            # foot circle outer).
            outer = max(face.Wires, key=lambda w: w.BoundBox.DiagonalLength)
        wires = [outer] + [w for w in face.Wires if not w.isSame(outer)]
        for wire in wires:
            result.append([lookup[e.hashCode()] for e in wire.Edges if e.hashCode() in lookup])
        return result


def _canonical(axis: np.ndarray) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    # + 0.0: flipping (0, 0, -1) gives -0.0 components, which atan2 and sign tests read as
    # another direction than the 0.0 of an unflipped copy.
    return (axis if axis[int(np.argmax(np.abs(axis)))] > 0 else -axis) + 0.0


def _vec(v) -> np.ndarray:
    return np.array((v.x, v.y, v.z), dtype=float)


def _mid_uv(face):
    u0, u1, v0, v1 = face.ParameterRange
    return (u0 + u1) / 2, (v0 + v1) / 2


def describe(index: int, face) -> FaceInfo:
    """The descriptor of one face."""
    surface = face.Surface
    kind = type(surface).__name__
    info = FaceInfo(index=index, face=face, kind=kind, surface=surface)
    u, v = _mid_uv(face)
    if kind == "Plane":
        info.normal = _vec(face.normalAt(u, v))
        info.origin = _vec(face.valueAt(u, v))
        return info
    if kind in ("Cylinder", "Cone", "Toroid", "Sphere"):
        centre = _vec(surface.Center)
        axis = _canonical(_vec(surface.Axis)) if kind != "Sphere" else np.array([0.0, 0, 1])
        info.axis, info.origin = axis, centre
        point, normal = _vec(face.valueAt(u, v)), _vec(face.normalAt(u, v))
        if kind == "Cylinder":
            info.radius = surface.Radius
        elif kind == "Cone":
            info.semi_angle = abs(math.degrees(surface.SemiAngle))
        elif kind == "Toroid":
            info.radius = surface.MinorRadius
        else:
            info.radius = surface.Radius
        if kind == "Toroid":
            rel = point - centre
            radial = rel - (rel @ axis) * axis
            tube_centre = centre + radial / max(np.linalg.norm(radial), 1e-12) * surface.MajorRadius
            info.concave = float(normal @ (point - tube_centre)) < 0
        elif kind == "Sphere":
            info.concave = float(normal @ (point - centre)) < 0
        else:
            rel = point - centre
            radial = rel - (rel @ axis) * axis
            info.concave = float(normal @ radial) < 0
        if kind in ("Cylinder", "Cone"):
            u0, u1 = face.ParameterRange[:2]
            info.span_deg = math.degrees(u1 - u0)
        return info
    if kind == "SurfaceOfRevolution":
        basis = getattr(surface, "BasisCurve", None)
        if type(basis).__name__ == "Circle":
            # A revolved arc is a torus in all but name (FreeCAD exports of fillets).
            axis = _canonical(_vec(surface.Direction))
            location = _vec(surface.Location)
            info.axis, info.origin, info.radius = axis, location, basis.Radius
            point, normal = _vec(face.valueAt(u, v)), _vec(face.normalAt(u, v))
            # The arc's centre turned to the sample point's azimuth.
            centre = _vec(basis.Center) - location
            along = float(centre @ axis)
            reach = float(np.linalg.norm(centre - along * axis))
            rel = point - location
            radial = rel - (rel @ axis) * axis
            radial /= max(float(np.linalg.norm(radial)), 1e-12)
            tube_centre = location + along * axis + reach * radial
            info.concave = float(normal @ (point - tube_centre)) < 0
    return info


def graph_of(shape) -> Graph:
    """The face graph of a shape, deterministic in the shape's face and edge order."""
    faces = [describe(i, f) for i, f in enumerate(shape.Faces)]
    owners: dict = {}
    order: list = []
    for info in faces:
        for edge in info.face.Edges:
            key = edge.hashCode()
            if key not in owners:
                owners[key] = (edge, [])
                order.append(key)
            if info.index not in owners[key][1]:
                owners[key][1].append(info.index)
    edges, by_face = [], {i: [] for i in range(len(faces))}
    for number, key in enumerate(order):
        edge, owner = owners[key]
        unique = tuple(sorted(set(owner)))
        curve = _curve_kind(edge)
        edges.append(
            EdgeInfo(
                index=number,
                edge=edge,
                faces=unique,
                straight=curve in ("Line", "LineSegment"),
                circle=curve == "Circle",
                length=edge.Length,
                owners=tuple(faces[i] for i in unique),
            )
        )
        for face_index in unique:
            by_face[face_index].append(number)
    return Graph(shape, faces, edges, by_face, shape.BoundBox.DiagonalLength)


def _curve_kind(edge) -> str:
    try:
        return type(edge.Curve).__name__
    except Exception:  # OCC curve types FreeCAD does not wrap (offset curves, ...)
        return "other"


def _normal_at(info: FaceInfo, point) -> np.ndarray | None:
    face = info.face
    try:
        u, v = info.surface.parameter(FreeCAD.Vector(*point))
        return _vec(face.normalAt(u, v))
    except Exception:  # a pole or a degenerate point: no normal there
        return None


def _inward(info: FaceInfo, point: np.ndarray, normal: np.ndarray, tangent: np.ndarray, step):
    """The unit direction from an edge point into the face, in the face's tangent plane."""
    side = np.cross(normal, tangent)
    length = np.linalg.norm(side)
    if length < 1e-12:
        return None
    side /= length
    face = info.face
    for sign in (1.0, -1.0):
        probe = point + sign * step * side
        try:
            u, v = info.surface.parameter(FreeCAD.Vector(*probe))
        except Exception:
            continue
        if _in_domain(face, u, v):
            return sign * side
    return None


ANALYTIC = ("Plane", "Cylinder", "Cone", "Sphere", "Toroid")


def _inward_by_orientation(first: FaceInfo, second: FaceInfo, edge, normal, tangent):
    """The direction into the first face across the edge, from the edge's orientation in
    it: a face lies to the left of its oriented boundary seen from its outward normal
    (normal x oriented tangent). Edge.tangentAt ignores the orientation, normalAt does not.
    Used between analytic faces, where it gave the probe's answer on every one of 7,919
    edges of the NIST test parts (one the probe left unknown), at a fraction of the cost:
    the probe's isPartOfDomain rebuilds a face classifier per call (7 ms on a real part).
    Elsewhere (lofted B-spline flanks, 1e-4 mm ribbons) the probe decides. None: no answer.
    """
    if first.kind not in ANALYTIC or second.kind not in ANALYTIC:
        return None
    if edge.Orientation not in ("Forward", "Reversed"):
        return None
    side = np.cross(normal, tangent)
    length = np.linalg.norm(side)
    if length < 1e-12:
        return None
    return (1.0 if edge.Orientation == "Forward" else -1.0) * side / length


def _in_domain(face, u: float, v: float) -> bool:
    if face.isPartOfDomain(u, v):
        return True
    surface = face.Surface
    if getattr(surface, "isUPeriodic", lambda: False)():
        period = surface.UPeriod()
        return face.isPartOfDomain(u + period, v) or face.isPartOfDomain(u - period, v)
    return False


def _convexity(first: FaceInfo, second: FaceInfo, edge) -> str:
    """convex, concave or smooth at the edge's middle (or a quarter along, at a pole)."""
    lo, hi = edge.ParameterRange
    for share in (0.5, 0.3, 0.7):
        t = lo + share * (hi - lo)
        point = _vec(edge.valueAt(t))
        try:
            tangent = _vec(edge.tangentAt(t))
        except Exception:  # a degenerate edge has no tangent
            continue
        n1, n2 = _normal_at(first, point), _normal_at(second, point)
        if n1 is None or n2 is None:
            continue
        angle = math.degrees(math.acos(max(-1.0, min(1.0, float(n1 @ n2)))))
        if angle < SMOOTH_DEG:
            return "smooth"
        inward = _inward_by_orientation(first, second, edge, n1, tangent)
        if inward is None:
            # A probe into the face, short enough to stay on a narrow face (not tuned: any
            # step that lands inside the face gives the same side).
            step = max(1e-4, min(0.01, 0.02 * edge.Length))
            inward = _inward(first, point, n1, tangent, step)
        if inward is not None:
            return "convex" if float(n2 @ inward) < 0 else "concave"
    return "unknown"


def axial_range(face, origin: np.ndarray, axis: np.ndarray, samples: int = 8):
    """(min, max) axial coordinate and (min, max) radius of a face's boundary points."""
    points = edge_points(face.Edges, samples)
    rel = points - origin
    axial = rel @ axis
    radial = np.linalg.norm(rel - np.outer(axial, axis), axis=1)
    return (float(axial.min()), float(axial.max())), (float(radial.min()), float(radial.max()))


def edge_points(edges, samples: int | None = None, deflection: float = 1e-3) -> np.ndarray:
    """Points along edges: a fixed count each, or (default) within deflection mm of the
    curve, so extents measured on them are exact to that (1e-3 mm: fifty times finer than
    seed 001's 0.05 mm, a measuring precision rather than a tuned boundary)."""
    points = []
    for e in edges:
        try:
            found = (
                e.discretize(max(2, samples)) if samples else e.discretize(Deflection=deflection)
            )
        except Exception:  # a degenerate edge (a cone's apex)
            found = [e.Vertexes[0].Point] if e.Vertexes else []
        points += [tuple(p) for p in found]
    return np.array(points)


def same_line(a_origin, a_axis, b_origin, b_axis, tolerance: float) -> bool:
    """Whether two axes are the same line (direction sign ignored)."""
    if abs(float(a_axis @ b_axis)) < math.cos(math.radians(RECOGNITION["coaxial_deg"])):
        return False
    rel = b_origin - a_origin
    return float(np.linalg.norm(rel - (rel @ a_axis) * a_axis)) <= tolerance
