# SPDX-License-Identifier: LGPL-2.1-or-later
"""What `cadbench drawing` reports on one model: drawn, read back and (with a case) matched
to the targets. Made in the scoring child (runtime/worker.py's "drawing" job), so the
command itself (commands/drawing.py) never imports the FreeCAD layer."""

import json
import os

import numpy as np

from cadbench_wb import __version__
from cadbench_wb.app.drawing import techdraw as drawing
from cadbench_wb.app.model import loading, mesh_solid, placement
from cadbench_wb.case_model import cases
from cadbench_wb.drafting import readback as drawing_readback
from cadbench_wb.errors import DeliveryFailure, UsageError
from cadbench_wb.inputs.checks import FileProblem, open_regular, printable
from cadbench_wb.results import fingerprint
from cadbench_wb.results import result as results


def posed(shape, result_path: str):
    """shape moved by the alignment a score result reports (shape.alignment rotation and
    translation: x -> R x + t), as the drawing stage draws the aligned candidate."""
    try:
        with open_regular(result_path) as handle:  # a FIFO is refused, never opened
            alignment = (json.load(handle).get("shape") or {}).get("alignment") or {}
        rotation = np.array(alignment["rotation"], float).reshape(3, 3)
        translation = np.array(alignment["translation"], float).reshape(3)
    except (
        FileProblem,
        OSError,
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        RecursionError,
    ) as exc:
        raise UsageError(
            f"--pose {result_path}: not a score result with a shape alignment ({exc})"
        ) from None
    # A rotation as printed (to any number of digits) is orthonormal to those digits only:
    # placed() takes the nearest rotation; what is no rotation at all is refused.
    gram = rotation.T @ rotation
    if not (np.isfinite(gram).all() and np.allclose(gram, np.eye(3), atol=1e-6)):
        raise UsageError(f"--pose {result_path}: the alignment's rotation is not a rotation")
    if not np.isfinite(translation).all() or np.linalg.det(rotation) < 0:
        raise UsageError(f"--pose {result_path}: the alignment is not a rigid motion")
    return placement.placed(shape, rotation, translation)


def _reference_hold(case):
    """With --pose and a case, the model is held as the case's reference is (the views
    drawingMatch draws the candidate in); None without a readable reference."""
    if case is None or not os.path.isfile(case.reference_path):
        return None
    from cadbench_wb.app.drawing import stage as drawing_stage  # noqa: PLC0415 - heavy

    try:
        reference = loading.load_model(case.reference_path, "reference")
    except DeliveryFailure:
        return None
    return drawing_stage.candidate_hold(reference.shape)


def report_of(args, stage=lambda name, file=None: None) -> dict:
    """Draw, read back, and (with a case) match the targets: the command's JSON. Runs in
    the child (runtime/worker.py's "drawing" job); stage(name) marks each step for outcome.py."""
    case = cases.load_case(args.case) if args.case else None
    if not os.path.exists(args.model):
        raise UsageError(f"model {args.model}: no such file")
    try:
        model = loading.load_model(args.model, "candidate")
    except DeliveryFailure as failure:
        raise UsageError(failure.detail, failure.reason) from None
    # FreeCAD takes text as UTF-8: a name that is not UTF-8 is titled in its escaped form.
    title = printable(os.path.splitext(os.path.basename(args.model))[0])
    pose = getattr(args, "pose", None)
    # TechDraw draws a Part shape: a mesh's is its polyhedron (made here, on first need).
    solid = mesh_solid.part_shape(model.shape)
    shape = posed(solid, pose) if pose else solid
    # make_drawing's two steps, each its own stage (the workbench's bar names them): the
    # views projected (hidden-line removal, most of the time), then the dimensions placed
    # and the files written; then the drawing read back.
    stage("drawing", args.model)
    hold = _reference_hold(case) if pose else None
    with drawing.drawing_session(shape, args.projection, title, hold) as session:
        stage("drawing:dimensions", args.model)
        made = session.draw(args.out, case, None)
    stage("drawing:readback", args.model)
    read = drawing_readback.read_back(args.out, made)
    report = {
        "schema": "cadbench.drawing/1",
        "cadbenchVersion": __version__,
        "model": {"path": args.model, "sha256": results.file_digest(args.model)},
        "pose": f"aligned as in {os.path.basename(pose)}" if pose else "as delivered",
        "drawingFingerprint": fingerprint.drawing_fingerprint({"projection": args.projection}),
        "drawing": made,
        "displayed": read["displayed"],
        "crossCheck": read["crossCheck"],
        "overlappingLabels": read["overlappingLabels"],
        "case": None,
    }
    if case is not None:
        match = drawing_readback.target_match(case.dimensions, read["displayed"])
        report["case"] = {"id": case.id, **match}
    return results.rounded(report)
