# SPDX-License-Identifier: LGPL-2.1-or-later
"""How many of a NIST AP242 part's semantic PMI dimensions its automatic case states.

    python tools/nist_pmi_coverage.py PART.stp [PART.stp ...] [--json OUT]

Per part: the PMI read by tools/nist_pmi.py (--all; FTC-07 and FTC-08 state no geometric
unit context it reads, so an inch geometry unit is given for them, as PROVENANCE.md
says), the automatic case written by `cadbench case new` (caches in a temporary folder),
and tests/app/pmi_coverage.py's count: a dimension is *measurable on the solid* when each
of its aspects is faces of the solid, an edge between them or a cylinder's axis line, and
*stated* when targets of its kind and value are bound to those faces. Prints stated /
measurable (the issue's share) and stated / all, with each dimension missed.
"""

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, HERE, os.path.join(ROOT, "tests", "app")]
# Files whose geometry unit nist_pmi cannot read (PROVENANCE.md): mm per solid unit.
GEOMETRY_UNIT_MM = {"nist_ftc_07_asme1_ap242-e2.stp": 25.4, "nist_ftc_08_asme1_ap242-e1.stp": 25.4}


def coverage_of(path: str, work: str) -> dict:
    import nist_pmi
    import Part
    import pmi_coverage

    from cadbench_wb.app.cases import auto
    from cadbench_wb.app.dimensions import location
    from cadbench_wb.case_model import cases

    with open(path, encoding="latin-1") as handle:
        text = handle.read()
    value_unit, geometry_unit = nist_pmi.units_of(text)
    geometry_unit = GEOMETRY_UNIT_MM.get(os.path.basename(path), geometry_unit)
    pmi = nist_pmi.dimensions_of(text, value_unit, geometry_unit)
    name = os.path.splitext(os.path.basename(path))[0]
    case = cases.load_case(auto.write_case(path, os.path.join(work, name), "part", name))
    shape = Part.read(path).Solids[0]
    rows = pmi_coverage.coverage(case, shape, pmi, location.bindings_of(case, shape))
    measurable = [r for r in rows if r["measurable"]]
    return {
        "part": os.path.basename(path),
        "pmi": len(rows),
        "measurable": len(measurable),
        "stated": sum(r["stated"] for r in measurable),
        "targets": len(case.dimensions),
        "drawingSelfTest": case.raw["auto"]["drawingSelfTest"],
        "missed": [r for r in rows if not r["stated"]],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("parts", nargs="+")
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()
    from cadbench_wb.runtime.freecad_env import import_freecad

    import_freecad()
    found = []
    with tempfile.TemporaryDirectory(prefix="cadbench-pmi-") as work:
        os.environ["XDG_CACHE_HOME"] = os.path.join(work, "cache")  # never the user's
        for path in args.parts:
            row = coverage_of(path, work)
            found.append(row)
            share = row["stated"] / row["measurable"] if row["measurable"] else float("nan")
            print(
                f"{row['part']}: {row['stated']}/{row['measurable']} measurable ({share:.0%}), "
                f"{row['stated']}/{row['pmi']} of all; {row['targets']} targets, "
                f"drawingSelfTest {row['drawingSelfTest']}"
            )
            for miss in row["missed"]:
                why = miss["why"] or "measurable, not stated"
                print(f"    #{miss['entity']} {miss['kind']} {miss['value']:g}: {why}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(found, handle, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
