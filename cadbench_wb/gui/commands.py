# SPDX-License-Identifier: LGPL-2.1-or-later
"""The workbench's commands (CadBench_VerbNoun, each with an icon of the same name).

A command only gathers its input (a file dialog or the current selection) and hands it to
the panel or the session; errors become one line in the panel, never a traceback dialog.
"""

# ruff: noqa: N802 - GetResources, Activated, IsActive are FreeCAD's callback names
import os

import FreeCAD
import FreeCADGui

from cadbench_wb import resources
from cadbench_wb.errors import CadbenchError
from cadbench_wb.gui import panel, session
from cadbench_wb.gui.qt import QtWidgets, translate

QT_TRANSLATE_NOOP = FreeCAD.Qt.QT_TRANSLATE_NOOP
MODEL_FILTER = (
    "Models (*.FCStd *.fcstd *.step *.stp *.STEP *.STP *.brep *.brp *.iges *.igs *.stl *.obj)"
)


def _report(exc) -> None:
    text = exc.one_line() if isinstance(exc, CadbenchError) else f"{type(exc).__name__}: {exc}"
    panel.panel().show_message(text, "error")


def _selected_solid_object():
    selection = FreeCADGui.Selection.getSelection()
    if len(selection) == 1 and getattr(selection[0], "Shape", None) is not None:
        return selection[0]
    return None


class _Command:
    """Shared GetResources: icon by command id, menu text and tool tip translated."""

    name = ""
    menu = ""
    tip = ""
    accel = ""

    def GetResources(self):
        resources_ = {
            "Pixmap": resources.icon_path(self.name),
            "MenuText": self.menu,
            "ToolTip": self.tip,
        }
        if self.accel:
            resources_["Accel"] = self.accel
        return resources_

    def IsActive(self):
        return True


class _LoadModel(_Command):
    role = ""

    def Activated(self):
        obj = _selected_solid_object()
        sess = session.current()
        try:
            if obj is not None and obj.Name not in ("Reference", "Candidate"):
                sess.use_object(self.role, obj)
                text = translate("CadBench", "{} taken from the selection: {}")
                panel.panel().show_message(text.format(self.role.capitalize(), obj.Label))
            else:
                path, _ = QtWidgets.QFileDialog.getOpenFileName(
                    FreeCADGui.getMainWindow(), translate(self.name, self.menu), "", MODEL_FILTER
                )
                if not path:
                    return
                if self.role == "candidate":
                    panel.panel().load_candidate(path)
                    return
                panel.panel().load_reference(path)
        except Exception as exc:  # one line in the panel (bad file, no solid, ...)
            _report(exc)


class LoadReference(_LoadModel):
    name = "CadBench_LoadReference"
    role = "reference"
    menu = QT_TRANSLATE_NOOP("CadBench_LoadReference", "Load reference")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_LoadReference",
        "Load the reference model (FCStd, STEP, BREP, STL) or take the selected object",
    )


class LoadCandidate(_LoadModel):
    name = "CadBench_LoadCandidate"
    role = "candidate"
    menu = QT_TRANSLATE_NOOP("CadBench_LoadCandidate", "Load candidate")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_LoadCandidate",
        "Load the candidate model to score (FCStd, STEP, BREP, STL) or take the selected object",
    )


class OpenCase(_Command):
    name = "CadBench_OpenCase"
    menu = QT_TRANSLATE_NOOP("CadBench_OpenCase", "Open case…")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_OpenCase",
        "Browse the bundled cases (or any case folder) and open one with its candidates",
    )

    def Activated(self):
        from cadbench_wb.gui import case_browser  # noqa: PLC0415 - heavy: loaded on first use

        case_browser.show_browser()


class Score(_Command):
    name = "CadBench_Score"
    menu = QT_TRANSLATE_NOOP("CadBench_Score", "Score")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_Score",
        "Score the candidate against the reference or case (runs in the background)",
    )
    accel = "Ctrl+Shift+S"

    def Activated(self):
        panel.panel().score()

    def IsActive(self):
        sess = session.current()
        return (sess.reference is not None or sess.case is not None) and sess.candidate is not None


class ShowDiff(_Command):
    name = "CadBench_ShowDiff"
    menu = QT_TRANSLATE_NOOP("CadBench_ShowDiff", "Show diff")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_ShowDiff",
        "Show common (grey), missing (red) and extra (blue) material in the reference frame",
    )

    def Activated(self):
        panel.panel().show_diff()

    def IsActive(self):
        return bool(session.current().diff_parts())


