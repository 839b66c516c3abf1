# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write the diff solids (missing, extra, common) as STEP and binary glTF."""

import os

from cadbench_wb.app import meshing

NAMES = {"missing": "diff_missing", "extra": "diff_extra", "common": "diff_common"}


def write_diff(shapes: dict, folder: str) -> dict:
    """Files written per part; a part whose boolean failed or is empty is listed as None.
    Without trimesh (not on the Addon Manager's allow-list) only the STEP files are written:
    each part's "glb" is None and "glbSkipped" says why."""
    try:
        import trimesh  # noqa: PLC0415 - optional dependency, needed only here
    except ImportError as exc:
        trimesh, skipped = None, f"trimesh is not installed ({exc}): STEP only"

    written = {}
    for key, stem in NAMES.items():
        shape = shapes.get(key)
        if shape is None or not shape.Solids:
            written[key] = None
            continue
        step = os.path.join(folder, stem + ".step")
        shape.exportStep(step)
        if trimesh is None:
            written[key] = {"step": step, "glb": None, "glbSkipped": skipped}
            continue
        vertices, triangles = meshing.mesh_of(shape, 0.001 * shape.BoundBox.DiagonalLength)
        glb = os.path.join(folder, stem + ".glb")
        trimesh.Trimesh(vertices=vertices, faces=triangles, process=False).export(glb)
        written[key] = {"step": step, "glb": glb}
    return written
