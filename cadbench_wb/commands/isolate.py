# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench isolate: a working copy for one case with every trace of its truth removed."""

import os

HELP = "make a history-free working copy without the case's truth, and prove it by a scan"


def add_arguments(parser) -> None:
    parser.add_argument("--case", required=True, help="the case id")
    parser.add_argument("--from", dest="project", required=True, help="the project folder")
    parser.add_argument("--to", dest="workdir", required=True, help="the new working copy")
    parser.add_argument(
        "--rulebook", help="copied without its <!-- evidence --> ... <!-- /evidence --> sections"
    )
    parser.add_argument(
        "--cases",
        help="the cases folder, relative to the current folder as every path given is "
        "(default: the project's cases/)",
    )
    parser.add_argument(
        "--remove",
        action="append",
        default=[],
        metavar="PATTERN",
        help="also leave out paths matching this pattern (relative, '/'-separated, e.g. "
        "'tests/*'); repeatable, recorded in the proof",
    )


def run(args) -> int:
    from cadbench_wb.campaign import isolation  # noqa: PLC0415 - heavy: loaded on first use

    # A path the operator typed is read from where they typed it, like --from and --to.
    cases = os.path.abspath(args.cases) if args.cases else "cases"
    proof = isolation.isolate(
        args.case, args.project, args.workdir, args.rulebook, cases, tuple(args.remove)
    )
    scan = proof["scan"]
    rules = {}
    for entry in proof["removed"]:
        rules[entry["rule"]] = rules.get(entry["rule"], 0) + 1
    print(f"working copy  {proof['workingCopy']} (no version history)")
    print("removed       " + (", ".join(f"{r} {n}" for r, n in sorted(rules.items())) or "none"))
    if "rulebook" in proof:
        book = proof["rulebook"]
        print(
            f"rulebook      {book['copiedTo']} ({book['evidenceSectionsRemoved']} evidence "
            "section(s) removed)"
        )
    grep = scan["grep"]
    grep_text = (
        "; ".join(f"`{r['command']}` exit {r['exitStatus']}, no file" for r in grep["runs"])
        if grep.get("available")
        else "grep not installed (the built-in scan stands alone)"
    )
    print(
        f"scan          {scan['files']} files, {scan['bytes']} bytes, {len(scan['terms'])} terms,"
        f" {len(scan['values'])} values: 0 hits"
    )
    print(f"grep proof    {grep_text}")
    print(f"proof         {proof['proofPath']}")
    return 0
