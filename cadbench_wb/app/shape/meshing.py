# SPDX-License-Identifier: LGPL-2.1-or-later
"""Tessellations of solids as numpy arrays, and manifold3d meshes built from them."""

import numpy as np


def mesh_of(shape, deflection: float) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n, 3) and triangles (m, 3) of every solid of a shape."""
    vertices, triangles, offset = [], [], 0
    for solid in shape.Solids:
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


def manifold_missing() -> str | None:
    """None when manifold3d imports; else why the mesh booleans cannot run. manifold3d is
    not on FreeCAD's Addon Manager allow-list: without it the IoU is cross-checked by point
    sampling alone and thread zone volumes are not measured."""
    try:
        import manifold3d  # noqa: F401, PLC0415 - optional dependency
    except ImportError as exc:
        return f"mesh boolean not run: manifold3d is not installed ({exc})"
    return None


def manifold_of(vertices: np.ndarray, triangles: np.ndarray):
    """A manifold3d solid from a closed triangle mesh, or None if it is not a manifold (or
    manifold3d is missing: see manifold_missing)."""
    if manifold_missing():
        return None
    import manifold3d  # noqa: PLC0415 - optional at import, required at use

    if len(triangles) == 0:
        return None
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
    import Mesh  # noqa: PLC0415

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
