# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench case new`: a complete case from any reference model, its targets authored as
a drafter would, each bound to the reference faces that carry it.

The targets are, in this order: every dimension the drawing planner chooses for the
reference's TechDraw views (drafting/plan.py: overall sizes, hole callouts with their
count, positions, radii, angles, steps and spacings; before the sheet leaves any out), then
the sizes of each recognised feature the views do not state (counterbore and countersink,
boss across flats, slot, pocket, step, groove, fillet, thread; equal features one pattern
callout). metrics/auto_targets.py binds each to faces. A target the reference does not
measure where it is bound is left out, with its reason, under ``auto.leftOut``. Nothing
here is the designer's intent or GD&T: it is what a drawing of the solid states.
"""

import contextlib
import os
import shutil
import tempfile

import FreeCAD
import numpy as np
import Part
import yaml

from cadbench_wb import standard
from cadbench_wb.app.dimensions import location
from cadbench_wb.app.dimensions.measured_geometry import geometry_of
from cadbench_wb.app.dimensions.spectrum import diagonal_of, spectrum_of
from cadbench_wb.app.drawing import stage as drawing_stage
from cadbench_wb.app.drawing import techdraw
from cadbench_wb.app.model import loading
from cadbench_wb.app.recognition import features as recognition
from cadbench_wb.app.recognition import threads
from cadbench_wb.case_model.cases import Case, Dimension
from cadbench_wb.errors import CadbenchError
from cadbench_wb.metrics import auto_targets, located_dimensions
from cadbench_wb.metrics import dimension_matching as dims
from cadbench_wb.metrics.located import Correspondence
from cadbench_wb.results import result as results
from cadbench_wb.runtime import freecad_env

GENERATOR = "cadbench case new"
# The spectrum automatic targets are measured in: hole positions and pitches are what a
# drafter dimensions, and only the extended spectrum has axis positions.
SPECTRUM = "extended"
DECIMALS = 6


class NotDimensionable(CadbenchError):
    """A reference a drawing cannot dimension (a mesh without faces to dimension, a
    drawing TechDraw cannot make): the metrics that need no targets still apply."""

    reason = "reference_not_dimensionable"
    exit_status = 4


def authored(reference_path: str, case_id: str, title: str, stage=lambda name: None) -> dict:
    """The case.yaml data of an automatic case for this reference (plain, ordered)."""
    stage("reference")
    model = loading.load_model(reference_path, "reference")
    if model.from_mesh:
        raise NotDimensionable(
            f"{os.path.basename(reference_path)}: a triangle mesh: no planes, holes or "
            "rounds a drafter dimensions (score it with --no-auto-targets)"
        )
    stage("drawing")
    # One projection of the reference's views for the planner's drawing and the self-test
    # drawings (NIST CTC-02, 635 faces: three projections took 55 of 62 CPU-s).
    with _drawing_session(model.shape) as session:
        return _authored(model, reference_path, case_id, title, stage, session)


def _authored(model, reference_path: str, case_id: str, title: str, stage, session) -> dict:

    shape = model.shape
    diagonal = diagonal_of(shape)
    geometry = geometry_of(shape, diagonal, with_edge_faces=True)
    planned = _planned(session)
    binder = auto_targets.Binder(geometry_of(planned["shape"], diagonal))
    chosen, left_out = [], []
    for entry in planned["dimensions"]:
        faces, why = binder.bind(entry)
        if faces is None:
            left_out.append(_left(auto_targets.drawing_target(entry, []), why))
            continue
        target = auto_targets.drawing_target(entry, faces)
        if not _duplicate(target, chosen):
            chosen.append(target)
    stage("features")
    features = _features(model)
    areas = [face.Area for face in shape.Faces]
    for target in auto_targets.feature_targets(features["features"], geometry, areas):
        if not auto_targets.covered(target, chosen, geometry):
            chosen.append(target)
    stage("dimensions")
    default = spectrum_of(shape, "default", diagonal)
    extended = spectrum_of(shape, SPECTRUM, diagonal)
    kept = _measurable(chosen, extended, geometry, left_out)
    stage("places")
    near = _FacesNear(shape, geometry)
    for target in kept:
        target["place"] = _place_of(shape, target["faces"], near)
    stage("drawingSelfTest")
    digest = results.file_digest(reference_path)
    entries, self_test = _displayed(model, kept, default, left_out, digest, session)
    case = _case_of(model, entries)
    return {
        "id": case_id,
        "title": title,
        "reference": os.path.basename(reference_path),
        "auto": {
            "generator": GENERATOR,
            "freecadVersion": freecad_env.freecad_version(),
            "referenceSha256": digest,
            "spectrum": SPECTRUM,
            "targets": len(entries),
            "referenceCoverage": _rounded(
                dims.coverage(dims.outcomes(case.dimensions, extended, extended))
            ),
            "drawingSelfTest": _rounded(self_test),
            "randomHitRate": {
                k: _rounded(v) for k, v in dims.random_hit_rate(extended, diagonal).items()
            },
            "features": len(features["features"]),
            "leftOut": left_out,
        },
        "dimensions": entries,
    }


def _entries(targets: list, default) -> list:
    """case.yaml's dimension entries, numbered D1, D2, ... in the order given."""
    entries = []
    for number, target in enumerate(targets, 1):
        dimension = _dimension(f"D{number}", target)
        entry = {
            "id": dimension.id,
            "kind": dimension.kind,
            "value": dimension.value,
            "spectrum": "default" if dims.match(dimension, default) else SPECTRUM,
            "source": target["source"],
            "geometry": target.get("place") or {"faces": [f"Face{f + 1}" for f in target["faces"]]},
        }
        if entry["spectrum"] != "default":
            entry["note"] = "an axis position or pitch: measured in the extended spectrum"
        entries.append(entry)
    return entries


