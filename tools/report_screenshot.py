# SPDX-License-Identifier: LGPL-2.1-or-later
"""``make screenshots`` (part two): a small campaign over bundled cases, its report.html
rendered by headless Chromium.

Two made-up systems deliver the bundled cases' sample candidates (each case's build.py
makes them; nothing is scored by hand): alpha twice (perfect copies, then a mirrored
bracket, a missing counterbore and a wrong bore), beta once (wrong sizes, a missing groove,
a scaled flange). Writes into --out: campaign/ (the campaign's files) and
campaign_report.png (the top of the page: headline tables and pass rates) and
campaign_report_located.png (located recall beside dimensionRecall). Chromium: Debian's
``chromium`` package (``apt-get install chromium``); without it only the campaign is written.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = ("bracket_slot", "plate_counterbored", "turned_shaft", "flange_bolt_circle")
# system -> run -> case -> sample candidate (cases/<case>/candidates/<name>.step)
SUBMISSIONS = {
    "alpha": {
        "r1": dict.fromkeys(CASES, "perfect_moved"),
        "r2": {
            "bracket_slot": "mirrored",
            "plate_counterbored": "missing_counterbore",
            "turned_shaft": "perfect_moved",
            "flange_bolt_circle": "wrong_bore",
        },
    },
    "beta": {
        "r1": {
            "bracket_slot": "wrong_hole_diameter",
            "plate_counterbored": "wrong_counterbore_depth",
            "turned_shaft": "missing_groove",
            "flange_bolt_circle": "scaled_102",
        },
    },
}
# Window (width, height) per picture: the page top, and the located section alone.
WINDOWS = {"campaign_report": (1400, 1100), "campaign_report_located": (1400, 950)}
CHROMIUM = ("chromium", "chromium-browser", "google-chrome")


def _cadbench(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "cadbench_wb", *args], cwd=ROOT, check=True)


def campaign(work: str, out: str) -> str:
    """Builds copies of the cases, lays out the submissions, runs the campaign; returns
    the campaign folder."""
    cases = os.path.join(work, "cases")
    for case in CASES:
        skip = shutil.ignore_patterns("reference.step", "candidates", "__pycache__")
        shutil.copytree(os.path.join(ROOT, "cases", case), os.path.join(cases, case), ignore=skip)
    _cadbench("case", "build", "--root", cases)
    submissions = os.path.join(work, "submissions")
    for system, runs in SUBMISSIONS.items():
        for run, chosen in runs.items():
            folder = os.path.join(submissions, system, run)
            os.makedirs(folder)
            for case, name in chosen.items():
                source = os.path.join(cases, case, "candidates", f"{name}.step")
                shutil.copy(source, os.path.join(folder, f"{case}.step"))
    target = os.path.join(out, "campaign")
    shutil.rmtree(target, ignore_errors=True)
    command = ["run", "--cases", cases, "--submissions", submissions, "--out", target]
    _cadbench(*command, "--only", "shape,dimensions,features", "--workers", "2")
    return target


def screenshot(page: str, png: str, window: tuple) -> bool:
    """Headless Chromium's picture of the page's window."""
    browser = next((shutil.which(name) for name in CHROMIUM if shutil.which(name)), None)
    if browser is None:
        print("report_screenshot: no chromium (apt-get install chromium)", file=sys.stderr)
        return False
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",  # root in a container has no user namespaces
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--window-size={window[0]},{window[1]}",
                f"--screenshot={png}",
                "file://" + os.path.abspath(page),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    return os.path.exists(png)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/screenshots", help="folder for the PNG files")
    args = parser.parse_args(argv)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        folder = campaign(work, out)
    pages = {
        "campaign_report": os.path.join(folder, "report.html"),
        "campaign_report_located": located_page(folder),
    }
    for name, page in pages.items():
        png = os.path.join(out, f"{name}.png")
        if not screenshot(page, png, WINDOWS[name]):
            return 5
        print(os.path.relpath(png))
    return 0


def located_page(folder: str) -> str:
    """The report's header and its located section alone, drawn by the report's own code
    (headless Chromium cannot scroll a page to a section before its picture)."""
    sys.path.insert(0, ROOT)
    from cadbench_wb.campaign import report_page

    with open(os.path.join(folder, "results.json"), encoding="utf-8") as handle:
        document = json.load(handle)
    parts = report_page._header(document)[:2] + report_page._located(document)
    path = os.path.join(folder, "report_located.html")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts) + "</body></html>\n")
    return path


if __name__ == "__main__":
    sys.exit(main())
