# SPDX-License-Identifier: LGPL-2.1-or-later
"""The results dock: what a score result says, and the actions on it (score, cancel, diff,
alignment, exports). Everything it displays comes from panel_model; scoring runs in a
ScoringThread, so FreeCAD stays responsive and a failure is a line here, not a traceback."""

import os
import shutil
import time

import FreeCAD
import FreeCADGui

from cadbench_wb.errors import CadbenchError, DeliveryFailure
from cadbench_wb.gui import detail_rows, diff_view, job, panel_model, session, tables
from cadbench_wb.gui.qt import Qt, QtCore, QtWidgets, right_dock, translate
from cadbench_wb.results import result as results

DOCK_NAME = "CadBenchPanel"
MIN_WIDTH = 660  # the metric table's six columns without a horizontal scroll bar
MESSAGE_COLOURS = {
    "info": "#303030",
    "error": "#b00020",
    "ok": "#1b5e20",
    panel_model.PASS: "#1b5e20",
    panel_model.FAIL: "#b00020",
    panel_model.NOT_CHECKED: "#8a6d00",
}


def tr(text: str) -> str:
    return translate("CadBench", text)


# What to call once a scoring or a load has changed what the commands' IsActive answers:
# gui/commands.py adds its refresh_states here (it imports this module, never the reverse).
STATE_LISTENERS: list = []


def _refresh_commands() -> None:
    for listener in STATE_LISTENERS:
        listener()


