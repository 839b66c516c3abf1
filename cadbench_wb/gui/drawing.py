# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generate drawing: the core's drawing job (what ``cadbench drawing`` runs) in a child
process that a thread waits for, with a bar that only moves forward, the stage named as a
reader would and Cancel; then the page it saved is opened in FreeCAD.

The drawing is made exactly as the drawingMatch metric makes it; this module only starts
the job, shows how far it is, and opens what it wrote.
"""

import glob
import importlib.util
import json
import math
import os
import time

import FreeCAD
import FreeCADGui

from cadbench_wb.gui import job, panel, session
from cadbench_wb.gui.qt import QtCore, translate
from cadbench_wb.runtime.outcome import SELFTEST_PREFIX, Job

QT_TRANSLATE_NOOP = FreeCAD.Qt.QT_TRANSLATE_NOOP
_RUN = []  # the running Run (one at a time)

# The drawing child's stages (runtime/worker.py's drawing job, app/drawing/model_report.py)
# in order: where each starts on the bar, what the panel calls it, and about how long it
# takes (seconds, bearing_block on a loaded 2-core machine: the views' hidden-line removal
# 7 s of 8.5). Within a stage the bar creeps toward the next stage's start (never reaching
# it) at that pace, so a long projection still shows the window is alive.
STAGES = (
    ("start", 0, QT_TRANSLATE_NOOP("CadBench", "starting"), 1.0),
    (SELFTEST_PREFIX, 2, QT_TRANSLATE_NOOP("CadBench", "checking the FreeCAD kernel"), 1.0),
    ("candidate", 6, QT_TRANSLATE_NOOP("CadBench", "reading the model"), 1.0),
    (
        "drawing",
        12,
        QT_TRANSLATE_NOOP("CadBench", "projecting the views (hidden-line removal)"),
        8.0,
    ),
    (
        "drawing:dimensions",
        80,
        QT_TRANSLATE_NOOP("CadBench", "placing the dimensions and writing the files"),
        1.5,
    ),
    ("drawing:readback", 92, QT_TRANSLATE_NOOP("CadBench", "reading the drawing back"), 0.5),
)
_ENDS_AT = 99  # the last stage creeps toward this; the page opening is the rest


def tr(text: str) -> str:
    return translate("CadBench", text)


def available() -> bool:
    """Whether this version of cadbench has the drawing command."""
    return importlib.util.find_spec("cadbench_wb.commands.drawing") is not None


def stage_index(stage: str) -> int:
    """Where the child's stage stands in STAGES (a stage not listed counts as the start)."""
    names = [name for name, *_ in STAGES]
    key = SELFTEST_PREFIX if stage.startswith(SELFTEST_PREFIX) else stage
    return names.index(key) if key in names else 0


def stage_progress(stage: str, seconds_in: float) -> tuple[int, str]:
    """(percent, text) for the child's stage, seconds_in after it was first seen. A stage not
    listed counts as the start, so the bar never jumps ahead (the panel keeps the highest
    value shown)."""
    index = stage_index(stage)
    _name, start, text, pace = STAGES[index]
    end = STAGES[index + 1][1] if index + 1 < len(STAGES) else _ENDS_AT
    share = 1 - math.exp(-max(0.0, seconds_in) / pace)
    percent = min(end - 1, start + int((end - start) * share))
    if stage.startswith(SELFTEST_PREFIX):
        text = job.stage_text(stage)  # "checking the FreeCAD kernel (projection)"
    return max(start, percent), text


