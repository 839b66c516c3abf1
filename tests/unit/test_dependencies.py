# SPDX-License-Identifier: LGPL-2.1-or-later
"""The dependency check's verdicts on real modules of this interpreter, and its advice."""

import sys

from cadbench_wb.runtime import dependencies
from cadbench_wb.runtime.dependencies import Package


def test_a_module_older_than_its_minimum_is_a_problem():
    import json

    # The standard library's json carries __version__ (2.0.9 on 3.10 to 3.13).
    major = int(json.__version__.split(".")[0])
    old = dependencies.probe(Package("json", "json>=99", "a test", minimum=(major + 1, 0)))
    assert old["version"] == json.__version__
    assert old["problem"] == f"version {json.__version__} is older than json>=99"
    fine = dependencies.probe(Package("json", "json>=1", "a test", minimum=(major, 0)))
    assert fine["problem"] is None


def test_a_module_that_does_not_import_is_a_problem():
    found = dependencies.probe(Package("cadbench_no_such_module", "x", "a test"))
    assert found["version"] is None and found["problem"].startswith("not importable")


def test_advice_when_the_child_could_not_run_the_check():
    report = {
        "python": "/opt/missing/python3",
        "packages": {},
        "missing_required": ["numpy>=1.21"],
        "missing_optional": [],
        "ok": False,
        "error": "/opt/missing/python3 could not run the check (FileNotFoundError)",
    }
    lines = dependencies.advice(report, "/data/AdditionalPythonPackages")
    assert lines[0] == (
        "missing numpy>=1.21 (needed for every metric): "
        "/opt/missing/python3 could not run the check (FileNotFoundError)"
    )
    assert lines[-2] == (
        "  or `/opt/missing/python3 -m pip install --target /data/AdditionalPythonPackages "
        "'numpy>=1.21'`"
    )


def test_advice_when_nothing_is_missing():
    report = {"python": "/usr/bin/python3", "missing_required": [], "missing_optional": []}
    assert dependencies.advice(report) == [
        "all of cadbench's Python packages are present in /usr/bin/python3"
    ]


def test_advice_outside_freecad_names_a_pip_install_debian_accepts(tmp_path, monkeypatch):
    """`python3 -m cadbench_wb.runtime.dependencies` has no FreeCAD to ask: it advises pip's
    --target into FreeCAD's own AdditionalPythonPackages folder, never `pip install --user`
    (Debian 12's Python refuses it: an externally managed environment, PEP 668)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("FREECAD_USER_HOME", raising=False)
    monkeypatch.delitem(sys.modules, "FreeCAD", raising=False)  # as run outside FreeCAD
    report = {"python": "/usr/bin/python3", "missing_required": ["numpy>=1.21"]}
    report["missing_optional"] = []
    text = "\n".join(dependencies.advice(report))
    assert "--user" not in text
    folder = tmp_path / "FreeCAD" / "AdditionalPythonPackages"
    assert f"/usr/bin/python3 -m pip install --target {folder} 'numpy>=1.21'" in text
