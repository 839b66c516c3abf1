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
"""

import time

WHAT = {
    "semanticMatch": "features are recognised on analytic B-rep faces",
    "dimensionRecall": "dimensions are measured between analytic B-rep faces and edges "
    "(diameters on circles and cylinders)",
    "drawingMatch": "the drawing dimensions analytic B-rep edges (circles, lines)",
}


def is_mesh(context) -> bool:
    return bool(getattr(context.candidate, "from_mesh", False))


def reason(metric: str, why: str | None = None) -> str:
    """The not-applicable reason of a B-rep-only metric on a mesh candidate."""
    text = f"the candidate is a triangle mesh (STL/OBJ): {WHAT[metric]}"
    if why:
        return f"{text}, and no analytic B-rep could be rebuilt from its triangles: {why}"
    return (
        f"{text}, which a mesh does not have (its facets would fail the reference's own "
        "tessellation by construction); shapeIoU is measured on the triangles"
    )


def not_applicable_on_mesh(context, metric: str, not_applicable, reference_stage) -> bool:
    """Whether the candidate is a mesh; if so the metric is marked not applicable with the
    mesh reason (not_applicable(result, reason)) and the case's ceiling measured on the
    reference alone (reference_stage(reference, case, options, result)), as both B-rep-only
    stages (dimensions, drawing) do."""
    if not is_mesh(context):
        return False
    not_applicable(context.result, reason(metric))
    reference_stage(context.reference, context.case, context.options, context.result)
    return True


def rebuilt(context) -> tuple:
    """(the analytic solid rebuilt from the candidate's triangles in the reference frame, or
    None; the detail for the JSON), computed once per scoring."""
    if "mesh_brep" not in context.cache:
        context.cache["mesh_brep"] = _rebuild(context)
    return context.cache["mesh_brep"]


def _rebuild(context) -> tuple:
    from cadbench_wb.app.mesh_rebuild import mesh_brep  # noqa: PLC0415

    started = time.perf_counter()
    vertices, triangles = context.candidate.mesh
    pose = context.alignment.best
    moved = vertices @ pose.rotation.T + pose.translation
    try:
        solid, summary = mesh_brep.rebuilt_solid(moved, triangles, context.aligned.Volume)
        detail = {"rebuilt": True, **summary}
    except mesh_brep.RebuildFailed as failure:
        solid, detail = None, {"rebuilt": False, "reason": str(failure)}
    elapsed = time.perf_counter() - started
    context.timing["mesh_rebuild"] = elapsed
    return solid, detail
