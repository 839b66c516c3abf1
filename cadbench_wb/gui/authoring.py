# SPDX-License-Identifier: LGPL-2.1-or-later
"""Authoring a reference case: pick target dimensions on the reference (or import them from
a TechDraw page), mark the case anchoring or independent, save case.yaml + the reference.

While the author works, the core scores the reference against itself with the draft's
dimensions (in a child process, restarted after each edit): that gives referenceCoverage,
randomHitRate and drawingSelfTest live, and names the dimensions the reference cannot
show. The panel itself measures nothing: picks are measured by app/cases/picking.py.
"""

import os
import tempfile

import FreeCAD
import FreeCADGui

from cadbench_wb import resources
from cadbench_wb.case_model import auto_cases, cases
from cadbench_wb.errors import CadbenchError
from cadbench_wb.gui import authoring_model, detail_rows, job, panel_model, session
from cadbench_wb.gui.qt import Qt, QtCore, QtGui, QtWidgets, Signal, right_dock, translate
from cadbench_wb.results import result as results
from cadbench_wb.runtime.outcome import Job, Options

DOCK_NAME = "CadBenchAuthoring"
COLUMNS = ("Id", "Kind", "Value", "Tol", "Note", "Source", "On reference")
LIVE_DELAY_MS = 600


def tr(text: str) -> str:
    return translate("CadBench", text)