class ResultsPanel(QtWidgets.QWidget):
    """The dock's widget. ``contents()`` returns what it shows, for tests and scripts."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("CadBenchResults")
        self.message_kind = "info"
        self._thread = None
        self._activity_cancel = None  # Cancel of a child that is no scoring (show_activity)
        self._finishing_load = False  # a model is shown; the panel follows next turn
        self._batch = []  # (name, outcome) of the last folder scoring
        self._batch_total = 0
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self._poll)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.header = QtWidgets.QLabel(tr("Load a reference and a candidate, or open a case."))
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.header)
        layout.addLayout(self._candidate_row())
        layout.addLayout(self._progress_row())
        self.message = QtWidgets.QLabel("")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        self.metric_table = tables.new_table(panel_model.METRIC_COLUMNS)
        self.metric_table.setObjectName("CadBenchMetricTable")
        tables.fit_width(self.metric_table)
        layout.addWidget(self.metric_table)
        self.ceiling_table = tables.new_table(("Ceiling / floor", "Value"))
        self.ceiling_table.setObjectName("CadBenchCeilingTable")
        tables.fit_width(self.ceiling_table, 1)
        layout.addWidget(self.ceiling_table)
        self.tabs = QtWidgets.QTabWidget()
        layout.addWidget(self.tabs, 1)
        self.dimension_table = self._tab_table("Dimensions", detail_rows.DIMENSION_COLUMNS)
        self.feature_table = self._tab_table("Features", detail_rows.ENTRY_COLUMNS)
        self.thread_table = self._tab_table("Threads", detail_rows.ENTRY_COLUMNS)
        self.drawing_table = self._tab_table("Drawing", detail_rows.ENTRY_COLUMNS)
        self._shape_tab()
        self._diff_tab()
        self.batch_table = self._tab_table("Batch", panel_model.BATCH_COLUMNS)
        self.batch_table.cellClicked.connect(self._batch_clicked)
        layout.addLayout(self._export_row())
        self.rows = {}  # table -> its panel_model rows, for clicks
        self.show_result(None)

    # -- building ----------------------------------------------------------------------
    def _candidate_row(self):
        row = QtWidgets.QHBoxLayout()
        self.candidate_label = QtWidgets.QLabel(tr("Case candidate:"))
        self.candidate_combo = QtWidgets.QComboBox()
        self.candidate_combo.activated.connect(self._case_candidate_chosen)
        row.addWidget(self.candidate_label)
        row.addWidget(self.candidate_combo, 1)
        self.candidate_label.hide()
        self.candidate_combo.hide()
        return row

    def _progress_row(self):
        row = QtWidgets.QHBoxLayout()
        self.progress = QtWidgets.QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setFormat("%p%")
        self.stage_label = QtWidgets.QLabel("")
        self.cancel_button = QtWidgets.QPushButton(tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        for widget in (self.progress, self.stage_label, self.cancel_button):
            widget.hide()
            row.addWidget(widget)
        return row

    def _tab_table(self, title: str, columns):
        table = tables.new_table(columns)
        table.setObjectName(f"CadBench{title}Table")
        table.cellClicked.connect(lambda r, c, t=table: self._row_clicked(t, r))
        self.tabs.addTab(table, tr(title))
        return table

    def _shape_tab(self):
        page = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        self.shape_table = tables.new_table(("Figure", "Value"))
        self.shape_table.setObjectName("CadBenchShapeTable")
        box.addWidget(self.shape_table, 1)
        self.interpretation = QtWidgets.QLabel("")
        self.interpretation.setWordWrap(True)
        box.addWidget(self.interpretation)
        self.tabs.addTab(page, tr("Shape"))

    def _diff_tab(self):
        page = QtWidgets.QWidget()
        box = QtWidgets.QVBoxLayout(page)
        self.show_diff_button = QtWidgets.QPushButton(tr("Show diff"))
        self.show_diff_button.clicked.connect(self.show_diff)
        box.addWidget(self.show_diff_button)
        self.deviation_button = QtWidgets.QPushButton(tr("Show deviation (Inspection)"))
        self.deviation_button.setToolTip(
            tr("Colour the aligned candidate by its distance to the reference (colour bar)")
        )
        self.deviation_button.clicked.connect(self.show_deviation)
        box.addWidget(self.deviation_button)
        self.visibility = {}
        grid = QtWidgets.QGridLayout()
        legend = [("reference", "Reference", None), ("candidate", "Candidate", None)]
        legend += [(p, panel_model.DIFF_LABELS[p], panel_model.DIFF_STYLE[p][0]) for p in (
            "common", "missing", "extra")]  # fmt: skip
        for index, (key, label, rgb) in enumerate(legend):
            check = QtWidgets.QCheckBox(tr(label))
            check.setObjectName(f"CadBenchShow_{key}")
            check.toggled.connect(lambda on, k=key: self._set_visible(k, on))
            swatch = QtWidgets.QLabel("")
            swatch.setFixedSize(18, 18)
            if rgb is not None:
                css = "rgb({}, {}, {})".format(*(int(255 * c) for c in rgb))
                swatch.setStyleSheet(f"background: {css}; border: 1px solid #444;")
            grid.addWidget(swatch, index, 0)
            grid.addWidget(check, index, 1)
            self.visibility[key] = check
        box.addLayout(grid)
        self.alignment_label = QtWidgets.QLabel("")
        self.alignment_label.setWordWrap(True)
        box.addWidget(self.alignment_label)
        buttons = QtWidgets.QHBoxLayout()
        self.apply_button = QtWidgets.QPushButton(tr("Apply alignment to candidate"))
        self.apply_button.clicked.connect(self.apply_alignment)
        self.undo_button = QtWidgets.QPushButton(tr("Undo alignment"))
        self.undo_button.clicked.connect(self.undo_alignment)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.undo_button)
        box.addLayout(buttons)
        box.addStretch(1)
        self.diff_page = page
        self.tabs.addTab(page, tr("Diff"))

    def _export_row(self):
        row = QtWidgets.QHBoxLayout()
        self.export_buttons = {}
        for key, label, slot in (
            ("json", "Export JSON…", self.export_json),
            ("diff", "Export diff…", self.export_diff),
            ("drawing", "Export drawing…", self.export_drawing),
        ):
            button = QtWidgets.QPushButton(tr(label))
            button.clicked.connect(slot)
            row.addWidget(button)
            self.export_buttons[key] = button
        return row

    # -- messages and progress -----------------------------------------------------------
    def show_message(self, text: str, kind: str = "info") -> None:
        """One line under the header, coloured by kind: info, ok, error, or a case verdict
        (PASS green, FAIL red, NOT CHECKED amber); errors also go to the Report view."""
        self.message.setText(text)
        self.message.setStyleSheet(f"color: {MESSAGE_COLOURS.get(kind, '#303030')};")
        self.message_kind = kind
        if kind == "error":
            FreeCAD.Console.PrintWarning(f"cadbench: {text}\n")

    def is_busy(self) -> bool:
        """A scoring or a model read runs (or its last turn is still to come)."""
        return self._thread is not None or self._finishing_load

    def _start(self, jobs: list[dict], done, batch: bool = False) -> None:
        if self.is_busy():
            self.show_message(tr("A scoring is already running: cancel it first."), "error")
            return
        from cadbench_wb.gui import preferences  # noqa: PLC0415 - FreeCAD-only

        preferences.apply_python()
        self._thread = job.ScoringThread(
            jobs, timeout=preferences.timeout_s(), memory_mb=preferences.memory_mb()
        )
        self._thread.batch = batch
        self._thread.job_done.connect(self._job_done)
        self._thread.all_done.connect(lambda outcomes: self._all_done(outcomes, done))
        for widget in (self.progress, self.stage_label, self.cancel_button):
            widget.show()
        self.progress.setValue(0)
        self.stage_label.setText(tr("starting"))
        self._timer.start()
        self._thread.start()

    def _poll(self) -> None:
        thread = self._thread
        if thread is None:
            return
        stage = thread.stage()
        if stage:
            count = max(1, len(thread.jobs))
            share = (max(0, thread.current) + job.progress_of(stage) / 100) / count
            # Forward only: a stage outside the known order never moves the bar back.
            self.progress.setValue(max(self.progress.value(), int(100 * share)))
            prefix = f"{thread.current + 1}/{count} " if count > 1 else ""
            self.stage_label.setText(prefix + tr(job.stage_text(stage)))

    def _job_done(self, index: int, outcome: dict) -> None:
        if self._thread is not None and self._thread.batch:
            name = os.path.basename(self._thread.jobs[index].candidate)
            self._batch.append((name, outcome))
            self._show_batch()

    def _all_done(self, outcomes, done) -> None:
        thread, self._thread = self._thread, None
        self._timer.stop()
        for widget in (self.progress, self.stage_label, self.cancel_button):
            widget.hide()
        job.reap(thread)
        done(outcomes)

    def show_activity(self, text: str, cancel) -> None:
        """A long action in a child process that reports no stages (Generate drawing): the
        bar runs busy, the stage label says what runs, Cancel calls cancel()."""
        self._activity_cancel = cancel
        self.progress.setRange(0, 0)
        self.stage_label.setText(text)
        for widget in (self.progress, self.stage_label, self.cancel_button):
            widget.show()

    def show_progress(self, percent: int, text: str, cancel) -> None:
        """A long action in a child process that reports how far it is (Show deviation):
        the bar only moves forward, the stage label says what runs, Cancel calls cancel()."""
        if self._activity_cancel is None:
            self.progress.setRange(0, 100)
            self.progress.setValue(0)
        self._activity_cancel = cancel
        self.progress.setValue(max(self.progress.value(), min(100, int(percent))))
        self.stage_label.setText(text)
        for widget in (self.progress, self.stage_label, self.cancel_button):
            widget.show()

    def activity_running(self) -> bool:
        """Whether a child that is no scoring runs (Show deviation, Generate drawing)."""
        return self._activity_cancel is not None

    def end_activity(self) -> None:
        self._activity_cancel = None
        self.progress.setRange(0, 100)
        if self._thread is None:
            for widget in (self.progress, self.stage_label, self.cancel_button):
                widget.hide()

    def cancel(self) -> None:
        if self._activity_cancel is not None and self._thread is None:
            self.stage_label.setText(tr("cancelling"))
            self._activity_cancel()
            return
        if self._thread is not None:
            self.stage_label.setText(tr("cancelling"))
            self._thread.cancel()

    # -- scoring -------------------------------------------------------------------------
    def score(self) -> None:
        """Score the session's reference (or case) and candidate in a child process."""
        try:
            scoring_job = session.current().score_job()
        except CadbenchError as exc:
            self.show_message(exc.one_line(), "error")
            return
        self.show_message(tr("Scoring…"))
        self._start([scoring_job], self._scored)

    def _scored(self, outcomes) -> None:
        outcome = outcomes[0] if outcomes else {"cancelled": True}
        if "result" not in outcome:
            self.show_message(job.outcome_message(outcome), "error")
            return
        session.current().result = outcome["result"]
        if self.show_result(outcome["result"]):
            return  # the message names what could not be shown
        text, kind = panel_model.verdict_message(outcome["result"])
        self.show_message(tr(text[0]).format(*text[1:]), kind)

    def score_folder(self, folder: str) -> None:
        files = session.model_files(folder)
        if not files:
            self.show_message(tr("No model files in {}").format(folder), "error")
            return
        try:
            jobs = [session.current().score_job(path) for path in files]
        except CadbenchError as exc:
            self.show_message(exc.one_line(), "error")
            return
        self._batch = []
        self._batch_total = len(jobs)
        self._show_batch()
        self.tabs.setCurrentWidget(self.batch_table)
        self.show_message(tr("Scoring {} candidates…").format(len(files)))
        self._start(jobs, self._batch_scored, batch=True)

    def _batch_scored(self, outcomes) -> None:
        passed = sum(
            1 for _, o in self._batch if (o.get("result") or {}).get("verdict", {}).get("formal")
            == panel_model.PASS
        )  # fmt: skip
        self.show_message(
            tr("Scored {} of {} candidates; {} passed (formal).").format(
                len(outcomes), self._batch_total, passed
            ),
            "ok",
        )

    def _show_batch(self) -> None:
        rows = [panel_model.batch_row(name, outcome) for name, outcome in self._batch]
        self.rows[self.batch_table] = rows
        tables.fill(self.batch_table, rows, colour_columns=None, translate_cells=())

    def _batch_clicked(self, row: int, _column: int) -> None:
        if 0 <= row < len(self._batch) and "result" in self._batch[row][1]:
            result = self._batch[row][1]["result"]
            session.current().result = result
            self.show_result(result, keep_tab=True)

    # -- showing a result ----------------------------------------------------------------
    def show_result(self, result: dict | None, keep_tab: bool = False) -> list:
        """Fill every table from result (None: empty); the sections that could not be shown."""
        result = result or {}
        sess = session.current()
        if result:
            lines = panel_model.header_lines(result)
            self.header.setText(
                "<table>"
                + "".join(f"<tr><td><b>{tr(k)}</b>&nbsp;</td><td>{v}</td></tr>" for k, v in lines)
                + "</table>"
            )
        else:
            self.header.setText(self._idle_header(sess))
        problems = []
        sections = (
            (self.metric_table, panel_model.metric_rows, result, (3, 4), (0,)),
            (self.ceiling_table, panel_model.ceiling_rows, result, None, (0,)),
            (self.dimension_table, detail_rows.dimension_rows, result, None, ()),
            (self.feature_table, detail_rows.feature_rows, result.get("features"), None, ()),
            (self.thread_table, detail_rows.thread_rows, result.get("threads"), None, ()),
            (self.drawing_table, detail_rows.drawing_rows, result.get("drawing"), None, ()),
            (self.shape_table, panel_model.shape_rows, result, None, (0,)),
        )
        for table, rows_of, section, colour_columns, translated in sections:
            try:
                rows = rows_of(section)
            except Exception as exc:  # a section in a shape this version does not know
                rows = []
                problems.append(f"{table.objectName()}: {type(exc).__name__}: {exc}")
            self._fill(table, rows, colour_columns, translated)
        tables.fit_height(self.metric_table)
        tables.fit_height(self.ceiling_table)
        self.interpretation.setText("\n".join(panel_model.interpretation_lines(result)))
        for title, table, section in (
            ("Dimensions", self.dimension_table, "dimensions"),
            ("Features", self.feature_table, "features"),
            ("Threads", self.thread_table, "threads"),
            ("Drawing", self.drawing_table, "drawing"),
        ):
            count = table.rowCount()
            text = tr(title) + (f" ({count})" if count else "")
            self.tabs.setTabText(self.tabs.indexOf(table), text)
            if result and section not in result:
                table.setToolTip(tr("not in this result (not computed or not applicable)"))
        self.alignment_label.setText(
            tr("Alignment of the candidate: ") + panel_model.alignment_text(result)
            if result
            else ""
        )
        has_diff = bool(panel_model.diff_files(result))
        self.show_diff_button.setEnabled(has_diff)
        self.apply_button.setEnabled(panel_model.alignment_of(result) is not None)
        self.deviation_button.setEnabled(
            panel_model.alignment_of(result) is not None and sess.candidate is not None
        )
        self.undo_button.setEnabled(self.alignment_applied())
        self.export_buttons["json"].setEnabled(bool(result))
        self.export_buttons["diff"].setEnabled(has_diff)
        self.export_buttons["drawing"].setEnabled(bool(panel_model.drawing_files(result)))
        self._sync_visibility()
        self._show_case_candidates()
        if result and not keep_tab and self.dimension_table.rowCount():
            self.tabs.setCurrentWidget(self.dimension_table)
        if problems:
            self.show_message(tr("Part of the result could not be shown: ") + "; ".join(problems))
        _refresh_commands()
        return problems

    def _idle_header(self, sess) -> str:
        parts = []
        if sess.case is not None:
            parts.append(f"<b>{tr('Case')}</b> {sess.case.id}: {sess.case.title}")
        for role in ("reference", "candidate"):
            model = getattr(sess, role)
            if model is not None:
                parts.append(f"<b>{tr(role.capitalize())}</b> {os.path.basename(model.path)}")
        return "<br>".join(parts) or tr("Load a reference and a candidate, or open a case.")

    def _fill(self, table, rows, colour_columns=None, translate_cells=(0,)) -> None:
        self.rows[table] = rows
        tables.fill(table, rows, colour_columns, translate_cells)

    def _show_case_candidates(self) -> None:
        sess = session.current()
        files = sess.case_candidates()
        visible = bool(files)
        self.candidate_label.setVisible(visible)
        self.candidate_combo.setVisible(visible)
        if not visible:
            return
        current = sess.candidate.path if sess.candidate else ""
        self.candidate_combo.blockSignals(True)
        self.candidate_combo.clear()
        self.candidate_combo.addItem(tr("(choose a candidate)"), "")
        for path in files:
            self.candidate_combo.addItem(os.path.basename(path), path)
            if os.path.abspath(path) == current:
                self.candidate_combo.setCurrentIndex(self.candidate_combo.count() - 1)
        self.candidate_combo.blockSignals(False)

    def _case_candidate_chosen(self, index: int) -> None:
        path = self.candidate_combo.itemData(index)
        if path:
            self.load_candidate(path)

    def load_candidate(self, path: str, then=None) -> bool:
        """Read and show a candidate in the background (a child reads it, a thread waits,
        the bar and Cancel show); then() runs once it can be scored (shown, or failed as a
        delivery, which Score reports as not delivered). False when it cannot start."""
        return self._load_model("candidate", path, then)

    def load_reference(self, path: str, then=None) -> bool:
        """Read and show a reference (no case) in the background, as load_candidate."""
        session.current().case = None
        return self._load_model("reference", path, then)

    def open_case(self, case, then=None) -> bool:
        """Make case current and show its reference in the background, as load_candidate;
        then() runs once it is shown."""
        sess = session.current()
        sess.case = case
        sess.result = None
        return self._load_model("reference", case.reference_path, then)

    def _load_model(self, role: str, path: str, then) -> bool:
        if self.is_busy():
            self.show_message(tr("A scoring is already running: cancel it first."), "error")
            return False
        load_job = session.current().load_job(role, path)
        self.show_message(tr("Reading {}…").format(os.path.basename(path)))
        self._start([load_job], lambda outcomes: self._model_loaded(role, path, outcomes, then))
        return True

    def _model_loaded(self, role: str, path: str, outcomes, then) -> None:
        """The model is in the document; the panel, the message and the view follow in a
        turn of the event loop of their own (each turn stays short), then then()."""
        outcome = outcomes[0] if outcomes else {"cancelled": True}
        if outcome.get("cancelled"):
            self.show_message(tr("Reading {} cancelled.").format(os.path.basename(path)))
            return
        started = time.monotonic()
        try:
            session.current().loaded(role, path, outcome)
        except DeliveryFailure as exc:
            failure = exc
        except CadbenchError as exc:
            self.show_message(panel_model.short_reason(exc.one_line(), path), "error")
            return
        except Exception as exc:  # one line in the panel, never a traceback
            self.show_message(f"{os.path.basename(path)}: {type(exc).__name__}: {exc}", "error")
            return
        else:
            failure = None
        self.load_seconds = time.monotonic() - started  # the GUI thread's part (for tests)
        self._finishing_load = True

        def finish():
            self._finishing_load = False
            self.show_result(None)
            if failure is not None:
                text = tr("The candidate cannot be shown ({}); Score reports it as not delivered.")
                reason = panel_model.short_reason(failure.one_line(), path)
                self.show_message(text.format(reason), "error")
            else:
                if role == "candidate":
                    text = tr("Candidate {} loaded: press Score.").format(os.path.basename(path))
                elif session.current().case is not None:
                    text = tr("Case {} opened: choose a candidate, then Score.").format(
                        session.current().case.id
                    )
                else:
                    text = tr("Reference {} loaded.").format(os.path.basename(path))
                self.show_message(text)
                FreeCADGui.SendMsgToActiveView("ViewFit")
            if then is not None:
                then()

        QtCore.QTimer.singleShot(0, finish)

    # -- clicks: select and zoom -------------------------------------------------------------
    def _row_clicked(self, table, row: int) -> list[str]:
        rows = self.rows.get(table) or []
        if not 0 <= row < len(rows) or not rows[row].targets:
            return []
        sess = session.current()
        objects = {
            "candidate": sess.candidate.object() if sess.candidate else None,
            "reference": sess.reference.object() if sess.reference else None,
        }
        targets = [(objects.get(role), name) for role, name in rows[row].targets]
        # The diff solids overlap the very edges and faces a row points at: hide them (the
        # Diff tab shows them again) so the selection can be seen.
        diff = diff_view.diff_objects(FreeCAD.ActiveDocument)
        for obj in diff.values():
            diff_view.set_visible(obj, False)
        selected = diff_view.select_and_fit(targets)
        self._sync_visibility()
        if selected:
            note = tr(" (diff hidden: the Diff tab shows it again)") if diff else ""
            detail = f"\n{rows[row].detail}" if rows[row].detail else ""
            self.show_message(tr("Selected {}").format(", ".join(selected)) + note + detail)
        return selected

    # -- diff and alignment --------------------------------------------------------------
    def show_diff(self) -> None:
        sess = session.current()
        if not sess.diff_parts():
            self.show_message(tr("Score first: the diff comes from the last scoring."), "error")
            return
        hide = [m.object() for m in (sess.reference, sess.candidate) if m is not None]
        doc = hide[0].Document if hide and hide[0] is not None else sess.document()
        with diff_view.undoable(doc, tr("Show diff")):
            made = diff_view.show_diff(doc, sess.result, hide=hide)
        self._sync_visibility()
        self.tabs.setCurrentWidget(self.diff_page)
        view = FreeCADGui.ActiveDocument.ActiveView if FreeCADGui.ActiveDocument else None
        if view is not None and hasattr(view, "viewIsometric"):
            view.viewIsometric()
        FreeCADGui.SendMsgToActiveView("ViewFit")
        route = panel_model.diff_route_text(sess.result or {})
        self.show_message(
            tr("Diff shown: {}").format(", ".join(sorted(made))) + (f" ({route})" if route else ""),
            "ok",
        )

    def _say_undone(self, *roles: str) -> bool:
        """Whether one of roles was shown and its load is undone (Ctrl+Z) or its object
        deleted; then the panel says so (load it again, or Redo) and the action stops,
        never touching a deleted object."""
        try:
            session.current().require_shown(*roles)
        except CadbenchError as exc:
            self.show_message(exc.one_line(), "error")
            return True
        return False

    def show_deviation(self, on_done=None):
        """FreeCAD's Inspection of the aligned candidate against the reference, computed in
        a child process (gui/deviation.py) with a bar and Cancel; the run (None when there
        is nothing to compare). on_done(feature or None) is called when it ends."""
        from cadbench_wb.gui import deviation  # noqa: PLC0415 - heavy: loaded on first use

        sess = session.current()
        alignment = panel_model.alignment_of(sess.result or {})
        reference = sess.reference.object() if sess.reference else None
        candidate = sess.candidate.object() if sess.candidate else None
        if self._say_undone("reference", "candidate"):
            return None
        if alignment is None or reference is None or candidate is None:
            self.show_message(tr("Score first: the deviation needs the scored alignment."), "error")
            return None
        if self.is_busy() or self._activity_cancel is not None:
            self.show_message(tr("Wait for the running action, or cancel it."), "error")
            return None
        # With the alignment applied the candidate already lies in the reference frame.
        move = None if self.alignment_applied() else alignment
        self.show_message(tr("Computing the deviation…"))
        return deviation.start(self, reference, candidate, move, on_done)

    def deviation_shown(self, feature) -> None:
        """The deviation's objects are in the document (gui/deviation.py)."""
        self._sync_visibility()
        FreeCADGui.SendMsgToActiveView("ViewFit")
        # FreeCAD's colour bar prints bare numbers (in mm), in scientific notation for a
        # range symmetric about 0 (SoFCColorGradient::setRange): the unit is said here.
        self.show_message(
            tr("Deviation shown: distances within ±{} (colour bar in the 3D view, in mm)").format(
                panel_model.quantity_text(feature.SearchRadius, "length")
            ),
            "ok",
        )

    def _objects(self) -> dict:
        sess = session.current()
        found = {
            "reference": sess.reference.object() if sess.reference else None,
            "candidate": sess.candidate.object() if sess.candidate else None,
        }
        found.update(diff_view.diff_objects(FreeCAD.ActiveDocument))
        return found

    def _sync_visibility(self) -> None:
        objects = self._objects()
        for key, check in self.visibility.items():
            obj = objects.get(key)
            check.blockSignals(True)
            check.setEnabled(obj is not None)
            check.setChecked(bool(obj is not None and obj.ViewObject.Visibility))
            check.blockSignals(False)

    def _set_visible(self, key: str, on: bool) -> None:
        diff_view.set_visible(self._objects().get(key), on)

    def apply_alignment(self) -> None:
        sess = session.current()
        alignment = panel_model.alignment_of(sess.result or {})
        obj = sess.candidate.object() if sess.candidate else None
        if self._say_undone("candidate"):
            return
        if alignment is None or obj is None:
            self.show_message(tr("No candidate alignment to apply: score first."), "error")
            return
        original = sess.original_placement if self.alignment_applied() else None
        with diff_view.undoable(obj.Document, tr("Apply alignment")):
            sess.original_placement = diff_view.apply_alignment(obj, alignment, original)
        self.undo_button.setEnabled(True)
        self.show_message(tr("Candidate moved into the reference frame."), "ok")

    def undo_alignment(self) -> None:
        sess = session.current()
        obj = sess.candidate.object() if sess.candidate else None
        if obj is not None and self.alignment_applied():
            with diff_view.undoable(obj.Document, tr("Undo alignment")):
                diff_view.undo_alignment(obj, sess.original_placement)
            sess.original_placement = None
            self.undo_button.setEnabled(False)
            self.show_message(tr("Candidate back in its own pose."))

    def alignment_applied(self) -> bool:
        """Whether the candidate stands in the reference frame: moved by Apply alignment,
        and not put back since (by Undo alignment, or by Ctrl+Z in the document)."""
        sess = session.current()
        obj = sess.candidate.object() if sess.candidate else None
        original = sess.original_placement
        return bool(
            obj is not None and original is not None and not diff_view.same(obj.Placement, original)
        )

    # -- exports ----------------------------------------------------------------------------
    def export_json(self, path: str | None = None) -> None:
        result = session.current().result
        path = path or _save_name(self, tr("Export the result as JSON"), "result.json", "*.json")
        if result and path:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(results.to_json(result))
            self.show_message(tr("Wrote {}").format(path), "ok")

    def export_diff(self, folder: str | None = None) -> None:
        files = (session.current().result or {}).get("diffFiles") or {}
        folder = folder or QtWidgets.QFileDialog.getExistingDirectory(
            self, tr("Folder for the diff files (STEP and GLB)")
        )
        if not folder:
            return
        copied = 0
        for entry in files.values():
            for path in (entry or {}).values():
                if isinstance(path, str) and os.path.isfile(path):
                    shutil.copy(path, folder)
                    copied += 1
        self.show_message(tr("Copied {} diff files to {}").format(copied, folder), "ok")

    def export_drawing(self, folder: str | None = None) -> None:
        files = panel_model.drawing_files(session.current().result or {})
        folder = folder or QtWidgets.QFileDialog.getExistingDirectory(
            self, tr("Folder for the drawing files")
        )
        if folder:
            for path in files.values():
                if os.path.isfile(path):
                    shutil.copy(path, folder)
            self.show_message(tr("Copied {} drawing file(s)").format(len(files)), "ok")

    # -- for tests and scripts ---------------------------------------------------------------
    def contents(self) -> dict:
        return {
            "header": self.header.text(),
            "message": self.message.text(),
            "message_kind": self.message_kind,
            "metrics": tables.contents(self.metric_table),
            "ceilings": tables.contents(self.ceiling_table),
            "dimensions": tables.contents(self.dimension_table),
            "features": tables.contents(self.feature_table),
            "threads": tables.contents(self.thread_table),
            "drawing": tables.contents(self.drawing_table),
            "shape": tables.contents(self.shape_table),
            "batch": tables.contents(self.batch_table),
            "interpretation": self.interpretation.text(),
            "alignment": self.alignment_label.text(),
            "visibility": {k: c.isChecked() for k, c in self.visibility.items()},
            "tabs": [self.tabs.tabText(i) for i in range(self.tabs.count())],
        }


def _save_name(parent, title: str, name: str, pattern: str) -> str:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, title, name, pattern)
    return path


def dock(create: bool = True):
    """The results dock in FreeCAD's main window (made on first use)."""
    return right_dock(DOCK_NAME, tr("cadbench results"), ResultsPanel, MIN_WIDTH, create)


def panel(create: bool = True) -> ResultsPanel | None:
    widget = dock(create)
    if widget is None:
        return None
    widget.show()
    widget.raise_()
    return widget.widget()
