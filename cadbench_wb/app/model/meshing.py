# SPDX-License-Identifier: LGPL-2.1-or-later
"""Tessellations of solids as numpy arrays, and manifold3d meshes built from them (cracks
closed, repaired or remeshed where manifold3d refuses a tessellation)."""

import hashlib
import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app.model import mesh_solid, thread_flanks


def _tessellated(shape, deflection: float) -> tuple[np.ndarray, np.ndarray]:
    vertices, triangles, offset = [], [], 0
    for solid in shape.Solids or [shape]:  # a patched shell (split_for_meshing) has none
        points, facets = solid.tessellate(deflection)
        if not facets:
            continue
        v = np.array([(p.x, p.y, p.z) for p in points], dtype=np.float64)
        vertices.append(v)
        triangles.append(np.asarray(facets, dtype=np.int64) + offset)
        offset += len(v)
    if not vertices:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    return np.vstack(vertices), np.vstack(triangles)


def cross_check_meshes(reference, candidate, diagonal: float) -> tuple:
    """The fine meshes of reference and candidate that alignment and the cross-checks share.

    Linear deflection mesh_deflection_rel x diagonal, angular deflection
    mesh_angular_deflection (Part's tessellate fixes it at 0.1 rad, which puts 126 nodes on
    every circle whatever its size: the NIST parts' meshes then take 1-3 s each for volume
    errors of 1e-6 to 5e-5 that nothing needs). Modeled threads keep Part's tessellation:
    their mesh figure is the reported one and the thread zones are measured on it.
    """
    params = standard.CROSS_CHECK
    deflection = params["mesh_deflection_rel"] * diagonal
    if thread_flanks.has_modeled_thread(reference) or thread_flanks.has_modeled_thread(candidate):
        return mesh_of(reference, deflection), mesh_of(candidate, deflection)
    angular = params["mesh_angular_deflection"]
    return mesh_of(reference, deflection, angular), mesh_of(candidate, deflection, angular)


def mesh_of(shape, deflection: float, angular: float | None = None) -> tuple:
    """Vertices (n, 3) and triangles (m, 3) of every solid of a shape: Part's tessellate, or
    with angular (rad) OpenCASCADE's mesher at that angular deflection (MeshPart), planar
    faces with many holes cut into patches first (split_for_meshing). A mesh delivered as
    triangles (mesh_solid.TriangleSolid) is its own triangles at every deflection: its
    planar faces tessellate into themselves (5 s on NIST FTC-06's 26,818-triangle STL)."""
    if mesh_solid.is_triangles(shape):
        return shape.mesh
    if angular is None:
        return _tessellated(shape, deflection)
    vertices, triangles, offset = [], [], 0
    for solid in shape.Solids:
        v, t = _meshed(split_for_meshing(solid) or solid, deflection, angular)
        if len(t) == 0:
            continue
        vertices.append(v)
        triangles.append(t + offset)
        offset += len(v)
    if not vertices:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    return np.vstack(vertices), np.vstack(triangles)


def _meshed(shape, deflection: float, angular: float) -> tuple[np.ndarray, np.ndarray]:
    """MeshPart meshes the shape in place at the angular deflection, as Part's tessellate
    would at 0.1 rad (later tessellations at this deflection or coarser, and the
    triangulation-based optimalBoundingBox of the diagnostics, reuse it: on a copy the box
    alone cost 1.6 s on NIST FTC-07); tessellate then reads that triangulation back in
    double precision (MeshPart's own points are single precision: a box's volume would be
    off by 1e-7)."""
    import MeshPart  # noqa: PLC0415 - FreeCAD-only

    MeshPart.meshFromShape(
        Shape=shape, LinearDeflection=deflection, AngularDeflection=angular, Relative=False
    )
    return _tessellated(shape, deflection)