class AuthoringPanel(QtWidgets.QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("CadBenchAuthoringPanel")
        self.draft = authoring_model.CaseDraft()
        self.reference_object = ""
        self.live_result = None
        self._spectra = None  # {mode: Spectrum} of the reference, from the core
        self._spectra_key = None
        self._live_thread = None
        self._live_pending = False
        self._scratch = tempfile.mkdtemp(prefix="cadbench-authoring-")
        session.remove_when_freecad_quits(self._scratch)
        self._filling = False
        self._auto_thread = None
        self._live_timer = QtCore.QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.setInterval(LIVE_DELAY_MS)
        self._live_timer.timeout.connect(self.update_live)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self._reference_row())
        layout.addLayout(self._form())
        self.table = QtWidgets.QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("CadBenchAuthoringTable")
        self.table.setHorizontalHeaderLabels([tr(c) for c in COLUMNS])
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.itemChanged.connect(self._item_changed)
        layout.addWidget(self.table, 1)
        layout.addLayout(self._dimension_buttons())
        self.live_label = QtWidgets.QLabel("")
        self.live_label.setObjectName("CadBenchLiveFigures")
        self.live_label.setWordWrap(True)
        layout.addWidget(self.live_label)
        self.warning_label = QtWidgets.QLabel("")
        self.warning_label.setWordWrap(True)
        self.warning_label.setStyleSheet("color: #b26a00;")
        layout.addWidget(self.warning_label)
        layout.addLayout(self._save_row())
        self.message = QtWidgets.QLabel("")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        self._show_live()

    # -- building ----------------------------------------------------------------------
    def _reference_row(self):
        row = QtWidgets.QHBoxLayout()
        self.reference_label = QtWidgets.QLabel(tr("No reference yet."))
        self.reference_label.setWordWrap(True)
        use = QtWidgets.QPushButton(tr("Use selection"))
        use.setToolTip(tr("Author the case on the selected object"))
        use.clicked.connect(self.use_selection)
        self.from_case_button = QtWidgets.QPushButton(tr("Start from open case"))
        self.from_case_button.setToolTip(tr("Edit a copy of the open case's dimensions"))
        self.from_case_button.clicked.connect(self.start_from_case)
        self.from_auto_button = QtWidgets.QPushButton(tr("Start from automatic targets"))
        self.from_auto_button.setToolTip(
            tr("The targets `cadbench case new` authors for the reference, each bound to its faces")
        )
        self.from_auto_button.clicked.connect(self.start_from_auto)
        row.addWidget(self.reference_label, 1)
        row.addWidget(use)
        row.addWidget(self.from_case_button)
        row.addWidget(self.from_auto_button)
        return row

    def _form(self):
        form = QtWidgets.QFormLayout()
        self.id_edit = QtWidgets.QLineEdit()
        self.id_edit.setPlaceholderText("bearing_block")
        self.title_edit = QtWidgets.QLineEdit()
        self.group_edit = QtWidgets.QLineEdit()
        for edit in (self.id_edit, self.title_edit, self.group_edit):
            edit.textChanged.connect(self._form_changed)
        # A widget, not a bare layout, in the form row: PySide2 does not hand a layout given
        # to QFormLayout.addRow over to Qt, and deletes it a second time at exit (a crash).
        kind = QtWidgets.QWidget()
        kind_box = QtWidgets.QHBoxLayout(kind)
        kind_box.setContentsMargins(0, 0, 0, 0)
        self.anchoring_radio = QtWidgets.QRadioButton(tr("anchoring"))
        self.independent_radio = QtWidgets.QRadioButton(tr("independent"))
        self.independent_radio.setChecked(True)
        self.anchoring_radio.toggled.connect(self._form_changed)
        kind_box.addWidget(self.anchoring_radio)
        kind_box.addWidget(self.independent_radio)
        kind_box.addStretch(1)
        form.addRow(tr("Case id"), self.id_edit)
        form.addRow(tr("Title"), self.title_edit)
        form.addRow(tr("Group"), self.group_edit)
        form.addRow(tr("Case kind"), kind)
        return form

    def _dimension_buttons(self):
        row = QtWidgets.QHBoxLayout()
        for label, tip, slot in (
            (
                "Add from selection",
                "Measure the picked edge, face or pair",
                self.add_from_selection,
            ),
            ("Add", "Add a dimension typed by hand", self.add_manual),
            (
                "Import TechDraw page",
                "Take the dimensions of a TechDraw page",
                self.import_techdraw,
            ),
            ("Remove", "Remove the selected dimension", self.remove_selected),
        ):
            button = QtWidgets.QPushButton(tr(label))
            button.setToolTip(tr(tip))
            button.clicked.connect(slot)
            row.addWidget(button)
        return row

    def _save_row(self):
        row = QtWidgets.QHBoxLayout()
        self.folder_edit = QtWidgets.QLineEdit()
        self.folder_edit.setPlaceholderText(tr("case folder (default: cases/<id>)"))
        browse = QtWidgets.QPushButton(tr("Browse…"))
        browse.clicked.connect(self._browse_folder)
        self.save_button = QtWidgets.QPushButton(tr("Save case"))
        self.save_button.clicked.connect(lambda: self.save())
        row.addWidget(self.folder_edit, 1)
        row.addWidget(browse)
        row.addWidget(self.save_button)
        return row

    # -- reference -----------------------------------------------------------------------
    def start_from_session(self) -> None:
        """Author on the session's reference model, else on the selected object."""
        sess = session.current()
        self.from_case_button.setEnabled(sess.case is not None)
        if sess.reference is None:
            self.use_selection(quiet=True)
            return
        self.draft.reference_source = sess.reference.path
        self.reference_object = sess.reference.object_name
        reference = sess.reference.object()
        if reference is not None and reference.ViewObject is not None:
            reference.ViewObject.Visibility = True  # picks happen on it
        self._show_reference()
        self._refill()

    def start_from_case(self) -> None:
        """Copy the open case (id, title, dimensions) into the draft, to edit or extend it."""
        sess = session.current()
        if sess.case is None:
            return
        self.draft = authoring_model.draft_from_case(sess.case)
        self.draft.id = f"{sess.case.id}_copy"
        self.reference_object = sess.reference.object_name if sess.reference else ""
        self._fill_form()
        self._show_reference()
        self._refill()

    def start_from_auto(self) -> None:
        """The reference's automatic case (made in a child process, kept as `score` keeps
        it) as the draft, to remove, add and rebind its targets."""
        reference = self.draft.reference_source
        if not reference or not os.path.isfile(reference):
            self.show_message(tr("Choose the reference first (Use selection)."), "error")
            return
        if self._auto_thread is not None:
            return
        self.from_auto_button.setEnabled(False)
        self.show_message(tr("Authoring the automatic targets…"))
        self._auto_thread = _AutoCaseThread(reference)
        self._auto_thread.done.connect(self._auto_done)
        self._auto_thread.start()

    def _auto_done(self, info) -> None:
        thread, self._auto_thread = self._auto_thread, None
        job.reap(thread)
        self.from_auto_button.setEnabled(True)
        if "failure" in info:
            failure = info["failure"]
            self.show_message(f"{failure['reason']}: {failure['detail']}", "error")
            return
        draft = authoring_model.draft_from_auto_case(info["caseFile"], info["reference"])
        self.draft = draft
        self._fill_form()
        self._show_reference()
        self._refill()
        self.show_message(tr("{} automatic targets.").format(len(draft.dimensions)))

    def use_selection(self, quiet: bool = False) -> None:
        selection = FreeCADGui.Selection.getSelection()
        if len(selection) != 1:
            if not quiet:
                self.show_message(tr("Select one solid object to author the case on."), "error")
            return
        try:
            model = session.current().use_object("reference", selection[0])
        except CadbenchError as exc:
            self.show_message(exc.one_line(), "error")
            return
        self.draft.reference_source = model.path
        self.reference_object = model.object_name
        self._show_reference()
        self.schedule_live()

    def _show_reference(self) -> None:
        obj = self._reference()
        name = obj.Label if obj is not None else os.path.basename(self.draft.reference_source)
        self.reference_label.setText(tr("Reference: {}").format(name))

    def _reference(self):
        doc = FreeCAD.ActiveDocument
        sess = session.current()
        if sess.reference is not None and sess.reference.object_name == self.reference_object:
            return sess.reference.object()
        return doc.getObject(self.reference_object) if doc and self.reference_object else None

    # -- dimensions ------------------------------------------------------------------------
    def add_from_selection(self) -> list:
        """Measure each picked sub-element group (one object's picks) as one dimension."""
        from cadbench_wb.app.cases import picking  # noqa: PLC0415 - FreeCAD-only

        added, skipped = [], []
        reference = self._reference()
        for sel in FreeCADGui.Selection.getSelectionEx():
            names = list(sel.SubElementNames)
            if not names:
                continue
            spectra = self._reference_spectra() if sel.Object == reference else None
            measured = picking.measurement_of(sel.Object.Shape, names, spectra)
            if measured is None:
                skipped.append("+".join(names))
                continue
            note = "" if reference is None or sel.Object == reference else sel.Object.Label
            # Picked faces of the reference bind the target by place (survives renumbering).
            on_reference = reference is not None and sel.Object == reference
            place = picking.place_binding(sel.Object.Shape, names) if on_reference else None
            added.append(
                self.draft.add(
                    measured["kind"],
                    measured["value"],
                    measured["source"],
                    note,
                    measured["spectrum"],
                    place,
                )
            )
        self._refill()
        if added:
            text = ", ".join(f"{d.id} {d.kind} {d.value:g}" for d in added)
            self.show_message(tr("Added {}").format(text), "ok")
        if skipped:
            self.show_message(
                tr("Nothing a drawing states for {}: pick an edge, a round face, two "
                   "parallel or angled planes, or two vertices.").format(", ".join(skipped)),
                "error",
            )  # fmt: skip
        if not added and not skipped:
            self.show_message(tr("Pick edges or faces of the reference in the 3D view first."))
        return added

    def add_manual(self) -> None:
        self.draft.add("length", 1.0, "", "")
        self._refill()

    def import_techdraw(self, page=None) -> int:
        from cadbench_wb.app.cases import picking  # noqa: PLC0415 - FreeCAD-only

        page = page or _techdraw_page()
        if page is None:
            self.show_message(tr("No TechDraw page in the active document."), "error")
            return 0
        FreeCAD.ActiveDocument.recompute()  # raw values are 0 until recomputed
        found = picking.techdraw_dimensions(page)
        for entry in found:
            self.draft.add(entry["kind"], entry["value"], entry["source"])
        self._refill()
        self.show_message(tr("Imported {} dimension(s) from {}").format(len(found), page.Label))
        return len(found)

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            del self.draft.dimensions[row]
        self._refill()

    def _refill(self) -> None:
        self._declare()
        self._filling = True
        dims = self.draft.dimensions
        self.table.setRowCount(len(dims))
        for r, d in enumerate(dims):
            values = [d.id, None, f"{d.value:g}", "" if d.tol is None else f"{d.tol:g}", d.note]
            for c, text in enumerate(values):
                if c == 1:
                    combo = QtWidgets.QComboBox()
                    combo.addItems(list(cases.DIMENSION_KINDS))
                    combo.setCurrentText(d.kind)
                    combo.currentTextChanged.connect(
                        lambda kind, row=r: self._kind_changed(row, kind)
                    )
                    self.table.setCellWidget(r, 1, combo)
                    continue
                self.table.setItem(r, c, QtWidgets.QTableWidgetItem(text))
            for c in (5, 6):
                item = QtWidgets.QTableWidgetItem(d.source if c == 5 else "")
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(r, c, item)
        self._filling = False
        self._show_reference_status()
        self.schedule_live()

    def _reference_spectra(self):
        """Both spectra of the reference (the core's), computed once per reference shape."""
        obj = self._reference()
        if obj is None:
            return None
        key = (obj.Name, obj.Shape.hashCode())
        if self._spectra_key != key:
            from cadbench_wb.app.cases import picking  # noqa: PLC0415 - FreeCAD-only

            try:
                self._spectra = picking.spectra_of(obj.Shape)
            except ImportError:  # a cadbench without the spectrum: live figures only
                self._spectra = None
            self._spectra_key = key
        return self._spectra

    def _declare(self) -> None:
        """Each dimension's spectrum declaration, from measuring the reference (the core)."""
        spectra = self._reference_spectra()
        if spectra is None:
            return
        from cadbench_wb.app.cases import picking  # noqa: PLC0415 - FreeCAD-only

        dimensions = [d.as_case_dimension() for d in self.draft.dimensions]
        for d, declared in zip(
            self.draft.dimensions, picking.spectrum_declarations(spectra, dimensions), strict=True
        ):
            d.spectrum = declared

    def _show_reference_status(self) -> None:
        """The 'On reference' column: where the reference shows each dimension."""
        statuses = self._reference_statuses()
        self._filling = True
        for r, d in enumerate(self.draft.dimensions):
            text, state = authoring_model.ON_REFERENCE.get(
                d.spectrum, (statuses.get(d.id, ""), None)
            )
            state = state or panel_model.item_state(text)
            item = self.table.item(r, 6)
            if item is None:
                continue
            item.setText(tr(text))
            colour = panel_model.COLOURS.get(state, "#ffffff")
            item.setBackground(QtGui.QBrush(QtGui.QColor(colour)))
        self._filling = False
        self.warning_label.setText(authoring_model.declaration_warning(self.draft.dimensions))

    def _kind_changed(self, row: int, kind: str) -> None:
        if 0 <= row < len(self.draft.dimensions):
            self.draft.dimensions[row].kind = kind
            self._declare()
            self._show_reference_status()
            self.schedule_live()

    def _item_changed(self, item) -> None:
        if self._filling:
            return
        d = self.draft.dimensions[item.row()]
        text = item.text().strip()
        try:
            if item.column() == 0:
                d.id = text
            elif item.column() == 2:
                d.value = float(text)
            elif item.column() == 3:
                d.tol = float(text) if text else None
            elif item.column() == 4:
                d.note = text
        except ValueError:
            self.show_message(tr("{!r} is not a number").format(text), "error")
            return
        self._declare()
        self._show_reference_status()
        self.schedule_live()

    def _form_changed(self, *_args) -> None:
        self.draft.id = self.id_edit.text().strip()
        self.draft.title = self.title_edit.text().strip()
        self.draft.group = self.group_edit.text().strip()
        self.draft.anchoring = self.anchoring_radio.isChecked()

    def _fill_form(self) -> None:
        self.id_edit.setText(self.draft.id)
        self.title_edit.setText(self.draft.title)
        self.group_edit.setText(self.draft.group)
        self.anchoring_radio.setChecked(self.draft.anchoring)
        self.independent_radio.setChecked(not self.draft.anchoring)

    # -- live figures (the core scores the reference against itself) ----------------------------
    def schedule_live(self) -> None:
        self._live_timer.start()

    def live_busy(self) -> bool:
        return self._live_thread is not None or self._live_timer.isActive()

    def update_live(self) -> None:
        if not self.draft.reference_source or not self.draft.dimensions:
            self.live_result = None
            self._show_live()
            return
        if self._live_thread is not None:  # start again when the running one ends
            self._live_pending = True
            self._live_thread.cancel()
            return
        draft = authoring_model.CaseDraft(
            id=self.draft.id or "draft",
            title=self.draft.title or "draft",
            group=self.draft.group,
            anchoring=self.draft.anchoring,
            reference_source=self.draft.reference_source,
            dimensions=self.draft.dimensions,
        )
        try:
            authoring_model.write_case(draft, self._scratch, link_reference=True)
            cases.load_case(self._scratch)
        except Exception as exc:  # an invalid draft: say why, keep the last figures
            self.live_label.setText(tr("Live figures paused: {}").format(exc))
            return
        reference = draft.reference_source
        options = Options(only=("dimensions", "drawing"), no_align=True)
        live_job = Job("score", reference, reference, options, self._scratch)
        self.live_label.setText(tr("Measuring the reference…"))
        self._live_thread = job.ScoringThread([live_job])
        self._live_thread.all_done.connect(self._live_done)
        self._live_thread.start()

    def _live_done(self, outcomes) -> None:
        thread, self._live_thread = self._live_thread, None
        job.reap(thread)
        outcome = outcomes[0] if outcomes else {"cancelled": True}
        if self._live_pending:
            self._live_pending = False
            self.update_live()
            return
        if "result" in outcome:
            self.live_result = outcome["result"]
            self._show_reference_status()
            self._show_live()
        elif not outcome.get("cancelled"):
            self.live_label.setText(tr("Live figures failed: ") + job.outcome_message(outcome))

    def _reference_statuses(self) -> dict:
        rows = detail_rows.dimension_rows(self.live_result or {})
        return {row.key: row.cells[4] for row in rows}

    def _show_live(self) -> None:
        figures = authoring_model.live_figures(self.live_result, len(self.draft.dimensions))
        self.live_label.setText(
            "<b>referenceCoverage</b> {coverage} &nbsp; <b>drawingSelfTest</b> {self_test}"
            " &nbsp; <b>randomHitRate</b> {random}".format(**figures)
        )
        if not self.warning_label.text():
            self.warning_label.setText(figures["warning"])

    # -- saving ---------------------------------------------------------------------------------
    def _browse_folder(self) -> None:
        folder = QtWidgets.QFileDialog.getExistingDirectory(self, tr("Case folder"))
        if folder:
            self.folder_edit.setText(folder)

    def save(self, folder: str | None = None):
        """Write the case; the loaded Case, or None with the reason in the panel."""
        self._form_changed()
        folder = folder or self.folder_edit.text().strip()
        if not folder:
            folder = os.path.join(resources.CASES, authoring_model.folder_name(self.draft.id))
        try:
            case = authoring_model.save_case(self.draft, folder)
        except CadbenchError as exc:
            self.show_message(exc.one_line(), "error")
            return None
        except OSError as exc:
            self.show_message(f"{folder}: {exc.strerror}", "error")
            return None
        self.folder_edit.setText(case.path)
        self.show_message(
            tr("Saved {}. Score a candidate with: cadbench score --case {} CANDIDATE").format(
                case.case_file, case.path
            ),
            "ok",
        )
        return case

    def show_message(self, text: str, kind: str = "info") -> None:
        colours = {"error": "#b00020", "ok": "#1b5e20"}
        self.message.setStyleSheet(f"color: {colours.get(kind, '#303030')};")
        self.message.setText(text)

    def contents(self) -> dict:
        rows = []
        for r in range(self.table.rowCount()):
            cells = []
            for c in range(self.table.columnCount()):
                widget = self.table.cellWidget(r, c)
                item = self.table.item(r, c)
                cells.append(widget.currentText() if widget else (item.text() if item else ""))
            rows.append(cells)
        return {
            "reference": self.reference_label.text(),
            "rows": rows,
            "live": self.live_label.text(),
            "warning": self.warning_label.text(),
            "message": self.message.text(),
        }


