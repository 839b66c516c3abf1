# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench drawing: a TechDraw drawing of a model, and what it prints."""

import os

from cadbench_wb.errors import DeliveryFailure, UsageError
from cadbench_wb.inputs.checks import output_file
from cadbench_wb.results import result as results
from cadbench_wb.runtime import console, runner
from cadbench_wb.runtime.outcome import Job, Limits

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