def _case_of(model, entries) -> Case:
    return Case(
        id="auto",
        title="auto",
        path=os.path.dirname(os.path.abspath(model.path)),
        reference=os.path.basename(model.path),
        dimensions=[_dimension(e["id"], {**e, "faces": []}) for e in entries],
    )


def _displayed(model, targets, default, left_out, digest, session) -> tuple:
    """(entries, drawingSelfTest): the targets, and the share the reference's own drawing
    displays when drawn with them first (the drawing scoring makes, kept in its cache).
    A position or spacing the sheet has no room for is not one a drafter put on this
    drawing: it goes to left_out and the drawing is made again with the rest. A feature's
    own size stays a target, shown or not (dropping those dropped every hole callout of
    NIST FTC-07): drawingSelfTest, the ceiling of drawingMatch, is then below 1."""
    entries = _entries(targets, default)
    self_test, shown, _ = _drawing_self_test(model, _case_of(model, entries), digest, session)
    if self_test is None or self_test >= 1.0:
        return entries, self_test
    kept = []
    for target, entry in zip(targets, entries, strict=True):
        if entry["id"] in shown or target.get("role") not in auto_targets.SPARE_ROLES:
            kept.append(target)
        else:
            left_out.append(_left(target, "the reference's drawing has no room to show it"))
    if len(kept) == len(targets):
        return entries, self_test
    entries = _entries(kept, default)
    self_test, _, _ = _drawing_self_test(model, _case_of(model, entries), digest, session)
    return entries, self_test


# Decimals of a place's coordinates (0.1 um: far inside the 0.05 mm a place resolves in).
PLACE_DECIMALS = 4


def _place_of(shape, faces: list, near) -> dict | None:
    """{at: [one point per face]}: a point inside each bound face that names that face
    alone (docs/case-format.md, binding by place), so the case survives another FreeCAD
    version's or exporter's face numbers; None when some face has no such point (then
    the faces are named by number). near: _FacesNear of the shape."""
    points = []
    for index in faces:
        if index not in near.inner:  # a face is bound by several targets: found once
            near.inner[index] = _inner_point(shape.Faces[index], index, near)
        point = near.inner[index]
        if point is None:
            return None
        points.append(list(point))  # a copy: yaml writes a shared list as an alias
    return {"at": points}


def _inner_point(face, index: int, near) -> list | None:
    """A point of the face, inside it, that no other face passes within tolerance of: the
    middle of its parameter range, else of a 5 x 5 grid over it, nearest the middle."""
    u0, u1, v0, v1 = face.ParameterRange
    steps = (0.5, 0.3, 0.7, 0.1, 0.9)
    for a in steps:
        for b in steps:
            point = face.valueAt(u0 + a * (u1 - u0), v0 + b * (v1 - v0))
            if not face.isInside(point, 1e-7, True):
                continue
            rounded = [round(float(c), PLACE_DECIMALS) + 0.0 for c in point]
            if near.faces_through(rounded) == [index]:
                return rounded
    return None


class _FacesNear:
    """location._faces_through (what scoring resolves a place with), the same answer
    faster for many points: face boxes read once, and a face whose plane or cylinder is
    farther than the tolerance is passed over before the exact distance is asked."""

    def __init__(self, shape, geometry):

        self.shape, self.g, self.np = shape, geometry, np
        self.tolerance = standard.LINEAR_TOLERANCE_ABS_MM
        self.inner = {}  # face index -> its inner point (_inner_point), once found
        boxes = [location.untriangulated_box(f) for f in shape.Faces]
        self.low = np.array([(b.XMin, b.YMin, b.ZMin) for b in boxes]) - self.tolerance
        self.high = np.array([(b.XMax, b.YMax, b.ZMax) for b in boxes]) + self.tolerance

    def faces_through(self, point) -> list[int]:
        np, g = self.np, self.g
        p = np.asarray(point, float)
        rows = np.flatnonzero(np.all((p >= self.low) & (p <= self.high), axis=1))
        offsets = p - g.face_point[rows]
        axes = g.face_dir[rows]
        along = np.einsum("ij,ij->i", offsets, axes)
        kinds = [g.face_type[r] for r in rows.tolist()]
        planes = np.array([k == "plane" for k in kinds], bool)
        cylinders = np.array([k == "cylinder" for k in kinds], bool)
        radial = np.linalg.norm(offsets - axes * along[:, None], axis=1)
        far = (planes & (np.abs(along) > self.tolerance)) | (
            cylinders & (np.abs(radial - g.face_size[rows]) > self.tolerance)
        )
        vertex, found = None, []
        for index in rows[~far].tolist():
            if vertex is None:
                vertex = Part.Vertex(FreeCAD.Vector(*point))
            if self.shape.Faces[index].distToShape(vertex)[0] <= self.tolerance:
                found.append(index)
        return found


