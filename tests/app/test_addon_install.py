# SPDX-License-Identifier: LGPL-2.1-or-later
"""Installed as a FreeCAD user installs an add-on: the repository copied into a fresh
user's Mod/ (no .venv, nothing from `make`), FreeCAD's AdditionalPythonPackages folder, and
scoring children whose Python really lacks a package (its import fails there)."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, copy_repository, run_cli

from cadbench_wb.runtime import dependencies

FREECADCMD = shutil.which("freecadcmd") or shutil.which("FreeCADCmd")
needs_freecadcmd = pytest.mark.skipif(FREECADCMD is None, reason="no freecadcmd on PATH")


def hiding(folder, *modules):
    """A folder that, first on PYTHONPATH, makes `import MODULE` fail in that child."""
    os.makedirs(folder, exist_ok=True)
    for name in modules:
        with open(os.path.join(folder, f"{name}.py"), "w") as handle:
            handle.write(f"raise ImportError('{name} is hidden from this child by a test')\n")
    return str(folder)


def test_child_without_manifold3d_scores_and_says_why(models, tmp_path):
    env = {"PYTHONPATH": hiding(tmp_path / "hide", "manifold3d")}
    status, out, err = run_cli(
        "score",
        models["holed"],
        models["holed_bigger_hole"],
        "--json",
        "-",
        "--no-auto-targets",
        env=env,
    )
    assert status == 0, err
    result = json.loads(out)
    # Ø10 hole in the reference, Ø12 in the candidate (conftest), same frame:
    # IoU = V(candidate) / V(reference), both 40 x 30 x 20 minus the hole.
    import math

    v_ref = 40 * 30 * 20 - math.pi * 5**2 * 20
    expected = (v_ref - math.pi * (6**2 - 5**2) * 20) / v_ref
    assert result["shapeIoU"] == pytest.approx(expected, abs=1e-6)
    shape = result["shape"]
    assert "manifold3d is not installed" in shape["crossCheck"]["meshSkipped"]
    assert shape["crossCheck"]["meshIoU"] is None
    assert shape["checked"] is True and shape["method"] == "exact"
    assert "point sampling" in shape["reason"] and "manifold3d" in shape["reason"]


def test_export_diff_without_trimesh_writes_step_and_says_why(models, tmp_path):
    env = {"PYTHONPATH": hiding(tmp_path / "hide", "trimesh")}
    status, out, err = run_cli(
        "score",
        models["holed"],
        models["holed_bigger_hole"],
        "--export-diff",
        str(tmp_path / "diff"),
        "--json",
        "-",
        env=env,
    )
    assert status == 0, err
    files = json.loads(out)["diffFiles"]
    assert files["extra"] is None  # the candidate lies inside the reference
    for key in ("missing", "common"):
        assert os.path.getsize(files[key]["step"]) > 0
        assert files[key]["glb"] is None and "trimesh" in files[key]["glbSkipped"]
    assert not list((tmp_path / "diff").glob("*.glb"))


def test_child_with_manifold3d_runs_the_mesh_boolean(models):
    # The counterpart: with manifold3d present no mesh check is skipped for want of it. A
    # mesh candidate, so that the mesh boolean must run (the mesh route decides: no exact
    # booleans on triangles; on a B-rep pair point sampling alone may confirm the exact
    # figure, and then the mesh boolean is not needed).
    status, out, err = run_cli(
        "score", models["holed"], models["holed_stl"], "--json", "-", "--no-auto-targets"
    )
    assert status == 0, err
    shape = json.loads(out)["shape"]
    cross = shape["crossCheck"]
    assert "meshSkipped" not in cross and cross["meshIoU"] is not None
    assert shape["method"] == "mesh" and shape["iou"] == cross["meshIoU"]


def test_campaigns_need_no_dask_unless_a_scheduler_is_named(tmp_path):
    hide = hiding(tmp_path / "hide", "dask", "distributed")
    env = dict(os.environ, PYTHONPATH=hide)
    # The local-pool path imports without dask...
    code = "import cadbench_wb.commands.run, cadbench_wb.campaign.batch, cadbench_wb.campaign.pool"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # ...and a scheduler (--scheduler) says what to install instead of a traceback.
    code = (
        "from cadbench_wb.campaign import distributed\n"
        "from cadbench_wb.errors import UsageError\n"
        "try:\n"
        "    distributed.run_on_cluster('tcp://127.0.0.1:9', [], 10, 100, None, None)\n"
        "except UsageError as exc:\n"
        "    print(exc.one_line())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage_error: --scheduler needs dask[distributed]")
    assert "local process pool" in done.stdout


def dependency_report(env_extra):
    env = dict(os.environ, **env_extra)
    done = subprocess.run(
        [sys.executable, "-m", "cadbench_wb.runtime.dependencies", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    return done.returncode, json.loads(done.stdout)


def test_dependency_check_names_a_missing_optional_package(tmp_path):
    status, report = dependency_report({"PYTHONPATH": hiding(tmp_path / "h", "manifold3d")})
    assert status == 0 and report["ok"] is True
    assert report["missing_optional"] == ["manifold3d>=2.5"]
    lines = dependencies.advice(report, "/home/u/.local/share/FreeCAD/AdditionalPythonPackages")
    text = "\n".join(lines)
    assert "point sampling" in text and "make setup" in text and "CADBENCH_PYTHON" in text
    assert "pip install --target /home/u/.local/share/FreeCAD/AdditionalPythonPackages" in text


def test_dependency_check_fails_on_a_missing_required_package(tmp_path):
    status, report = dependency_report({"PYTHONPATH": hiding(tmp_path / "h", "ezdxf")})
    assert status == 1 and report["ok"] is False
    assert report["missing_required"] == ["ezdxf>=1.4"]
    first = dependencies.advice(report)[0]
    assert first.startswith("missing ezdxf>=1.4 (needed for drawings")


# --- the repository in a fresh user's Mod/, run by freecadcmd ------------------------------

CASE = "fillet_block"
CANDIDATE = "candidates/perfect_moved.step"


def lacks(python, module):
    """Whether `import module` fails in that interpreter (an independent probe)."""
    done = subprocess.run([python, "-c", f"import {module}"], capture_output=True, timeout=120)
    return done.returncode != 0


def freecad_env(home):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CADBENCH_PYTHON")}
    env["FREECAD_USER_HOME"] = str(home)
    return env


@pytest.fixture(scope="module")
def mod_install(tmp_path_factory):
    """FREECAD_USER_HOME with Mod/cadbench holding the repository's files (what a clone
    holds: tracked and not ignored), and an AdditionalPythonPackages folder whose `numpy`
    is broken: it must not shadow the interpreter's own (FreeCAD's compiled modules)."""
    home = tmp_path_factory.mktemp("freecad_home")
    target = home / "Mod" / "cadbench"
    copy_repository(target)
    extra = home / "AdditionalPythonPackages"
    os.makedirs(extra / "numpy")
    (extra / "numpy" / "__init__.py").write_text("raise ImportError('shadowing numpy')\n")
    (extra / "cadbench_addon_probe.py").write_text("FOUND = True\n")
    return home, target


SCRIPT = """
import json, sys
from cadbench_wb import cli
from cadbench_wb.runtime import dependencies, runner
env = runner.child_environment()
print("ADDON", env.get("CADBENCH_ADDON_PACKAGES", ""))
import subprocess
probe = "import cadbench_wb, cadbench_addon_probe, numpy; print(numpy.__file__)"
done = subprocess.run([runner.python_for_children(), "-c", probe], env=env,
                      capture_output=True, text=True)
