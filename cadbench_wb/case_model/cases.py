# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reference cases: ``cases/<case_id>/case.yaml``, loaded and validated.

Pure Python (PyYAML): no FreeCAD. Every error names the file, the line and the field, so
an author can fix a case without guessing. The schema is documented in docs/case-format.md;
sections this module does not know (features, threads, ...) are kept in ``Case.raw`` and
validated by the modules that use them.
"""

import dataclasses
import difflib
import math
import os
import re

import yaml

from cadbench_wb import standard
from cadbench_wb.errors import CaseInvalid
from cadbench_wb.inputs import checks as input_checks
from cadbench_wb.inputs.bounded_yaml import BoundedSafeLoader, YamlLimit
from cadbench_wb.metrics import registry

DIMENSION_KINDS = ("length", "diameter", "radius", "angle")
# Which spectrum measures a dimension on the reference (verified by `cadbench case verify`):
# seed 000's default, only the extended one (axis positions), or neither.
SPECTRUM_DECLARATIONS = ("default", "extended", "none")
CASE_FILE = "case.yaml"
# A case id names files and folders of every campaign (scores/<system>/<run>/<id>.json): a
# name, never a path. ASCII letters, digits, '.', '_' and '-', starting with a letter or a
# digit (so never '.', '..' or a hidden name), at most 100 characters.
CASE_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@dataclasses.dataclass
class Dimension:
    id: str
    kind: str
    value: float
    tol: float | None = None
    note: str = ""
    source: str = ""
    spectrum: str = "default"  # "extended": only with axis positions; "none": neither
    # Where the target sits on the reference (located matching): {"faces": [0-based]},
    # {"feature": "F3"} or {"none": "why no geometry carries it"}; None: inferred.
    geometry: dict | None = None

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
class Candidate:
    """A sample delivery of a case and what scoring it must give (``candidates:``)."""

    file: str  # relative to the case folder
    path: str  # absolute
    note: str = ""
    expect: dict = dataclasses.field(default_factory=dict)
    # With --spectrum extended: the keys that differ from ``expect`` (dimension figures).
    expect_extended: dict = dataclasses.field(default_factory=dict)
    # {FreeCAD version prefix ('1.0'): the keys whose figure that kernel genuinely builds
    # otherwise}, each with a comment saying why in case.yaml; never a looser figure.
    expect_freecad: dict = dataclasses.field(default_factory=dict)

    def expected(self, freecad_version: str | None) -> dict:
        """``expect`` as it holds on this FreeCAD version ('1.0.0'; None: as written)."""
        found = dict(self.expect)
        for prefix, keys in sorted(self.expect_freecad.items()):
            if freecad_version and f"{freecad_version}.".startswith(f"{prefix}."):
                found.update(keys)
        return found

    @property
    def name(self) -> str:
        return os.path.splitext(os.path.basename(self.file))[0]


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

    @property
    def candidates(self) -> list[Candidate]:
        """The sample candidates listed in case.yaml, in their order."""
        return [
            Candidate(
                file=entry["file"],
                path=os.path.join(self.path, entry["file"]),
                note=str(entry.get("note", "")),
                expect=dict(entry.get("expect") or {}),
                expect_extended=dict(entry.get("expect_extended") or {}),
                expect_freecad={
                    str(k): dict(v or {}) for k, v in (entry.get("expect_freecad") or {}).items()
                },
            )
            for entry in self.raw.get("candidates") or []
        ]

    def missing_files(self) -> list[str]:
        """Files case.yaml names (reference, candidates) that are not there yet."""
        wanted = [self.reference] + [c.file for c in self.candidates]
        return [f for f in wanted if not os.path.exists(os.path.join(self.path, f))]


class _LineLoader(BoundedSafeLoader):
    """A safe loader that remembers the line of every mapping (for located errors)."""


def _construct_mapping(loader, node, deep=False):
    mapping = BoundedSafeLoader.construct_mapping(loader, node, deep=deep)
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
    if not os.path.lexists(path):
        raise CaseInvalid(f"{input_checks.printable(path)}: no such case file")
    return path


def case_text(file: str) -> str:
    """case.yaml's text: a regular file (a FIFO is refused unopened), at most
    standard.CASE_FILE_MAX_BYTES, UTF-8; CaseInvalid with the reason otherwise."""
    try:
        handle = input_checks.open_regular(file)
    except input_checks.FileProblem as problem:
        raise CaseInvalid(str(problem)) from None
    with handle:
        data = handle.read(standard.CASE_FILE_MAX_BYTES + 1)
    if len(data) > standard.CASE_FILE_MAX_BYTES:
        raise CaseInvalid(
            f"{file}: larger than {standard.CASE_FILE_MAX_BYTES} bytes "
            "(standard.CASE_FILE_MAX_BYTES): a case file is text a person writes"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CaseInvalid(
            f"{file}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); save the case file as UTF-8"
        ) from None


def load_case(path: str) -> Case:
    """The case at a folder or a case.yaml, validated; CaseInvalid names file:line: field."""
    file = os.path.abspath(case_file_of(path))
    folder = os.path.dirname(file)
    if input_checks.inside_folder(folder, CASE_FILE) is None:
        raise CaseInvalid(f"{file}: a symlink to a file outside the case folder: refused")
    text = case_text(file)
    try:
        data = yaml.load(text, Loader=_LineLoader)  # a bounded SafeLoader
    except YamlLimit as exc:
        raise CaseInvalid(f"{file}: refused: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{file}:{mark.line + 1}" if mark else file
        raise CaseInvalid(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    except RecursionError:  # a backstop: the loader's depth limit comes first
        raise CaseInvalid(f"{file}: refused: nested too deeply to read") from None
    if not isinstance(data, dict):
        raise CaseInvalid(f"{file}: the case must be a mapping of fields")
    for field in ("id", "title", "reference"):
        if not isinstance(data.get(field), str) or not data.get(field).strip():
            _fail(file, data, field, "required text field is missing or empty")
    if not CASE_ID_PATTERN.fullmatch(data["id"]):
        _fail(file, data, "id", _BAD_ID.format(input_checks.printable(data["id"])))
    reference = data["reference"]
    if not _inside(reference, folder):
        _fail(file, data, "reference", _OUTSIDE)
    if not os.path.exists(os.path.join(folder, reference)) and not data.get("build"):
        _fail(file, data, "reference", f"{reference} does not exist and no build script is given")
    anchoring = data.get("anchoring", False)
    if not isinstance(anchoring, bool):
        _fail(file, data, "anchoring", "must be true or false")
    build = data.get("build")
    if build is not None:
        if not isinstance(build, str) or not _inside(build, folder):
            _fail(file, data, "build", _OUTSIDE)
        if not os.path.isfile(os.path.join(folder, build)):
            _fail(file, data, "build", f"{build} does not exist")
    drawing = data.get("drawing")
    if drawing is not None and (not isinstance(drawing, str) or not _inside(drawing, folder)):
        _fail(file, data, "drawing", _OUTSIDE)
    dimensions = _dimensions(file, data)
    _candidates(file, folder, data)
    raw = _strip_lines(data)
    _metric_sections(file, raw)
    return Case(
        id=data["id"],
        title=data["title"],
        path=folder,
        reference=reference,
        group=str(data.get("group", "")),
        anchoring=anchoring,
        drawing=drawing,
        dimensions=dimensions,
        raw=raw,
    )


# Top-level fields this module, the campaign and the metrics' sections read.
CORE_FIELDS = (
    "id",
    "title",
    "reference",
    "group",
    "anchoring",
    "build",
    "drawing",
    "dimensions",
    "candidates",
    "provenance",
    "isolation",
    "auto",  # written by `cadbench case new` (app/cases/auto.py): how the targets were made
)


def _metric_sections(file: str, data: dict) -> None:
    """Each metric's own section, validated by the validator the metric registry names, so
    `case check` catches what only a scoring would otherwise find."""
    for key, (_metric, validator) in registry.section_owners().items():
        if data.get(key) is not None:
            registry.resolve(validator)(data[key], f"{file}: {key}")


def unknown_fields(case: "Case") -> list[str]:
    """Top-level fields nothing reads, each with the nearest known name when there is one
    (a typo such as `feature:` would otherwise be ignored silently)."""
    known = CORE_FIELDS + tuple(registry.section_owners())
    notes = []
    for key in case.raw:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1)
            notes.append(f"{key}" + (f" (did you mean {near[0]}?)" if near else ""))
    return notes


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
        if not _finite(value):  # YAML's .nan and .inf are numbers too
            _fail(file, entry, f"{field}.value", "must be a finite number")
        if value <= 0:
            _fail(file, entry, f"{field}.value", f"must be positive, not {value}")
        if kind == "angle" and value >= 360:
            _fail(file, entry, f"{field}.value", "an angle is given in degrees below 360")
        tol = entry.get("tol")
        if tol is not None and (not _finite(tol) or tol <= 0):
            _fail(file, entry, f"{field}.tol", "must be a positive number")
        spectrum = entry.get("spectrum", "default")
        if spectrum not in SPECTRUM_DECLARATIONS:
            _fail(
                file,
                entry,
                f"{field}.spectrum",
                f"must be one of {', '.join(SPECTRUM_DECLARATIONS)}, not {spectrum!r}",
            )
        geometry = _geometry_binding(file, entry, field)
        result.append(
            Dimension(
                id=ident,
                kind=kind,
                value=float(value),
                tol=None if tol is None else float(tol),
                note=str(entry.get("note", "")),
                source=str(entry.get("source", "")),
                spectrum=spectrum,
                geometry=geometry,
            )
        )
    return result


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


GEOMETRY_KEYS = ("faces", "feature", "none", "at")
# With `at:` only: the direction the named face has there (a plane's normal, either sign; a
# cylinder's, cone's or torus' axis), to tell apart faces that meet at the point.
PLACE_DIRECTIONS = ("normal", "axis")


def _geometry_binding(file: str, entry: dict, field: str) -> dict | None:
    """A dimension's ``geometry:``: one of {faces: [Face3, 7]}, {feature: F2},
    {at: [x, y, z]} (or a list of points, one per face; optionally normal: or axis:) or
    {none: reason} (docs/case-format.md, "Binding a dimension to its geometry")."""
    binding = entry.get("geometry")
    if binding is None:
        return None
    where = f"{field}.geometry"
    keys = [k for k in (binding if isinstance(binding, dict) else {}) if not k.startswith("__")]
    main = [k for k in keys if k in GEOMETRY_KEYS]
    extra = [k for k in keys if k not in GEOMETRY_KEYS]
    place = main == ["at"] and len(extra) <= 1 and set(extra) <= set(PLACE_DIRECTIONS)
    if not isinstance(binding, dict) or not (place or (len(keys) == 1 and len(main) == 1)):
        _fail(
            file,
            entry,
            where,
            "must be one of {faces: [...]}, {feature: id}, {at: [x, y, z]} (with normal: or "
            "axis: at most), {none: reason}",
        )
    key = main[0]
    value = binding[key]
    if key == "at":
        return _place_binding(file, binding, where, extra[0] if extra else None)
    if key == "faces":
        if not isinstance(value, list) or not value:
            _fail(file, binding, f"{where}.faces", "must be a non-empty list of faces")
        faces = []
        for item in value:
            number = _face_number(item)
            if number is None:
                _fail(
                    file,
                    binding,
                    f"{where}.faces",
                    f"{item!r} is not a face (FaceN or a number from 1)",
                )
            faces.append(number - 1)
        return {"faces": sorted(set(faces))}
    if not isinstance(value, (str, int)) or isinstance(value, bool) or not str(value).strip():
        _fail(file, binding, f"{where}.{key}", "must be non-empty text")
    return {key: str(value).strip()}


def _place_binding(file: str, binding: dict, where: str, direction: str | None) -> dict:
    """{at: [[x, y, z], ...], normal|axis?: [x, y, z]}: the faces through these points of
    the reference (resolved on the shape by app/dimensions/location.py). One point may be
    written bare; each point names one face, so a face pair is two points."""
    value = binding["at"]
    points = [value] if _vector(value) is not None else value
    if not isinstance(points, list) or not points or any(_vector(p) is None for p in points):
        _fail(
            file,
            binding,
            f"{where}.at",
            "must be a point [x, y, z] or a non-empty list of points, in mm",
        )
    result = {"at": [_vector(p) for p in points]}
    if direction is not None:
        vector = _vector(binding[direction])
        if vector is None or not any(vector):
            _fail(file, binding, f"{where}.{direction}", "must be a non-zero vector [x, y, z]")
        result[direction] = vector
    return result


def _vector(item) -> list[float] | None:
    """[x, y, z] as floats, or None when item is not three finite numbers."""
    if not isinstance(item, list) or len(item) != 3:
        return None
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in item):
        return None
    if any(v != v or v in (float("inf"), float("-inf")) for v in item):
        return None
    return [float(v) for v in item]


def _face_number(item) -> int | None:
    if isinstance(item, int) and not isinstance(item, bool):
        return item if item >= 1 else None
    if isinstance(item, str) and item.startswith("Face") and item[4:].isdigit():
        return int(item[4:]) if int(item[4:]) >= 1 else None
    return None


# Every path a case names stays inside its folder once symlinks are resolved: nothing
# outside a case folder is ever read through a case.
_BAD_ID = (
    "{!r} is not a name: a case id is 1 to 100 of A-Z a-z 0-9 . _ - starting with a letter "
    "or a digit (it names the campaign's files, so never a path)"
)
_OUTSIDE = "must be a path inside the case folder (symlinks resolved)"


def _inside(path: str, folder: str) -> bool:
    return input_checks.inside_folder(folder, path) is not None


def _candidates(file: str, folder: str, data: dict) -> None:
    """Validate the ``candidates:`` section: file, note, expect (see docs/case-format.md)."""
    entries = data.get("candidates", []) or []
    if not isinstance(entries, list):
        _fail(file, data, "candidates", "must be a list")
    seen = set()
    for index, entry in enumerate(entries):
        field = f"candidates[{index}]"
        if not isinstance(entry, dict):
            _fail(file, data, "candidates", f"{field} must be a mapping with file and expect")
        path = entry.get("file")
        if not isinstance(path, str) or not path or not _inside(path, folder):
            _fail(file, entry, f"{field}.file", "required path inside the case folder")
        if path in seen:
            _fail(file, entry, f"{field}.file", f"duplicate candidate {path!r}")
        seen.add(path)
        if not os.path.exists(os.path.join(folder, path)) and not data.get("build"):
            _fail(file, entry, f"{field}.file", f"{path} does not exist and no build script")
        by_version = entry.get("expect_freecad", {}) or {}
        if not isinstance(by_version, dict):
            _fail(file, entry, f"{field}.expect_freecad", "must map FreeCAD versions to keys")
        sections = [(s, entry.get(s, {}) or {}) for s in ("expect", "expect_extended")]
        versions = _strip_lines(by_version)
        sections += [(f"expect_freecad.{v}", by_version[v] or {}) for v in versions]
        for section, expect in sections:
            if not isinstance(expect, dict):
                _fail(file, entry, f"{field}.{section}", "must be a mapping of result keys")
            for key, wanted in _strip_lines(expect).items():
                problem = _expectation_problem(wanted)
                if problem:
                    _fail(file, expect, f"{field}.{section}.{key}", problem)


def _expectation_problem(wanted) -> str | None:
    if isinstance(wanted, dict):
        keys = set(wanted)
        if keys <= {"value", "tol"} and "value" in keys:
            if expected_number(wanted["value"]) is None:
                return "value must be a number or a fraction such as 14/17"
            tol = wanted.get("tol", 0)
            if not _finite(tol) or tol < 0:
                return "tol must be a non-negative number"
            return None
        if keys and keys <= {"min", "max"}:
            if any(expected_number(v) is None for v in wanted.values()):
                return "min and max must be numbers"
            return None
        return "a mapping must be {value, tol} or {min, max}"
    if wanted is None or isinstance(wanted, (bool, int, float)):
        return None
    if isinstance(wanted, str):
        return None
    return "must be a number, a fraction, text, true/false, null, {value, tol} or {min, max}"


def expected_number(value) -> float | None:
    """A number, or a fraction written as text ("14/17") so a case reads like its drawing."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str) and value.count("/") == 1:
        top, bottom = value.split("/")
        try:
            found = float(top) / float(bottom)
        except (ValueError, ZeroDivisionError):
            return None
        return found if math.isfinite(found) else None
    return None


