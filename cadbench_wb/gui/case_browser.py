# SPDX-License-Identifier: LGPL-2.1-or-later
"""The case browser: the bundled cases (or those of any folder) with their dimensions and
candidates; opening one shows its reference, and a chosen candidate is loaded and scored."""

import os
import shutil

import FreeCADGui

from cadbench_wb import resources
from cadbench_wb.errors import CadbenchError
from cadbench_wb.gui import job, panel, panel_model, session, tables
from cadbench_wb.gui.qt import Qt, QtCore, QtWidgets, translate
from cadbench_wb.runtime import runner

CASE_COLUMNS = ("Id", "Title", "Group", "Kind", "Dimensions", "Candidates")


def tr(text: str) -> str:
    return translate("CadBench", text)


def case_rows(found: list) -> list:
    """One row per case: id, title, group, anchoring, dimension and candidate counts."""
    rows = []
    for case in found:
        kind = "anchoring" if case.anchoring else "independent"
        count = len(candidate_files(case))
        cells = [case.id, case.title, case.group, kind, len(case.dimensions), count]
        rows.append(panel_model.Row(case.id, cells, tooltip=case.case_file))
    return rows


def candidate_files(case) -> list[str]:
    """The case's sample candidates: those case.yaml declares (built or not) and any other
    model file in its candidates/ folder."""
    declared = [c.path for c in getattr(case, "candidates", [])]
    present = session.model_files(os.path.join(case.path, "candidates"))
    return declared + [p for p in present if p not in declared]


def needs_build(case) -> bool:
    missing = [case.reference_path] + [c.path for c in getattr(case, "candidates", [])]
    return bool(case.build_script) and any(not os.path.exists(p) for p in missing)


