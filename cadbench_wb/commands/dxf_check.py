# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench dxf-check: do a DXF drawing's printed dimensions match its own lines?"""

import sys

from cadbench_wb import standard
from cadbench_wb.errors import UsageError
from cadbench_wb.inputs.checks import output_file, timeout_seconds
from cadbench_wb.results import result as results
from cadbench_wb.runtime import console
from cadbench_wb.runtime.time_limit import TimeLimitReached, wall_clock

HELP = "check that every dimension of a DXF drawing prints what its lines measure"


def add_arguments(parser) -> None:
    parser.add_argument("file", help="a DXF drawing (DWG has no open reader here)")
    parser.add_argument(
        "--json", metavar="PATH", type=output_file, help="write the report as JSON ('-' = stdout)"
    )
    parser.add_argument(
        "--scale",
        default="1:1",
        help="the sheet's scale, e.g. 1:2 (lengths then print twice what their lines "
        "measure); default 1:1",
    )
    add_timeout_argument(parser)


def add_timeout_argument(parser) -> None:
    """--timeout for the commands that read a DXF in this process (time_limit.py)."""
    parser.add_argument(
        "--timeout",
        type=timeout_seconds,
        default=standard.DEFAULT_TIMEOUT_S,
        help=f"seconds (default {standard.DEFAULT_TIMEOUT_S}): past it, the drawing's failure "
        "is `timeout`",
    )


def scale_factor(text: str) -> float:
    """'1:2' -> 2.0 (a half-size sheet prints twice its lines), '2:1' -> 0.5, '2' -> 2.0."""
    try:
        if ":" in text:
            sheet, model = (float(part) for part in text.split(":", 1))
            factor = model / sheet
        else:
            factor = float(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"--scale {text!r}: give a ratio such as 1:2") from None
    if not factor > 0 or factor == float("inf"):
        raise UsageError(f"--scale {text!r}: the scale must be positive")
    return factor


def run(args) -> int:
    from cadbench_wb.drafting.checks import check_file, failed_report  # noqa: PLC0415 - heavy: loaded on first use
    from cadbench_wb.drafting.reading import DrawingUnreadable  # noqa: PLC0415 - (logging: not for other commands)

    scale = scale_factor(args.scale)
    try:
        with wall_clock(args.timeout):
            report = check_file(args.file, scale)
        status = 0
    except DrawingUnreadable as exc:
        report = failed_report(args.file, exc.reason, exc.detail)
        status = exc.exit_status
    except TimeLimitReached:
        detail = f"{args.file}: not checked within {args.timeout:g} s (--timeout)"
        report, status = failed_report(args.file, "timeout", detail), 2
    text = results.dumps(report, indent=2, sort_keys=True)
    if args.json == "-":
        console.write_result(text + "\n")
    elif args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    if report["failure"]:
        print(
            f"cadbench dxf-check: {report['failure']}: {report['failure_detail']}", file=sys.stderr
        )
    elif args.json != "-":
        _print_summary(report)
    return status


def _print_summary(report: dict) -> None:
    print(f"{report['path']}: {'OK' if report['ok'] else 'FLAGGED'}")
    for name, level in report["levels"].items():
        print(f"  {name} {'ok  ' if level['ok'] else 'FAIL'} {level['title']}")
        for finding in level["findings"]:
            print(
                f"       {finding['severity']}: {finding['code']} ({finding['count']}) "
                f"{finding['detail']}"
            )
    for entry in report["dimensions"]:
        if not entry["ok"]:
            print(f"  dimension {entry['handle']}: {entry['reason']}: {entry['detail']}")