def split_for_meshing(solid):
    """The solid's boundary as a shell whose planar faces with many holes are cut into
    patches, or None where no face has mesh_split_holes holes (or the cut fails).

    OpenCASCADE's planar Delaunay is superlinear in a face's boundary nodes: the top face
    of a plate with 250 holes alone takes 12 s and most of a gigabyte at 0.1 rad, 2 s at
    0.2 rad; cut into patches of about mesh_split_holes_per_patch holes the whole plate
    meshes in about a second. Cutting planes cross the face along two directions in its
    plane, a fixed odd fraction of a patch off the grid so that they do not run through
    the regular features of a part; the faces two pieces share are left out, so the shell
    has the solid's own boundary and the mesh no inner walls.
    """
    import Part  # noqa: PLC0415 - FreeCAD-only

    params = standard.CROSS_CHECK
    faces = solid.Faces
    planar = [i for i, f in enumerate(faces) if isinstance(f.Surface, Part.Plane)]
    if not planar:
        return None
    index = max(planar, key=lambda i: len(faces[i].Wires))
    holes = len(faces[index].Wires) - 1
    if holes < params["mesh_split_holes"]:
        return None
    cells = math.ceil(math.sqrt(holes / params["mesh_split_holes_per_patch"]))
    # Cut in the face's own frame (its normal along z, its longest edge along x), then
    # moved back: the cutting planes and their bounding boxes are then axis-aligned, and the
    # General Fuse's interference pre-filter (boxes against boxes) passes only the faces
    # near each cut; on a tilted copy every box spans the part.
    to_face, back = _face_frame(faces[index])
    local = solid.copy()
    local.transformShape(to_face)
    try:
        shell = _patched_shell(local, local.Faces[index], cells)
    except Exception:  # OCC failures surface as several exception types: mesh it whole
        return None
    if shell is not None:
        shell.transformShape(back)
    return shell


