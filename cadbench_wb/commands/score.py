# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench score: one candidate against a reference (or a case)."""

import os

from cadbench_wb.input_checks import memory_megabytes, output_file, timeout_seconds
from cadbench_wb.standard import MIN_MEMORY_MB

HELP = "score a candidate model against a reference model or a case"


def add_arguments(parser) -> None:
    parser.add_argument(
        "reference", nargs="?", help="reference model (FCStd, STEP, BREP, STL, OBJ)"
    )
    parser.add_argument("candidate", help="candidate model to score")
    parser.add_argument("--case", help="a case folder or its case.yaml (replaces REFERENCE)")
    parser.add_argument(
        "--json", metavar="PATH", type=output_file, help="write the result as JSON ('-' = stdout)"
    )
    parser.add_argument(
        "--export-diff",
        metavar="DIR",
        help="write missing, extra and common solids as STEP and GLB",
    )
    parser.add_argument(
        "--drawing-dir",
        metavar="DIR",
        help="keep the TechDraw drawings (candidate/, reference/: DXF, SVG, FCStd) here",
    )
    parser.add_argument(
        "--only",
        metavar="METRICS",
        help="comma-separated: shape, dimensions, features, threads, drawing",
    )
    parser.add_argument(
        "--spectrum",
        choices=("default", "extended"),
        default=None,
        help="dimension spectrum: seed 000's (default) or with axis positions",
    )
    parser.add_argument("--no-align", action="store_true", help="score in the given pose")
    parser.add_argument(
        "--timeout", type=timeout_seconds, default=None, help="seconds (default 300)"
    )
    parser.add_argument(
        "--memory-mb",
        type=memory_megabytes,
        default=None,
        help=f"memory limit (default 8192, at least {MIN_MEMORY_MB})",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="score in this process (trusted files only; no crash isolation)",
    )


def options_from(args) -> dict:
    """The scoring options that --only, --no-align and --spectrum ask for (shared with run)."""
    from cadbench_wb import result as results  # noqa: PLC0415

    options = {}
    if args.only:
        options["only"] = [m.strip() for m in args.only.split(",") if m.strip()]
        results.requested_metrics(options["only"])
    if args.no_align:
        options["no_align"] = True
    if args.spectrum:
        options["spectrum"] = args.spectrum
    return options


def checked_reference(path: str) -> None:
    """A reference that is a special file or cannot be read is refused before any work
    starts (exit 4), as the child would refuse it, and never opened if it is a FIFO."""
    from cadbench_wb import input_checks  # noqa: PLC0415
    from cadbench_wb.errors import ReferenceInvalid  # noqa: PLC0415

    try:
        input_checks.checked_file(path)
    except input_checks.FileProblem as problem:
        raise ReferenceInvalid(f"reference unreadable_file: {problem}") from None


def job_from(args) -> dict:
    from cadbench_wb.errors import UsageError  # noqa: PLC0415

    options = options_from(args)
    if args.export_diff:
        options["export_diff"] = os.path.abspath(args.export_diff)
    if args.drawing_dir:
        options["drawing_dir"] = os.path.abspath(args.drawing_dir)
    job = {"kind": "score", "candidate": args.candidate, "options": options}
    if args.case:
        from cadbench_wb import cases  # noqa: PLC0415

        case = cases.load_case(args.case)
        from cadbench_wb.commands.case import ensure_built  # noqa: PLC0415

        ensure_built(case)  # a generated reference is built when absent, never rewritten
        job["case"] = case.path
        job["reference"] = case.reference_path
        if args.reference:
            raise UsageError("give either REFERENCE or --case, not both")
    elif args.reference:
        if not os.path.exists(args.reference):
            raise UsageError(f"reference {args.reference}: no such file")
        checked_reference(args.reference)
        job["reference"] = args.reference
    else:
        raise UsageError("give a REFERENCE model or --case")
    return job


def run(args) -> int:
    from cadbench_wb import console, report, runner, standard  # noqa: PLC0415
    from cadbench_wb import result as results  # noqa: PLC0415
    from cadbench_wb.errors import CadbenchError  # noqa: PLC0415

    job = job_from(args)
    if args.in_process:
        from cadbench_wb import worker  # noqa: PLC0415

        outcome = worker.run(job, os.devnull)
    else:
        outcome = runner.run_job(
            job,
            timeout=args.timeout or standard.DEFAULT_TIMEOUT_S,
            memory_mb=args.memory_mb or standard.DEFAULT_MEMORY_MB,
        )
    if "error" in outcome:
        error = outcome["error"]
        exc = CadbenchError(error["detail"], error["reason"])
        if error["reason"] == "reference_invalid":
            exc.exit_status = 4
        elif error["reason"] in ("usage_error", "case_invalid"):
            exc.exit_status = 2
        elif error["reason"] == "freecad_unavailable":
            exc.exit_status = 5
        elif error["reason"] == "environment_broken":
            exc.exit_status = 8
        raise exc
    result = outcome["result"]
    if args.json:
        text = results.to_json(result)
        if args.json == "-":
            console.write_result(text)
        else:
            with open(args.json, "w") as handle:
                handle.write(text)
    if args.json != "-":
        print(report.summary_text(result))
    return 0
