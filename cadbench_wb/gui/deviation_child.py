# SPDX-License-Identifier: LGPL-2.1-or-later
"""Show deviation's work, in a child process: the meshes and FreeCAD's Inspection distances.

``python -m cadbench_wb.gui.deviation_child SPEC.json`` reads the reference and the
candidate (BREP files the workbench wrote from its own objects), meshes the candidate for a
look and the reference finely, moves the candidate by the scored alignment, and runs
FreeCAD's own Inspection feature on them in a document of its own. It writes the two meshes
in FreeCAD's own mesh format (``.bms``: the points in the order the distances follow) and
the distances as JSON; the GUI then only makes the document objects, so the window never
waits for the kernel (FreeCAD 0.20's kernel objects are not thread-safe, and Inspection's
recompute runs a nested event loop in the GUI thread).

Progress is one line per step on stdout, ``progress PERCENT TEXT``, with PERCENT rising.
No FreeCADGui here: the child runs FreeCAD without its GUI (Qt's core only, for the event
loop Inspection's threads report to).
"""

import json
import os
import sys

from cadbench_wb.gui import event_loop
from cadbench_wb.runtime.freecad_env import import_freecad

# Distances are searched this far, as a share of the reference's bounding-box diagonal
# (FreeCAD's Inspection): points farther off show in the "outside" colour.
SEARCH_REL = 0.02
# The aligned candidate's mesh has no edge longer than this share of the diagonal (about
# 2,000 points on a block: colours that follow the faces, in a second or two).
EDGE_REL = 0.05
# At most about this many points: the mesh is for a look, not for metrology, and
# Inspection's time grows with its points (bearing_block's 3,800 triangles cut to 5 % of
# the diagonal made 40,000 points, which FreeCAD 0.20 took minutes over). Past the budget
# the longest edge allowed grows until it fits.
POINTS = 5000
# Deflections, as shares of the diagonal: the candidate's (its points then come from the
# subdivision), and the reference's, whose chords stay within 0.02 % of the diagonal of
# the true surface (0.01 mm on a block): Inspection measures to a mesh through a spatial
# grid, to a B-rep solid by one OpenCASCADE distance query per point (minutes).
CANDIDATE_DEFLECTION_REL = 0.002
REFERENCE_DEFLECTION_REL = 0.0002
# The distances are measured in this many slices of the candidate's points, each one
# Inspection run, so that the bar moves while they are measured.
SLICES = 8

FILES = {"aligned": "aligned.bms", "nominal": "nominal.bms", "distances": "distances.json"}


def QT_TRANSLATE_NOOP(_context: str, text: str) -> str:  # noqa: N802 - Qt's name
    """Marks a text for tools/update_translations.py (this child has no FreeCAD GUI): the
    workbench translates the line it reads (gui/deviation.py)."""
    return text


def progress(percent: int, text: str) -> None:
    print(f"progress {int(percent)} {text}", flush=True)


def surface_mesh(shape, deflection: float, max_edge: float | None):
    """A FreeCAD mesh of shape at that deflection; with max_edge, with points inside its
    faces too: a deflection mesh puts a cylinder's points on its two rims only, where the
    distance to the reference is 0 whatever the wall does."""
    from cadbench_wb.app.model import meshing  # noqa: PLC0415 - FreeCAD-only
    from cadbench_wb.geometry.subdivision import subdivided  # noqa: PLC0415 - heavy: loaded on first use

    vertices, triangles = meshing.mesh_of(shape, deflection)
    corners = vertices[triangles]
    if max_edge is not None:
        finer = subdivided(corners, max_edge)
        # A closed triangle mesh has about half as many points as triangles.
        while len(finer) > 2 * POINTS and len(finer) > len(corners):
            max_edge *= 1.5
            finer = subdivided(corners, max_edge)
        corners = finer
    return meshing.freecad_mesh(corners)


def compute(spec: dict, report=progress) -> dict:
    """Write the meshes and distances of spec ({"reference", "candidate": BREP paths,
    "alignment": the scored alignment or None, "out": a folder}); what was written."""
    freecad = import_freecad()
    import Part  # noqa: PLC0415 - FreeCAD-only

    from cadbench_wb.app.model import placement  # noqa: PLC0415 - FreeCAD-only

    report(2, QT_TRANSLATE_NOOP("CadBench", "reading the models"))
    reference = Part.read(spec["reference"])
    candidate = Part.read(spec["candidate"])
    if spec.get("alignment"):
        alignment = spec["alignment"]
        candidate = placement.placed(candidate, alignment["rotation"], alignment["translation"])
    diagonal = reference.BoundBox.DiagonalLength
    report(10, QT_TRANSLATE_NOOP("CadBench", "meshing the candidate"))
    aligned = surface_mesh(candidate, CANDIDATE_DEFLECTION_REL * diagonal, EDGE_REL * diagonal)
    report(25, QT_TRANSLATE_NOOP("CadBench", "meshing the reference"))
    nominal = surface_mesh(reference, REFERENCE_DEFLECTION_REL * diagonal, None)
    out = spec["out"]
    os.makedirs(out, exist_ok=True)
    paths = {key: os.path.join(out, name) for key, name in FILES.items()}
    aligned.write(paths["aligned"])
    nominal.write(paths["nominal"])
    radius = SEARCH_REL * diagonal
    distances = _inspected(freecad, paths, radius, report)
    with open(paths["distances"], "w", encoding="utf-8") as handle:
        json.dump({"distances": distances, "search_radius": radius}, handle)
    report(100, QT_TRANSLATE_NOOP("CadBench", "done"))
    return {**paths, "points": len(distances), "search_radius": radius}


def _inspected(freecad, paths: dict, radius: float, report) -> list:
    """Inspection's distance of each of the aligned mesh's points (in its order) to the
    nominal mesh, measured slice by slice (each slice a point cloud)."""
    import Inspection  # noqa: F401, PLC0415 - registers Inspection::Feature
    import Mesh  # noqa: PLC0415 - FreeCAD-only
    import Points  # noqa: PLC0415 - FreeCAD-only

    event_loop.qt_application()  # Inspection waits for its threads in a Qt event loop
    doc = freecad.newDocument("CadBenchDeviation")
    try:
        nominal = doc.addObject("Mesh::Feature", "Nominal")
        nominal.Mesh = Mesh.Mesh(paths["nominal"])
        points = [p.Vector for p in Mesh.Mesh(paths["aligned"]).Points]
        size = max(1, -(-len(points) // SLICES))
        distances = []
        for start in range(0, len(points), size):
            report(
                40 + 58 * start // max(1, len(points)),
                QT_TRANSLATE_NOOP("CadBench", "measuring the distances (Inspection)"),
            )
            cloud = doc.addObject("Points::Feature", f"Slice{start}")
            cloud.Points = Points.Points(points[start : start + size])
            feature = doc.addObject("Inspection::Feature", f"Inspect{start}")
            feature.Actual = cloud
            feature.Nominals = [nominal]
            feature.SearchRadius = radius
            doc.recompute()
            distances += list(feature.Distances)
        return distances
    finally:
        freecad.closeDocument(doc.Name)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with open(argv[0], encoding="utf-8") as handle:
        spec = json.load(handle)
    try:
        compute(spec)
    except Exception as exc:  # one line for the panel, never a traceback
        print(f"error {type(exc).__name__}: {exc}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
