# SPDX-License-Identifier: LGPL-2.1-or-later
"""Why the B-rep-only figures are not applicable to a candidate delivered as a triangle mesh.

semanticMatch, dimensionRecall and drawingMatch read analytic faces and edges (planes,
cylinders, cones, tori; lines and circles); an STL/OBJ has only triangles, so scoring its
facets would fail even the reference's own tessellation by construction (its bore reads as
dozens of steps, its diameters are absent, its drawing prints every facet edge). Each of
those stages reports the metric not applicable with this reason instead, and still reports
the reference's own ceiling. shapeIoU is measured on the triangles as delivered.
"""

WHAT = {
    "semanticMatch": "features are recognised on analytic B-rep faces",
    "dimensionRecall": "dimensions are measured between analytic B-rep faces and edges "
    "(diameters on circles and cylinders)",
    "drawingMatch": "the drawing dimensions analytic B-rep edges (circles, lines)",
}


def is_mesh(context) -> bool:
    return bool(getattr(context.candidate, "from_mesh", False))


def reason(metric: str) -> str:
    """The not-applicable reason of a B-rep-only metric on a mesh candidate."""
    return (
        f"the candidate is a triangle mesh (STL/OBJ): {WHAT[metric]}, which a mesh does not "
        "have (its facets would fail the reference's own tessellation by construction); "
        "shapeIoU is measured on the triangles"
    )
