# SPDX-License-Identifier: LGPL-2.1-or-later
"""Generate drawing: the core's ``cadbench drawing`` in a child process (QProcess, so the
GUI stays responsive), then the page it saved is opened in FreeCAD.

The drawing is made exactly as the drawingMatch metric makes it; this module only starts
the command and opens what it wrote.
"""

import glob
import importlib.util
import json
import os

import FreeCAD
import FreeCADGui

from cadbench_wb.gui import job, panel, session
from cadbench_wb.gui.qt import QtCore, translate
from cadbench_wb.runtime import runner

_PROCESS = None


def tr(text: str) -> str:
    return translate("CadBench", text)


def available() -> bool:
    """Whether this version of cadbench has the drawing command."""
    return importlib.util.find_spec("cadbench_wb.commands.drawing") is not None


def generate_drawing(model_path: str | None = None, wait_ms: int = 0) -> str | None:
    """Start drawing the candidate (else the reference); the output folder, or None.

    wait_ms > 0 blocks until the command ends (for scripts), otherwise it runs in the
    background and the page opens when it is done."""
    global _PROCESS
    results = panel.panel()
    if not available():
        results.show_message(tr("n/a: drawing generation is not available in this version."))
        return None
    if _PROCESS is not None:
        results.show_message(tr("A drawing is already being generated."), "error")
        return None
    sess = session.current()
    model = model_path or next(
        (m.path for m in (sess.candidate, sess.reference) if m is not None), None
    )
    if model is None:
        results.show_message(tr("Load a model first."), "error")
        return None
    out = os.path.join(sess.workdir, "drawing-" + os.path.splitext(os.path.basename(model))[0])
    arguments = ["-m", "cadbench_wb", "drawing", model, "--out", out]
    if sess.case is not None:
        arguments += ["--case", sess.case.path]
    pose = _scored_pose(sess, model)
    if pose:
        # The candidate as the metric drew it: moved by the alignment the scorer found, so
        # the page shows the dimensions drawingMatch counted.
        arguments += ["--pose", pose]
    from cadbench_wb.gui import preferences  # noqa: PLC0415 - FreeCAD-only

    preferences.apply_python()
    process = QtCore.QProcess()
    process.setProcessEnvironment(job.qprocess_environment())
    process.setProcessChannelMode(QtCore.QProcess.ProcessChannelMode.MergedChannels)
    process.finished.connect(lambda code, _status: _finished(process, code, out))
    _PROCESS = process
    name = os.path.basename(model)
    results.show_message(tr("Generating the drawing of {}…").format(name))
    process.start(runner.python_for_children(), arguments)
    if not results.is_busy():  # a scoring's bar stays the scoring's

        def cancel():
            process.setProperty("cancelled", True)
            process.kill()

        results.show_activity(tr("drawing {}").format(name), cancel)
    if wait_ms:
        process.waitForFinished(wait_ms)
    return out


def _scored_pose(sess, model: str) -> str | None:
    """The last score result, written for `drawing --pose`, when model is its candidate and
    the result reports an alignment; None otherwise (the model is drawn as delivered)."""
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


def _finished(process, code: int, out: str) -> None:
    global _PROCESS
    results = panel.panel()
    text = bytes(process.readAll()).decode("utf-8", "replace").strip()
    try:
        results.end_activity()
        if process.property("cancelled"):
            results.show_message(tr("Drawing cancelled."))
            return
        if code != 0:
            last = text.splitlines()[-1] if text else f"exit status {code}"
            results.show_message(tr("Drawing failed: {}").format(last), "error")
            return
        for path in sorted(glob.glob(os.path.join(out, "*.FCStd")))[:1]:
            show_page(FreeCAD.openDocument(path))
        written = ", ".join(sorted(os.path.basename(p) for p in glob.glob(os.path.join(out, "*"))))
        pose = tr(" (candidate in the scored pose, as drawingMatch draws it)") if (
            "--pose" in process.arguments()
        ) else ""  # fmt: skip
        # "case bearing_block: 17 of 17 targets displayed" (commands/drawing.py's summary).
        coverage = next(
            (
                line.split(":", 1)[1].strip()
                for line in text.splitlines()
                if line.startswith("case ")
            ),
            "",
        )
        coverage = f"; {coverage}" if coverage else ""
        results.show_message(
            tr("Drawing written to {}: {}").format(out, written) + pose + coverage, "ok"
        )
    finally:
        _PROCESS = None  # only now: opening the page runs Qt's event loop


def is_running() -> bool:
    return _PROCESS is not None


def show_page(doc) -> None:
    """Open the document's first TechDraw page in its own tab, as a double-click would."""
    pages = [o for o in doc.Objects if o.TypeId == "TechDraw::DrawPage"]
    view = getattr(pages[0], "ViewObject", None) if pages else None
    if view is not None and hasattr(view, "doubleClicked"):
        view.doubleClicked()
        QtCore.QTimer.singleShot(300, lambda: FreeCADGui.SendMsgToActiveView("ViewFit"))
