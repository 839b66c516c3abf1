# SPDX-License-Identifier: LGPL-2.1-or-later
"""Show deviation without freezing the window: the meshes and FreeCAD's Inspection
distances are computed in a child (gui/deviation_child.py, a QProcess), with a bar that
only moves forward and Cancel; when it ends, the GUI thread only makes the document
objects, in one undo step.

The Inspection feature the document holds is FreeCAD's own (its view draws the colour bar
legend); its distances are the child's run of that same feature on the same meshes, set as
the feature's Distances and marked up to date, so the document does not compute them again.
"""

import json
import os
import time

import FreeCAD

from cadbench_wb.gui import deviation_child, diff_view, job, session
from cadbench_wb.gui.qt import QtCore, translate
from cadbench_wb.runtime import runner

_RUN = []  # the running Run (one at a time)


def tr(text: str) -> str:
    return translate("CadBench", text)


def is_running() -> bool:
    return bool(_RUN)


class Run:
    """One Show deviation: the child, its progress, and what it made."""

    def __init__(self, results, reference, candidate, alignment, on_done=None):
        self.results = results
        self.reference_name = reference.Name
        self.candidate_name = candidate.Name
        self.doc = reference.Document
        self.result = session.current().result  # a new scoring makes this run stale
        self.on_done = on_done
        self.feature = None
        self.cancelled = False
        started = time.monotonic()
        self.seconds = {}  # how long the GUI thread worked, by part (for tests)
        sess = session.current()
        sess._runs += 1
        self.out = os.path.join(sess.workdir, f"deviation-{sess._runs}")
        os.makedirs(self.out, exist_ok=True)
        # The shapes as the document shows them (placement included): writing a BREP is an
        # exact round trip of a few milliseconds, reading a STEP again would not be either.
        spec = {
            "reference": os.path.join(self.out, "reference.brep"),
            "candidate": os.path.join(self.out, "candidate.brep"),
            "alignment": alignment,
            "out": self.out,
        }
        reference.Shape.exportBrep(spec["reference"])
        candidate.Shape.exportBrep(spec["candidate"])
        self.spec_path = os.path.join(self.out, "spec.json")
        with open(self.spec_path, "w", encoding="utf-8") as handle:
            json.dump(spec, handle)
        self.process = QtCore.QProcess()
        self.process.setProcessEnvironment(job.qprocess_environment())
        self.process.readyReadStandardOutput.connect(self._read)
        self.process.finished.connect(self._finished)
        self.process.errorOccurred.connect(self._error)
        self.last_line = ""
        self.seconds["prepare"] = time.monotonic() - started

    def start(self) -> None:
        _RUN.append(self)
        self.results.show_progress(0, tr("starting"), self.cancel)
        started = time.monotonic()
        self.process.start(
            runner.python_for_children(),
            ["-m", "cadbench_wb.gui.deviation_child", self.spec_path],
        )
        self.seconds["process_start"] = time.monotonic() - started

    def cancel(self) -> None:
        self.cancelled = True
        self.process.kill()

    def _read(self) -> None:
        while self.process.canReadLine():
            line = bytes(self.process.readLine()).decode("utf-8", "replace").strip()
            if not line:
                continue
            self.last_line = line
            word, _, rest = line.partition(" ")
            if word == "progress":
                percent, _, text = rest.partition(" ")
                if percent.isdigit():
                    self.results.show_progress(int(percent), tr(text), self.cancel)

    def _error(self, error) -> None:
        """A child that never started emits no finished signal: end the run here."""
        if error == QtCore.QProcess.ProcessError.FailedToStart:
            self.last_line = f"error cannot start {runner.python_for_children()}"
            self._finished(-1, None)

    def _finished(self, code, _status) -> None:
        self._read()
        self.process.readAllStandardError()
        try:
            self.results.end_activity()
            if self.cancelled:
                self.results.show_message(tr("Show deviation cancelled."))
                return
            if code != 0:
                detail = self.last_line.removeprefix("error ") or f"exit status {code}"
                self.results.show_message(tr("Show deviation failed: {}").format(detail), "error")
                return
            if session.current().result is not self.result or not self._objects_alive():
                self.results.show_message(
                    tr("Show deviation dropped: the candidate or the result changed meanwhile.")
                )
                return
            started = time.monotonic()
            self.feature = self._show()
            self.seconds["objects"] = time.monotonic() - started
        finally:
            # The message and the view in a turn of the event loop of their own (the run
            # stays listed, and so running, until then).
            QtCore.QTimer.singleShot(0, self._shown)

    def _shown(self) -> None:
        try:
            if self.feature is not None:
                started = time.monotonic()
                self.results.deviation_shown(self.feature)
                self.seconds["shown"] = time.monotonic() - started
        finally:
            if self in _RUN:
                _RUN.remove(self)
            if self.on_done is not None:
                self.on_done(self.feature)

    def _objects_alive(self) -> bool:
        try:
            return all(self.doc.getObject(n) is not None for n in (
                self.reference_name, self.candidate_name))  # fmt: skip
        except Exception:  # the document was closed
            return False

    def _show(self):
        with open(
            os.path.join(self.out, deviation_child.FILES["distances"]), encoding="utf-8"
        ) as f:
            measured = json.load(f)
        with diff_view.undoable(self.doc, tr("Show deviation")):
            feature = diff_view.show_deviation(
                self.doc,
                os.path.join(self.out, deviation_child.FILES["aligned"]),
                os.path.join(self.out, deviation_child.FILES["nominal"]),
                measured["distances"],
                measured["search_radius"],
            )
            for name in (self.reference_name, self.candidate_name):
                diff_view.set_visible(self.doc.getObject(name), False)
            for obj in diff_view.diff_objects(self.doc).values():
                diff_view.set_visible(obj, False)
        return feature


def start(results, reference, candidate, alignment, on_done=None) -> Run | None:
    """Start Show deviation (None when one already runs)."""
    if _RUN:
        results.show_message(tr("The deviation is already being computed."), "error")
        return None
    FreeCAD.Console.PrintLog("cadbench: Show deviation started in a child process\n")
    run = Run(results, reference, candidate, alignment, on_done)
    run.start()
    return run