def _face_frame(face):
    """FreeCAD matrices taking the solid into the planar face's frame (x along its longest
    edge, z along its normal, a vertex at the origin) and back: rigid motions."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    normal = np.array(tuple(face.Surface.Axis))
    first = _edge_direction(face, normal)
    rotation = np.array([first, np.cross(normal, first), normal])
    origin = np.array(tuple(face.Vertexes[0].Point))

    def matrix(turn, shift):
        rows = [[*turn[i], shift[i]] for i in range(3)]
        return FreeCAD.Matrix(*(value for row in rows for value in row), 0, 0, 0, 1)

    return matrix(rotation, -rotation @ origin), matrix(rotation.T, origin)


def _patched_shell(solid, face, cells: int):
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only
    import Part  # noqa: PLC0415 - FreeCAD-only

    normal = np.array(tuple(face.Surface.Axis))
    first = _edge_direction(face, normal)
    second = np.cross(normal, first)
    corners = np.array([tuple(v.Point) for v in face.Vertexes])
    size = solid.BoundBox.DiagonalLength
    tools = []
    for direction in (first, second):
        along = corners @ direction
        low, step = along.min(), (along.max() - along.min()) / cells
        for k in range(1, cells):
            point = direction * (low + (k + SPLIT_OFFSET) * step)
            plane = Part.Plane(FreeCAD.Vector(*point), FreeCAD.Vector(*direction))
            tools.append(plane.toShape(-size, size, -size, size))
    _, piece_map = solid.generalFuse(tools, 0.0)
    faces = [f for piece in piece_map[0] if piece.ShapeType == "Solid" for f in piece.Faces]
    buckets: dict[int, list] = {}
    for f in faces:
        buckets.setdefault(f.hashCode(), []).append(f)
    outer = [f for f in faces if sum(1 for g in buckets[f.hashCode()] if g.isSame(f)) == 1]
    shell = Part.Shell(outer)
    if not shell.isClosed():
        return None
    return shell


def _edge_direction(face, normal) -> np.ndarray:
    """A unit direction in the face's plane that belongs to the part, not to its pose: along
    the longest straight edge of the outer wire (the first of equals, as the wire runs).

    Cuts parallel to a plate's own edges run between its rows of holes; cuts at an angle to
    them (a direction taken from the world axes, on a tilted copy) cross a hole every few
    millimetres, and each crossing is a curve the General Fuse computes: 1.4 s of CPU
    against 0.4 s for the same plate with 250 holes (the cut alone). A copy in any pose is
    then cut the same way. A face without straight edges takes a direction from the axes."""
    best, direction = 0.0, None
    for edge in face.OuterWire.Edges:
        if type(edge.Curve).__name__ not in ("Line", "LineSegment"):
            continue
        start, end = (np.array(tuple(v.Point)) for v in (edge.Vertexes[0], edge.Vertexes[-1]))
        length = float(np.linalg.norm(end - start))
        if length > best * (1 + 1e-9):
            best, direction = length, end - start
    if direction is not None:
        direction = direction - (direction @ normal) * normal
        if np.linalg.norm(direction) > 0:
            return direction / np.linalg.norm(direction)
    helper = np.eye(3)[int(np.argmin(np.abs(normal)))]
    first = np.cross(normal, helper)
    return first / np.linalg.norm(first)


# Cutting planes sit this fraction of a patch past the grid lines (an odd number, so that
# they miss the round positions designers put holes at).
SPLIT_OFFSET = 0.0371


def manifold_missing() -> str | None:
    """None when manifold3d imports; else why the mesh booleans cannot run. manifold3d is
    not on FreeCAD's Addon Manager allow-list: without it the IoU is cross-checked by point
    sampling alone (thread zone volumes need no manifold: app/threads/zone.py)."""
    try:
        import manifold3d  # noqa: F401, PLC0415 - optional dependency
    except ImportError as exc:
        return f"mesh boolean not run: manifold3d is not installed ({exc})"
    return None


# The manifolds of the last meshes asked for, by content (_mesh_key): one scoring may ask
# for a fine mesh's manifold more than once (the mesh boolean, a compound's union; 30-50 ms
# each on an M8 bolt's 29,000 triangles).
_MANIFOLDS: dict = {}
_MANIFOLDS_KEPT = 2


def manifold_of(vertices: np.ndarray, triangles: np.ndarray):
    """A manifold3d solid from a closed triangle mesh, or None if it is not a manifold (or
    manifold3d is missing: see manifold_missing). A manifold is immutable: the one made
    for the same vertices and triangles before is returned again."""
    if manifold_missing():
        return None
    if len(triangles) == 0:
        return None
    key = _mesh_key(vertices, triangles)
    if key not in _MANIFOLDS:
        _MANIFOLDS[key] = _new_manifold(vertices, triangles)
        while len(_MANIFOLDS) > _MANIFOLDS_KEPT:
            del _MANIFOLDS[next(iter(_MANIFOLDS))]
    return _MANIFOLDS[key]


def _mesh_key(vertices: np.ndarray, triangles: np.ndarray) -> tuple:
    """The mesh's content as a key: shapes, types and a digest of the bytes (about 1 ms
    for a 29,000-triangle mesh), so that an array changed in place is never taken for the
    mesh it was."""
    parts = []
    for array in (np.ascontiguousarray(vertices), np.ascontiguousarray(triangles)):
        digest = hashlib.blake2b(array.view(np.uint8).ravel(), digest_size=16).hexdigest()
        parts.append((array.shape, array.dtype.str, digest))
    return tuple(parts)


def _new_manifold(vertices: np.ndarray, triangles: np.ndarray):
    import manifold3d  # noqa: PLC0415 - optional at import, required at use

    mesh = manifold3d.Mesh64(
        vert_properties=np.ascontiguousarray(vertices, dtype=np.float64),
        tri_verts=np.ascontiguousarray(triangles, dtype=np.uint64),
    )
    if hasattr(mesh, "merge"):
        mesh.merge()
    solid = manifold3d.Manifold(mesh)
    if solid.status() != manifold3d.Error.NoError or solid.is_empty():
        return None
    return solid


def freecad_mesh(corners: np.ndarray):
    """A FreeCAD Mesh from triangles given by their corner points (m, 3, 3)."""
    import Mesh  # noqa: PLC0415 - FreeCAD-only

    return Mesh.Mesh([tuple(p) for p in np.asarray(corners).reshape(-1, 3)])


def transformed(vertices: np.ndarray, rotation: np.ndarray, translation: np.ndarray) -> np.ndarray:
    return vertices @ rotation.T + translation


def union_of_solids(shape, deflection: float):
    """The manifold3d union of each solid's own mesh, or None if one is not a manifold."""
    parts = [manifold_of(*mesh_of(solid, deflection)) for solid in shape.Solids]
    if not parts or any(part is None for part in parts):
        return None
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return None if total.is_empty() else total