def generate_drawing(model_path: str | None = None, wait_ms: int = 0) -> str | None:
    """Start drawing the candidate (else the reference); the output folder, or None.

    wait_ms > 0 blocks until the drawing ends (for scripts), otherwise it runs in the
    background and the page opens when it is done."""
    results = panel.panel()
    if not available():
        results.show_message(tr("n/a: drawing generation is not available in this version."))
        return None
    if _RUN:
        results.show_message(tr("A drawing is already being generated."), "error")
        return None
    if results.activity_running():
        results.show_message(tr("Wait for the running action, or cancel it."), "error")
        return None
    sess = session.current()
    model = model_path or next(
        (m.path for m in (sess.candidate, sess.reference) if m is not None), None
    )
    if model is None:
        results.show_message(tr("Load a model first."), "error")
        return None
    run = Run(results, sess, os.path.abspath(model))
    run.start()
    if wait_ms:
        run.thread.wait(wait_ms)
        QtCore.QCoreApplication.processEvents()
    return run.out


class Run:
    """One Generate drawing: the thread waiting for the child, the bar, and the page."""

    def __init__(self, results, sess, model: str):
        from cadbench_wb.gui import preferences  # noqa: PLC0415 - FreeCAD-only

        self.results = results
        self.model = model
        self.name = os.path.basename(model)
        self.out = os.path.join(sess.workdir, "drawing-" + os.path.splitext(self.name)[0])
        pose = _scored_pose(sess, model)
        # With a pose, the candidate as the metric drew it: moved by the alignment the
        # scorer found, so the page shows the dimensions drawingMatch counted.
        self.posed = bool(pose)
        params = {"out": self.out, "projection": "first", "pose": pose}
        case = sess.case.path if sess.case is not None else None
        preferences.apply_python()
        self.thread = job.ScoringThread(
            [Job("drawing", candidate=model, case=case, params=params)],
            timeout=preferences.timeout_s(),
            memory_mb=preferences.memory_mb(),
        )
        self.thread.all_done.connect(self._finished)
        self.timer = QtCore.QTimer()
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._poll)
        self.stage, self.stage_seen = "", time.monotonic()
        self.shows_bar = False
        self.seconds = {}  # how long the GUI thread worked, by part (for tests)

    def start(self) -> None:
        _RUN.append(self)
        self.results.show_message(tr("Generating the drawing of {}…").format(self.name))
        # A scoring's bar stays the scoring's: the drawing then runs with its message only.
        self.shows_bar = not self.results.is_busy()
        if self.shows_bar:
            self.results.show_progress(0, tr("starting"), self.cancel)
        self.thread.start()
        self.timer.start()

    def cancel(self) -> None:
        self.thread.cancel()

    def _poll(self) -> None:
        stage = self.thread.stage()
        # Forward only: a stage file read while the child rewrites it is empty ("start"),
        # and a stage earlier in the order than the one shown never replaces it.
        if stage and stage != self.stage and stage_index(stage) >= stage_index(self.stage):
            self.stage, self.stage_seen = stage, time.monotonic()
        if self.shows_bar and not self.results.is_busy():
            percent, text = stage_progress(self.stage, time.monotonic() - self.stage_seen)
            self.results.show_progress(percent, tr(text), self.cancel)

    def _finished(self, outcomes) -> None:
        self.timer.stop()
        job.reap(self.thread)
        outcome = outcomes[0] if outcomes else {"cancelled": True}
        if self.shows_bar:
            self.results.end_activity()
        if outcome.get("cancelled"):
            self.results.show_message(tr("Drawing cancelled."))
        elif "result" not in outcome:
            message = job.outcome_message(outcome)
            self.results.show_message(tr("Drawing failed: {}").format(message), "error")
        else:
            self._open(outcome["result"])
            return
        self._end()

    def _open(self, report: dict) -> None:
        """Open the page in short turns of the event loop, each its own part of the work
        (TechDraw's GUI module loaded, the document made, recomputed, its page's view
        made), so that the window answers between them; then say what was written."""
        svg = os.path.join(self.out, "drawing.svg")
        title = os.path.splitext(self.name)[0]
        made = {}
        steps = [("message", lambda: self._report(report))]
        if os.path.isfile(svg):
            steps = [
                ("techdraw_gui", lambda: importlib.import_module("TechDrawGui")),
                ("document", lambda: made.update(doc=sheet_document(svg, title))),
                ("recompute", lambda: made["doc"].recompute()),
                ("page_view", lambda: show_page(made["doc"])),
                *steps,
            ]
        self._next(steps)

    def _next(self, steps) -> None:
        if not steps:
            self._end()
            return
        (name, step), rest = steps[0], steps[1:]
        started = time.monotonic()
        try:
            step()
        except Exception as exc:  # one line in the panel, never a traceback dialog
            self.results.show_message(
                tr("Drawing written to {}, but not shown: {}").format(
                    self.out, f"{type(exc).__name__}: {exc}"
                ),
                "error",
            )
            rest = []
        self.seconds[name] = time.monotonic() - started
        # 30 ms: time for the window to paint and answer before the next part.
        QtCore.QTimer.singleShot(30, lambda: self._next(rest))

    def _end(self) -> None:
        if self in _RUN:
            _RUN.remove(self)  # only now: the page is open and the message says so

    def _report(self, report: dict) -> None:
        written = ", ".join(
            sorted(os.path.basename(p) for p in glob.glob(os.path.join(self.out, "*")))
        )
        pose = tr(" (candidate in the scored pose, as drawingMatch draws it)") if self.posed else ""
        case = report.get("case") or {}
        coverage = (
            "; " + tr("{} of {} targets displayed").format(case["found"], case["of"])
            if "found" in case
            else ""
        )
        live = tr(" (open drawing.FCStd for TechDraw's live views: it projects them again)")
        self.results.show_message(
            tr("Drawing written to {}: {}").format(self.out, written) + pose + coverage + live,
            "ok",
        )


