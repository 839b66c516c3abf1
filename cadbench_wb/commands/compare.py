# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench compare: two campaigns side by side (only under the same metric fingerprint)."""

from cadbench_wb.results import result as results
from cadbench_wb.runtime import console

HELP = "put two campaigns' results side by side; refuses to mix metric fingerprints"


def add_arguments(parser) -> None:
    parser.add_argument("results_a", help="results.json of campaign A (or its folder)")
    parser.add_argument("results_b", help="results.json of campaign B (or its folder)")
    parser.add_argument(
        "--json", metavar="PATH", help="write the comparison as JSON ('-' = stdout)"
    )


def run(args) -> int:
    from cadbench_wb.campaign import comparison  # noqa: PLC0415 - heavy: `compare` only

    result = comparison.compared(comparison.load(args.results_a), comparison.load(args.results_b))
    if args.json:
        text = results.dumps(result, indent=2, sort_keys=True) + "\n"
        if args.json == "-":
            console.write_result(text)
            return 0
        with open(args.json, "w", encoding="utf-8") as handle:
            handle.write(text)
    print(comparison.comparison_text(result))
    return 0
