# SPDX-License-Identifier: LGPL-2.1-or-later
"""A closed triangle mesh (STL/OBJ) as the scored solid, measured on its triangles, with the
polyhedral B-rep made only when something asks for what only a B-rep has.

FreeCAD's conversion (Part.Shape.makeShapeFromMesh: one planar face per triangle, sewn) and
BRepCheck on the result cost about 0.55 ms per triangle: 15 s of CPU on NIST FTC-06's
26,818-triangle STL, and the alignment's tessellation of that polyhedron (its triangles
back, 5 s), its face loop for the dominant directions (2 s) and its copy in the pose (0.4 s)
as much again. What scoring reads of a mesh is computed from the triangles instead: volume,
area and box by the divergence theorem and the vertices (to 1e-14 of OpenCASCADE's figures
on the same polyhedron), the fine mesh is the triangles themselves, the outward normals and
areas of its planar faces are the triangles'. Any other attribute (Faces, exportBrep, ...)
builds the polyhedral solid once and is read off it, so a route that needs a B-rep still
gets the same one as before.
"""

import time

import numpy as np
import Part

from cadbench_wb.app.model import placement
from cadbench_wb.errors import DeliveryFailure


class Box:
    """The attributes of FreeCAD's BoundBox that scoring reads, from the vertices."""

    def __init__(self, vertices: np.ndarray):
        lo, hi = vertices.min(axis=0), vertices.max(axis=0)
        self.XMin, self.YMin, self.ZMin = (float(v) for v in lo)
        self.XMax, self.YMax, self.ZMax = (float(v) for v in hi)
        self.XLength, self.YLength, self.ZLength = (float(v) for v in hi - lo)
        self.DiagonalLength = float(np.linalg.norm(hi - lo))
        self.Center = tuple(float(v) for v in (lo + hi) / 2)


class TriangleSolid:
    """A closed, consistently outward-oriented triangle mesh standing in for its polyhedral
    Part solid: vertices (n, 3) and triangles (m, 3), both as delivered (the vertices
    merged where they coincide, by FreeCAD's Mesh reader)."""

    ShapeType = "Solid"

    def __init__(self, vertices: np.ndarray, triangles: np.ndarray, brep=None):
        self.vertices = np.ascontiguousarray(vertices, dtype=float)
        self.triangles = np.ascontiguousarray(triangles, dtype=np.int64)
        self._brep = brep  # a callable making the Part solid, or the solid once made
        self.brep_seconds = None  # how long the B-rep took, once something needed it

    @property
    def mesh(self) -> tuple:
        return self.vertices, self.triangles

    @property
    def Solids(self) -> list:  # noqa: N802 - Part.Shape's name
        return [self]

    @property
    def Volume(self) -> float:  # noqa: N802
        return signed_volume(self.vertices, self.triangles)

    @property
    def Area(self) -> float:  # noqa: N802
        # Imported here: every scoring imports this module (meshing asks is_triangles), and
        # mesh_segments brings scipy's optimize and csgraph (0.08 CPU-s), which only a
        # delivered mesh needs.
        from cadbench_wb.geometry import mesh_segments  # noqa: PLC0415 - heavy: loaded on first use

        return float(mesh_segments.triangle_normals(self.vertices, self.triangles)[1].sum())

    @property
    def BoundBox(self) -> Box:  # noqa: N802
        return Box(self.vertices)

    def face_count(self) -> int:
        return len(self.triangles)

    def vertex_points(self) -> np.ndarray:
        return self.vertices

    def moved(self, rotation: np.ndarray, translation: np.ndarray) -> "TriangleSolid":
        """This mesh moved by x -> R x + t (its B-rep, if ever needed, is this one's moved)."""
        original = self

        def placed_brep():
            return placement.placed(original.brep(), rotation, translation)

        return TriangleSolid(self.vertices @ rotation.T + translation, self.triangles, placed_brep)

    def brep(self):
        """The polyhedral Part solid (one planar face per triangle), made on first use."""
        if callable(self._brep) or self._brep is None:
            started = time.process_time()
            make = self._brep if callable(self._brep) else None
            self._brep = make() if make else polyhedral_solid(self.vertices, self.triangles)
            self.brep_seconds = time.process_time() - started
        return self._brep

    def __getattr__(self, name: str):
        # Only reached for what the triangles do not answer: read it off the B-rep.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.brep(), name)