@contextlib.contextmanager
def _drawing_session(shape):
    """techdraw.drawing_session of the reference; TechDraw's failure to project it is the
    reason it cannot be dimensioned."""
    with contextlib.ExitStack() as stack:
        try:
            session = stack.enter_context(techdraw.drawing_session(shape, title="reference"))
        except CadbenchError:
            raise
        except Exception as exc:  # TechDraw and OCC raise anything; the reason is named
            raise NotDimensionable(f"TechDraw could not draw the reference: {exc}") from None
        yield session


def _planned(session) -> dict:
    """The planner's dimensions of the reference's drawing (planned only, not written)."""
    planned = {}
    try:
        session.draw(None, planned=planned)
    except CadbenchError:
        raise
    except Exception as exc:  # TechDraw and OCC raise anything; the reason is named
        raise NotDimensionable(f"TechDraw could not draw the reference: {exc}") from None
    if "dimensions" not in planned:
        raise NotDimensionable("the drawing planned no dimension")
    return planned


def _features(model) -> dict:
    shape = model.shape
    found = threads.modeled_threads(shape) + threads.cosmetic_threads(model.document_objects, shape)
    return recognition.recognise(shape, found)


def _duplicate(target: dict, chosen: list) -> bool:
    """The same quantity on the same faces (the planner's one key per view may show it
    in two views)."""
    return any(
        c["kind"] == target["kind"]
        and abs(c["value"] - target["value"]) <= 1e-6
        and c["faces"] == target["faces"]
        for c in chosen
    )


def _dimension(ident: str, target: dict) -> Dimension:
    faces = target.get("faces") or []
    return Dimension(
        id=ident,
        kind=target["kind"],
        value=round(float(target["value"]), DECIMALS),
        geometry={"faces": list(faces)} if faces else None,
    )


def _measurable(chosen: list, spectrum, geometry, left_out: list) -> list:
    """The targets located matching finds on the reference at the faces they are bound
    to; the others go to left_out with the reason."""
    correspondence = Correspondence(geometry, geometry)
    kept = []
    for target in chosen:
        dimension = _dimension("probe", target)
        members = located_dimensions.members_of(
            dimension, spectrum, geometry, correspondence, set(target["faces"])
        )
        if members:
            kept.append(target)
        else:
            left_out.append(_left(target, "the faces it is bound to do not measure it"))
    return kept


def _left(target: dict, why: str) -> dict:
    return {
        "kind": target["kind"],
        "value": _rounded(target["value"]),
        "source": target["source"],
        "reason": why,
    }


def _drawing_self_test(model, case, digest: str, session=None) -> tuple:
    """(drawingSelfTest, ids of the targets displayed, every dimension the sheet prints):
    the share of the targets the
    reference's own drawing displays, drawn as scoring draws it (and kept in the same
    cache, so the first scoring does not draw the reference again)."""
    if not case.dimensions:
        return None, set(), []
    folder = tempfile.mkdtemp(prefix="cadbench-auto-drawing-")
    try:
        drawn = drawing_stage._reference_drawing(
            model, case, {}, {"reference": {"sha256": digest}}, folder, session
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    match = drawn.get("match")
    if not match:
        return None, set(), []
    shown = {d["id"] for d in match["dimensions"] if d["found"]}
    return match["value"], shown, drawn["read"]["displayed"]


def _rounded(value):
    return None if value is None else round(float(value), DECIMALS)


def case_text(data: dict) -> str:
    """case.yaml's text: a header comment, then the data in a fixed order (byte for byte
    the same for the same reference)."""
    header = (
        "# Written by `cadbench case new` from the reference alone: the dimensions a drafter\n"
        "# puts on its drawing, each bound to the faces that carry it. Not the designer's\n"
        "# intent, not GD&T: edit it (remove, add, rebind targets) as docs/case-format.md says.\n"
    )
    body = yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )
    return header + body


def write_case(reference_path: str, folder: str, case_id: str, title: str) -> str:
    """Write FOLDER/case.yaml and a copy of the reference; returns case.yaml's path."""
    return written_case(reference_path, folder, case_id, title)[0]


def written_case(reference_path: str, folder: str, case_id: str, title: str) -> tuple:
    """write_case's (path, case.yaml data)."""
    data = authored(reference_path, case_id, title)
    os.makedirs(folder, exist_ok=True)
    copy = os.path.join(folder, os.path.basename(reference_path))
    if os.path.abspath(copy) != os.path.abspath(reference_path):
        shutil.copyfile(reference_path, copy)
    path = os.path.join(folder, "case.yaml")
    partial = f"{path}.{os.getpid()}.partial"
    with open(partial, "w", encoding="utf-8") as handle:
        handle.write(case_text(data))
    os.replace(partial, path)
    return path, data
