# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench drawing-score: a candidate DXF drawing against a gold DXF drawing."""

import os
import sys

from cadbench_wb.commands.dxf_check import add_timeout_argument
from cadbench_wb.errors import UsageError
from cadbench_wb.results import result as results
from cadbench_wb.runtime import console
from cadbench_wb.runtime.time_limit import TimeLimitReached, wall_clock

HELP = "score a candidate DXF drawing against a gold DXF drawing (geometry, dimensions, text)"


def add_arguments(parser) -> None:
    parser.add_argument("gold", help="the gold drawing (DXF; DWG has no open reader here)")
    parser.add_argument("candidate", help="the candidate drawing (DXF)")
    parser.add_argument("--json", metavar="PATH", help="write the result as JSON ('-' = stdout)")
    parser.add_argument(
        "--diagnostic",
        metavar="PNG",
        help="write a PNG of the registered part (matching black, gold-only red, "
        "candidate-only blue) and of what was set aside as annotation (grey, green)",
    )
    parser.add_argument(
        "--prohibit",
        metavar="TYPES",
        help="comma-separated entity types that make a candidate unscorable "
        "(replaces the default list; '' allows everything)",
    )
    add_timeout_argument(parser)


def run(args) -> int:
    from cadbench_wb.drafting.score import score_drawings, timed_out  # noqa: PLC0415 - heavy: loaded on first use

    for option, path in (("--diagnostic", args.diagnostic), ("--json", args.json)):
        if path and path != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise UsageError(f"{option} {path}: no such folder")
    prohibited = None
    if args.prohibit is not None:
        prohibited = [name.strip() for name in args.prohibit.split(",") if name.strip()]
    try:
        with wall_clock(args.timeout):
            result = score_drawings(
                args.gold, args.candidate, prohibited=prohibited, diagnostic=args.diagnostic
            )
    except TimeLimitReached:
        # The candidate's scored failure, as a scoring's timeout is: a drawing must not
        # escape a FAIL by being slow to read (a gold should be checked against itself).
        detail = f"{args.candidate}: not scored within {args.timeout:g} s (--timeout)"
        result = timed_out(args.gold, args.candidate, detail, prohibited)
    text = results.dumps(result, indent=2, sort_keys=True)
    if args.json == "-":
        console.write_result(text + "\n")
    elif args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    if args.json != "-":
        _print_summary(result)
    if result["failure"] == "gold_invalid":
        print(f"cadbench drawing-score: gold_invalid: {result['failure_detail']}", file=sys.stderr)
        return 4
    return 0


def _print_summary(result: dict) -> None:
    if result["failure"]:
        print(f"score 0  failure {result['failure']}: {result['failure_detail']}")
        return
    print(
        f"score {result['score']:.4f}  raw {result['raw']:.4f}  gate {result['geometry_gate']:.4f}"
    )
    for name, part in sorted(result["components"].items()):
        shown = "n/a" if not part["applicable"] else f"{part['value']:.4f}"
        print(f"  {name:40} {shown}")
    dx, dy = result["registration"]["translation"]
    print(f"  candidate moved by ({dx:.6g}, {dy:.6g}) [{result['registration']['method']}]")
    for side in ("gold", "candidate"):
        counts = result["classification"][side]["by_class"]
        print(f"  {side:9} " + ", ".join(f"{name} {n}" for name, n in counts.items()))
    for side in ("gold", "candidate"):
        for entity in (result.get("notDrawn") or {}).get(side) or ():
            print(f"  {side:9} not drawn (left out of the raster): {entity}")
    for layer, row in sorted(
        (result["components"]["geometry_similarity"].get("layers") or {}).items()
    ):
        print(f"  layer {layer:34} {row['value']:.4f} (same layer {row['same_layer']:.4f})")
