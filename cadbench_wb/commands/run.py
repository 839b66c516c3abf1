# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench run: a campaign of systems x runs x cases, resumable after a kill."""

import argparse
import math
import os

from cadbench_wb import errors, standard
from cadbench_wb.code import jobs as code_jobs
from cadbench_wb.code.jobs import settings_of as code_jobs_settings
from cadbench_wb.commands.score import options_from as scoring_options
from cadbench_wb.errors import UsageError
from cadbench_wb.inputs.checks import add_limit_arguments, dask_address

HELP = "score a campaign: SUBMISSIONS/<system>/<run>/<case_id>.<ext> against every case"

# Exit statuses beyond the common ones: some scorings are still NOT CHECKED (rerun to retry);
# a system passed fewer cases than --fail-under asks (1, as pytest exits on failed tests).
EXIT_INCOMPLETE = errors.EXIT_INCOMPLETE
EXIT_BELOW_RATE = errors.EXIT_FAILED


def _rate(text: str) -> float:
    """--fail-under: a pass rate as 0..1 or a percentage ('0.8', '80%')."""
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a pass rate from 0 to 1, or 0% to 100%")
    return value


def add_arguments(parser) -> None:
    parser.add_argument("--cases", default="cases", help="cases folder (default: cases)")
    parser.add_argument(
        "--references",
        metavar="DIR",
        help="instead of --cases: each DIR/<case_id>.<ext> a reference whose automatic case "
        "(`case new`) is made once and kept in OUT/auto-cases",
    )
    parser.add_argument(
        "--submissions", required=True, help="folder of <system>/<run>/<case_id>.<ext>"
    )
    parser.add_argument("--out", required=True, help="campaign folder: store, manifest and reports")
    parser.add_argument(
        "--workers", type=int, default=0, help="scoring processes (default: one per CPU core)"
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        type=dask_address,
        help="run on a Dask cluster, e.g. tcp://10.0.0.5:8786 (see docs/campaigns.md)",
    )
    add_limit_arguments(parser, " per job")
    parser.add_argument(
        "--only", metavar="METRICS", help="comma-separated: shape, dimensions, features, ..."
    )
    parser.add_argument("--spectrum", choices=("default", "extended"), default=None)
    parser.add_argument("--no-align", action="store_true", help="score in the given pose")
    parser.add_argument(
        "--fail-under",
        metavar="RATE",
        type=_rate,
        help="exit 1 when a system's passed (reachable) rate is below RATE (0.8 or 80%%)",
    )
    code_jobs.add_arguments(parser)
    parser.add_argument(
        "--accept-smaller-case-set",
        action="store_true",
        help="record that a group lost cases on purpose instead of aborting",
    )


def run(args) -> int:
    from cadbench_wb.campaign import batch, figures  # noqa: PLC0415 - heavy: loaded on first use

    if args.workers < 0:
        raise UsageError("--workers must be 0 (one per core) or more")
    cases_dir = args.cases
    if args.references:
        from cadbench_wb.case_model import auto_cases  # noqa: PLC0415 - heavy: loaded on first use

        cases_dir = os.path.join(args.out, "auto-cases")
        for line in auto_cases.campaign_cases(
            args.references, cases_dir, args.timeout, args.memory_mb
        ):
            print(line)
        if args.spectrum is None:  # hole positions and pitches: the extended spectrum
            args.spectrum = "extended"
    settings = batch.Settings(
        cases_dir=cases_dir,
        submissions_dir=args.submissions,
        out_dir=args.out,
        workers=args.workers,
        scheduler=args.scheduler,
        timeout=args.timeout or standard.DEFAULT_TIMEOUT_S,
        memory_mb=args.memory_mb or standard.DEFAULT_MEMORY_MB,
        options=scoring_options(args),
        accept_smaller_case_set=args.accept_smaller_case_set,
        code=code_jobs_settings(args),
    )
    document = batch.run_campaign(settings)
    print(figures.text_summary(document))
    from cadbench_wb.campaign.field import field_text  # noqa: PLC0415 - heavy: loaded on first use

    print("\n" + field_text(document))
    stats = document["stats"]
    print(
        f"\nscored now {stats['scoredNow']}, from the store {stats['fromStore']}; reports "
        f"(results.json, results.csv, junit.xml, report.html) in\n  {os.path.abspath(args.out)}"
    )
    for key, what in (
        ("unmatchedFiles", "named after no case, not scored (a typo in a case id?)"),
        ("ignoredFiles", "further files for a case that already has a candidate, not scored"),
    ):
        names = document["campaign"][key]
        if names:
            print(f"{len(names)} file(s) {what}:")
            print("\n".join(f"  {name}" for name in names))
    copies = [r["candidate"] for r in document["scorings"] if r.get("identicalToReference")]
    if copies:
        print(f"{len(copies)} candidate(s) byte for byte the case's own reference:")
        print("\n".join(f"  {name}" for name in copies))
    print(figures.closing_line(document, stats["wallSeconds"]))
    unscored = sum(s["notScored"] for s in document["summary"].values())
    if unscored:
        print(f"{unscored} scoring(s) NOT CHECKED: run the same command again to retry them")
        return EXIT_INCOMPLETE
    if args.fail_under is not None:
        below = figures.systems_below(document, args.fail_under)
        for system, rate in below.items():
            shown = "nothing checked" if rate is None else f"{100 * rate:.1f}%"
            print(
                f"{system}: passed (reachable) {shown}, under --fail-under "
                f"{100 * args.fail_under:.1f}%"
            )
        if below:
            return EXIT_BELOW_RATE
    return 0
