# SPDX-License-Identifier: LGPL-2.1-or-later
"""FreeCAD macro run by test_addon_gui.py: the workbench installed as the Addon Manager
installs it (a copy in Mod/, no .venv). Activates it, waits for the dependency check,
records what the Report view and the dialog say, then scores a bundled pair from the
toolbar and records the panel. Inputs come from CADBENCH_GUI_* variables."""

import json
import os
import traceback

import FreeCADGui

ENV = os.environ
REPORT = ENV["CADBENCH_GUI_REPORT"]

try:
    import cadbench_wb
    from cadbench_wb.gui import case_browser, dependency_check, panel, scripted, session
    from cadbench_wb.gui.qt import QtWidgets
except Exception:  # report and quit instead of leaving FreeCAD open until the timeout
    with open(REPORT, "w") as handle:
        json.dump({"error": traceback.format_exc()}, handle)
    from PySide import QtGui as _QtGui

    _QtGui.QApplication.instance().quit()
    raise


def report_view_text() -> str:
    """The Report view's text (FreeCAD's ReportOutput is a QTextEdit in the 'Report view'
    dock)."""
    edits = []
    for widget in QtWidgets.QApplication.allWidgets():
        if isinstance(widget, (QtWidgets.QTextEdit, QtWidgets.QPlainTextEdit)):
            edits.append(widget.toPlainText())
    return "\n".join(t for t in edits if "cadbench:" in t)


def step_activate(report):
    report["package_file"] = cadbench_wb.__file__
    FreeCADGui.activateWorkbench("CadBenchWorkbench")
    report["workbench"] = FreeCADGui.activeWorkbench().name()
    return lambda: dependency_check.last_report() is not None


def step_record_check(report):
    report["dependencies"] = dependency_check.last_report()
    report["pip_target"] = dependency_check.addon_pip_target()
    report["report_view"] = report_view_text()
    boxes = [
        w
        for w in QtWidgets.QApplication.topLevelWidgets()
        if w.objectName() == "CadBenchDependencies" and w.isVisible()
    ]
    report["dialog"] = [b.informativeText() for b in boxes]
    if ENV.get("CADBENCH_GUI_SHOTS"):
        path = os.path.join(ENV["CADBENCH_GUI_SHOTS"], "dependencies.png")
        if boxes:
            boxes[0].grab().save(path)
            report["dialog_shot"] = path
    for box in boxes:
        box.close()


def step_open_case(report):
    browser = case_browser.show_browser(ENV["CADBENCH_GUI_CASES"])
    assert browser.select_case(ENV["CADBENCH_GUI_CASE"]), "case not listed in the browser"
    browser.open_button.click()  # the reference is read in the background
    return lambda: not panel.panel().is_busy()


def step_choose_candidate(report):
    combo = panel.panel().candidate_combo
    names = [combo.itemText(i) for i in range(combo.count())]
    index = names.index(ENV["CADBENCH_GUI_CANDIDATE"])
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    return lambda: not panel.panel().is_busy()


def step_settle(report):
    return scripted.wait_ms(800)  # FreeCAD refreshes the commands' enabled state on a timer


def step_score(report):
    panel.panel().score()
    return lambda: not panel.panel().is_busy()


def step_record_score(report):
    report["panel"] = panel.panel().contents()
    report["result"] = session.current().result


script = scripted.Script(
    [
        ("activate", step_activate),
        ("record_check", step_record_check),
        ("open_case", step_open_case),
        ("choose_candidate", step_choose_candidate),
        ("settle", step_settle),
        ("score", step_score),
        ("record_score", step_record_score),
    ],
    REPORT,
    timeout_s=float(ENV.get("CADBENCH_GUI_TIMEOUT", "150")),
)
script.start(1500)
