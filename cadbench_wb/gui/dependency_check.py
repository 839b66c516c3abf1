# SPDX-License-Identifier: LGPL-2.1-or-later
"""On activation: ask the scoring child's Python which packages it lacks (cadbench_wb.
dependencies, in a QProcess so FreeCAD stays responsive) and say it in the Report view and,
when a required one is missing, in a dialog with the ways to install it."""

import json
import os
import sys

import FreeCAD

from cadbench_wb.gui import job
from cadbench_wb.gui.qt import QtCore, QtWidgets, translate
from cadbench_wb.runtime import dependencies, runner

_STATE = {"process": None, "report": None, "dialog": None}


def tr(text: str) -> str:
    return translate("CadBench", text)


def addon_pip_target() -> str:
    """The folder FreeCAD's Addon Manager pip-installs into: <user data>/AdditionalPython-
    Packages on 0.20, its py3XX subfolder from 0.21 on."""
    folder = os.path.join(FreeCAD.getUserAppDataDir(), "AdditionalPythonPackages")
    major, minor = (int(v) for v in FreeCAD.Version()[:2])
    if (major, minor) >= (0, 21):
        folder = os.path.join(folder, f"py{sys.version_info.major}{sys.version_info.minor}")
    return folder


def check_once() -> None:
    """Start the check the first time the workbench is activated in this session."""
    if _STATE["process"] is not None or _STATE["report"] is not None:
        return
    process = QtCore.QProcess()
    process.setProcessEnvironment(job.qprocess_environment())
    process.finished.connect(lambda *_: _finished(process))
    _STATE["process"] = process
    try:
        python = runner.python_for_children()
    except Exception as exc:  # no interpreter at all: the report says so
        _report({"python": None, "missing_required": [], "error": str(exc), "ok": False})
        return
    process.start(python, ["-m", "cadbench_wb.runtime.dependencies", "--json"])


def _finished(process) -> None:
    raw = bytes(process.readAllStandardOutput()).decode("utf-8", "replace")
    try:
        report = json.loads(raw)
    except ValueError:
        error = bytes(process.readAllStandardError()).decode("utf-8", "replace").strip()
        report = {
            "python": process.program(),
            "packages": {},
            "missing_required": [p.pip for p in dependencies.REQUIRED],
            "missing_optional": [],
            "ok": False,
            "error": error.splitlines()[-1] if error else "the check printed nothing",
        }
    _report(report)


def _report(report: dict) -> None:
    _STATE["report"] = report
    lines = dependencies.advice(report, addon_pip_target())
    text = "".join(f"cadbench: {line}\n" for line in lines)
    if report.get("missing_required") or report.get("error"):
        FreeCAD.Console.PrintWarning(text)
        _dialog(lines)
    elif report.get("missing_optional"):
        FreeCAD.Console.PrintMessage(text)
    else:
        FreeCAD.Console.PrintLog(text)


def _dialog(lines: list[str]) -> None:
    """Not modal: scripted sessions and tests under Xvfb keep running."""
    box = QtWidgets.QMessageBox()
    box.setIcon(QtWidgets.QMessageBox.Icon.Warning)
    box.setWindowTitle(tr("cadbench: Python packages missing"))
    box.setObjectName("CadBenchDependencies")
    box.setText(tr("The Python that cadbench scores with lacks some packages:"))
    box.setInformativeText("\n".join(lines))
    box.setModal(False)
    box.show()
    _STATE["dialog"] = box


def last_report() -> dict | None:
    """The report of this session's check (None while it runs), for tests and scripts."""
    return _STATE["report"]
