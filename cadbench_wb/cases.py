# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reference cases: ``cases/<case_id>/case.yaml``, loaded and validated.

Pure Python (PyYAML): no FreeCAD. Every error names the file, the line and the field, so
an author can fix a case without guessing. The schema is documented in docs/case-format.md;
sections this module does not know (features, threads, ...) are kept in ``Case.raw`` and
validated by the modules that use them.
"""

import dataclasses
import os

import yaml

from cadbench_wb import standard
from cadbench_wb.errors import UsageError

DIMENSION_KINDS = ("length", "diameter", "radius", "angle")
CASE_FILE = "case.yaml"


class CaseInvalid(UsageError):
    reason = "case_invalid"


@dataclasses.dataclass
class Dimension:
    id: str
    kind: str
    value: float
    tol: float | None = None
    note: str = ""
    source: str = ""
    spectrum: str = "default"  # "extended": measurable only with axis positions

    @property
    def tolerance(self) -> float:
        """The explicit tolerance, or seed 001's default for its family."""
        if self.tol is not None:
            return self.tol
        if self.kind == "angle":
            return standard.ANGULAR_TOLERANCE_DEG
        return max(
            standard.LINEAR_TOLERANCE_ABS_MM, standard.LINEAR_TOLERANCE_REL * abs(self.value)
        )

    def as_dict(self) -> dict:
        data = {"id": self.id, "kind": self.kind, "value": self.value, "tolerance": self.tolerance}
        if self.note:
            data["note"] = self.note
        return data


@dataclasses.dataclass
class Case:
    id: str
    title: str
    path: str  # the case folder, absolute
    reference: str  # relative to the case folder
    group: str = ""
    anchoring: bool = False
    drawing: str | None = None
    dimensions: list[Dimension] = dataclasses.field(default_factory=list)
    raw: dict = dataclasses.field(default_factory=dict)

    @property
    def reference_path(self) -> str:
        return os.path.join(self.path, self.reference)

    @property
    def case_file(self) -> str:
        return os.path.join(self.path, CASE_FILE)

    @property
    def build_script(self) -> str | None:
        """The script that builds the reference, if the reference is generated."""
        script = self.raw.get("build")
        return os.path.join(self.path, script) if script else None


class _LineLoader(yaml.SafeLoader):
    """A safe loader that remembers the line of every mapping (for located errors)."""


def _construct_mapping(loader, node, deep=False):
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=deep)
    mapping["__line__"] = node.start_mark.line + 1
    mapping["__lines__"] = {k.value: k.start_mark.line + 1 for k, _ in node.value}
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _strip_lines(value):
    if isinstance(value, dict):
        return {k: _strip_lines(v) for k, v in value.items() if k not in ("__line__", "__lines__")}
    if isinstance(value, list):
        return [_strip_lines(v) for v in value]
    return value


def _fail(path: str, mapping: dict | None, field: str, message: str):
    line = None
    if isinstance(mapping, dict):
        line = mapping.get("__lines__", {}).get(field.split(".")[-1].split("[")[0]) or mapping.get(
            "__line__"
        )
    where = f"{path}:{line}" if line else path
    raise CaseInvalid(f"{where}: {field}: {message}")


def case_file_of(path: str) -> str:
    if os.path.isdir(path):
        path = os.path.join(path, CASE_FILE)
    if not os.path.isfile(path):
        raise CaseInvalid(f"{path}: no such case file")
    return path


def load_case(path: str) -> Case:
    """The case at a folder or a case.yaml, validated; CaseInvalid names file:line: field."""
    file = os.path.abspath(case_file_of(path))
    folder = os.path.dirname(file)
    try:
        with open(file, encoding="utf-8") as handle:
            data = yaml.load(handle, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{file}:{mark.line + 1}" if mark else file
        raise CaseInvalid(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(data, dict):
        raise CaseInvalid(f"{file}: the case must be a mapping of fields")
    for field in ("id", "title", "reference"):
        if not isinstance(data.get(field), str) or not data.get(field).strip():
            _fail(file, data, field, "required text field is missing or empty")
    reference = data["reference"]
    if os.path.isabs(reference) or ".." in reference.replace("\\", "/").split("/"):
        _fail(file, data, "reference", "must be a path inside the case folder")
    if not os.path.exists(os.path.join(folder, reference)) and not data.get("build"):
        _fail(file, data, "reference", f"{reference} does not exist and no build script is given")
    anchoring = data.get("anchoring", False)
    if not isinstance(anchoring, bool):
        _fail(file, data, "anchoring", "must be true or false")
    dimensions = _dimensions(file, data)
    return Case(
        id=data["id"],
        title=data["title"],
        path=folder,
        reference=reference,
        group=str(data.get("group", "")),
        anchoring=anchoring,
        drawing=data.get("drawing"),
        dimensions=dimensions,
        raw=_strip_lines(data),
    )


def _dimensions(file: str, data: dict) -> list[Dimension]:
    entries = data.get("dimensions", []) or []
    if not isinstance(entries, list):
        _fail(file, data, "dimensions", "must be a list")
    seen, result = set(), []
    for index, entry in enumerate(entries):
        field = f"dimensions[{index}]"
        if not isinstance(entry, dict):
            _fail(file, data, "dimensions", f"{field} must be a mapping with id, kind, value")
        ident = entry.get("id")
        if not isinstance(ident, (str, int)) or str(ident) == "":
            _fail(file, entry, f"{field}.id", "required")
        ident = str(ident)
        if ident in seen:
            _fail(file, entry, f"{field}.id", f"duplicate id {ident!r}")
        seen.add(ident)
        kind = entry.get("kind")
        if kind not in DIMENSION_KINDS:
            _fail(
                file,
                entry,
                f"{field}.kind",
                f"unknown kind {kind!r} (one of {', '.join(DIMENSION_KINDS)})",
            )
        value = entry.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            _fail(file, entry, f"{field}.value", "must be a number")
        if value <= 0:
            _fail(file, entry, f"{field}.value", f"must be positive, not {value}")
        if kind == "angle" and value >= 360:
            _fail(file, entry, f"{field}.value", "an angle is given in degrees below 360")
        tol = entry.get("tol")
        if tol is not None and (
            isinstance(tol, bool) or not isinstance(tol, (int, float)) or tol <= 0
        ):
            _fail(file, entry, f"{field}.tol", "must be a positive number")
        spectrum = entry.get("spectrum", "default")
        if spectrum not in ("default", "extended"):
            _fail(file, entry, f"{field}.spectrum", "must be default or extended")
        result.append(
            Dimension(
                id=ident,
                kind=kind,
                value=float(value),
                tol=None if tol is None else float(tol),
                note=str(entry.get("note", "")),
                source=str(entry.get("source", "")),
                spectrum=spectrum,
            )
        )
    return result


def discover_cases(root: str) -> list[Case]:
    """Every case under a folder (one level of case folders), sorted by id; ids unique."""
    if not os.path.isdir(root):
        raise CaseInvalid(f"{root}: no such cases folder")
    found = []
    for name in sorted(os.listdir(root)):
        if os.path.isfile(os.path.join(root, name, CASE_FILE)):
            found.append(load_case(os.path.join(root, name)))
    ids = {}
    for case in found:
        if case.id in ids:
            raise CaseInvalid(
                f"{case.case_file}: id: duplicate case id {case.id!r} (also in {ids[case.id]})"
            )
        ids[case.id] = case.case_file
    return sorted(found, key=lambda c: c.id)