class CaseBrowser(QtWidgets.QDialog):
    def __init__(self, root: str = resources.CASES, parent=None):
        super().__init__(parent or FreeCADGui.getMainWindow())
        self.setObjectName("CadBenchCaseBrowser")
        self.setWindowTitle(tr("cadbench cases"))
        self.resize(900, 560)
        self.cases = []
        layout = QtWidgets.QVBoxLayout(self)
        top = QtWidgets.QHBoxLayout()
        self.root_label = QtWidgets.QLabel("")
        other = QtWidgets.QPushButton(tr("Other folder…"))
        other.clicked.connect(self._choose_root)
        top.addWidget(self.root_label, 1)
        top.addWidget(other)
        layout.addLayout(top)
        self.message = QtWidgets.QLabel("")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        split = QtWidgets.QSplitter(Qt.Orientation.Horizontal)
        self.case_table = tables.new_table(CASE_COLUMNS)
        tables.fit_width(self.case_table, 1)  # long titles are elided; the tooltip has them
        self.case_table.itemSelectionChanged.connect(self._case_selected)
        self.case_table.cellDoubleClicked.connect(lambda r, c: self.open_selected())
        split.addWidget(self.case_table)
        right = QtWidgets.QWidget()
        right_box = QtWidgets.QVBoxLayout(right)
        right_box.setContentsMargins(0, 0, 0, 0)
        right_box.addWidget(QtWidgets.QLabel(tr("Dimensions")))
        self.dimension_list = QtWidgets.QListWidget()
        right_box.addWidget(self.dimension_list, 2)
        right_box.addWidget(QtWidgets.QLabel(tr("Candidates (double-click: open and score)")))
        self.candidate_list = QtWidgets.QListWidget()
        self.candidate_list.itemDoubleClicked.connect(lambda item: self.open_selected(score=True))
        self.candidate_list.currentItemChanged.connect(
            lambda *_: self.score_button.setEnabled(self.candidate_list.currentItem() is not None)
        )
        right_box.addWidget(self.candidate_list, 1)
        split.addWidget(right)
        split.setSizes([560, 340])
        layout.addWidget(split, 1)
        layout.addLayout(self._build_row())
        buttons = QtWidgets.QHBoxLayout()
        self.open_button = QtWidgets.QPushButton(tr("Open case"))
        self.open_button.clicked.connect(lambda: self.open_selected())
        self.score_button = QtWidgets.QPushButton(tr("Open and score candidate"))
        self.score_button.clicked.connect(lambda: self.open_selected(score=True))
        close = QtWidgets.QPushButton(tr("Close"))
        close.clicked.connect(self.close)
        buttons.addStretch(1)
        for button in (self.open_button, self.score_button, close):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        self.set_root(root)

    def _build_row(self):
        """The bar and Cancel of a case build (hidden otherwise)."""
        row = QtWidgets.QHBoxLayout()
        self.build_progress = QtWidgets.QProgressBar()
        self.build_progress.setRange(0, 100)
        self.build_stage = QtWidgets.QLabel("")
        self.build_cancel = QtWidgets.QPushButton(tr("Cancel"))
        self.build_cancel.clicked.connect(self.cancel_build)
        for widget in (self.build_progress, self.build_stage, self.build_cancel):
            widget.hide()
            row.addWidget(widget)
        self._build_process = None
        self._build_timer = QtCore.QTimer(self)
        self._build_timer.setInterval(200)
        return row

    def building(self) -> bool:
        return self._build_process is not None

    def cancel_build(self) -> None:
        process = self._build_process
        if process is not None:
            process.setProperty("cancelled", True)
            self.build_stage.setText(tr("cancelling"))
            process.kill()

    def set_root(self, root: str) -> None:
        from cadbench_wb.case_model import cases  # noqa: PLC0415 - heavy: loaded on first use

        previous = self.selected_case() if getattr(self, "root", None) == root else None
        self.root = root
        self.root_label.setText(tr("Cases in {}").format(os.path.realpath(root)))
        try:
            self.cases = cases.discover_cases(root) if os.path.isdir(root) else []
            self.message.setText("" if self.cases else tr("No cases in this folder."))
        except CadbenchError as exc:  # a broken case.yaml: its located reason
            self.cases = []
            self.message.setText(exc.one_line())
        tables.fill(self.case_table, case_rows(self.cases), translate_cells=())
        for row, case in enumerate(self.cases):
            self.case_table.item(row, 1).setToolTip(case.title)
        if not (previous and self.select_case(previous.id)) and self.cases:
            self.case_table.selectRow(0)
        self._case_selected()

    def _choose_root(self) -> None:
        folder = QtWidgets.QFileDialog.getExistingDirectory(self, tr("Cases folder"), self.root)
        if not folder:
            return
        from cadbench_wb.case_model import cases  # noqa: PLC0415 - heavy: loaded on first use

        if os.path.isfile(os.path.join(folder, cases.CASE_FILE)):  # a single case folder
            self.set_root(os.path.dirname(folder))
            self.select_case(os.path.basename(folder), by_folder=True)
        else:
            self.set_root(folder)

    def selected_case(self):
        rows = self.case_table.selectionModel().selectedRows()
        return self.cases[rows[0].row()] if rows and rows[0].row() < len(self.cases) else None

    def select_case(self, key: str, by_folder: bool = False) -> bool:
        for index, case in enumerate(self.cases):
            if (os.path.basename(case.path) if by_folder else case.id) == key:
                self.case_table.selectRow(index)
                return True
        return False

    def _case_selected(self) -> None:
        case = self.selected_case()
        self.dimension_list.clear()
        self.candidate_list.clear()
        self.open_button.setEnabled(case is not None)
        self.score_button.setEnabled(False)
        if case is None:
            return
        for d in case.dimensions:
            self.dimension_list.addItem(f"{d.id}  {d.kind}  {d.value:g}  {d.note}".rstrip())
        for path in candidate_files(case):
            item = QtWidgets.QListWidgetItem(os.path.basename(path))
            item.setData(Qt.ItemDataRole.UserRole, path)
            self.candidate_list.addItem(item)

    def select_candidate(self, name: str) -> bool:
        for row in range(self.candidate_list.count()):
            if self.candidate_list.item(row).text() == name:
                self.candidate_list.setCurrentRow(row)
                return True
        return False

    def open_selected(self, score: bool = False) -> bool:
        """Open the selected case; with score, load the selected candidate and score it."""
        case = self.selected_case()
        if case is None:
            return False
        if needs_build(case):
            self._build(case, score)
            return True
        results = panel.panel()
        try:
            case = session.current().case_to_open(case.path)
        except CadbenchError as exc:
            self.message.setText(exc.one_line())
            results.show_message(exc.one_line(), "error")
            return False
        item = self.candidate_list.currentItem()
        then = None
        if score and item is not None:
            path = item.data(Qt.ItemDataRole.UserRole)
            # Each step in the background, the next one when it is done.
            then = lambda: results.load_candidate(path, then=results.score)  # noqa: E731
        if not results.open_case(case, then):
            self.message.setText(results.message.text())
            return False
        self.close()
        return True

    def _build(self, case, score: bool) -> None:
        """Build the case's generated files in a child process (`cadbench case build`), with
        a bar and Cancel, then open it. The bar counts the files the build script has
        written into its scratch folder (the child's TMPDIR, one of this session's) against
        the files the case lacks, so it only moves forward; Cancel kills the child, whose
        files reach the case only whole (build_missing), and its scratch goes with it."""
        from cadbench_wb.gui import preferences  # noqa: PLC0415 - FreeCAD-only

        if self._build_process is not None:
            return
        current = self.candidate_list.currentItem()
        chosen = current.text() if current is not None else ""
        self.message.setText(tr("Building the files of {} (first use)…").format(case.id))
        preferences.apply_python()
        sess = session.current()
        sess._runs += 1
        scratch = os.path.join(sess.workdir, f"build-{sess._runs}")
        os.makedirs(scratch, exist_ok=True)
        expected = 1 + len(case.candidates)  # the script writes them all (build_missing)
        process = QtCore.QProcess(self)
        environment = job.qprocess_environment()
        environment.insert("TMPDIR", scratch)
        process.setProcessEnvironment(environment)
        process.setProcessChannelMode(QtCore.QProcess.ProcessChannelMode.MergedChannels)
        self._build_process = process
        self._set_building(True)
        self.build_stage.setText(tr("building {}").format(case.id))

        def poll():
            written = sum(len(files) for _root, _dirs, files in os.walk(scratch))
            share = int(95 * min(written, expected) / expected)
            self.build_progress.setValue(max(self.build_progress.value(), share))
            self.build_stage.setText(
                tr("building {}: {} of {} files").format(case.id, min(written, expected), expected)
            )

        self._build_timer.timeout.connect(poll)
        self._build_timer.start()

        def done(code, _status):
            self._build_timer.stop()
            self._build_timer.timeout.disconnect(poll)
            self._build_process = None
            cancelled = bool(process.property("cancelled"))
            output = bytes(process.readAll()).decode("utf-8", "replace").strip()
            shutil.rmtree(scratch, ignore_errors=True)
            if not cancelled and code == 0:
                self.build_progress.setValue(100)
            self._set_building(False)
            if cancelled:
                self.message.setText(tr("Building {} cancelled.").format(case.id))
                return
            if code != 0 or needs_build(case):
                last = output.splitlines()[-1] if output else f"exit status {code}"
                self.message.setText(tr("Building {} failed: {}").format(case.id, last))
                return
            self._case_selected()
            self.select_candidate(chosen)
            self.open_selected(score)

        process.finished.connect(done)
        arguments = ["-m", "cadbench_wb", "case", "build", case.path]
        process.start(runner.python_for_children(), arguments)

    def _set_building(self, on: bool) -> None:
        """During a build only its bar and Cancel answer (the rest of the dialog waits)."""
        for widget in (self.case_table, self.candidate_list, self.open_button, self.score_button):
            widget.setEnabled(not on)
        if not on:
            self.score_button.setEnabled(self.candidate_list.currentItem() is not None)
        if on:
            self.build_progress.setValue(0)
        for widget in (self.build_progress, self.build_stage, self.build_cancel):
            widget.setVisible(on)


_BROWSER = None


def show_browser(root: str | None = None) -> CaseBrowser:
    """The case browser on root (default: the Preferences page's cases folder, else the
    bundled cases)."""
    global _BROWSER
    if root is None:
        from cadbench_wb.gui import preferences  # noqa: PLC0415 - FreeCAD-only

        root = preferences.cases_folder()
    if _BROWSER is None:
        _BROWSER = CaseBrowser(root)
    else:
        _BROWSER.set_root(root)  # cases may have been added or edited since
    _BROWSER.show()
    _BROWSER.raise_()
    return _BROWSER