# Absolute slack for expectations written as exact numbers or fractions.
EXACT_SLACK = 1e-9


def result_value(result: dict, key: str):
    """A value of a score result by dotted path ("verdicts.shapeIoU.verdict"); ``failure``
    alone stands for the failure's reason code."""
    if key == "failure":
        failure = result.get("failure")
        return failure.get("reason") if isinstance(failure, dict) else failure
    value = result
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(key)
        value = value[part]
    return value


def expectation_failures(expect: dict, result: dict) -> list[str]:
    """What a score result gets wrong against a candidate's ``expect`` (empty: as built).

    Numbers and fractions match within 1e-9, {value, tol} within tol, {min, max} inclusive;
    text, true/false and null must be equal. A key missing from the result is a failure.
    """
    failures = []
    for key, wanted in expect.items():
        try:
            got = result_value(result, key)
        except KeyError:
            failures.append(f"{key}: missing from the result (expected {wanted!r})")
            continue
        problem = _mismatch(wanted, got)
        if problem:
            failures.append(f"{key}: {problem}")
    return failures


def _mismatch(wanted, got) -> str | None:
    number = None if isinstance(got, bool) else got if isinstance(got, (int, float)) else None
    if isinstance(wanted, dict) and "value" in wanted:
        target = expected_number(wanted["value"])
        tol = float(wanted.get("tol", 0)) + EXACT_SLACK
        if number is None or abs(number - target) > tol:
            return f"got {got!r}, expected {wanted['value']} +- {wanted.get('tol', 0)}"
        return None
    if isinstance(wanted, dict):
        low = expected_number(wanted["min"]) if "min" in wanted else -math.inf
        high = expected_number(wanted["max"]) if "max" in wanted else math.inf
        if number is None or not low - EXACT_SLACK <= number <= high + EXACT_SLACK:
            return f"got {got!r}, expected within [{wanted.get('min')}, {wanted.get('max')}]"
        return None
    target = expected_number(wanted) if not isinstance(wanted, bool) else None
    if target is not None and (isinstance(wanted, (int, float)) or "/" in str(wanted)):
        if number is None or abs(number - target) > EXACT_SLACK:
            return f"got {got!r}, expected {wanted}"
        return None
    if got != wanted:
        return f"got {got!r}, expected {wanted!r}"
    return None


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