print("PROBE", done.returncode, done.stdout.strip() or done.stderr.strip()[-300:])
print("DEPS", json.dumps(dependencies.child_report()))
status = cli.main(["case", "build", {case!r}])
status = status or cli.main(["score", "--case", {case!r}, {candidate!r}, "--json", {out!r}])
print("STATUS", status)
"""


@needs_freecadcmd
def test_mod_install_scores_a_bundled_pair_headless_or_names_what_to_install(mod_install):
    home, target = mod_install
    case = str(target / "cases" / CASE)
    out = str(home / "result.json")
    script = SCRIPT.format(case=case, candidate=os.path.join(case, CANDIDATE), out=out)
    done = subprocess.run(
        [FREECADCMD, "-c", script],
        capture_output=True,
        text=True,
        cwd=str(home),
        env=freecad_env(home),
        timeout=900,
    )
    lines = {
        line.split(" ", 1)[0]: line.split(" ", 1)[1]
        for line in done.stdout.splitlines()
        if line.startswith(("ADDON ", "DEPS ", "STATUS ", "PROBE "))
    }
    extra = str(home / "AdditionalPythonPackages")
    assert extra in lines["ADDON"].split(os.pathsep)
    # The child imports what the Addon Manager put there, but its numpy stays its own.
    status, numpy_file = lines["PROBE"].split(" ", 1)
    assert status == "0", numpy_file
    assert not numpy_file.startswith(extra)
    report = json.loads(lines["DEPS"])
    python = report["python"]
    assert not python.startswith(str(target))  # no .venv in a Mod/ install
    # The check names exactly what that interpreter lacks, probed independently.
    expected = [p.pip for p in dependencies.REQUIRED if lacks(python, p.module)]
    assert report["missing_required"] == expected
    # Shape scoring needs numpy, scipy and PyYAML; without one of them the score fails
    # and says how to install it (ezdxf and matplotlib serve drawings and plots).
    core = [p for p in dependencies.REQUIRED if p.module in ("numpy", "scipy", "yaml")]
    if any(p.pip in expected for p in core):
        assert lines["STATUS"] != "0" and "cadbench_wb.runtime.dependencies" in done.stderr
        return
    assert lines["STATUS"] == "0", done.stderr[-2000:]
    with open(out, encoding="utf-8") as handle:
        result = json.load(handle)
    # case.yaml: the perfect copy, moved, scores shapeIoU 1.0 within 0.001.
    assert result["shapeIoU"] == pytest.approx(1.0, abs=0.001)
    skipped = result["shape"]["crossCheck"].get("meshSkipped")
    assert bool(skipped) == lacks(python, "manifold3d")
    drawing = result["verdicts"]["drawingMatch"]
    if lacks(python, "ezdxf"):  # Debian's python3 without the Addon Manager's ezdxf
        assert drawing["verdict"] == "NOT CHECKED" and "ezdxf" in drawing["reason"]
    else:
        assert drawing["verdict"] != "NOT CHECKED"


@needs_freecadcmd
def test_freecad_test_runner_runs_the_registered_tests(mod_install):
    home, _ = mod_install
    listed = subprocess.run(
        [FREECADCMD, "-c", "import FreeCAD; print('UNIT', FreeCAD.__unit_test__)"],
        capture_output=True,
        text=True,
        cwd=str(home),
        env=freecad_env(home),
        timeout=300,
    )
    assert "'TestCadbench'" in listed.stdout
    done = subprocess.run(
        [FREECADCMD, "-t", "TestCadbench"],
        capture_output=True,
        text=True,
        cwd=str(home),
        env=freecad_env(home),
        timeout=900,
    )
    text = done.stdout + done.stderr
    assert "Ran 4 tests" in text and "\nOK" in text, text[-3000:]
