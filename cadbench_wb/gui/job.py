# SPDX-License-Identifier: LGPL-2.1-or-later
"""Scoring off the GUI thread: a QThread drives the core's child-process runner.

The kernel work happens in a child process (runner.run_job), so a crash or hang in
OpenCASCADE never takes FreeCAD down; the thread only waits for it. Progress is the stage
name the child writes before each step; Cancel kills the child's process group, which the
runner reports as WorkerLost and this module as a cancellation.
"""

import os
import signal

from cadbench_wb.errors import WorkerLost
from cadbench_wb.gui.qt import QtCore, Signal
from cadbench_wb.metrics import registry
from cadbench_wb.metrics.registry import LABELS
from cadbench_wb.runtime import runner
from cadbench_wb.runtime.outcome import SELFTEST_PREFIX, Job, Limits, Stage

# The stages a scoring passes through, in order (worker.py / scoring.py stage names): one
# per registered metric once the candidate is read and aligned.
STAGES = ("start", "reference", "candidate", "alignment", *registry.NAMES)


def progress_of(stage: str) -> int:
    """Percent done when the child reports a stage. The kernel self-test ("selftest:...")
    runs before the reference is read: it counts as the start. A stage not listed counts as
    the start too, so the bar never jumps ahead of where the scoring is (the panel keeps
    the highest value shown, so the bar only moves forward)."""
    if stage not in STAGES:
        return 0
    return int(100 * STAGES.index(stage) / len(STAGES))


def QT_TRANSLATE_NOOP(_context: str, text: str) -> str:  # noqa: N802 - Qt's name
    """Marks a text for tools/update_translations.py; the panel translates it (tr)."""
    return text


# What the panel prints for a stage (the child writes internal names).
_STAGE_TEXT = {
    "start": QT_TRANSLATE_NOOP("CadBench", "starting"),
    "reference": QT_TRANSLATE_NOOP("CadBench", "reading the reference"),
    "candidate": QT_TRANSLATE_NOOP("CadBench", "reading the candidate"),
    "alignment": QT_TRANSLATE_NOOP("CadBench", "aligning the candidate"),
}


def stage_text(stage: str) -> str:
    """A stage as a reader names it: "checking the FreeCAD kernel (projection)" for
    "selftest:projection", "Shape fidelity (shapeIoU)" for "shapeIoU"."""
    if stage.startswith(SELFTEST_PREFIX):
        return f"checking the FreeCAD kernel ({stage[len(SELFTEST_PREFIX) :]})"
    if stage in LABELS:
        return f"{LABELS[stage]} ({stage})"
    return _STAGE_TEXT.get(stage, stage)


class ScoringThread(QtCore.QThread):
    """Runs one or more scoring jobs one after another, in child processes.

    ``job_done(index, outcome)`` fires after each job and ``all_done(outcomes)`` at the end;
    an outcome is the runner's {"result": ...} or {"error": {...}}, or {"cancelled": True}.
    """

    job_done = Signal(int, object)
    all_done = Signal(object)

    def __init__(self, jobs: list, timeout: float | None = None, memory_mb=None):
        super().__init__()
        self.jobs = [Job.of(job) for job in jobs]  # outcome.Job (a job dict is read once)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.current = -1
        self.batch = False  # a folder scoring: the panel lists every job's outcome
        self.cancelled = False
        self._process = None
        self._stage_path = None

    def start(self, *args) -> None:
        _watch_quit()
        _RUNNING.add(self)
        self.finished.connect(lambda: _RUNNING.discard(self))
        super().start(*args)

    def run(self) -> None:
        outcomes = []
        for index, job in enumerate(self.jobs):
            if self.cancelled:
                break
            self.current = index
            outcome = self._run_one(job)
            outcomes.append(outcome)
            self.job_done.emit(index, outcome)
        self.all_done.emit(outcomes)

    def _run_one(self, job) -> dict:
        """The panel's view of runner.run_job's outcome ({"result"} or {"error"}), or
        {"cancelled": True} when Cancel killed the child."""
        try:
            outcome = runner.run_job(
                job, Limits.of(self.timeout, self.memory_mb), on_start=self._started
            )
        except Exception as exc:  # shown in the panel as one line, never a traceback dialog
            return {"error": {"reason": "internal_error", "detail": f"{type(exc).__name__}: {exc}"}}
        finally:
            self._process = None
            self._stage_path = None
        if self.cancelled and isinstance(outcome.error, WorkerLost):
            return {"cancelled": True}
        return outcome.as_answer()

    def _started(self, process, stage_path: str) -> None:
        self._process = process
        self._stage_path = stage_path
        if self.cancelled:
            self._kill()

    def stage(self) -> str:
        """The stage the running child reported last ('' between jobs)."""
        path = self._stage_path
        return Stage.read(path).name if path else ""

    def cancel(self) -> None:
        self.cancelled = True
        self._kill()

    def _kill(self) -> None:
        process = self._process
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)  # the child is a session leader (runner)
        except (ProcessLookupError, PermissionError):
            pass


_RUNNING: set = set()
_QUIT_WATCHED = []


def _watch_quit() -> None:
    """Once: when FreeCAD quits, stop running scorings first (a QThread destroyed while it
    runs aborts the process, and the child would outlive FreeCAD)."""
    if _QUIT_WATCHED:
        return
    from cadbench_wb.gui.qt import QtWidgets  # noqa: PLC0415 - heavy: loaded on first use

    app = QtWidgets.QApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(stop_all)
        _QUIT_WATCHED.append(app)


def reap(thread) -> None:
    """A finished thread (None: nothing) waited for and handed to Qt to delete: its signal
    has fired, but its run() may not have returned yet."""
    if thread is not None:
        thread.wait()
        thread.deleteLater()


def stop_all(wait_ms: int = 5000) -> None:
    for thread in list(_RUNNING):
        thread.cancel()
        thread.wait(wait_ms)


def outcome_message(outcome: dict) -> str:
    """One readable line for an outcome that holds no result."""
    if outcome.get("cancelled"):
        return "Cancelled."
    error = outcome.get("error") or {}
    return f"{error.get('reason', 'error')}: {error.get('detail', '')}".strip()


def qprocess_environment():
    """The runner's environment for cadbench child processes (the package importable), for
    the QProcess children the GUI starts itself (case builds, drawings)."""
    environment = QtCore.QProcessEnvironment()
    for key, value in runner.child_environment().items():
        environment.insert(key, value)
    return environment
