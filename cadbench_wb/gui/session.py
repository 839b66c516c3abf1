# SPDX-License-Identifier: LGPL-2.1-or-later
"""The workbench's working state: which reference, candidate and case are in use, the
document objects that show them, and the last result. One per FreeCAD session.

Models are read through the core's loader (app/model/loading.py) in a child process, which
writes the checked shape as BREP (an exact round trip), so the object in the 3D view holds
exactly the shape the scorer measures and sub-element names (Edge3, Face5) in the result
point at the same geometry here; FreeCAD itself never reads an untrusted file.
"""

import atexit
import dataclasses
import os
import shutil
import tempfile

import FreeCAD

from cadbench_wb.errors import DeliveryFailure, UsageError, error_of
from cadbench_wb.gui import panel_model, preferences
from cadbench_wb.inputs import formats
from cadbench_wb.runtime import runner
from cadbench_wb.runtime.outcome import Job, Limits, Options, case_data_of

DOCUMENT_NAME = "cadbench"
ROLE_STYLE = {  # (RGB, transparency): the reference ghosted, the candidate solid and warm
    "reference": ((0.55, 0.70, 0.85), 60),
    "candidate": ((0.95, 0.72, 0.30), 0),
}


@dataclasses.dataclass
class Model:
    """A reference or candidate: the file that is scored and the object that shows it.

    A load is one step of the document's undo history, so Ctrl+Z can take its object away
    (or give a reused object back the previous file's shape): object() is the object only
    while it still shows this file (its Description, Label2, is the file's path, which the
    undo restores with the shape), else None. The file, not the object, is what is scored."""

    path: str
    object_name: str = ""
    document: str = ""
    stamp: str = ""  # the object's Label2 while it shows this file ("" for a selection)

    def object(self):
        doc = FreeCAD.getDocument(self.document) if self.document in _documents() else None
        obj = doc.getObject(self.object_name) if doc is not None and self.object_name else None
        if obj is not None and self.stamp and getattr(obj, "Label2", "") != self.stamp:
            return None
        return obj

    def undone(self) -> bool:
        """Shown once, and no longer in the document (its load undone, or deleted)."""
        return bool(self.object_name) and self.object() is None