def trimesh_available() -> bool:
    try:
        import trimesh  # noqa: F401, PLC0415 - optional
    except ImportError:
        return False
    return True


def closed_cracks(vertices: np.ndarray, triangles: np.ndarray, deflection: float):
    """The mesh with its cracks closed, and how many: (vertices, triangles, count), or None
    when it has an open loop wider than a crack can be (then it is a hole, not a crack).

    OpenCASCADE meshes each face within the deflection of its surface; where two faces'
    discretizations of their shared edge do not meet (bd_warehouse's M3 stud: 2e-5 mm apart
    over five triangle edges, in most poses of its copy), the mesh has an open loop and
    manifold3d refuses it. Both polylines lie within the deflection of the same edge curve,
    so such a crack is at most twice the deflection wide: each open loop up to that width
    (twice its area over its perimeter, the width of a sliver) is closed by a fan of
    triangles turned against the loop's own edges (the volume that moves is within the
    sliver's area times its width, nothing beside the mesh's own volume error: on the M3
    stud's copy the closed mesh is within 1.5e-5 of the exact volume, its deflection's)."""
    triangles = np.asarray(triangles, dtype=np.int64)
    if len(triangles) == 0:
        return None
    loops = _open_loops(triangles)
    if loops is None:
        return None
    if not loops:
        return vertices, triangles, 0
    fans = []
    for loop in loops:
        points = vertices[loop]
        fan = np.column_stack(
            [np.full(len(loop) - 2, loop[0]), loop[2:], loop[1:-1]]
        )  # (p0, p[k+1], p[k]): each loop edge p[k] -> p[k+1] met by its reverse
        a, b, c = (vertices[fan[:, k]] for k in range(3))
        area = np.linalg.norm(np.cross(b - a, c - a), axis=1).sum() / 2
        perimeter = np.linalg.norm(np.roll(points, -1, axis=0) - points, axis=1).sum()
        if perimeter <= 0 or 2 * area / perimeter > 2 * deflection:
            return None
        fans.append(fan)
    return vertices, np.vstack([triangles, *fans]), len(loops)


def _open_loops(triangles: np.ndarray) -> list | None:
    """The mesh's open boundary as loops of vertex indices, each running the way its
    triangles' edges run; None where an edge is shared by more than two triangles or the
    open edges do not close into loops."""
    edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    size = int(triangles.max()) + 1
    keys = edges[:, 0] * size + edges[:, 1]
    unique, counts = np.unique(keys, return_counts=True)
    if (counts > 1).any():  # the same directed edge twice: not an orientable surface
        return None
    reverse = edges[:, 1] * size + edges[:, 0]
    open_edges = edges[~np.isin(reverse, unique)]
    following: dict[int, list[int]] = {}
    for a, b in open_edges.tolist():
        following.setdefault(a, []).append(b)
    loops = []
    while following:
        start = next(iter(following))
        loop, current = [start], start
        while True:
            ends = following.get(current)
            if not ends:
                return None
            nxt = ends.pop()
            if not ends:
                del following[current]
            if nxt == start:
                break
            if len(loop) > len(open_edges):
                return None
            loop.append(nxt)
            current = nxt
        if len(loop) >= 3:
            loops.append(np.array(loop, dtype=np.int64))
    return loops


def repaired_manifold(vertices: np.ndarray, triangles: np.ndarray):
    """manifold_of after trimesh's own clean-up, or None: coincident vertices merged,
    degenerate and duplicate facets dropped (trimesh's winding repair needs networkx, which
    cadbench does not depend on). Tessellations
    of real parts are refused for exactly these (a sliver facet along a seam, a vertex
    doubled where two faces' edges were meshed apart)."""
    try:
        import trimesh  # noqa: PLC0415 - optional (not on the Addon Manager's allow-list)
    except ImportError:
        return None  # no repair: the caller retries with a finer tessellation
    if len(triangles) == 0:
        return None
    mesh = trimesh.Trimesh(vertices=vertices, faces=triangles, process=True)
    mesh.update_faces(mesh.nondegenerate_faces())
    mesh.update_faces(mesh.unique_faces())
    mesh.remove_unreferenced_vertices()
    return manifold_of(np.asarray(mesh.vertices), np.asarray(mesh.faces))


