# SPDX-License-Identifier: LGPL-2.1-or-later
"""FreeCAD macro run by test_workbench_gui.py inside the real GUI (under Xvfb).

It uses the workbench as a user would: activates it, opens a case in the case browser,
picks a candidate, presses Score and Show diff on the toolbar, applies and undoes the
alignment, clicks the failed dimension, authors a new case by picking on the reference,
and writes what the window shows (panel cells and colours, document objects, selection)
to the JSON report the test asserts on. Inputs come from CADBENCH_GUI_* variables.
"""

import json
import os
import time
import traceback

import FreeCAD
import FreeCADGui

ENV = os.environ
REPORT = ENV["CADBENCH_GUI_REPORT"]

try:
    from cadbench_wb.gui import authoring, case_browser, panel, scripted, session, tables
    from cadbench_wb.gui.qt import QtCore, QtGui, QtWidgets
except Exception:  # report and quit instead of leaving FreeCAD open until the timeout
    with open(REPORT, "w") as handle:
        json.dump({"error": traceback.format_exc()}, handle)
    from PySide import QtGui as _QtGui

    _QtGui.QApplication.instance().quit()
    raise
SHOTS = ENV.get("CADBENCH_GUI_SHOTS", "")


def toolbar_action(name: str):
    mw = FreeCADGui.getMainWindow()
    for bar in mw.findChildren(QtWidgets.QToolBar):
        for action in bar.actions():
            if action.objectName() == name:
                return action
    raise LookupError(f"no toolbar action {name}")


def click(widget, point):
    """A real left click (press and release events) at point in widget."""
    for kind in (QtCore.QEvent.Type.MouseButtonPress, QtCore.QEvent.Type.MouseButtonRelease):
        event = QtGui.QMouseEvent(
            kind,
            QtCore.QPointF(point),
            QtCore.Qt.MouseButton.LeftButton,
            QtCore.Qt.MouseButton.LeftButton,
            QtCore.Qt.KeyboardModifier.NoModifier,
        )
        QtWidgets.QApplication.sendEvent(widget, event)


def results():
    return panel.panel()


def shot(report, name):
    if SHOTS:
        path = os.path.join(SHOTS, f"{name}.png")
        scripted.screenshot(path)
        report.setdefault("shots", []).append(path)


def document_objects():
    doc = FreeCAD.ActiveDocument
    found = {}
    for obj in doc.Objects:
        entry = {"label": obj.Label, "type": obj.TypeId}
        view = getattr(obj, "ViewObject", None)
        if view is not None:
            entry["visible"] = bool(view.Visibility)
            if hasattr(view, "ShapeColor"):
                entry["colour"] = [round(c, 3) for c in view.ShapeColor[:3]]
                entry["transparency"] = view.Transparency
        shape = getattr(obj, "Shape", None)
        if shape is not None and not shape.isNull() and shape.Solids:
            entry["volume"] = shape.Volume
            box = shape.BoundBox
            entry["bbox"] = [box.XMin, box.YMin, box.ZMin, box.XMax, box.YMax, box.ZMax]
        if obj.TypeId == "App::DocumentObjectGroup":
            entry["children"] = [child.Name for child in obj.Group]
        found[obj.Name] = entry
    return found


def step_activate(report):
    FreeCADGui.activateWorkbench("CadBenchWorkbench")
    report["workbench"] = FreeCADGui.activeWorkbench().name()
    mw = FreeCADGui.getMainWindow()
    bars = [b for b in mw.findChildren(QtWidgets.QToolBar) if b.windowTitle() == "cadbench"]
    report["toolbar"] = [a.objectName() for b in bars for a in b.actions() if a.objectName()]
    report["icons_null"] = [
        a.objectName() for b in bars for a in b.actions() if a.objectName() and a.icon().isNull()
    ]
    # The Preferences page loads with FreeCAD's own loader (its Pref* widgets resolved), and
    # a time limit set there is the one the next scoring runs with.
    from cadbench_wb.gui import preferences

    page = FreeCADGui.PySideUic.loadUi(preferences.PAGE)
    report["preference_widgets"] = sorted(
        [w.metaObject().className(), bytes(w.property("prefEntry")).decode()]
        for w in page.findChildren(QtWidgets.QWidget)
        if w.property("prefEntry")
    )
    FreeCAD.ParamGet(preferences.PARAMETERS).SetFloat("TimeoutSeconds", 123.0)
    report["workdir"] = session.current().workdir


def step_open_case(report):
    browser = case_browser.show_browser(ENV["CADBENCH_GUI_CASES"])
    report["browser_cases"] = tables.contents(browser.case_table)
    assert browser.select_case(ENV["CADBENCH_GUI_CASE"]), "case not listed in the browser"
    report["browser_candidates"] = [
        browser.candidate_list.item(i).text() for i in range(browser.candidate_list.count())
    ]
    started = time.monotonic()
    browser.open_button.click()
    report["open_click_s"] = time.monotonic() - started
    return watched_load(report, "open_case_load")


