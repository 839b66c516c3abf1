# SPDX-License-Identifier: LGPL-2.1-or-later
"""``make screenshots``: PNGs of the workbench in a real FreeCAD window (under Xvfb).

Writes out/screenshots/: case_browser.png, workbench_scored.png (panel + 3D diff view of a
bundled case), failed_dimension.png (a failed dimension clicked: its geometry selected and
zoomed to) and authoring.png (the authoring panel with picked dimensions and live figures).
"""

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from cadbench_wb.gui import launch  # noqa: E402

MACRO = os.path.join(ROOT, "tools", "screenshots_macro.py")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/screenshots", help="folder for the PNG files")
    parser.add_argument("--case", default="bearing_block", help="bundled case to score")
    parser.add_argument("--candidate", default="wrong_hole_diameter.step")
    args = parser.parse_args(argv)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    report = os.path.join(out, "screenshots.json")
    if os.path.exists(report):
        os.remove(report)
    env = {
        "CADBENCH_SHOTS_OUT": out,
        "CADBENCH_SHOTS_CASE": args.case,
        "CADBENCH_SHOTS_CANDIDATE": args.candidate,
        "CADBENCH_PYTHON": sys.executable,
    }
    try:
        process = launch.run_macro(MACRO, env=env, timeout=300)
    except launch.GuiUnavailable as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 5
    if not os.path.exists(report):
        print("screenshots: FreeCAD wrote no report:\n" + process.stdout[-2000:], file=sys.stderr)
        return 3
    with open(report) as handle:
        data = json.load(handle)
    if data.get("error"):
        print("screenshots: " + data["error"].strip().splitlines()[-1], file=sys.stderr)
        return 3
    for path in data.get("files", []):
        print(os.path.relpath(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
