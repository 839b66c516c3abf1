# SPDX-License-Identifier: LGPL-2.1-or-later
"""A case being authored, as plain data, and how it is written to a case folder.

Pure Python (PyYAML): the authoring panel edits a CaseDraft; saving writes case.yaml
(docs/case-format.md) and copies the reference next to it, then loads the folder back with
cases.load_case, so a case the panel saves is one the scorer accepts, or the author gets
the scorer's own located reason.
"""

import dataclasses
import os
import re
import shutil
import tempfile

import yaml

from cadbench_wb.case_model import cases
from cadbench_wb.gui import detail_rows, panel_model

# The declaration of a dimension's spectrum and how the table shows it.
ON_REFERENCE = {
    "default": ("measurable", panel_model.PASS),
    "extended": ("extended spectrum only", panel_model.NOT_CHECKED),
    "none": ("not measurable", panel_model.FAIL),
}


@dataclasses.dataclass
class DraftDimension:
    id: str
    kind: str
    value: float
    tol: float | None = None
    note: str = ""
    source: str = ""  # what it was taken from: "Edge3", "Face1+Face5", "TechDraw Dimension"
    spectrum: str | None = None  # where the reference shows it (None: not known yet)
    geometry: dict | None = None  # its binding, as cases.Dimension.geometry holds it

    def as_case_dimension(self) -> cases.Dimension:
        return cases.Dimension(
            self.id, self.kind, self.value, self.tol, self.note, self.source,
            geometry=self.geometry,
        )  # fmt: skip

    def as_yaml(self) -> dict:
        data = {"id": self.id, "kind": self.kind, "value": _clean(self.value)}
        if self.tol is not None:
            data["tol"] = _clean(self.tol)
        if self.note:
            data["note"] = self.note
        if self.source:
            data["source"] = self.source
        if self.spectrum and self.spectrum != "default":
            data["spectrum"] = self.spectrum
        if self.geometry:
            data["geometry"] = _geometry_yaml(self.geometry)
        return data


def _geometry_yaml(geometry: dict) -> dict:
    """case.yaml's form of a binding: faces 1-based again (FreeCAD's FaceN)."""
    if "faces" in geometry:
        return {"faces": [i + 1 for i in geometry["faces"]]}
    if "at" in geometry:
        data = {"at": [[_clean(v) for v in p] for p in geometry["at"]]}
        data.update(
            {k: [_clean(v) for v in geometry[k]] for k in ("normal", "axis") if k in geometry}
        )
        return data
    return dict(geometry)


@dataclasses.dataclass
class CaseDraft:
    id: str = ""
    title: str = ""
    group: str = ""
    anchoring: bool = False
    reference_source: str = ""  # the model file the case is authored on
    dimensions: list = dataclasses.field(default_factory=list)

    def next_dimension_id(self) -> str:
        used = {d.id for d in self.dimensions}
        number = len(self.dimensions) + 1
        while f"D{number}" in used:
            number += 1
        return f"D{number}"

    def add(
        self,
        kind: str,
        value: float,
        source: str = "",
        note: str = "",
        spectrum=None,
        geometry=None,
    ) -> DraftDimension:
        dimension = DraftDimension(
            self.next_dimension_id(), kind, float(value), None, note, source, spectrum, geometry
        )
        self.dimensions.append(dimension)
        return dimension

    def reference_name(self) -> str:
        """The reference's file name inside the case folder."""
        ext = os.path.splitext(self.reference_source)[1].lower() or ".step"
        return f"reference{ext}"

    def as_yaml(self) -> dict:
        data = {
            "id": self.id,
            "title": self.title,
            "reference": self.reference_name(),
        }
        if self.group:
            data["group"] = self.group
        data["anchoring"] = bool(self.anchoring)
        data["dimensions"] = [d.as_yaml() for d in self.dimensions]
        return data


def case_text(draft: CaseDraft) -> str:
    header = "# Written by the cadbench workbench (Author case). Schema: docs/case-format.md\n"
    return header + yaml.safe_dump(draft.as_yaml(), sort_keys=False, allow_unicode=True)


