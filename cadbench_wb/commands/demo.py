# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench demo: score every bundled case's sample candidates and check each against what
its construction says (case.yaml ``candidates:``), then print the table and write a report."""

import json
import os
import sys

from cadbench_wb import resources
from cadbench_wb.case_model.building import ensure_built
from cadbench_wb.inputs.checks import timeout_seconds
from cadbench_wb.metrics import registry
from cadbench_wb.results import result as results
from cadbench_wb.runtime import runner
from cadbench_wb.runtime.outcome import Job, Limits, Options, case_data_of

HELP = "score the bundled cases' sample candidates and check them against their construction"


def _columns() -> tuple:
    """Each registered metric, with the figures its registry line shows beside it."""
    return tuple(c for metric in registry.METRICS for c in (metric.name, *metric.beside))


COLUMNS = _columns()


def add_arguments(parser) -> None:
    parser.add_argument("--cases", default=resources.CASES, help="cases folder (default: bundled)")
    parser.add_argument("--case", action="append", help="only this case id (repeatable)")
    parser.add_argument("--out", default="out/demo", help="report folder (default out/demo)")
    parser.add_argument(
        "--workers", type=int, default=None, help="parallel scorings (default: cores)"
    )
    parser.add_argument(
        "--only", metavar="METRICS", help="comma-separated metric groups, as in score"
    )
    parser.add_argument("--timeout", type=timeout_seconds, default=None, help="seconds per scoring")


def _jobs(cases, only):
    options = Options(only=tuple(only) if only else None)
    jobs = []
    for case in cases:
        data = case_data_of(case)  # loaded and validated once, here
        for candidate in case.candidates:
            job = Job(
                "score", case.reference_path, candidate.path, options, case.path, case_data=data
            )
            jobs.append((case, candidate, job))
    return jobs


def _score(job, timeout):
    """(result, None) or (None, the named failure's one line): runner.run_job's outcome."""
    outcome = runner.run_job(job, Limits.of(timeout))
    if outcome.error is not None:
        return None, outcome.error.one_line()
    return outcome.value, None


def _cell(result, key) -> str:
    value = None if result is None else result.get(key)
    return "-" if value is None else f"{value:.3f}"


def run(args) -> int:
    import concurrent.futures  # noqa: PLC0415 - heavy: loaded on first use

    from cadbench_wb.case_model import cases as cases_mod  # noqa: PLC0415 - heavy: loaded on first use

    only = [m.strip() for m in args.only.split(",")] if args.only else None
    if only:
        results.requested_metrics(only)
    cases = cases_mod.discover_cases(args.cases)
    if args.case:
        cases = [c for c in cases if c.id in set(args.case)]
    for case in cases:
        ensure_built(case)
    jobs = _jobs(cases, only)
    workers = args.workers or max(1, os.cpu_count() or 1)
    # The scoring children take their environment from this process's.
    os.environ.update(runner.stages_serial_when_saturated(dict(os.environ), workers))
    print(
        f"scoring {len(jobs)} candidates of {len(cases)} cases with {workers} worker(s)", flush=True
    )
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_score, job, args.timeout) for _, _, job in jobs]
        for (case, candidate, _), future in zip(jobs, futures, strict=True):
            result, error = future.result()
            problems = (
                [error]
                if error
                else cases_mod.expectation_failures(
                    candidate.expected(result.get("freecadVersion")), result
                )
            )
            if only:  # expectations of metrics that were not computed are not checked
                problems = [p for p in problems if not _about_skipped(p, result)]
            rows.append(
                {
                    "case": case.id,
                    "candidate": candidate.name,
                    "note": candidate.note,
                    "result": result,
                    "problems": problems,
                }
            )
            _print_row(rows[-1])
    os.makedirs(args.out, exist_ok=True)
    mismatched = [row for row in rows if row["problems"]]
    with open(os.path.join(args.out, "demo.json"), "w") as handle:
        json.dump(rows, handle, indent=2, sort_keys=True)
    print(
        f"\n{len(rows) - len(mismatched)} of {len(rows)} candidates score as their construction "
        f"says; report: {os.path.join(args.out, 'demo.json')}"
    )
    for row in mismatched:
        for problem in row["problems"]:
            print(f"  MISMATCH {row['case']}/{row['candidate']}: {problem}", file=sys.stderr)
    return 1 if mismatched else 0


def _about_skipped(problem: str, result) -> bool:
    key = problem.split(":", 1)[0].strip()
    return (
        result is not None
        and result.get(key.split(".")[0]) is None
        and key not in ("delivered", "failure")
    )


_HEADER_PRINTED = []


def _print_row(row) -> None:
    if not _HEADER_PRINTED:
        print(
            f"{'case':22} {'candidate':26} {'delivery':18} "
            + " ".join(f"{c[:9]:>9}" for c in COLUMNS)
            + "  verdict    check"
        )
        _HEADER_PRINTED.append(True)
    result = row["result"]
    if result is None:
        delivery = "error"
    elif result["delivered"]:
        delivery = "delivered"
    else:
        delivery = result["failure"]["reason"]
    verdict = "-" if result is None else result.get("verdict", {}).get("reachable", "-")
    check = "ok" if not row["problems"] else "MISMATCH"
    print(
        f"{row['case'][:22]:22} {row['candidate'][:26]:26} {delivery[:18]:18} "
        + " ".join(f"{_cell(result, c):>9}" for c in COLUMNS)
        + f"  {verdict:10} {check}",
        flush=True,
    )
