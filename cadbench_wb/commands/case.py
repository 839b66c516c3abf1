# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench case: list, check, build and verify reference cases (cases/<id>/case.yaml)."""

import os
import sys

from cadbench_wb.commands.score import checked_reference
from cadbench_wb.errors import UsageError

HELP = "list, check, build and verify the reference cases"

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def default_root() -> str:
    """./cases when there is one, else the cases folder of this checkout."""
    here = os.path.join(os.getcwd(), "cases")
    return here if os.path.isdir(here) else os.path.join(PACKAGE_PARENT, "cases")


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="the cases: id, group, dimensions, candidates")
    listing.add_argument("--root", help="folder of case folders (default: ./cases)")
    check = sub.add_parser("check", help="validate case.yaml files (no FreeCAD needed)")
    check.add_argument("case", nargs="+", metavar="CASE", help="case folder or case.yaml")
    new = sub.add_parser(
        "new",
        help="a case from any reference: the dimensions a drafter puts on its drawing",
        description="write FOLDER/case.yaml and a copy of the reference: the targets are the "
        "dimensions the drawing planner and feature recognition find, each bound to its faces",
    )
    new.add_argument("reference", metavar="REFERENCE", help="reference model (STEP, BREP, FCStd)")
    new.add_argument("--out", required=True, metavar="FOLDER", help="the case folder to write")
    new.add_argument("--id", help="case id (default: the reference's file name)")
    new.add_argument("--title", help="case title (default: from the reference's file name)")
    for name, text in (
        ("build", "build generated references and candidates that are absent (never rewrites)"),
        (
            "verify",
            "regenerate into a temporary folder and compare by meaning; check each "
            "dimension's declared spectrum against the reference",
        ),
    ):
        action = sub.add_parser(name, help=text, description=text)
        action.add_argument(
            "case", nargs="*", metavar="CASE", help="case ids or folders (default: all)"
        )
        action.add_argument("--root", help="folder of case folders (default: ./cases)")


def _chosen(args) -> list:
    from cadbench_wb.case_model import cases  # noqa: PLC0415 - heavy: loaded on first use

    root = args.root or default_root()
    if getattr(args, "case", None):
        return [cases.load_case(_case_path(name, root)) for name in args.case]
    return cases.discover_cases(root)


def _case_path(name: str, root: str) -> str:
    """A case folder or case.yaml as given, else the id `case list` prints, in root."""
    if os.path.exists(name) or os.sep in name:
        return name
    in_root = os.path.join(root, name)
    return in_root if os.path.isdir(in_root) else name


def run(args) -> int:
    actions = {"list": _list, "check": _check, "build": _build, "verify": _verify, "new": _new}
    return actions[args.action](args)


def _new(args) -> int:
    from cadbench_wb.app.cases import auto  # noqa: PLC0415 - FreeCAD-only

    if not os.path.exists(args.reference):
        raise UsageError(f"reference {args.reference}: no such file")
    checked_reference(args.reference)
    stem = os.path.splitext(os.path.basename(args.reference))[0]
    path, data = auto.written_case(
        args.reference, args.out, args.id or stem, args.title or f"{stem} (automatic targets)"
    )
    auto_data = data["auto"]
    print(
        f"{path}: {len(data['dimensions'])} targets ({len(auto_data['leftOut'])} left "
        f"out), drawingSelfTest {auto_data['drawingSelfTest']}"
    )
    return 0


def _list(args) -> int:
    rows = [("id", "group", "anchoring", "dims", "default/extended/none", "candidates", "built")]
    for case in _chosen(args):
        declared = [sum(d.spectrum == s for d in case.dimensions) for s in _DECLARED]
        built = os.path.exists(case.reference_path) and all(
            os.path.exists(c.path) for c in case.candidates
        )
        rows.append(
            (
                case.id,
                case.group or "-",
                "yes" if case.anchoring else "no",
                str(len(case.dimensions)),
                "/".join(str(n) for n in declared),
                str(len(case.candidates)),
                "yes" if built else "no",
            )
        )
    _print_table(rows)
    return 0


_DECLARED = ("default", "extended", "none")


def _check(args) -> int:
    from cadbench_wb.case_model import cases  # noqa: PLC0415 - heavy: loaded on first use

    for path in args.case:
        case = cases.load_case(path)
        print(
            f"{case.case_file}: ok ({len(case.dimensions)} dimensions, "
            f"{len(case.candidates)} candidates)"
        )
        for field in cases.unknown_fields(case):
            print(f"  note: unknown field {field} is ignored")
    return 0


def _build(args) -> int:
    from cadbench_wb.app.cases import build as case_build  # noqa: PLC0415 - FreeCAD-only

    for case in _chosen(args):
        written = case_build.build_missing(case)
        state = f"built {len(written)} file(s)" if written else "up to date"
        print(f"{case.id}: {state}")
        for relative in written:
            print(f"  {relative}")
    return 0


def _verify(args) -> int:
    from cadbench_wb.app.cases import build as case_build  # noqa: PLC0415 - FreeCAD-only

    failed = 0
    for case in _chosen(args):
        problems, notes = case_build.verify(case)
        print(f"{case.id}: {'FAIL' if problems else 'ok'}")
        for line in problems:
            print(f"  problem: {line}")
        for line in notes:
            print(f"  note: {line}")
        failed += bool(problems)
    if failed:
        print(f"{failed} case(s) failed verification", file=sys.stderr)
        return 1
    return 0


def _print_table(rows) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