def folder_name(case_id: str) -> str:
    """A file-system-safe folder name for a case id."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", case_id.strip()).strip("._")
    return name or "case"


def write_case(draft: CaseDraft, folder: str, link_reference: bool = False) -> str:
    """Write case.yaml and the reference into folder; the case file's path.

    With link_reference the reference is hard-linked where it can be, not copied (for
    throw-away folders); never symlinked: the loader refuses a symlink that leaves the case
    folder, as it refuses any path outside it."""
    os.makedirs(folder, exist_ok=True)
    target = os.path.join(folder, draft.reference_name())
    source = os.path.abspath(draft.reference_source)
    if os.path.abspath(target) != source:
        if link_reference and _same_file(source, target):
            pass  # the live scratch folder keeps its link from the last edit
        elif link_reference:
            _remove(target)
            try:
                os.link(source, target)
            except OSError:  # another file system: a copy
                shutil.copyfile(source, target)
        else:
            _remove(target)
            shutil.copyfile(source, target)
    path = os.path.join(folder, cases.CASE_FILE)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(case_text(draft))
    return path


def _same_file(first: str, second: str) -> bool:
    try:
        return os.path.samefile(first, second) and not os.path.islink(second)
    except OSError:
        return False


def _remove(path: str) -> None:
    if os.path.lexists(path):
        os.remove(path)


def save_case(draft: CaseDraft, folder: str) -> cases.Case:
    """Validate the draft as the scorer would, then write it; the loaded Case.

    Raises CaseInvalid (the scorer's located reason) before anything is written to folder."""
    check_draft(draft)
    write_case(draft, folder)
    return cases.load_case(folder)


def check_draft(draft: CaseDraft) -> None:
    """CaseInvalid when the draft would not load as a case (checked in a scratch folder)."""
    if not draft.reference_source or not os.path.isfile(draft.reference_source):
        raise cases.CaseInvalid("the case needs a reference model file")
    with tempfile.TemporaryDirectory(prefix="cadbench-draft-") as scratch:
        write_case(draft, scratch, link_reference=True)
        cases.load_case(scratch)


def draft_from_case(case) -> CaseDraft:
    """A draft to edit an existing case."""
    draft = CaseDraft(
        id=case.id,
        title=case.title,
        group=case.group,
        anchoring=case.anchoring,
        reference_source=case.reference_path,
    )
    for d in case.dimensions:
        draft.dimensions.append(
            DraftDimension(d.id, d.kind, d.value, d.tol, d.note, d.source, d.spectrum, d.geometry)
        )
    return draft


def draft_from_auto_case(case_file: str, reference_source: str) -> CaseDraft:
    """A draft that starts from a reference's automatic case (the case.yaml `cadbench case
    new` wrote, auto_cases.auto_case's caseFile): its targets with their bindings, for the
    author to remove, add and rebind, on the author's own reference file."""
    draft = draft_from_case(cases.load_case(case_file))
    draft.reference_source = reference_source
    return draft


def _clean(value: float):
    """Integers stay integers in the YAML (20, not 20.0); others keep 6 decimals."""
    value = round(float(value), 6)
    return int(value) if value == int(value) else value


def live_figures(result: dict | None, count: int) -> dict:
    """The live figures as text ('n/a' for any the core does not report yet)."""
    result = result or {}
    rows = {row.key: row.cells[1] for row in panel_model.ceiling_rows(result)}
    coverage = rows["referenceCoverage"]
    statuses = [row.cells[4] for row in detail_rows.dimension_rows(result)]
    unmeasured = [
        row.key
        for row in detail_rows.dimension_rows(result)
        if row.state in (panel_model.FAIL, panel_model.NOT_CHECKED)
    ]
    if statuses and coverage not in (panel_model.NOT_APPLICABLE, panel_model.NOT_RUN):
        coverage = f"{coverage} ({len(statuses) - len(unmeasured)} of {count})"
    warning = ""
    if unmeasured:
        warning = "Not measurable on the reference: " + ", ".join(unmeasured)
    return {
        "coverage": coverage,
        "self_test": rows["drawingSelfTest"],
        "random": rows["randomHitRate"],
        "warning": warning,
    }


def declaration_warning(dimensions: list) -> str:
    """The dimensions the reference cannot show in the default spectrum, named."""
    extended = [d.id for d in dimensions if d.spectrum == "extended"]
    none = [d.id for d in dimensions if d.spectrum == "none"]
    parts = []
    if none:
        parts.append("Not measurable on the reference: " + ", ".join(none))
    if extended:
        parts.append("Measurable only with --spectrum extended: " + ", ".join(extended))
    return "; ".join(parts)
