# SPDX-License-Identifier: LGPL-2.1-or-later
"""The 3D diff: common, missing and extra material as coloured objects in one group, in
the reference frame (the candidate aligned onto the reference), and the candidate's
alignment applied to or taken off its object.

The solids come from the core (the STEP files a scoring with ``export_diff`` wrote); this
module only reads and shows them.
"""

import contextlib

import FreeCAD
import FreeCADGui

from cadbench_wb.app.model import placement
from cadbench_wb.gui import panel_model


@contextlib.contextmanager
def undoable(doc, name: str):
    """One step of the document's undo history (Edit > Undo, Ctrl+Z), as Part's and
    Inspection's commands make theirs; a step that raises is rolled back."""
    doc.openTransaction(name)
    try:
        yield
    except BaseException:
        doc.abortTransaction()
        raise
    doc.commitTransaction()


GROUP_NAME = "CadBenchDiff"
PART_NAMES = {"common": "DiffCommon", "missing": "DiffMissing", "extra": "DiffExtra"}


def show_diff(doc, result: dict, hide=()) -> dict:
    """Replace the diff group of doc by the diff of result; {part: object}. Objects in
    ``hide`` (reference, candidate) are hidden so the diff is not covered by them."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    files = panel_model.diff_files(result)
    remove_diff(doc)
    group = doc.addObject("App::DocumentObjectGroup", GROUP_NAME)
    group.Label = FreeCAD.Qt.translate("CadBench", "cadbench diff")
    made = {}
    for part, path in files.items():
        if path.lower().endswith(".stl"):
            # The mesh route decided: its pieces are meshes, shown as FreeCAD mesh objects.
            import Mesh  # noqa: PLC0415 - FreeCAD-only

            obj = doc.addObject("Mesh::Feature", PART_NAMES[part])
            obj.Mesh = Mesh.Mesh(path)
        else:
            obj = doc.addObject("Part::Feature", PART_NAMES[part])
            obj.Shape = Part.read(path)
        obj.Label = FreeCAD.Qt.translate("CadBench", panel_model.DIFF_LABELS[part])
        group.addObject(obj)
        rgb, transparency = panel_model.DIFF_STYLE[part]
        view = getattr(obj, "ViewObject", None)
        if view is not None:
            view.ShapeColor = rgb
            view.LineColor = tuple(0.6 * c for c in rgb)
            view.Transparency = transparency
        made[part] = obj
    for obj in hide:
        if obj is not None and getattr(obj, "ViewObject", None) is not None:
            obj.ViewObject.Visibility = False
    doc.recompute()
    return made


DEVIATION_NAMES = ("CadBenchAligned", "CadBenchNominal", "CadBenchDeviation")


def show_deviation(doc, aligned_path: str, nominal_path: str, distances, search_radius: float):
    """The aligned candidate coloured by its distance to the reference, with FreeCAD's own
    Inspection feature (whose view draws the colour bar legend); returns the feature.

    The meshes and distances come from gui/deviation_child.py (a child process ran that
    same Inspection on these meshes): the feature is given its Distances and marked up to
    date, so the recompute here does not measure again in the GUI thread."""
    import Inspection  # noqa: F401, PLC0415 - registers Inspection::Feature
    import Mesh  # noqa: PLC0415 - FreeCAD-only

    remove_deviation(doc)
    aligned = doc.addObject("Mesh::Feature", DEVIATION_NAMES[0])
    aligned.Mesh = Mesh.Mesh(aligned_path)  # FreeCAD's own format: the points in order
    aligned.Label = FreeCAD.Qt.translate("CadBench", "Candidate (aligned mesh)")
    nominal = doc.addObject("Mesh::Feature", DEVIATION_NAMES[1])
    nominal.Mesh = Mesh.Mesh(nominal_path)
    nominal.Label = FreeCAD.Qt.translate("CadBench", "Reference (mesh)")
    if aligned.Mesh.CountPoints != len(distances):
        raise ValueError(
            f"{len(distances)} distances for {aligned.Mesh.CountPoints} points of the mesh"
        )
    feature = doc.addObject("Inspection::Feature", DEVIATION_NAMES[2])
    feature.Label = FreeCAD.Qt.translate("CadBench", "Deviation from the reference")
    feature.Actual = aligned
    feature.Nominals = [nominal]
    feature.SearchRadius = search_radius
    feature.Distances = list(distances)
    group = doc.getObject(GROUP_NAME)
    if group is not None:
        for obj in (aligned, nominal, feature):
            group.addObject(obj)
    set_visible(aligned, False)
    set_visible(nominal, False)
    for obj in (aligned, nominal):
        obj.recompute()
    feature.purgeTouched()  # its distances are measured: no second run here
    doc.recompute()
    return feature


def remove_deviation(doc) -> None:
    for name in reversed(DEVIATION_NAMES):
        if doc is not None and doc.getObject(name) is not None:
            doc.removeObject(name)


def remove_diff(doc) -> None:
    remove_deviation(doc)
    group = doc.getObject(GROUP_NAME)
    if group is None:
        return
    for obj in list(group.Group):
        doc.removeObject(obj.Name)
    doc.removeObject(group.Name)


def diff_objects(doc) -> dict:
    """{part: object} of the diff group currently in doc."""
    if doc is None or doc.getObject(GROUP_NAME) is None:
        return {}
    return {
        part: doc.getObject(name)
        for part, name in PART_NAMES.items()
        if doc.getObject(name) is not None
    }


def set_visible(obj, visible: bool) -> None:
    if obj is not None and getattr(obj, "ViewObject", None) is not None:
        obj.ViewObject.Visibility = bool(visible)


def alignment_placement(alignment: dict):
    """The placement x -> R x + t of the core's alignment."""
    return FreeCAD.Placement(
        placement.matrix_of(
            placement.proper_rotation(alignment["rotation"]), alignment["translation"]
        )
    )