class Session:
    def __init__(self):
        self.reference: Model | None = None
        self.candidate: Model | None = None
        self.case = None  # cases.Case
        self.result: dict | None = None
        self.original_placement = None  # the candidate's placement before alignment
        self.workdir = tempfile.mkdtemp(prefix="cadbench-gui-")
        self._runs = 0
        remove_when_freecad_quits(self.workdir)

    # -- documents -------------------------------------------------------------------
    def document(self):
        """The document the workbench works in: the active one, else a new one."""
        doc = FreeCAD.ActiveDocument
        if doc is None:
            doc = FreeCAD.newDocument(DOCUMENT_NAME)
        return doc

    def load(self, role: str, path: str) -> Model:
        """Read a model file as the scorer does and show it; DeliveryFailure/ReferenceInvalid
        propagate with their reason for the panel to print.

        The file is read and checked in a child under the scoring limits (a STEP that
        crashes OpenCASCADE or a zip-bomb FCStd takes the child down, never FreeCAD), which
        writes the checked shape as BREP; this process reads only that BREP. This waits
        for the child (scripts); the panel runs the same job in a thread instead
        (load_job, then loaded with its answer), so the window never waits."""
        load_job = self.load_job(role, path)
        limits = Limits.of(preferences.timeout_s(), preferences.memory_mb())
        return self.loaded(role, path, runner.run_job(load_job, limits).as_answer())

    def load_job(self, role: str, path: str):
        """The outcome.Job that reads and checks one model in a child and writes its BREP."""
        preferences.apply_python()
        self._runs += 1
        brep = os.path.join(self.workdir, f"checked-{role}-{self._runs}.brep")
        return Job("load", reference=path, candidate=path, role=role, output=brep)

    def loaded(self, role: str, path: str, answer: dict) -> Model:
        """Show the model a load job's answer ({"result"} or {"error"}, as job.ScoringThread
        and Outcome.as_answer give it) describes; its failure raised with its reason."""
        from cadbench_wb.gui.diff_view import undoable  # noqa: PLC0415 - heavy: on first use

        if "error" in answer:
            error = error_of(answer["error"].get("reason", ""), answer["error"].get("detail", ""))
            if isinstance(error, DeliveryFailure):
                # Nothing to show, but still a delivery to score: the result names the
                # failure. The last candidate goes: left in the view, it would pass for it.
                last = self.candidate.object() if role == "candidate" and self.candidate else None
                doc = last.Document if last is not None else self.document()
                with undoable(doc, self._step_name(role, path)):
                    if last is not None:
                        doc.removeObject(last.Name)
                    self.candidate = Model(os.path.abspath(path))
                    self._forget_result(doc)
            raise error
        import Part  # noqa: PLC0415 - FreeCAD-only

        shape = Part.read(answer["result"]["brep"])
        doc = self.document()
        name = role.capitalize()
        # One step of the undo history (Ctrl+Z), as FreeCAD's own Import makes its own.
        with undoable(doc, self._step_name(role, path)):
            obj = doc.getObject(name)
            if obj is None or obj.TypeId != "Part::Feature":
                obj = doc.addObject("Part::Feature", name)
            obj.Shape = shape
            obj.Placement = FreeCAD.Placement()
            obj.Label = f"{name} ({os.path.basename(path)})"
            obj.Label2 = os.path.abspath(path)
            _style(obj, *ROLE_STYLE[role])
            doc.recompute()
            model = Model(os.path.abspath(path), obj.Name, doc.Name, obj.Label2)
            setattr(self, role, model)
            self._forget_result(doc)
        return model

    def _step_name(self, role: str, path: str) -> str:
        """The undo step's name: Open case for a case's reference, else Load <role>."""
        case = self.case
        if role == "reference" and case is not None and path == case.reference_path:
            return FreeCAD.Qt.translate("CadBench", "Open case")
        if role == "reference":
            return FreeCAD.Qt.translate("CadBench", "Load reference")
        return FreeCAD.Qt.translate("CadBench", "Load candidate")

    def undone_roles(self) -> list[str]:
        """The roles whose model was shown and is no longer in the document (Ctrl+Z of its
        load, or deleted): the panel says so instead of acting on a missing object."""
        return [
            role
            for role in ("reference", "candidate")
            if getattr(self, role) is not None and getattr(self, role).undone()
        ]

    def require_shown(self, *roles: str) -> None:
        """UsageError naming the first of roles whose load was undone (or object deleted)."""
        for role in roles:
            model = getattr(self, role)
            if model is not None and model.undone():
                raise UsageError(
                    f"the {role} {os.path.basename(model.path)} is no longer in the document "
                    "(its load was undone or its object deleted): load it again, or Redo"
                )

    def use_object(self, role: str, obj) -> Model:
        """Take a document object (the current selection) as reference or candidate: its
        shape is written to a BREP file that the scoring process reads."""
        shape = getattr(obj, "Shape", None)
        if shape is None or shape.isNull() or not shape.Solids:
            raise UsageError(f"{obj.Label}: the selected object holds no solid")
        path = os.path.join(self.workdir, f"{role}-{obj.Name}.brep")
        shape.exportBrep(path)
        model = Model(path, obj.Name, obj.Document.Name)
        setattr(self, role, model)
        self._forget_result(obj.Document)
        return model

    def _forget_result(self, doc) -> None:
        """A new reference or candidate: the last result and its diff no longer apply."""
        from cadbench_wb.gui import diff_view  # noqa: PLC0415 - heavy: loaded on first use

        self.result = None
        self.original_placement = None
        diff_view.remove_diff(doc)
        # Show diff hid the reference and candidate behind the diff solids; with the diff
        # gone they must be seen again, or the next candidate lands in an empty view.
        for model in (self.reference, self.candidate):
            obj = model.object() if model is not None else None
            view = getattr(obj, "ViewObject", None)
            if view is not None:
                view.Visibility = True

    def open_case(self, folder: str):
        """Make a case current and show its reference (waiting for its child); the case."""
        case = self.case_to_open(folder)
        self.case = case
        self.result = None
        self.load("reference", case.reference_path)
        return case

    def case_to_open(self, folder: str):
        """The case of folder, checked to be openable (its reference built)."""
        from cadbench_wb.case_model import cases  # noqa: PLC0415 - heavy: loaded on first use

        case = cases.load_case(folder)
        if not os.path.exists(case.reference_path):
            raise UsageError(
                f"{case.id}: the reference {case.reference} is not built yet "
                "(run `cadbench case build` or `make demo` once)"
            )
        return case

    # -- scoring ---------------------------------------------------------------------
    def score_job(self, candidate_path: str | None = None):
        """The outcome.Job for the current reference (or case) and candidate."""
        given = candidate_path is not None
        candidate_path = candidate_path or (self.candidate.path if self.candidate else None)
        if self.reference is None and self.case is None:
            raise UsageError("load a reference model or open a case first")
        if not candidate_path:
            raise UsageError("load a candidate model first")
        # The score is of the files, but a model whose load was undone is not loaded.
        self.require_shown("reference", *(() if given else ("candidate",)))
        self._runs += 1
        diff_dir = os.path.join(self.workdir, f"diff-{self._runs}")
        reference = self.case.reference_path if self.case else self.reference.path
        options = Options(export_diff=diff_dir)
        if self.case is None:
            return Job("score", reference, candidate_path, options)
        data = case_data_of(self.case)  # the case as this session loaded and validated it
        return Job("score", reference, candidate_path, options, self.case.path, case_data=data)

    def case_candidates(self) -> list[str]:
        """Model files in the current case's candidates/ folder."""
        if self.case is None:
            return []
        return model_files(os.path.join(self.case.path, "candidates"))

    def diff_parts(self) -> dict:
        return panel_model.diff_files(self.result or {})


def model_files(folder: str) -> list[str]:
    """Model files cadbench reads in a folder, sorted by name."""
    if not os.path.isdir(folder):
        return []
    return [
        os.path.join(folder, name)
        for name in sorted(os.listdir(folder))
        if os.path.splitext(name)[1].lower() in formats.FORMATS
        and os.path.isfile(os.path.join(folder, name))
    ]


def remove_when_freecad_quits(folder: str) -> None:
    """A scratch folder (the session's diff pieces, scored BREPs and drawings; the authoring
    panel's live case) goes with FreeCAD: on Qt's aboutToQuit in the GUI, and at
    interpreter exit as a fallback."""

    def remove():
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)
    try:
        from cadbench_wb.gui.qt import QtWidgets  # noqa: PLC0415 - FreeCAD-only

        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(remove)
    except ImportError:  # no Qt (a headless session object): atexit alone
        pass


def _documents() -> list[str]:
    return list(FreeCAD.listDocuments())


def _style(obj, rgb, transparency) -> None:
    view = getattr(obj, "ViewObject", None)
    if view is None:
        return
    view.ShapeColor = tuple(rgb)
    view.Transparency = int(transparency)


_SESSION: Session | None = None


def current() -> Session:
    global _SESSION
    if _SESSION is None:
        _SESSION = Session()
    return _SESSION
