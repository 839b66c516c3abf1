# SPDX-License-Identifier: LGPL-2.1-or-later
"""FreeCAD macro for ``make screenshots`` (run by tools/screenshots.py under Xvfb).

Scores a bundled case from the workbench, shows the diff, clicks the failed dimension and
authors a case, grabbing the window after each: the PNGs the README and docs show.
"""

import json
import os
import traceback

import FreeCAD
import FreeCADGui

ENV = os.environ
OUT = ENV["CADBENCH_SHOTS_OUT"]
REPORT = os.path.join(OUT, "screenshots.json")

try:
    from cadbench_wb.gui import authoring, case_browser, diff_view, panel, scripted, session
except Exception:
    with open(REPORT, "w") as handle:
        json.dump({"error": traceback.format_exc()}, handle)
    from PySide import QtGui

    QtGui.QApplication.instance().quit()
    raise


BROWSER = [None]


def results():
    return panel.panel()


def shot(report, name):
    path = scripted.screenshot(os.path.join(OUT, f"{name}.png"))
    report.setdefault("files", []).append(path)


def activate(report):
    FreeCADGui.activateWorkbench("CadBenchWorkbench")
    FreeCADGui.getMainWindow().showMaximized()


def browse(report):
    browser = BROWSER[0] = case_browser.show_browser()
    browser.select_case(ENV["CADBENCH_SHOTS_CASE"])
    browser.select_candidate(ENV["CADBENCH_SHOTS_CANDIDATE"])
    return scripted.wait_ms(400)


def grab_browser(report):
    browser = BROWSER[0]
    path = os.path.join(OUT, "case_browser.png")
    browser.grab().save(path)
    report.setdefault("files", []).append(path)
    browser.open_selected(score=True)  # builds the case files first if needed
    return lambda: session.current().case is not None and not results().is_busy()


def show_diff(report):
    results().show_diff()
    results().tabs.setCurrentWidget(results().dimension_table)
    return scripted.wait_ms(600)


def grab_scored(report):
    shot(report, "workbench_scored")
    table = results().dimension_table
    rows = results().rows.get(table) or []
    failed = [i for i, row in enumerate(rows) if row.state == "FAIL"]
    if failed:
        table.selectRow(failed[0])
        results()._row_clicked(table, failed[0])
    return scripted.wait_ms(600)


def grab_failed(report):
    shot(report, "failed_dimension")


def author(report):
    doc = FreeCAD.ActiveDocument
    for obj in diff_view.diff_objects(doc).values():
        diff_view.set_visible(obj, False)
    diff_view.set_visible(session.current().candidate.object(), False)
    FreeCADGui.Selection.clearSelection()
    authoring_panel = authoring.show_authoring()
    reference = session.current().reference.object()
    shape = reference.Shape
    circles = sorted(
        (e.Curve.Radius, f"Edge{i + 1}")
        for i, e in enumerate(shape.Edges)
        if e.Curve.TypeId == "Part::GeomCircle"
    )
    planes = sorted(
        (-f.Area, f"Face{i + 1}")
        for i, f in enumerate(shape.Faces)
        if f.Surface.TypeId == "Part::GeomPlane" and abs(abs(f.normalAt(0, 0).z) - 1) < 1e-9
    )
    for names in ([circles[-1][1]], [circles[0][1]], [planes[0][1], planes[1][1]]):
        FreeCADGui.Selection.clearSelection()
        for name in names:
            FreeCADGui.Selection.addSelection(reference, name)
        authoring_panel.add_from_selection()
    authoring_panel.draft.add("length", 45.0, "front view: bore axis height", "axis position")
    authoring_panel._refill()
    authoring_panel.id_edit.setText("my_bearing_block")
    authoring_panel.title_edit.setText("Bearing block, my drawing")
    FreeCADGui.SendMsgToActiveView("ViewFit")
    return lambda: not authoring_panel.live_busy()


def grab_authoring(report):
    shot(report, "authoring")


STEPS = [
    ("activate", activate),
    ("browse", browse),
    ("grab_browser", grab_browser),
    ("show_diff", show_diff),
    ("grab_scored", grab_scored),
    ("grab_failed", grab_failed),
    ("author", author),
    ("grab_authoring", grab_authoring),
]

scripted.Script(STEPS, REPORT, timeout_s=float(ENV.get("CADBENCH_SHOTS_TIMEOUT", "240"))).start(
    1500
)
