# SPDX-License-Identifier: LGPL-2.1-or-later
"""A candidate delivered as a triangle mesh: the analytic B-rep rebuilt from it, and why the
B-rep-only figures are not applicable when that fails.

semanticMatch reads analytic faces and edges (planes, cylinders, cones, tori; lines and
circles); an STL/OBJ has only triangles, so scoring its facets would fail even the
reference's own tessellation by construction (its bore reads as dozens of steps). The
feature stage reads the features off the B-rep rebuilt from the triangles
(app/mesh_rebuild/mesh_brep.py) instead; where the rebuild fails, the metric is not applicable
with the rebuild's reason. dimensionRecall and drawingMatch are not applicable on a mesh
(with the reference's ceiling). shapeIoU is measured on the triangles as delivered.
Which metric reads what of a B-rep is its registry line's ``brep`` (metrics/registry.py);
the orchestrator applies the rule (app/requirements.py).
"""


def reason(reads: str, why: str | None = None) -> str:
    """The not-applicable reason of a B-rep-only metric on a mesh candidate; reads: what
    the metric reads of a B-rep (its registry line's ``brep``)."""
    text = f"the candidate is a triangle mesh (STL/OBJ): {reads}"
    if why:
        return f"{text}, and no analytic B-rep could be rebuilt from its triangles: {why}"
    return (
        f"{text}, which a mesh does not have (its facets would fail the reference's own "
        "tessellation by construction); shapeIoU is measured on the triangles"
    )


def rebuilt_from(facts) -> tuple:
    """(the analytic solid rebuilt from the candidate's triangles in the reference frame, or
    None; the detail for the JSON); facts.mesh_rebuild keeps it for the scoring."""
    from cadbench_wb.app.mesh_rebuild import mesh_brep  # noqa: PLC0415 - heavy: loaded on first use

    vertices, triangles = facts.candidate.mesh
    pose = facts.alignment.best
    moved = vertices @ pose.rotation.T + pose.translation
    try:
        solid, summary = mesh_brep.rebuilt_solid(moved, triangles, facts.aligned.Volume)
        return solid, {"rebuilt": True, **summary}
    except mesh_brep.RebuildFailed as failure:
        return None, {"rebuilt": False, "reason": str(failure)}