class ApplyAlignment(_Command):
    name = "CadBench_ApplyAlignment"
    menu = QT_TRANSLATE_NOOP("CadBench_ApplyAlignment", "Apply / undo alignment")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_ApplyAlignment",
        "Move the candidate into the reference frame by its scored alignment, or back",
    )

    def Activated(self):
        results = panel.panel()
        if results.alignment_applied():
            results.undo_alignment()
        else:
            results.apply_alignment()

    def IsActive(self):
        sess = session.current()
        return bool(sess.result and sess.result.get("shape")) and sess.candidate is not None


class GenerateDrawing(_Command):
    name = "CadBench_GenerateDrawing"
    menu = QT_TRANSLATE_NOOP("CadBench_GenerateDrawing", "Generate drawing")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_GenerateDrawing",
        "Make a TechDraw drawing of the candidate (or reference) as the drawing metric does",
    )

    def Activated(self):
        from cadbench_wb.gui import drawing  # noqa: PLC0415 - heavy: loaded on first use

        try:
            drawing.generate_drawing()
        except Exception as exc:  # one line in the panel
            _report(exc)

    def IsActive(self):
        sess = session.current()
        return sess.candidate is not None or sess.reference is not None


class AuthorCase(_Command):
    name = "CadBench_AuthorCase"
    menu = QT_TRANSLATE_NOOP("CadBench_AuthorCase", "Author case…")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_AuthorCase",
        "Author a reference case: pick target dimensions on the reference and save case.yaml",
    )

    def Activated(self):
        from cadbench_wb.gui import authoring  # noqa: PLC0415 - heavy: loaded on first use

        authoring.show_authoring()


class ScoreFolder(_Command):
    name = "CadBench_ScoreFolder"
    menu = QT_TRANSLATE_NOOP("CadBench_ScoreFolder", "Score folder…")
    tip = QT_TRANSLATE_NOOP(
        "CadBench_ScoreFolder",
        "Score every model in a folder against the current reference or case",
    )

    def Activated(self):
        start = session.current().case.path if session.current().case else ""
        folder = QtWidgets.QFileDialog.getExistingDirectory(
            FreeCADGui.getMainWindow(), translate(self.name, self.menu), start
        )
        if folder:
            panel.panel().score_folder(folder)

    def IsActive(self):
        sess = session.current()
        return sess.reference is not None or sess.case is not None


class ShowPanel(_Command):
    name = "CadBench_ShowPanel"
    menu = QT_TRANSLATE_NOOP("CadBench_ShowPanel", "Results panel")
    tip = QT_TRANSLATE_NOOP("CadBench_ShowPanel", "Show the cadbench results panel")

    def Activated(self):
        panel.panel()


COMMANDS = (
    LoadReference,
    LoadCandidate,
    OpenCase,
    Score,
    ShowDiff,
    ApplyAlignment,
    GenerateDrawing,
    AuthorCase,
    ScoreFolder,
    ShowPanel,
)
TOOLBAR = [c.name for c in COMMANDS if c is not ShowPanel]
MENU = [c.name for c in COMMANDS]


_INSTANCES = {}  # command id -> the object FreeCAD calls, for refresh_states


def register() -> None:
    for command in COMMANDS:
        if command.name not in FreeCADGui.listCommands():
            instance = command()
            _INSTANCES[command.name] = instance
            FreeCADGui.addCommand(command.name, instance)


def refresh_states() -> None:
    """Enable or grey each cadbench toolbar button and menu entry by its IsActive now.

    FreeCAD re-checks IsActive only when the selection changes or a window is activated,
    so after a scoring or a load (which change what IsActive answers) the buttons would
    stay as they were until the user clicked in the 3D view. FreeCAD 1.x has
    updateCommands(); 0.20 has no Python call for it, so the actions are set directly."""
    from cadbench_wb.gui.qt import QAction  # noqa: PLC0415 - heavy: loaded on first use

    update = getattr(FreeCADGui, "updateCommands", None)
    if update is not None:
        update()
    actions = FreeCADGui.getMainWindow().findChildren(QAction)
    for name, instance in _INSTANCES.items():
        try:
            active = bool(instance.IsActive())
        except Exception:  # a state check must never break the panel
            continue
        for action in actions:
            if action.objectName() == name:
                action.setEnabled(active)


panel.STATE_LISTENERS.append(refresh_states)


def icon_names() -> list[str]:
    return [c.name for c in COMMANDS]


def missing_icons() -> list[str]:
    return [n for n in icon_names() if not os.path.isfile(resources.icon_path(n))]
