# SPDX-License-Identifier: LGPL-2.1-or-later
"""Drive the workbench from a macro, step by step, without blocking Qt's event loop.

Scoring and live figures run in background threads; a macro that simply called one
function after another would never see them finish. A Script runs its steps from a timer:
a step may return a predicate, and the next step starts once it holds. The GUI tests and
``make screenshots`` use it; so can anyone who wants to script the workbench.
"""

import json
import time
import traceback

from cadbench_wb.gui.qt import QtCore, QtWidgets

POLL_MS = 100
_RUNNING = []


class Script(QtCore.QObject):
    """Run (name, function) steps in order; write the report to report_path and quit."""

    def __init__(self, steps, report_path: str, timeout_s: float = 90.0, quit_at_end=True):
        super().__init__()
        self.steps = list(steps)
        self.report_path = report_path
        self.report = {"steps": [], "error": None}
        self.deadline = time.monotonic() + timeout_s
        self.quit_at_end = quit_at_end
        self._waiting = None
        self._index = 0
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._tick)

    def start(self, delay_ms: int = 500) -> None:
        _RUNNING.append(self)  # a macro may drop its reference; Qt must not lose the timer
        QtCore.QTimer.singleShot(delay_ms, self._timer.start)

    def _tick(self) -> None:
        try:
            if time.monotonic() > self.deadline:
                step = self.steps[self._index][0] if self._index < len(self.steps) else "end"
                raise TimeoutError(f"script timed out in step {step!r}")
            if self._waiting is not None:
                if not self._waiting():
                    return
                self._waiting = None
            if self._index >= len(self.steps):
                self._finish()
                return
            name, function = self.steps[self._index]
            self._index += 1
            started = time.monotonic()
            outcome = function(self.report)
            self.report["steps"].append([name, round(time.monotonic() - started, 3)])
            if callable(outcome):
                self._waiting = outcome
        except Exception:
            self.report["error"] = traceback.format_exc()
            self._finish()

    def _finish(self) -> None:
        self._timer.stop()
        if self in _RUNNING:
            _RUNNING.remove(self)
        with open(self.report_path, "w", encoding="utf-8") as handle:
            json.dump(self.report, handle, indent=2, sort_keys=True, default=str)
        if self.quit_at_end:
            QtCore.QTimer.singleShot(100, quit_freecad)


def quit_freecad() -> None:
    """Close the documents, then quit. FreeCAD's own exit closes them first; quitting Qt
    with documents open and a dock tabified over another crashes FreeCAD 0.20 on exit."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    for name in list(FreeCAD.listDocuments()):
        FreeCAD.closeDocument(name)
    QtWidgets.QApplication.instance().quit()


def wait_ms(ms: int):
    """A predicate that holds ms milliseconds from now (let the 3D view redraw)."""
    until = time.monotonic() + ms / 1000.0
    return lambda: time.monotonic() >= until


def screenshot(path: str) -> str:
    """The main window as the screen shows it, 3D view included (QWidget.grab misses the
    OpenGL view: it renders outside Qt's widget backing store)."""
    import FreeCADGui  # noqa: PLC0415 - FreeCAD-only

    from cadbench_wb.gui.qt import QtGui  # noqa: PLC0415 - heavy: loaded on first use

    process_events()
    window = FreeCADGui.getMainWindow()
    QtGui.QGuiApplication.primaryScreen().grabWindow(window.winId()).save(path)
    return path


def process_events(rounds: int = 5) -> None:
    app = QtWidgets.QApplication.instance()
    for _ in range(rounds):
        app.processEvents()