def same(first, second) -> bool:
    """Whether two placements are one (FreeCAD 0.20's Placement has no isSame)."""
    return (first.Base - second.Base).Length < 1e-9 and first.Rotation.isSame(
        second.Rotation, 1e-12
    )


def apply_alignment(obj, alignment: dict, original):
    """Move obj into the reference frame; returns the placement to restore on undo.

    The scorer aligned the shape as it was read (with the object's placement already in
    it), so the aligned placement is the alignment after the original placement."""
    original = original if original is not None else obj.Placement
    obj.Placement = alignment_placement(alignment).multiply(original)
    obj.Document.recompute()
    return original


def undo_alignment(obj, original) -> None:
    if original is not None:
        obj.Placement = original
        obj.Document.recompute()


def select_and_fit(targets: list[tuple[object, str]]) -> list[str]:
    """Select the (object, sub-element) pairs and zoom the 3D view onto them; the names
    selected ("Reference.Edge41")."""
    FreeCADGui.Selection.clearSelection()
    selected, boxes = [], []
    for obj, name in targets:
        if obj is None:
            continue
        set_visible(obj, True)
        FreeCADGui.Selection.addSelection(obj, name)
        selected.append(f"{obj.Name}.{name}")
        try:
            boxes.append(obj.Shape.getElement(name).BoundBox)  # global: Shape is placed
        except (ValueError, IndexError, AttributeError):
            pass
    if boxes:
        zoom_to(boxes)
    return selected


# Margin around a selected edge or face, in multiples of its size: enough of the part to
# see where it sits (Coin fits the box's bounding sphere, which adds its own margin).
ZOOM_CONTEXT = 0.75


def zoom_to(boxes) -> bool:
    """Fit the active 3D view to the union of bounding boxes (FreeCAD 0.20's ViewSelection
    ignores sub-element selections made from Python, so the camera is set here)."""
    view = FreeCADGui.ActiveDocument.ActiveView if FreeCADGui.ActiveDocument else None
    if view is None or not hasattr(view, "getCameraNode"):
        return False
    from pivy import coin  # noqa: PLC0415 - FreeCAD-only

    union = FreeCAD.BoundBox()
    for box in boxes:
        union.add(box)
    pad = ZOOM_CONTEXT * max(union.DiagonalLength, 1e-6)
    box = coin.SbBox3f(
        union.XMin - pad, union.YMin - pad, union.ZMin - pad,
        union.XMax + pad, union.YMax + pad, union.ZMax + pad,
    )  # fmt: skip
    width, height = view.getSize()
    view.getCameraNode().viewBoundingBox(box, width / max(height, 1), 1.0)
    return True