def _scored_pose(sess, model: str) -> str | None:
    """The last score result, written for the drawing's pose, when model is its candidate
    and the result reports an alignment; None otherwise (the model is drawn as delivered)."""
    result = sess.result or {}
    alignment = (result.get("shape") or {}).get("alignment") or {}
    if sess.candidate is None or os.path.abspath(model) != os.path.abspath(sess.candidate.path):
        return None
    if "rotation" not in alignment or "translation" not in alignment:
        return None
    path = os.path.join(sess.workdir, "scored-pose.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"shape": {"alignment": alignment}}, handle)
    return path


def is_running() -> bool:
    return bool(_RUN)


def running():
    """The running Run, or None."""
    return _RUN[0] if _RUN else None


def sheet_document(svg: str, title: str):
    """A new document whose TechDraw page shows the drawing as the child wrote it: the sheet
    SVG (template, views and dimensions) as the page's template. drawing.FCStd holds the
    live TechDraw views, but FreeCAD 0.20 projects them again when it opens that file, in
    the GUI thread (16 s of a frozen window for bearing_block's three views on a loaded
    machine); showing the SVG the child made from those views takes no kernel work. The
    document is to be recomputed (Generate drawing does it in a turn of its own)."""
    # Hidden: FreeCAD makes no 3D view for it (a document's first 3D view took 1.4 s of
    # the GUI thread on a loaded machine); the page's own view is made by show_page.
    doc = FreeCAD.newDocument("Drawing", hidden=True)
    doc.Label = translate("CadBench", "Drawing of {}").format(title)
    page = doc.addObject("TechDraw::DrawPage", "Page")
    template = doc.addObject("TechDraw::DrawSVGTemplate", "Template")
    template.Template = svg
    page.Template = template
    return doc


def show_page(doc) -> None:
    """Open the document's first TechDraw page in its own tab, as a double-click would."""
    pages = [o for o in doc.Objects if o.TypeId == "TechDraw::DrawPage"]
    view = getattr(pages[0], "ViewObject", None) if pages else None
    if view is not None and hasattr(view, "doubleClicked"):
        view.doubleClicked()
        QtCore.QTimer.singleShot(300, lambda: FreeCADGui.SendMsgToActiveView("ViewFit"))
