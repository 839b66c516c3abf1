# SPDX-License-Identifier: LGPL-2.1-or-later
"""One real FreeCAD session under Xvfb running a scenario of workbench_macro.py, and its
report: the set-up every workbench GUI test shares."""

import json
import os

import pytest

from cadbench_wb.gui import launch

MACRO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workbench_macro.py")


def require_display_programs() -> None:
    """Skip (with what to install) where Xvfb and its helpers are missing."""
    missing = launch.missing_programs()
    if missing:
        pytest.skip(f"GUI test needs {', '.join(missing)} (make setup installs them)")


def scenario_report(folder, scenario: str, env: dict, timeout_s: float = 200) -> dict:
    """Run SCENARIO in a FreeCAD window with ENV added; its JSON report, checked clean.
    timeout_s guards against a hang only (the session is killed 40 s after it)."""
    report = folder / "report.json"
    temp = folder / "tmp"  # the session's own TMPDIR: what it leaves there is its own
    temp.mkdir(exist_ok=True)
    env = {
        "TMPDIR": str(temp),
        "CADBENCH_GUI_SCENARIO": scenario,
        "CADBENCH_GUI_REPORT": str(report),
        "CADBENCH_GUI_SHOTS": str(folder),
        # Guards against a hang only: every scenario takes 15-35 s on an idle machine, so
        # the limit allows a loaded one too.
        "CADBENCH_GUI_TIMEOUT": str(timeout_s),
        **env,
    }
    process = launch.run_macro(MACRO, env=env, timeout=timeout_s + 40, home=str(folder / "home"))
    assert report.exists(), f"FreeCAD wrote no report; its output:\n{process.stdout[-3000:]}"
    data = json.loads(report.read_text())
    assert data["error"] is None, data["error"]
    assert process.returncode == 0, f"FreeCAD did not exit cleanly:\n{process.stdout[-2000:]}"
    # Scratch folders (gui/session.py, the authoring panel) go with FreeCAD.
    assert sorted(p.name for p in temp.iterdir() if p.name.startswith("cadbench-")) == []
    return data


def metric_row(data: dict, name: str) -> dict:
    """The panel's metric row whose label names NAME."""
    return next(r for r in data["panel"]["metrics"] if f"({name})" in r["cells"][0])