class _AutoCaseThread(QtCore.QThread):
    """auto_cases.auto_case of one reference off the GUI thread (`cadbench case new` runs in
    its child): ``done(info)`` with its caseFile, or its failure."""

    done = Signal(object)

    def __init__(self, reference: str):
        super().__init__()
        self.reference = reference

    def run(self) -> None:
        try:
            info = auto_cases.auto_case(self.reference, results.file_digest(self.reference))
        except Exception as exc:  # the panel says why; the thread never dies silently
            info = {"failure": {"reason": type(exc).__name__, "detail": str(exc)}}
        self.done.emit(dict(info, reference=self.reference))


def _techdraw_page():
    doc = FreeCAD.ActiveDocument
    if doc is None:
        return None
    for obj in FreeCADGui.Selection.getSelection() + doc.Objects:
        if obj.TypeId == "TechDraw::DrawPage":
            return obj
    return None


def dock(create: bool = True):
    found = right_dock(DOCK_NAME, tr("cadbench authoring"), AuthoringPanel, 660, create=False)
    if found is not None or not create:
        return found
    widget = right_dock(DOCK_NAME, tr("cadbench authoring"), AuthoringPanel, 660)
    from cadbench_wb.gui import panel  # noqa: PLC0415 - heavy: loaded on first use

    results = panel.dock(create=False)
    if results is not None:
        FreeCADGui.getMainWindow().tabifyDockWidget(results, widget)
    return widget


def show_authoring() -> AuthoringPanel:
    widget = dock()
    widget.show()
    widget.raise_()
    authoring = widget.widget()
    authoring.start_from_session()
    return authoring
