# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write the diff pieces (missing, extra, common) from the route that decided shapeIoU.

When the exact booleans decided, the pieces are their solids (STEP, and binary glTF for
viewers). When the exact booleans were refuted or skipped and the mesh boolean decided,
showing the exact pieces would draw what the scorer itself rejected (red and blue patches
on a perfect copy), so the pieces are the mesh boolean's (STL and glTF) instead. Either
way, pieces smaller than DIFF_SLIVER_REL of the reference's volume are left out: they are
below what the cross-check resolves, and they are counted in the report instead.

trimesh (glTF) is optional, not on the Addon Manager's allow-list: without it each part's
"glb" is None and "glbSkipped" says why; STEP and STL are written by FreeCAD itself.
"""

import os

import numpy as np
import Part

from cadbench_wb import standard
from cadbench_wb.app.model import meshing

NAMES = {"missing": "diff_missing", "extra": "diff_extra", "common": "diff_common"}


def write_diff(shapes: dict, folder: str, method: str | None = None, volume_a=None) -> dict:
    """Files written per part ({"step"|"stl", "glb", "volume"}; None when empty or when
    its boolean failed), plus 'route' (exact or mesh), the sliver threshold and how many
    slivers were left out, and 'reason' when no route could draw anything."""
    os.makedirs(folder, exist_ok=True)
    sliver = standard.DIFF_SLIVER_REL * (volume_a or 0.0)
    has_exact = any(shapes.get(k) is not None for k in NAMES)
    if method == "exact" and has_exact:
        written = _exact_pieces(shapes, folder, sliver)
        written["route"] = "exact"
    elif shapes.get("mesh_reference") is not None and shapes.get("mesh_candidate") is not None:
        written = _mesh_pieces(shapes["mesh_reference"], shapes["mesh_candidate"], folder, sliver)
        written["route"] = "mesh"
    else:
        written = {key: None for key in NAMES}
        written.update(route=None, reason="no route measured the pieces", droppedSlivers=0)
    written["sliverVolume"] = sliver
    return written


def _exact_pieces(shapes: dict, folder: str, sliver: float) -> dict:
    written, dropped = {}, 0
    for key, stem in NAMES.items():
        shape = shapes.get(key)
        solids = [s for s in (shape.Solids if shape is not None else []) if s.Volume > sliver]
        dropped += len(shape.Solids) - len(solids) if shape is not None else 0
        if not solids:
            written[key] = None
            continue
        kept = Part.makeCompound(solids) if len(solids) > 1 else solids[0]
        step = os.path.join(folder, stem + ".step")
        kept.exportStep(step)
        vertices, triangles = meshing.mesh_of(kept, 0.001 * kept.BoundBox.DiagonalLength)
        written[key] = {"step": step, **_glb(vertices, triangles, folder, stem)}
        written[key]["volume"] = sum(s.Volume for s in solids)
    written["droppedSlivers"] = dropped
    return written


def _mesh_pieces(mesh_a, mesh_b, folder: str, sliver: float) -> dict:
    first, second = meshing.manifold_of(*mesh_a), meshing.manifold_of(*mesh_b)
    if first is None or second is None:
        written = {key: None for key in NAMES}
        written.update(reason="the mesh boolean refused a tessellation", droppedSlivers=0)
        return written
    pieces = {"missing": first - second, "extra": second - first, "common": first ^ second}
    written, dropped = {}, 0
    for key, stem in NAMES.items():
        components = [c for c in pieces[key].decompose() if c.volume() > sliver]
        dropped += len(pieces[key].decompose()) - len(components)
        if not components:
            written[key] = None
            continue
        vertices, triangles = _joined(components)
        stl = os.path.join(folder, stem + ".stl")
        _stl(vertices, triangles, stl)
        written[key] = {"stl": stl, **_glb(vertices, triangles, folder, stem)}
        written[key]["volume"] = float(sum(c.volume() for c in components))
    written["droppedSlivers"] = dropped
    return written


def _joined(components) -> tuple[np.ndarray, np.ndarray]:
    vertices, triangles, offset = [], [], 0
    for component in components:
        mesh = component.to_mesh()
        points = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
        vertices.append(points)
        triangles.append(np.asarray(mesh.tri_verts, dtype=np.int64) + offset)
        offset += len(points)
    return np.vstack(vertices), np.vstack(triangles)


def _glb(vertices, triangles, folder: str, stem: str) -> dict:
    """{"glb": path} or, without trimesh, {"glb": None, "glbSkipped": why}."""
    try:
        import trimesh  # noqa: PLC0415 - optional dependency, needed only here
    except ImportError as exc:
        return {"glb": None, "glbSkipped": f"trimesh is not installed ({exc}): no glTF"}
    glb = os.path.join(folder, stem + ".glb")
    trimesh.Trimesh(vertices=vertices, faces=triangles, process=False).export(glb)
    return {"glb": glb}


def _stl(vertices, triangles, path: str) -> None:
    """Binary STL through FreeCAD's Mesh module (no optional dependency needed)."""
    corners = np.asarray(vertices)[np.asarray(triangles, dtype=np.int64)]
    meshing.freecad_mesh(corners).write(path)