def is_triangles(shape) -> bool:
    return isinstance(shape, TriangleSolid)


def part_shape(shape):
    """The Part shape itself: the polyhedral B-rep of a TriangleSolid (for what hands the
    shape to OpenCASCADE or TechDraw), any other shape as it is."""
    return shape.brep() if is_triangles(shape) else shape


def signed_volume(vertices: np.ndarray, triangles: np.ndarray) -> float:
    """The enclosed volume (positive when the triangles face outward), by the divergence
    theorem about the box centre (against cancellation)."""
    origin = (vertices.min(axis=0) + vertices.max(axis=0)) / 2
    a, b, c = (vertices[triangles[:, k]] - origin for k in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)


def outward_normals(vertices: np.ndarray, triangles: np.ndarray) -> tuple:
    """(unit outward normals, areas) of the triangles with an area."""
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    cross = np.cross(b - a, c - a)
    length = np.linalg.norm(cross, axis=1)
    keep = length > 0
    return cross[keep] / length[keep, None], length[keep] / 2


# The sewing tolerance (mm) of FreeCAD's conversion of a mesh to its polyhedral solid: a
# facet thinner than this may collapse there (loading decides such meshes by BRepCheck).
SEWING_TOLERANCE_MM = 1e-6


def polyhedral_solid(vertices: np.ndarray, triangles: np.ndarray):
    """The Part solid of a closed, outward triangle mesh: FreeCAD's conversion, one planar
    face per triangle, sewn at SEWING_TOLERANCE_MM (what loading did before any check)."""
    shell = Part.Shape()
    shell.makeShapeFromMesh(
        ([tuple(p) for p in vertices], [tuple(int(i) for i in t) for t in triangles]),
        SEWING_TOLERANCE_MM,
    )
    # makeShapeFromMesh sews a closed mesh into one shell already: rebuilding a shell
    # from its faces cost as long again (15 s for 19,800 triangles).
    solid = Part.Solid(shell if shell.ShapeType == "Shell" else Part.Shell(shell.Faces))
    if solid.Volume < 0:
        solid.reverse()
    return solid


def checked_mesh(mesh, path: str) -> tuple:
    """(vertices, outward triangles) of a FreeCAD Mesh that bounds one solid, or the named
    DeliveryFailure: what FreeCAD's Mesh kernel checks in a fraction of a second (closed,
    manifold, one piece, not self-intersecting, consistently oriented) instead of BRepCheck
    on one face per triangle. Facets are made to face the same way (FreeCAD's
    harmonizeNormals; the conversion's sewing did that before) and outward."""
    count = mesh.CountFacets
    if not mesh.isSolid() or mesh.hasNonManifolds():
        raise DeliveryFailure(
            "no_solid", f"{path}: the mesh is not closed ({count} triangles): no solid"
        )
    pieces = mesh.countComponents()
    if pieces > 1:
        # The conversion refused these too: their faces do not sew into one shell.
        raise DeliveryFailure(
            "invalid_solid",
            f"{path}: the closed mesh does not form a solid ({pieces} separate pieces, "
            "not one shell)",
        )
    if mesh.hasSelfIntersections():
        raise DeliveryFailure(
            "invalid_solid",
            f"{path}: the closed mesh is self-intersecting (FreeCAD's Mesh check): its "
            "volume would count the overlap twice",
        )
    if mesh.hasNonUniformOrientedFacets():
        mesh = mesh.copy()
        mesh.harmonizeNormals()
    points, facets = mesh.Topology
    vertices = np.array([tuple(p) for p in points], dtype=float)
    triangles = np.array(facets, dtype=np.int64)
    if signed_volume(vertices, triangles) < 0:
        triangles = triangles[:, ::-1].copy()
    return vertices, triangles