def watched_load(report, key, then=None):
    """Wait for a model read in the background, a heartbeat measuring how long the window
    froze meanwhile (report[key]); then() once it is shown."""
    beat = Heartbeat()
    report[key] = {"busy": results().is_busy(), "bar": results().progress.isVisible()}

    def done():
        if results().is_busy():
            return False
        report[key]["longest_freeze_s"] = beat.stop()
        report[key]["longest_own_s"] = beat.own_s
        report[key]["load_average"] = beat.load
        report[key]["message"] = results().message.text()
        report[key]["gui_seconds"] = getattr(results(), "load_seconds", None)
        if then is not None:
            then()
        return True

    return done


def step_new_document(report):
    """File > New (FreeCAD's own Std_New) before the case is opened, as an engineer who has a
    document open: making FreeCAD's first 3D view is FreeCAD's own work in the GUI thread,
    which no workbench can move (its freeze is recorded, not held to the limit)."""
    beat = Heartbeat()
    FreeCADGui.runCommand("Std_New")

    def done():
        report["std_new_freeze_s"] = beat.stop()
        return True

    return done


def step_choose_candidate(report):
    combo = results().candidate_combo
    names = [combo.itemText(i) for i in range(combo.count())]
    index = names.index(ENV["CADBENCH_GUI_CANDIDATE"])
    combo.setCurrentIndex(index)
    combo.activated.emit(index)

    def record():
        report["after_open"] = results().contents()

    return watched_load(report, "candidate_load", record)


def step_settle(report):
    return scripted.wait_ms(800)  # FreeCAD refreshes the commands' enabled state on a timer


def step_score(report):
    report["score_enabled"] = toolbar_action("CadBench_Score").isEnabled()
    toolbar_action("CadBench_Score").trigger()
    report["busy_after_trigger"] = results().is_busy()
    thread = results()._thread
    report["scoring_timeout"] = thread.timeout if thread is not None else None
    return lambda: not results().is_busy()


def step_record_score(report):
    report["panel"] = results().contents()
    report["result"] = session.current().result
    # Straight after the scoring, with no click in the 3D view: the diff and alignment
    # buttons must already be enabled.
    report["enabled_after_score"] = {
        name: toolbar_action(name).isEnabled()
        for name in ("CadBench_ShowDiff", "CadBench_ApplyAlignment")
    }
    report["message_style_after_score"] = results().message.styleSheet()
    return scripted.wait_ms(800)  # FreeCAD refreshes the commands' enabled state on a timer


def step_show_diff(report):
    report["show_diff_enabled"] = toolbar_action("CadBench_ShowDiff").isEnabled()
    toolbar_action("CadBench_ShowDiff").trigger()
    FreeCADGui.SendMsgToActiveView("ViewFit")
    report["diff_objects"] = document_objects()
    report["panel_after_diff"] = results().contents()
    return scripted.wait_ms(300)


def step_alignment(report):
    shot(report, "scored_diff")
    candidate = session.current().candidate.object()
    report["placement_before"] = _placement(candidate)
    results().apply_button.click()
    report["placement_applied"] = _placement(candidate)
    report["candidate_bbox_applied"] = _bbox(candidate)
    results().undo_button.click()
    report["placement_undone"] = _placement(candidate)


