# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench score: one candidate against a reference (or a case)."""

import dataclasses
import os

from cadbench_wb.case_model.building import ensure_built
from cadbench_wb.code import jobs as code_jobs
from cadbench_wb.errors import ReferenceInvalid, UsageError
from cadbench_wb.inputs import checks as input_checks
from cadbench_wb.inputs.checks import add_limit_arguments, output_file
from cadbench_wb.metrics import registry
from cadbench_wb.results import report
from cadbench_wb.results import result as results
from cadbench_wb.runtime import console, runner
from cadbench_wb.runtime.outcome import Job, Limits, Options, case_data_of

HELP = "score a candidate model against a reference model or a case"


def add_arguments(parser) -> None:
    parser.add_argument(
        "reference", nargs="?", help="reference model (FCStd, STEP, BREP, STL, OBJ)"
    )
    parser.add_argument(
        "candidate", help="candidate model to score, or a CadQuery/build123d/FreeCAD script (.py)"
    )
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
        "--no-auto-targets",
        action="store_true",
        help="without --case: no automatic targets (dimensionRecall and drawingMatch not "
        "applicable), as before `case new` existed",
    )
    add_limit_arguments(parser)
    code_jobs.add_arguments(parser)
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="score in this process (trusted files only; no crash isolation)",
    )


def options_of(args, with_files: bool = False):
    """The outcome.Options that --only, --no-align and --spectrum ask for (and, with files,
    --export-diff and --drawing-dir): built once, shared with run."""
    only = None
    if args.only:
        only = tuple(m.strip() for m in args.only.split(",") if m.strip())
        results.requested_metrics(only)
    files = {}
    if with_files:
        for key in ("export_diff", "drawing_dir"):
            if getattr(args, key, None):
                files[key] = os.path.abspath(getattr(args, key))
    return Options(only=only, no_align=bool(args.no_align), spectrum=args.spectrum, **files)


def options_from(args) -> dict:
    """The scoring options as the campaign store keys them (run)."""
    return options_of(args).as_dict()


def checked_reference(path: str) -> None:
    """A reference that is a special file or cannot be read is refused before any work
    starts (exit 4), as the child would refuse it, and never opened if it is a FIFO."""
    try:
        input_checks.checked_file(path)
    except input_checks.FileProblem as problem:
        raise ReferenceInvalid(f"reference unreadable_file: {problem}") from None


def job_from(args):
    """The outcome.Job of the command line (the case's reference built when absent)."""
    options = options_of(args, with_files=True)
    if args.case:
        if args.reference:
            raise UsageError("give either REFERENCE or --case, not both")
        from cadbench_wb.case_model import cases  # noqa: PLC0415 - heavy: loaded on first use

        case = cases.load_case(args.case)
        ensure_built(case)  # a generated reference is built when absent, never rewritten
        options = _auto_spectrum(options, case)
        return Job(
            "score", case.reference_path, args.candidate, options, case.path,
            case_data=case_data_of(case),
        )  # fmt: skip
    if not args.reference:
        raise UsageError("give a REFERENCE model or --case")
    if not os.path.exists(args.reference):
        raise UsageError(f"reference {args.reference}: no such file")
    checked_reference(args.reference)
    wanted = set(results.requested_metrics(options.only))
    if not getattr(args, "no_auto_targets", False) and wanted & AUTO_METRICS:
        return auto_job(args, options)
    return Job("score", args.reference, args.candidate, options)


def _auto_spectrum(options, case):
    """An automatic case (`case new`, its auto: section) is scored in the spectrum its
    targets were measured in (hole positions and pitches: extended) unless --spectrum says
    otherwise, whether it is found by the reference's hash or given with --case."""
    auto = case.raw.get("auto")
    if options.spectrum is None and isinstance(auto, dict) and auto.get("spectrum"):
        options = dataclasses.replace(options, spectrum=auto["spectrum"])
    return options


# The metrics that need targets: without them (--only shape,features) no automatic case.
AUTO_METRICS = set(registry.requiring("targets"))


def auto_job(args, options):
    """The job against the reference's automatic case (auto_cases.py), made once per
    reference and kept; without one (a reference that cannot be dimensioned) the job has
    no case and args.auto_targets says why."""
    from cadbench_wb.case_model import auto_cases, cases  # noqa: PLC0415 - heavy: loaded on first use

    digest = results.file_digest(args.reference)
    info = auto_cases.auto_case(args.reference, digest, args.timeout, args.memory_mb)
    args.auto_targets = info
    if "failure" in info:
        return Job("score", args.reference, args.candidate, options)
    case = cases.load_case(info["caseFile"])
    options = _auto_spectrum(options, case)
    return Job(
        "score", args.reference, args.candidate, options, case.path,
        case_data=case_data_of(case),
    )  # fmt: skip


def run(args) -> int:
    job = code_jobs.for_command(job_from(args), args)  # a script: run in the sandbox first
    if args.in_process:
        # Only here: the child's entry and its readers of deliveries are no cost of the
        # parent that starts a child (0.01 CPU-s of every `cadbench score`).
        from cadbench_wb.runtime import worker  # noqa: PLC0415 - --in-process only

        limits = Limits.of(args.timeout, args.memory_mb)
        ending = worker.in_process(job, limits)
        outcome = runner.settled(job, limits, ending, run=worker.in_process)
    else:
        outcome = runner.run_job(job, Limits.of(args.timeout, args.memory_mb))
    result = outcome.result  # a named failure is raised with its exit status (errors.py)
    _targets_of(args, result)
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


def _targets_of(args, result: dict) -> None:
    """Where the targets came from: "case" (--case), "auto" with the automatic case's
    fingerprint, or null (--no-auto-targets, or no automatic case, with the reason)."""
    info = getattr(args, "auto_targets", None)
    if args.case:
        result["targets"] = "case"
    elif info and "failure" not in info:
        result["targets"] = "auto"
        result["autoCase"] = {"fingerprint": info["fingerprint"], "caseFile": info["caseFile"]}
    else:
        result["targets"] = None
        if info:
            result["autoCase"] = {"failure": info["failure"]}