def manifold_for(mesh, shape, diagonal, aligned=None):
    """A manifold3d solid for one side, what was tried before it (or before giving up), and
    the mesh that replaces the side's mesh, if one does (None: keep it).

    In turn, each tried only when what came before was refused:
    - the tessellation itself, then with its cracks closed (closed_cracks: two
      faces' meshes of a shared edge that do not meet, bd_warehouse's M3 stud in most
      poses; 30 ms);
    - for a compound of touching solids (one non-manifold whole), the union of each
      solid's own mesh;
    - the alignment's mesh (aligned; MeshPart at mesh_angular_deflection): where Part's
      0.1 rad leaves free edges along short tolerant B-spline edges (NIST FTC-07's AP242
      edition: 94, edges toleranced up to 0.126 mm, at any linear deflection) it is
      closed, and its volume error enters the mesh tolerance as any mesh's does;
    - trimesh's repair (coincident vertices merged, degenerate and duplicate facets
      dropped);
    - the tessellation made again at each of mesh_retry_factors x the deflection, finer
      first, then coarser (each with its cracks closed): a crack or sliver belongs to one
      discretization of an edge, another deflection discretizes it anew.
    A replacement (a retry's mesh, the alignment's) stands for the side from then on;
    cracks closed or trimesh's repair serve the boolean only."""
    params = standard.CROSS_CHECK
    deflection = params["mesh_deflection_rel"] * diagonal
    solid = manifold_of(*mesh)
    if solid is not None:
        return solid, [], None
    attempts = [("with its cracks closed", lambda: (_closed(mesh, deflection), None))]
    if len(shape.Solids) > 1:
        attempts.append(
            (
                "as the union of its solids' own meshes",
                lambda: (union_of_solids(shape, deflection), None),
            )
        )
    if aligned is not None:
        angle = params["mesh_angular_deflection"]
        attempts.append(
            (
                f"as the alignment's mesh ({angle:g} rad)",
                lambda: (manifold_of(*aligned), aligned),
            )
        )
    if trimesh_available():
        attempts.append(("after trimesh's repair", lambda: (repaired_manifold(*mesh), None)))
    if len(mesh[1]):
        for factor in params["mesh_retry_factors"]:
            attempts.append(
                (f"at {factor:g} x the deflection", _retry(shape, factor * deflection, factor > 1))
            )
    steps = ["its tessellation is not a manifold"]
    for label, attempt in attempts:
        solid, replacement = attempt()
        if solid is not None:
            return solid, steps + [f"{label} it is one"], replacement
        steps.append(f"nor {label}")
    if not trimesh_available():
        steps.append("(no trimesh)")
    return None, steps, None


def _retry(shape, deflection: float, coarser: bool):
    """An attempt at a new tessellation at this deflection (its cracks closed if need be).

    A finer one refines the shape's own triangulation in place, as before the coarser retry
    was added: the finer triangulation stays on the shape's faces, and a later mesh of it
    (the remeshed route's union of a compound's solids) is made from it. (asm_Hypnotic's
    third solid is a manifold only so: at 0.1 rad its fresh tessellation is not one, nor a
    fresh one at half the deflection; the one refined from the alignment's is.) A coarser
    one is made on an untriangulated copy: on the shape itself it would reuse the finer
    triangulation."""

    def attempt():
        retry = mesh_of(_untriangulated(shape) if coarser else shape, deflection)
        solid = manifold_of(*retry)
        return (solid if solid is not None else _closed(retry, deflection)), retry

    return attempt


def _closed(mesh, deflection: float):
    """The manifold of the mesh with its cracks closed, or None."""
    closed = closed_cracks(*mesh, deflection)
    if closed is None or closed[2] == 0:
        return None
    return manifold_of(closed[0], closed[1])


def _untriangulated(shape):
    """A copy to tessellate anew (one that holds no triangulation yet: Part's tessellate
    reuses a finer one); a triangle mesh is its own tessellation."""
    return shape if mesh_solid.is_triangles(shape) else shape.copy()
