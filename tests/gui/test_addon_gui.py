# SPDX-License-Identifier: LGPL-2.1-or-later
"""The real FreeCAD GUI (under Xvfb) with the workbench installed as the Addon Manager
installs it: a copy of the repository in a fresh user's Mod/, no .venv, so scoring runs on
FreeCAD's own python3 with whatever it has. Activation says what is missing; the bundled
pair still scores as its case.yaml says."""

import json
import os
import subprocess
import sys

import pytest
from conftest import copy_repository

from cadbench_wb.case_model import cases
from cadbench_wb.gui import launch
from cadbench_wb.runtime import dependencies

pytestmark = pytest.mark.gui

MACRO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "addon_macro.py")
CASE_ID = "fillet_block"
CANDIDATE = "perfect_moved.step"


def lacks(python, module):
    done = subprocess.run([python, "-c", f"import {module}"], capture_output=True, timeout=120)
    return done.returncode != 0


@pytest.fixture(scope="module")
def addon_run(fc, tmp_path_factory):
    missing = launch.missing_programs()
    if missing:
        pytest.skip(f"GUI test needs {', '.join(missing)} (make setup installs them)")
    from cadbench_wb.app.cases import build as case_build

    folder = tmp_path_factory.mktemp("addon")
    home = folder / "home"
    mod = home / ".local" / "share" / "FreeCAD" / "Mod" / "cadbench"
    copy_repository(mod)
    case = cases.load_case(str(mod / "cases" / CASE_ID))
    case_build.build_missing(case)  # as `cadbench case build` or the case browser would
    report = folder / "report.json"
    env = {
        "CADBENCH_GUI_REPORT": str(report),
        "CADBENCH_GUI_CASES": str(mod / "cases"),
        "CADBENCH_GUI_CASE": CASE_ID,
        "CADBENCH_GUI_CANDIDATE": CANDIDATE,
        "CADBENCH_GUI_SHOTS": str(folder),
        "CADBENCH_PYTHON": "",  # no explicit interpreter: what a fresh user has
    }
    process = launch.run_macro(MACRO, env=env, timeout=240, home=str(home))
    assert report.exists(), f"FreeCAD wrote no report; its output:\n{process.stdout[-3000:]}"
    data = json.loads(report.read_text())
    assert data["error"] is None, data["error"]
    expect = next(c.expect for c in case.candidates if os.path.basename(c.file) == CANDIDATE)
    return data, mod, home, expect


def test_the_mod_copy_runs_and_names_what_its_python_lacks(fc, addon_run):
    data, mod, home, _ = addon_run
    assert data["package_file"].startswith(str(mod))
    report = data["dependencies"]
    python = report["python"]
    assert not python.startswith(str(mod))  # no .venv in an Addon Manager install
    expected = [p.pip for p in dependencies.REQUIRED if lacks(python, p.module)]
    assert report["missing_required"] == expected
    target = str(home / ".local" / "share" / "FreeCAD" / "AdditionalPythonPackages")
    # FreeCAD 0.21's Addon Manager and later pip-install into a subfolder per Python.
    if tuple(int(v) for v in fc.Version()[:2]) >= (0, 21):
        target = os.path.join(target, f"py{sys.version_info.major}{sys.version_info.minor}")
    assert data["pip_target"] == target
    if expected:
        (dialog,) = data["dialog"]
        for spec in expected:
            assert f"missing {spec}" in dialog and f"missing {spec}" in data["report_view"]
        assert f"pip install --target {target}" in dialog
        assert "CADBENCH_PYTHON" in dialog and "make setup" in dialog
    else:
        assert data["dialog"] == []


def test_the_bundled_pair_scores_from_the_panel(addon_run):
    data, _, _, expect = addon_run
    result = data["result"]
    assert result["shapeIoU"] == pytest.approx(expect["shapeIoU"]["value"], abs=0.001)
    shape_row = next(r for r in data["panel"]["metrics"] if "(shapeIoU)" in r["cells"][0])
    assert float(shape_row["cells"][1]) == pytest.approx(1.0, abs=0.001)
    python = data["dependencies"]["python"]
    skipped = result["shape"]["crossCheck"].get("meshSkipped")
    assert bool(skipped) == lacks(python, "manifold3d")