def _runqueue_wait_s() -> float:
    """Seconds this thread has waited for a CPU while runnable (Linux schedstat; 0 where
    the kernel does not report it)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as handle:
            return int(handle.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class Heartbeat(QtCore.QObject):
    """The longest wait between two ticks of a 20 ms timer while an action runs: how long
    the window was frozen (Qt delivers no timer, paint or input event meanwhile).

    Two figures: the wall-clock gap, and the same gap less the time the GUI thread stood
    runnable waiting for a CPU (the scheduler's share on a machine with more runnable
    processes than cores). The second still counts every second the thread worked or was
    blocked (waiting for a child, as the old load did); the machine's load average is kept
    with them."""

    def __init__(self):
        super().__init__(results())
        self.longest = self.longest_own = 0.0
        self.longest_own_at = None
        self._last, self._last_wait = time.monotonic(), _runqueue_wait_s()
        self._started = self._last
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(20)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def _tick(self):
        now, wait = time.monotonic(), _runqueue_wait_s()
        gap = now - self._last
        self.longest = max(self.longest, gap)
        own = gap - (wait - self._last_wait)
        if own > self.longest_own:
            # When, and what the panel said just after (where the freeze was).
            self.longest_own_at = [round(now - self._started, 3), results().stage_label.text()]
        self.longest_own = max(self.longest_own, own)
        self._last, self._last_wait = now, wait

    def stop(self) -> float:
        self._tick()
        self._timer.stop()
        self.deleteLater()
        self.own_s = round(self.longest_own, 3)
        self.load = round(os.getloadavg()[0], 2)
        return round(self.longest, 3)


def watched_deviation(report, key, record):
    """Press Show deviation with a heartbeat and the bar watched; once the child is done,
    record(feature) fills report[key] (with the longest freeze and the bar's values)."""
    from cadbench_wb.gui import deviation

    values = []
    results().progress.valueChanged.connect(values.append)
    beat = Heartbeat()
    ended = []
    started = time.monotonic()
    run = results().show_deviation(on_done=ended.append)
    start_s = time.monotonic() - started
    shown = {"bar": results().progress.isVisible(), "cancel": results().cancel_button.isVisible()}

    def done():
        if run is not None and not ended:
            return False
        results().progress.valueChanged.disconnect(values.append)
        feature = ended[0] if ended else None
        freeze = beat.stop()  # before record(): its undo is measured on its own (ctrl_z)
        report[key] = {
            **record(feature),
            "longest_freeze_s": freeze,
            "longest_own_s": beat.own_s,
            "load_average": beat.load,
            "progress_values": values,
            "while_running": shown,
            "running_after": deviation.is_running(),
            "gui_seconds": {"start": start_s, **(run.seconds if run is not None else {})},
        }
        return True

    return done


def step_deviation(report):
    """Show deviation: FreeCAD's Inspection of the aligned candidate. The candidate's Ø12 hole
    wall lies 1 mm from the reference's Ø10 wall (same axis at (12, 10) once aligned)."""

    def record(feature):
        aligned = feature.Actual
        distances = list(feature.Distances)
        wall = [
            abs(d)
            for p, d in zip(aligned.Mesh.Points, distances, strict=True)
            if abs(((p.x - 12) ** 2 + (p.y - 10) ** 2) ** 0.5 - 6) < 0.005 and 1 < p.z < 19
        ]
        return {
            "type": feature.TypeId,
            "points": aligned.Mesh.CountPoints,
            "distances": len(distances),
            "search_radius": feature.SearchRadius,
            "hole_wall": [min(wall), max(wall), len(wall)] if wall else None,
            "message": results().message.text(),
            "state": list(feature.State),
        }

    return watched_deviation(report, "deviation", record)


def step_deviation_shot(report):
    shot(report, "deviation")


def step_click_failed_dimension(report):
    table = results().dimension_table
    results().tabs.setCurrentWidget(table)
    scripted.process_events()
    rows = tables.contents(table)
    failed = [i for i, row in enumerate(rows) if row["cells"][4] and "not" in row["cells"][4]]
    report["failed_rows"] = failed
    if not failed:
        return None
    view = FreeCADGui.ActiveDocument.ActiveView
    camera = view.getCamera()
    click(table.viewport(), table.visualItemRect(table.item(failed[0], 0)).center())
    report["camera_moved"] = view.getCamera() != camera
    report["selection"] = [
        [s.ObjectName, list(s.SubElementNames)] for s in FreeCADGui.Selection.getSelectionEx()
    ]
    report["message_after_click"] = results().message.text()
    return scripted.wait_ms(200)


def _described(obj, name):
    """What a selected sub-element is, read off the real shape: type, radius, centre."""
    element = obj.Shape.getElement(name)
    geometry = element.Surface if name.startswith("Face") else element.Curve
    entry = {"element": name, "type": type(geometry).__name__}
    if hasattr(geometry, "Radius"):
        entry["radius"] = round(geometry.Radius, 6)
    centre = getattr(geometry, "Center", None)
    if centre is None and name.startswith("Face"):
        centre = element.CenterOfMass
    if centre is not None:
        point = obj.Placement.multVec(centre)
        entry["centre"] = [round(point.x, 6), round(point.y, 6), round(point.z, 6)]
    return entry


def step_click_located_dimension(report):
    """Click the dimension row whose value the value match finds but located matching
    rejects (CADBENCH_GUI_LOCATED_ROW): both places are selected, each sub-element reported
    with its geometry."""
    table = results().dimension_table
    results().tabs.setCurrentWidget(table)
    scripted.process_events()
    rows = tables.contents(table)
    index = [r["cells"][0] for r in rows].index(ENV["CADBENCH_GUI_LOCATED_ROW"])
    FreeCADGui.Selection.clearSelection()
    click(table.viewport(), table.visualItemRect(table.item(index, 0)).center())
    report["located_selection"] = [
        [s.ObjectName, [_described(s.Object, n) for n in s.SubElementNames]]
        for s in FreeCADGui.Selection.getSelectionEx()
    ]
    report["located_message"] = results().message.text()
    bar = table.horizontalScrollBar()  # the located cells at the left, for the picture
    bar.setValue(bar.value() + table.columnViewportPosition(6))
    return scripted.wait_ms(400)


def step_grab_located(report):
    shot(report, "located_panel")


def step_next_candidate(report):
    """After Show diff, choose a candidate again: the reference and the candidate are shown
    (the diff that hid them is gone), never an empty 3D view."""
    combo = results().candidate_combo
    index = [combo.itemText(i) for i in range(combo.count())].index(ENV["CADBENCH_GUI_CANDIDATE"])
    combo.setCurrentIndex(index)
    combo.activated.emit(index)

    def record():
        report["objects_after_next_candidate"] = document_objects()
        report["enabled_after_next_candidate"] = toolbar_action("CadBench_ShowDiff").isEnabled()

    return watched_load(report, "next_candidate_load", record)


def step_author(report):
    toolbar_action("CadBench_AuthorCase").trigger()
    panel_ = authoring.dock(create=False).widget()
    reference = session.current().reference.object()
    shape = reference.Shape
    circle = next(
        f"Edge{i + 1}"
        for i, e in enumerate(shape.Edges)
        if e.Curve.TypeId == "Part::GeomCircle" and abs(e.Curve.Radius - 5) < 1e-6
    )
    planes = [
        f"Face{i + 1}"
        for i, f in enumerate(shape.Faces)
        if f.Surface.TypeId == "Part::GeomPlane" and abs(abs(f.normalAt(0, 0).z) - 1) < 1e-9
    ]
    FreeCADGui.Selection.clearSelection()
    FreeCADGui.Selection.addSelection(reference, circle)
    panel_.add_from_selection()
    FreeCADGui.Selection.clearSelection()
    for face in planes:
        FreeCADGui.Selection.addSelection(reference, face)
    panel_.add_from_selection()
    panel_.id_edit.setText("authored_block")
    panel_.title_edit.setText("Block authored in the GUI test")
    panel_.group_edit.setText("gui")
    panel_.anchoring_radio.setChecked(True)
    report["picked"] = {"circle": circle, "planes": planes}
    report["reference_has_circle_radius"] = [
        round(e.Curve.Radius, 6) for e in shape.Edges if e.Curve.TypeId == "Part::GeomCircle"
    ][:1]
    return lambda: not panel_.live_busy()


def step_save_case(report):
    panel_ = authoring.dock(create=False).widget()
    report["authoring"] = panel_.contents()
    shot(report, "authoring")
    case = panel_.save(ENV["CADBENCH_GUI_AUTHOR_DIR"])
    report["saved_case"] = case.path if case is not None else None
    report["authoring_message"] = panel_.message.text()
    report["objects_end"] = document_objects()


def step_cancel(report):
    """Score again and press Cancel once the scoring process runs."""
    toolbar_action("CadBench_Score").trigger()

    def started():
        thread = results()._thread
        return thread is None or bool(thread.stage())

    return started


def step_press_cancel(report):
    report["cancel_visible"] = results().cancel_button.isVisible()
    report["progress_visible"] = results().progress.isVisible()
    results().cancel_button.click()
    return lambda: not results().is_busy()


def step_record_cancel(report):
    report["after_cancel"] = results().contents()
    report["result_after_cancel"] = session.current().result is not None


def step_broken_candidate(report):
    def score():
        report["broken_load_message"] = results().message.text()
        results().score()

    report["broken_loaded"] = results().load_candidate(ENV["CADBENCH_GUI_BROKEN"], then=score)
    return watched_load(report, "broken_load")


def step_broken_scored(report):
    return lambda: not results().is_busy()


def step_record_broken(report):
    report["broken"] = results().contents()


def step_score_folder(report):
    results().score_folder(os.path.join(ENV["CADBENCH_GUI_CASES"], ENV["CADBENCH_GUI_CASE"],
                                        "candidates"))  # fmt: skip
    return lambda: not results().is_busy()


def step_record_folder(report):
    report["folder"] = results().contents()


def step_generate_drawing(report):
    """Generate drawing from the toolbar, a heartbeat watching the window, every value the
    bar and the stage label take recorded until the page is open."""
    from cadbench_wb.gui import drawing

    values = []
    results().progress.valueChanged.connect(values.append)
    stages = []
    watch = _StageWatch(stages)
    beat = Heartbeat()
    toolbar_action("CadBench_GenerateDrawing").trigger()
    run = drawing.running()
    report["drawing_progress"] = {
        "bar": results().progress.isVisible(),
        "cancel": results().cancel_button.isVisible(),
        "stage": results().stage_label.text(),
    }

    def done():
        if drawing.is_running():
            return False
        results().progress.valueChanged.disconnect(values.append)
        watch.deleteLater()
        report["drawing_progress"].update(
            {
                "longest_freeze_s": beat.stop(),
                "longest_own_s": beat.own_s,
                "load_average": beat.load,
                "progress_values": values,
                "stages": stages,
                "gui_seconds": run.seconds if run is not None else None,
            }
        )
        return True

    return done


def step_cancel_drawing(report):
    """Generate drawing again and press Cancel: the child is killed, no page opens."""
    from cadbench_wb.gui import drawing

    before = sorted(FreeCAD.listDocuments())
    toolbar_action("CadBench_GenerateDrawing").trigger()
    results().cancel_button.click()
    report["documents_before_cancel"] = before

    def ended():
        if drawing.is_running():
            return False
        report["cancelled_drawing"] = {
            "message": results().message.text(),
            "documents": sorted(FreeCAD.listDocuments()),
            "bar": results().progress.isVisible(),
        }
        return True

    return ended


def step_record_drawing(report):
    report["drawing_message"] = results().message.text()
    report["drawing_documents"] = {
        name: sorted({o.TypeId for o in doc.Objects})
        for name, doc in FreeCAD.listDocuments().items()
    }
    mdi = FreeCADGui.getMainWindow().findChild(QtWidgets.QMdiArea)
    report["drawing_windows"] = [w.windowTitle() for w in mdi.subWindowList()]
    report["drawing_templates"] = [
        [doc.Label, os.path.basename(o.Template)]
        for doc in FreeCAD.listDocuments().values()
        for o in doc.Objects
        if o.TypeId == "TechDraw::DrawSVGTemplate"
    ]
    # The tree's top items and theirs: FreeCAD 0.20 lists the documents under an
    # "Application" item, 1.0 as top items.
    found = []
    for tree in FreeCADGui.getMainWindow().findChildren(QtWidgets.QTreeWidget):
        for i in range(tree.topLevelItemCount()):
            top = tree.topLevelItem(i)
            found += [top.text(0)] + [top.child(j).text(0) for j in range(top.childCount())]
    report["tree_items"] = sorted(set(found))


def step_preferences_at_start(report):
    """Edit > Preferences before the workbench was ever activated: the cadbench group is
    listed with its icon (FreeCAD 0.20 lists groups in a QListWidget, 1.0 in a tree)."""
    report["workbench_before_preferences"] = FreeCADGui.activeWorkbench().name()
    found = {}

    def groups(dialog):
        items = []
        for widget in dialog.findChildren(QtWidgets.QListWidget):
            for i in range(widget.count()):
                item = widget.item(i)
                items.append([item.text(), not item.icon().isNull()])
        for tree in dialog.findChildren(QtWidgets.QTreeView):
            model = tree.model()
            for row in range(model.rowCount() if model is not None else 0):
                index = model.index(row, 0)
                icon = model.data(index, QtCore.Qt.ItemDataRole.DecorationRole)
                items.append([model.data(index), bool(icon is not None and not icon.isNull())])
        return items

    def inspect():
        dialog = QtWidgets.QApplication.activeModalWidget()
        if dialog is None:
            QtCore.QTimer.singleShot(200, inspect)
            return
        found["groups"] = groups(dialog)
        dialog.reject()

    QtCore.QTimer.singleShot(500, inspect)
    FreeCADGui.runCommand("Std_DlgPreferences")  # modal: returns once inspect() closed it
    report["preference_groups"] = found.get("groups")


def step_score_watched(report):
    """Score, recording every value the progress bar and the stage label take."""
    seen = report.setdefault("progress_values", [])
    stages = report.setdefault("stage_texts", [])
    results().progress.valueChanged.connect(seen.append)
    results().stage_label.setText("")
    watch = _StageWatch(stages)
    beat = Heartbeat()
    waiting = step_score(report)

    def done():
        if not waiting():
            return False
        results().progress.valueChanged.disconnect(seen.append)
        watch.deleteLater()  # this scoring only: the next one starts its bar at 0 again
        freeze = beat.stop()  # the result shown in the panel included
        report["score_watch"] = {
            "longest_freeze_s": freeze, "longest_own_s": beat.own_s, "load_average": beat.load,
            "longest_own_at": beat.longest_own_at, "steps_s": time.monotonic() - beat._started,
        }  # fmt: skip
        return True

    return done


class _StageWatch(QtCore.QObject):
    """Collects each text the stage label shows (QLabel has no textChanged signal)."""

    def __init__(self, texts, label=None):
        super().__init__(results())
        self.texts = texts
        self.label = label or results().stage_label
        timer = QtCore.QTimer(self)
        timer.timeout.connect(self._look)
        timer.start(20)

    def _look(self):
        text = self.label.text()
        if text and (not self.texts or self.texts[-1] != text):
            self.texts.append(text)


def ctrl_z(doc, entry, keys="Ctrl+Z") -> str:
    """Ctrl+Z as an engineer presses it in doc's 3D view: that view made the active window
    (the drawing's page may be), then the main window's action bound to Ctrl+Z triggered
    (Std_Undo: it undoes the active document's last step). Its name. (FreeCAD's PySide has
    no QtTest, and a key event sent from Python bypasses Qt's shortcut map.)"""
    mw = FreeCADGui.getMainWindow()
    mdi = mw.findChild(QtWidgets.QMdiArea)
    # A document's 3D view is titled "Label : 1" (FreeCAD's MDI windows). The window active
    # before is active again afterwards: left on the 3D view, FreeCAD 1.0 crashed on exit
    # (SIGSEGV after the report, in every run).
    previous = mdi.activeSubWindow()
    view = next(s for s in mdi.subWindowList() if s.windowTitle().startswith(f"{doc.Label} : "))
    mdi.setActiveSubWindow(view)
    scripted.process_events(2)
    try:
        return _undo_by_key(mw, entry, keys)
    finally:
        if previous is not None and previous is not view:
            mdi.setActiveSubWindow(previous)
            scripted.process_events(2)


def _undo_by_key(mw, entry, keys="Ctrl+Z") -> str:
    # "Ctrl+Z", or "redo": the platform's Redo keys (Std_Redo is bound to the first of
    # QKeySequence::Redo's bindings: Ctrl+Shift+Z on X11).
    bindings = (
        QtGui.QKeySequence.keyBindings(QtGui.QKeySequence.Redo)
        if keys == "redo"
        else [QtGui.QKeySequence(keys)]
    )
    action = next(
        a
        for a in mw.findChildren(QtWidgets.QAction)
        if any(key in a.shortcuts() for key in bindings)
    )
    # FreeCAD enables Edit > Undo for the newly active document on its own timer: wait for
    # it as a user would (a disabled action ignores the key), at most 3 s.
    until = time.monotonic() + 3
    while not action.isEnabled() and time.monotonic() < until:
        scripted.process_events(1)
        time.sleep(0.02)
    enabled = action.isEnabled()
    # The undo's own freeze, measured as the heartbeat does: its wall time less the time
    # the GUI thread stood runnable waiting for a CPU.
    started, waited = time.monotonic(), _runqueue_wait_s()
    action.trigger()
    wall = time.monotonic() - started
    entry["undo_wall_s"] = round(wall, 3)
    entry["undo_own_s"] = round(wall - (_runqueue_wait_s() - waited), 3)
    return action.objectName() if enabled else f"{action.objectName()} (disabled)"


def step_undo_each(report):
    """Apply alignment, then (step_undo_diff) Show diff: each one step of the scoring
    document's undo history, undone by Ctrl+Z in that document's view (ctrl_z). Each
    action is watched by a heartbeat until the view has drawn its result (_watched_action)."""
    candidate = session.current().candidate.object()
    doc = candidate.Document
    before = _placement(candidate)

    def undo_alignment(entry):
        entry["moved"] = _placement(candidate) != before
        entry["undo_names"] = list(doc.UndoNames)
        entry["undone_by"] = ctrl_z(doc, entry)
        entry["back"] = _placement(candidate) == before
        entry["applied_after_undo"] = results().alignment_applied()

    return _watched_action(report, "undo_alignment", results().apply_button.click,
                           undo_alignment)  # fmt: skip


def step_undo_diff(report):
    doc = session.current().candidate.object().Document

    def undo_diff(entry):
        entry["made"] = sorted(o.Name for o in doc.Objects if o.Name.startswith("Diff"))
        entry["undo_names"] = list(doc.UndoNames)
        entry["undone_by"] = ctrl_z(doc, entry)
        entry["left"] = sorted(o.Name for o in doc.Objects if o.Name.startswith("Diff"))

    return _watched_action(report, "undo_diff", results().show_diff, undo_diff)


def step_undo_loads(report):
    """Ctrl+Z of choosing the candidate, then of opening the case: each one step, its
    object gone; every action of the panel then says the model is not loaded (never acts
    on a deleted object), the result stays (it is of the files); Redo (Ctrl+Shift+Z) brings both back."""
    sess = session.current()
    doc = sess.candidate.object().Document
    panel = results()
    entry = report["undo_loads"] = {"scored": sess.result is not None}

    def actions():
        panel.apply_button.click()
        applied = panel.message.text()
        deviation = panel.show_deviation()
        deviating = panel.message.text()
        panel.score()
        return {
            "apply": applied,
            "deviation": [deviation is None, deviating],
            "score": [panel.is_busy(), panel.message.text()],
            "contents": bool(panel.contents()),
        }

    for role in ("candidate", "reference"):
        step = entry[role] = {"undo_names": list(doc.UndoNames)}
        step["undone_by"] = ctrl_z(doc, step)
        step["objects"] = sorted(o.Name for o in doc.Objects)
        step["undone_roles"] = sess.undone_roles()
        step["actions"] = actions()
    entry["result_kept"] = sess.result is not None
    for role in ("reference", "candidate"):
        step = entry[f"redo_{role}"] = {}
        step["redone_by"] = ctrl_z(doc, step, "redo")
        step["objects"] = sorted(o.Name for o in doc.Objects)
        step["undone_roles"] = sess.undone_roles()
    entry["redo_shapes"] = {
        role: getattr(sess, role).object().Shape.Volume
        for role in ("reference", "candidate")
        if getattr(sess, role).object() is not None
    }
    return scripted.wait_ms(300)


def _watched_action(report, key, action, then, settle_ms=600):
    """Run action() in the GUI thread with a heartbeat watching the window, let the 3D view
    draw its result (settle_ms of event loop), then then(report[key]) (the undo)."""
    beat = Heartbeat()
    started = time.monotonic()
    action()
    report[key] = {"action_s": round(time.monotonic() - started, 3)}
    settled = scripted.wait_ms(settle_ms)

    def done():
        if not settled():
            return False
        freeze = beat.stop()
        report[key].update(
            {"longest_freeze_s": freeze, "longest_own_s": beat.own_s, "load_average": beat.load}
        )
        then(report[key])
        return True

    return done


def step_undo_deviation(report):
    doc = FreeCAD.ActiveDocument
    names = list(doc.UndoNames)
    FreeCADGui.runCommand("Std_Undo")
    report["undo_deviation"] = {
        "undo_names": names,
        "left": sorted(n for n in document_objects() if n.startswith("CadBench")),
    }


def step_deviation_undone(report):
    """Show deviation on the scored candidate (the heartbeat watching the window), then
    Ctrl+Z: one step, all of it gone."""
    doc = session.current().reference.object().Document

    def record(feature):
        entry = {
            "points": feature.Actual.Mesh.CountPoints,
            "distances": len(feature.Distances),
            "message": results().message.text(),
        }
        entry["undo_names"] = list(doc.UndoNames)
        entry["undone_by"] = ctrl_z(doc, entry)
        entry["left"] = sorted(o.Name for o in doc.Objects if o.Name.startswith("CadBench"))
        return entry

    return watched_deviation(report, "deviation_undone", record)


def step_cancel_deviation(report):
    """Show deviation again and press Cancel while its child runs: nothing is added."""
    from cadbench_wb.gui import deviation

    doc = session.current().reference.object().Document
    before = sorted(o.Name for o in doc.Objects)
    results().show_deviation()
    running = deviation.is_running()
    results().cancel_button.click()

    def ended():
        if deviation.is_running():
            return False
        report["cancelled_deviation"] = {
            "was_running": running,
            "message": results().message.text(),
            "added": sorted(set(o.Name for o in doc.Objects) - set(before)),
            "bar": results().progress.isVisible(),
        }
        return True

    return ended


def step_imperial(report):
    """The same result with FreeCAD's unit schema set to Imperial decimal (in/lb): every
    length in the Dimensions tab in inches, the alignment too; then back to Standard."""
    schemas = FreeCAD.Units.listSchemas()
    imperial = next(i for i, name in enumerate(schemas) if name.startswith("Imperial decimal"))
    FreeCAD.Units.setSchema(imperial)
    try:
        results().show_result(session.current().result)
        report["imperial_dimensions"] = tables.contents(results().dimension_table)
        report["imperial_alignment"] = results().contents().get("alignment")
        report["imperial_panel"] = results().contents()
    finally:
        FreeCAD.Units.setSchema(0)
        results().show_result(session.current().result)


def step_record_broken_load(report):
    doc = session.current().reference.object().Document
    report["objects_after_broken_load"] = sorted(o.Name for o in doc.Objects)


def _unbuilt_browser():
    browser = case_browser.show_browser(ENV["CADBENCH_GUI_UNBUILT"])
    assert browser.select_case(ENV["CADBENCH_GUI_CASE"]), "unbuilt case not listed"
    return browser


def _case_files():
    folder = os.path.join(ENV["CADBENCH_GUI_UNBUILT"], ENV["CADBENCH_GUI_CASE"])
    return sorted(
        os.path.relpath(os.path.join(root, name), folder)
        for root, _dirs, names in os.walk(folder)
        for name in names
        if name.lower().endswith(".step")
    )


def step_cancel_build(report):
    """Open a case whose files are not built yet, and press Cancel while it builds."""
    browser = _unbuilt_browser()
    browser.open_button.click()
    shown = {
        "building": browser.building(),
        "bar": browser.build_progress.isVisible(),
        "cancel": browser.build_cancel.isVisible(),
        "stage": browser.build_stage.text(),
    }
    browser.build_cancel.click()

    def ended():
        if browser.building():
            return False
        report["cancelled_build"] = {
            **shown,
            "message": browser.message.text(),
            "files": _case_files(),
            "bar_after": browser.build_progress.isVisible(),
        }
        return True

    return ended


def step_build_case(report):
    """Open it again and let it build: the bar only moves forward, the window never freezes,
    and the case opens once it is built."""
    browser = _unbuilt_browser()
    values = []
    browser.build_progress.valueChanged.connect(values.append)
    stages = []
    watch = _StageWatch(stages, browser.build_stage)
    beat = Heartbeat()
    browser.open_button.click()

    def ended():
        if browser.building() or results().is_busy():
            return False
        browser.build_progress.valueChanged.disconnect(values.append)
        watch.deleteLater()
        case = session.current().case
        report["built_case"] = {
            "longest_freeze_s": beat.stop(),
            "longest_own_s": beat.own_s,
            "load_average": beat.load,
            "progress_values": values,
            "stages": stages,
            "files": _case_files(),
            "case": case.path if case is not None else None,
            "message": results().message.text(),
        }
        return True

    return ended


def _placement(obj):
    p = obj.Placement
    return [list(p.Base), list(p.Rotation.Q)]


def _bbox(obj):
    b = obj.Shape.BoundBox
    return [b.XMin, b.YMin, b.ZMin, b.XMax, b.YMax, b.ZMax]


SCENARIOS = {
    # The analytic case: every figure known from its construction.
    "analytic": [
        ("activate", step_activate),
        ("open_case", step_open_case),
        ("choose_candidate", step_choose_candidate),
        ("settle", step_settle),
        ("score", step_score),
        ("record_score", step_record_score),
        ("show_diff", step_show_diff),
        ("alignment", step_alignment),
        ("deviation", step_deviation),
        ("deviation_shot", step_deviation_shot),
        ("undo_deviation", step_undo_deviation),
        ("click_failed_dimension", step_click_failed_dimension),
        ("author", step_author),
        ("save_case", step_save_case),
        ("cancel", step_cancel),
        ("press_cancel", step_press_cancel),
        ("record_cancel", step_record_cancel),
        ("next_candidate", step_next_candidate),
        ("broken_candidate", step_broken_candidate),
        ("broken_scored", step_broken_scored),
        ("record_broken", step_record_broken),
        ("score_folder", step_score_folder),
        ("record_folder", step_record_folder),
    ],
    # Located recall beside the value match: a case whose candidate fools the value match.
    "located": [
        ("activate", step_activate),
        ("open_case", step_open_case),
        ("choose_candidate", step_choose_candidate),
        ("settle", step_settle),
        ("score", step_score),
        ("record_score", step_record_score),
        ("click_located_dimension", step_click_located_dimension),
        ("grab_located", step_grab_located),
        ("score_folder", step_score_folder),
        ("record_folder", step_record_folder),
    ],
    # A bundled case's rotated candidate as an engineer uses it: Preferences first, scored
    # with the progress watched, drawn in the scored pose, each change undone, a broken file.
    "engineer": [
        ("preferences_at_start", step_preferences_at_start),
        ("activate", step_activate),
        ("new_document", step_new_document),
        ("open_case", step_open_case),
        ("choose_candidate", step_choose_candidate),
        ("settle", step_settle),
        ("score", step_score_watched),
        ("record_score", step_record_score),
        ("generate_drawing", step_generate_drawing),
        ("record_drawing", step_record_drawing),
        ("cancel_drawing", step_cancel_drawing),
        ("undo_each", step_undo_each),
        ("undo_diff", step_undo_diff),
        ("deviation_undone", step_deviation_undone),
        ("cancel_deviation", step_cancel_deviation),
        ("undo_loads", step_undo_loads),
        ("imperial", step_imperial),
        ("broken_candidate", step_broken_candidate),
        ("broken_scored", step_broken_scored),
        ("record_broken_load", step_record_broken_load),
        ("record_broken", step_record_broken),
        ("cancel_build", step_cancel_build),
        ("build_case", step_build_case),
    ],
    # The engineer's scoring alone, watched (for measuring one action without the rest).
    "score_watched": [
        ("activate", step_activate),
        ("open_case", step_open_case),
        ("choose_candidate", step_choose_candidate),
        ("settle", step_settle),
        ("score", step_score_watched),
    ],
    # A bundled case, scored from the toolbar as a newcomer would.
    "bundled": [
        ("activate", step_activate),
        ("open_case", step_open_case),
        ("choose_candidate", step_choose_candidate),
        ("settle", step_settle),
        ("score", step_score),
        ("record_score", step_record_score),
        ("click_failed_dimension", step_click_failed_dimension),
        ("generate_drawing", step_generate_drawing),
        ("record_drawing", step_record_drawing),
    ],
}

script = scripted.Script(
    SCENARIOS[ENV.get("CADBENCH_GUI_SCENARIO", "analytic")],
    REPORT,
    timeout_s=float(ENV.get("CADBENCH_GUI_TIMEOUT", "75")),
)
script.start(1500)
