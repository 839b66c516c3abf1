# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench drawing: a TechDraw drawing of a model, and what it prints."""

import os

from cadbench_wb.inputs.checks import output_file

HELP = "draw a model with TechDraw (DXF, SVG, FCStd) and read back what the drawing prints"


def add_arguments(parser) -> None:
    parser.add_argument("model", help="model to draw (FCStd, STEP, BREP, IGES, STL, OBJ)")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the drawing files")
    parser.add_argument(
        "--case", help="a case folder or its case.yaml: dimension its targets, report coverage"
    )
    parser.add_argument(
        "--projection",
        choices=("first", "third"),
        default="first",
        help="first-angle (ISO, default) or third-angle projection",
    )
    parser.add_argument(
        "--json", metavar="PATH", type=output_file, help="write the report as JSON ('-' = stdout)"
    )
    parser.add_argument(
        "--pose",
        metavar="RESULT.json",
        help="draw the model moved as that score result's alignment moved it (the pose "
        "drawingMatch draws the candidate in)",
    )
    parser.add_argument("--timeout", type=float, default=None, help="seconds (default 300)")
    parser.add_argument("--memory-mb", type=int, default=None, help="memory limit (default 8192)")


def posed(shape, result_path: str):
    """shape moved by the alignment a score result reports (shape.alignment rotation and
    translation: x -> R x + t), as the drawing stage draws the aligned candidate."""
    import json  # noqa: PLC0415

    import numpy as np  # noqa: PLC0415

    from cadbench_wb.app.shape import fidelity as shape_fidelity  # noqa: PLC0415
    from cadbench_wb.errors import UsageError  # noqa: PLC0415
    from cadbench_wb.inputs.checks import FileProblem, open_regular  # noqa: PLC0415

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
    return shape_fidelity.placed(shape, rotation, translation)


def report_of(args, stage=lambda name, file=None: None) -> dict:
    """Draw, read back, and (with a case) match the targets: the command's JSON. Runs in
    the child (worker.py "drawing" job); stage(name) marks each step for outcome.py."""
    from cadbench_wb import __version__  # noqa: PLC0415
    from cadbench_wb.app.drawing import techdraw as drawing  # noqa: PLC0415
    from cadbench_wb.app.model import loading, mesh_solid  # noqa: PLC0415
    from cadbench_wb.drafting import readback as drawing_readback  # noqa: PLC0415
    from cadbench_wb.errors import DeliveryFailure, UsageError  # noqa: PLC0415
    from cadbench_wb.inputs.checks import printable  # noqa: PLC0415
    from cadbench_wb.results import fingerprint  # noqa: PLC0415
    from cadbench_wb.results import result as results  # noqa: PLC0415

    case = None
    if args.case:
        from cadbench_wb.case_model import cases  # noqa: PLC0415

        case = cases.load_case(args.case)
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
    stage("drawing", args.model)
    made = drawing.make_drawing(shape, args.out, case=case, projection=args.projection, title=title)
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


def summary_lines(report: dict) -> list:
    made = report["drawing"]
    lines = [
        f"drawing   {made['sheet']} {made['projection']}-angle, scale {made['scale']}"
        + ("" if made["fitsSheet"] else " (does not fit the sheet)"),
        "files     " + ", ".join(sorted(made["files"].values())),
        "pdf       " + (made["exports"]["pdf"].get("reason") or "written"),
        f"printed   {len(report['displayed'])} dimensions"
        + (f", {len(made['dropped'])} left out" if made["dropped"] else ""),
    ]
    for entry in report["displayed"]:
        target = f"  <- {entry['target']}" if entry.get("target") else ""
        lines.append(f"  {entry['view'] or '?':6} {entry['printed']:>12}{target}")
    check = report["crossCheck"]
    lines.append(
        "crosscheck "
        + ("printed text = FormatSpec(getRawValue)" if check["agree"] else "DISAGREES")
    )
    if report["overlappingLabels"]:
        lines.append(f"overlaps  {report['overlappingLabels']}")
    if report["case"]:
        case = report["case"]
        lines.append(f"case      {case['id']}: {case['found']} of {case['of']} targets displayed")
        for entry in case["dimensions"]:
            if not entry["found"]:
                lines.append(f"  missing {entry['id']} {entry['kind']} {entry['target']:g}")
    return lines


def drawing_job(args):
    """The outcome.Job that draws the model in a child (the operator's paths made absolute)."""
    from cadbench_wb.errors import UsageError  # noqa: PLC0415
    from cadbench_wb.runtime.outcome import Job  # noqa: PLC0415

    if not os.path.exists(args.model):
        raise UsageError(f"model {args.model}: no such file")
    pose = getattr(args, "pose", None)
    params = {
        "out": os.path.abspath(args.out),
        "projection": args.projection,
        "pose": os.path.abspath(pose) if pose else None,
    }
    return Job("drawing", candidate=args.model, case=args.case, params=params)


def run(args) -> int:
    """Draw in a child under the scoring limits, like `score`: a model that crashes,
    hangs or exhausts the kernel ends the child, and the command names the reason (exit 2
    for the model's own failures, errors.py's status for the rest)."""
    from cadbench_wb.errors import DeliveryFailure, UsageError  # noqa: PLC0415
    from cadbench_wb.results import result as results  # noqa: PLC0415
    from cadbench_wb.runtime import console, runner  # noqa: PLC0415
    from cadbench_wb.runtime.outcome import Limits  # noqa: PLC0415

    limits = Limits.of(getattr(args, "timeout", None), getattr(args, "memory_mb", None))
    outcome = runner.run_job(drawing_job(args), limits)
    if isinstance(outcome.error, DeliveryFailure):  # the model given cannot be drawn
        raise UsageError(outcome.error.detail, outcome.error.reason)
    report = outcome.result
    if args.json:
        text = results.to_json(report)
        if args.json == "-":
            console.write_result(text)
        else:
            with open(args.json, "w", encoding="utf-8") as handle:
                handle.write(text)
    if args.json != "-":
        print("\n".join(summary_lines(report)))
    return 0
