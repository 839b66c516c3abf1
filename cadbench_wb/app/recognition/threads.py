# SPDX-License-Identifier: LGPL-2.1-or-later
"""Threads: modeled ones measured on the B-rep, cosmetic ones read from document data.

A modeled thread is recognised by its geometry, never by its history: its flanks are
helical surfaces, found and grouped by screw motion in thread_flanks.py whatever made them
(PartDesign helix, Fasteners, bd_warehouse lofts, cq_warehouse ruled helices, STEP import).
One record per physical thread: the flanks of one screw, split where the axis has a gap,
each run going all the way round the axis; the faces around them that lie in the thread's
band (crest and root strips, fade-outs, end caps) join it as its run-out.

Cosmetic threads (a plain cylinder plus a thread attribute) exist only in a document's data:
they are read from the FCStd's objects as plain values (fcstd_data), never executed, and
placed on the geometry by their diameter.
"""

import csv
import dataclasses
import functools
import math
import os

import numpy as np

from cadbench_wb import resources, standard
from cadbench_wb.app.model import mesh_solid, thread_flanks

DATA_DIR = os.path.join(resources.ROOT, "resources", "data")


@dataclasses.dataclass
class Thread:
    kind: str  # "external" or "internal"
    modeled: bool
    major_diameter: float | None = None
    minor_diameter: float | None = None
    pitch: float | None = None
    lead: float | None = None
    starts: int = 1
    hand: str | None = None  # "right" or "left"
    length: float | None = None
    axis: list | None = None  # unit vector, largest component positive
    start: list | None = None  # point on the axis where the thread begins (lower axial end)
    end: list | None = None
    designation: str | None = None
    faces: list = dataclasses.field(default_factory=list)
    source: str = "geometry"
    notes: list = dataclasses.field(default_factory=list)

    def as_dict(self) -> dict:
        data = dataclasses.asdict(self)
        data["type"] = "thread"
        return data


# --- ISO metric table (resources/data/iso_metric_threads.csv) -----------------------------


@functools.lru_cache(maxsize=1)
def iso_table() -> tuple:
    """(designation, nominal diameter, pitch, series) rows of ISO 261 metric threads."""
    path = os.path.join(DATA_DIR, "iso_metric_threads.csv")
    with open(path, newline="", encoding="utf-8") as handle:
        return tuple(
            (row["designation"], float(row["nominal_diameter"]), float(row["pitch"]), row["series"])
            for row in csv.DictReader(handle)
        )


def iso_designation(major: float, pitch: float) -> str | None:
    """The ISO metric designation a measured major diameter and pitch correspond to."""
    params = standard.THREADS
    best = None
    for name, nominal, table_pitch, _series in iso_table():
        if abs(table_pitch - pitch) > params["pitch_rel"] * table_pitch:
            continue
        off = abs(nominal - major)
        if off <= params["designation_major_abs"] + params["designation_major_pitch"] * pitch:
            if best is None or off < best[0]:
                best = (off, name)
    return best[1] if best else None


def parse_designation(text: str) -> tuple | None:
    """(nominal diameter, pitch) of 'M8', 'M8x1', 'M8x1.0', 'M10 x 1.25'; None otherwise."""
    cleaned = str(text).strip().upper().replace(" ", "").replace("×", "X")
    if not cleaned.startswith("M"):
        return None
    nominal_text, _, pitch_text = cleaned[1:].partition("X")
    try:
        nominal = float(nominal_text)
        pitch = float(pitch_text) if pitch_text else None
    except ValueError:
        return None
    rows = [r for r in iso_table() if abs(r[1] - nominal) < 1e-9]
    if pitch is None:
        coarse = [r for r in rows if r[3] == "coarse"]
        if not coarse:
            return None
        pitch = coarse[0][2]
    return nominal, pitch


def canonical_designation(nominal: float, pitch: float) -> str:
    """'M8' for the coarse pitch, 'M8x1' otherwise (ISO 965 writing)."""
    for name, table_nominal, table_pitch, _series in iso_table():
        if abs(table_nominal - nominal) < 1e-9 and abs(table_pitch - pitch) < 1e-9:
            return name
    return f"M{nominal:g}x{pitch:g}"


@functools.lru_cache(maxsize=1)
def freecad_hole_sizes() -> dict:
    """{(ThreadType index, ThreadSize index): (type name, size name)} of PartDesign::Hole."""
    path = os.path.join(DATA_DIR, "freecad_hole_threads.csv")
    with open(path, newline="", encoding="utf-8") as handle:
        return {
            (int(r["thread_type_index"]), int(r["size_index"])): (r["thread_type"], r["size"])
            for r in csv.DictReader(handle)
        }


# --- modeled threads -----------------------------------------------------------------------


def _canonical_axis(axis: np.ndarray) -> np.ndarray:
    return axis if axis[int(np.argmax(np.abs(axis)))] > 0 else -axis


def modeled_threads(shape) -> list[Thread]:
    """One record per physical thread of a shape, measured from its flanks as a whole (none
    on a triangle mesh: its faces are planar)."""
    if mesh_solid.is_triangles(shape):
        return []
    faces = thread_flanks.free_form_samples(shape, standard.THREADS["grid"])
    found = []
    for screw, members in thread_flanks.flank_groups(faces):
        for run in _axial_runs(screw, members):
            share = _outward_share(screw, run)
            if abs(share) >= standard.THREADS["min_radial_share"]:
                found.append(_thread_of(shape, screw, run, "external" if share > 0 else "internal"))
    return sorted(found, key=lambda t: (tuple(np.round(t.axis, 6)), tuple(np.round(t.start, 6))))


def _axial_runs(screw, members) -> list[list]:
    """The flank faces of one screw split where the axis has a gap longer than
    run_gap_leads x the lead (two threads of one pitch on one shaft); a run that does not go
    all the way round is a stray fit, not a thread."""
    spans = []
    for samples in members:
        along = (samples.edge_points() - screw.point) @ screw.axis
        spans.append((float(along.min()), float(along.max()), samples))
    spans.sort(key=lambda span: (span[0], span[2].index))
    gap = standard.THREADS["run_gap_leads"] * abs(screw.lead)
    runs, top = [], -math.inf
    for low, high, samples in spans:
        if not runs or low > top + gap:
            runs.append([])
        runs[-1].append(samples)
        top = max(top, high) if len(runs[-1]) > 1 else high
    return [run for run in runs if thread_flanks.goes_round(screw, run)]


def _outward_share(screw, members) -> float:
    """Mean outward-radial share of the flanks' normals: both flanks of a 60-degree thread
    lean theirs half radial the same way, away from the axis on a bolt (+0.5), towards it
    in a nut (-0.5); a helical spring's tube or a coil's round wire averages to about 0.
    Faces weigh by their area: a fuse leaves ribbons 1e-4 mm wide along loop seams."""
    total = weight = 0.0
    for samples in members:
        radial = _radial_unit(samples.points, screw.point, screw.axis)
        area = samples.area()
        total += area * float(np.einsum("ij,ij->i", samples.normals, radial).mean())
        weight += area
    return total / weight if weight > 0 else 0.0


def _thread_of(shape, screw, members, kind: str) -> Thread:
    points = np.vstack([s.points for s in members])
    normals = np.vstack([s.normals for s in members])
    joint = thread_flanks.screw_fit(points, normals) or screw
    axis = _canonical_axis(np.asarray(joint.axis, dtype=float))
    origin = np.asarray(joint.point, dtype=float)
    lead = float(joint.lead)
    flanks = {s.index for s in members}
    # A helicoid patch has no interior extreme along or away from its axis: its edges give
    # both (the grid runs past trimmed edges).
    radial, axial = _cylindrical(np.vstack([s.edge_points() for s in members]), origin, axis)
    radii = [float(radial.min()), float(radial.max())]
    outlines: dict = {}  # face index: points along its edges (the band test and the extent)
    band = _band_faces(shape, flanks, origin, axis, radii, axial, lead, outlines)
    rmin, rmax = min(radii), max(radii)
    starts = _starts(points, origin, axis, lead, rmin, rmax)
    pitch = abs(lead) / starts
    tmin, tmax = _extent(shape, band, origin, axis, axial, outlines)
    thread = Thread(
        kind=kind,
        modeled=True,
        major_diameter=2 * rmax,
        minor_diameter=2 * rmin,
        pitch=pitch,
        lead=abs(lead),
        starts=starts,
        hand="right" if lead > 0 else "left",
        length=tmax - tmin,
        axis=[float(x) for x in axis],
        start=[float(x) for x in origin + tmin * axis],
        end=[float(x) for x in origin + tmax * axis],
        faces=[f"Face{i + 1}" for i in sorted(flanks | band)],
    )
    thread.designation = iso_designation(thread.major_diameter, pitch)
    return thread


def _extent(shape, band, origin, axis, axial, outlines=None) -> tuple[float, float]:
    """Lowest and highest axial position of the thread form: its flanks and the run-outs,
    fade-outs and end faces that close them. outlines: {face index: its edge points} where
    _band_faces took them already."""
    outlines = {} if outlines is None else outlines
    faces = shape.Faces if band else []
    points = [_outline(faces[i], i, outlines) for i in sorted(band)]
    along = axial
    if points:
        along = np.concatenate([axial, (np.vstack(points) - origin) @ axis])
    return float(along.min()), float(along.max())


def _cylindrical(points: np.ndarray, origin: np.ndarray, axis: np.ndarray):
    """Radial distance to the axis and axial coordinate of points."""
    rel = points - origin
    axial = rel @ axis
    radial = np.linalg.norm(rel - np.outer(axial, axis), axis=1)
    return radial, axial


def _radial_unit(points, origin, axis):
    rel = points - origin
    radial = rel - np.outer(rel @ axis, axis)
    length = np.linalg.norm(radial, axis=1)
    return radial / np.where(length > 0, length, 1.0)[:, None]


def _outline(face, index: int, outlines: dict) -> np.ndarray:
    """Eight points along each edge of the face (number index), taken once per thread."""
    if index not in outlines:
        outlines[index] = np.array([tuple(p) for e in face.Edges for p in e.discretize(8)])
    return outlines[index]


def _band_faces(shape, flanks, origin, axis, radii, axial, lead, outlines=None) -> set:
    """Faces touching the flanks that lie inside the thread's band (between its minor and
    major radius, within its length): crest and root strips, ends of the swept profile.
    outlines: {face index: its edge points}, filled for _extent."""
    outlines = {} if outlines is None else outlines
    faces = shape.Faces  # one list: shape.Faces builds a new one on every access
    flank_edges = {e.hashCode() for i in flanks for e in faces[i].Edges}
    low, high = float(axial.min()) - 0.5 * abs(lead), float(axial.max()) + 0.5 * abs(lead)
    tolerance = 1e-3 + 1e-4 * max(radii)
    found = set()
    for index, face in enumerate(faces):
        if index in flanks or not any(e.hashCode() in flank_edges for e in face.Edges):
            continue
        radial, along = _cylindrical(_outline(face, index, outlines), origin, axis)
        if radial.min() < min(radii) - tolerance or radial.max() > max(radii) + tolerance:
            continue
        if along.min() >= low and along.max() <= high:
            found.add(index)
    return found


def _starts(points, origin, axis, lead, rmin, rmax) -> int:
    """How many thread starts share the lead: flank crossings per lead at mid-depth / 2."""
    if len(points) == 0 or rmax - rmin <= 0:
        return 1
    radial, axial = _cylindrical(points, origin, axis)
    band = (radial > rmin + 0.3 * (rmax - rmin)) & (radial < rmin + 0.7 * (rmax - rmin))
    if band.sum() < 4:
        return 1
    reference = np.cross(axis, [1.0, 0.0, 0.0])
    if np.linalg.norm(reference) < 0.5:
        reference = np.cross(axis, [0.0, 1.0, 0.0])
    reference /= np.linalg.norm(reference)
    other = np.cross(axis, reference)
    rel = points[band] - origin
    theta = np.arctan2(rel @ other, rel @ reference)
    phase = np.sort(np.mod(axial[band] - lead * theta / (2 * math.pi), abs(lead)) / abs(lead))
    gaps = np.diff(np.concatenate([phase, [phase[0] + 1.0]]))
    crossings = int(np.count_nonzero(gaps > 0.08))
    return max(1, crossings // 2)


# --- cosmetic threads ----------------------------------------------------------------------


def cosmetic_threads(objects, shape) -> list[Thread]:
    """Threads a document declares but does not model, placed on the shape by diameter.

    Read as data: a PartDesign::Hole with Threaded on and ModelThread off; any object with
    the properties Threaded = true and ModelThread = false (ThreadSize 'M8' or 'M8x1',
    optional ThreadDirection Right/Left); a Fasteners screw (properties 'diameter', 'thread'
    = false). The geometry that carries it is the hole (internal) or shaft (external) of the
    matching diameter.
    """
    found = []
    for obj in objects or []:
        spec = _cosmetic_spec(obj)
        if spec is not None:
            found += _placed(spec, obj, shape)
    return found


def _cosmetic_spec(obj) -> dict | None:
    props = obj.properties
    if props.get("Threaded") is True and props.get("ModelThread") is not True:
        size = props.get("ThreadSize")
        if obj.type == "PartDesign::Hole" and isinstance(size, int):
            type_index = props.get("ThreadType")
            type_index = type_index if isinstance(type_index, int) else 1
            size = freecad_hole_sizes().get((type_index, size), (None, None))[1]
        direction = props.get("ThreadDirection")
        hand = "left" if direction in (1, "Left", "left") else "right"
        kind = "internal" if obj.type == "PartDesign::Hole" else None
        return {"size": size, "hand": hand, "kind": kind, "hole": props.get("Diameter")}
    if props.get("thread") is False and isinstance(props.get("diameter"), str):
        hand = "left" if props.get("leftHanded") is True else "right"
        return {"size": props["diameter"].strip("()"), "hand": hand, "kind": None, "hole": None}
    return None


def _placed(spec: dict, obj, shape) -> list[Thread]:
    parsed = parse_designation(spec["size"]) if spec["size"] else None
    nominal, pitch = parsed if parsed else (None, None)
    base = {
        "modeled": False,
        "major_diameter": nominal,
        "pitch": pitch,
        "lead": pitch,
        "hand": spec["hand"],
        "designation": canonical_designation(nominal, pitch) if parsed else None,
        "source": f"document:{obj.name}",
    }
    carriers = _cylinders_for(shape, spec, nominal, pitch)
    if not carriers:
        note = f"declared by {obj.name} ({spec['size']}) but no cylinder of that size was found"
        return [Thread(kind=spec["kind"] or "external", notes=[note], **base)]
    threads = []
    for kind, radius, axis, start, end, faces in carriers:
        minor = 2 * radius if kind == "internal" else None
        threads.append(
            Thread(
                kind=kind,
                minor_diameter=minor,
                length=float(np.linalg.norm(np.array(end) - np.array(start))),
                axis=axis,
                start=start,
                end=end,
                faces=faces,
                **base,
            )
        )
    return threads


def _cylinders_for(shape, spec, nominal, pitch) -> list:
    """Full cylinders that carry a cosmetic thread: (kind, radius, axis, start, end, faces)."""
    if shape is None:
        return []
    groups: dict = {}
    for index, face in enumerate(shape.Faces):
        if type(face.Surface).__name__ != "Cylinder":
            continue
        surface = face.Surface
        axis = _canonical_axis(np.array(tuple(surface.Axis)))
        centre = np.array(tuple(surface.Center))
        foot = centre - (centre @ axis) * axis
        key = (tuple(np.round(axis, 4)), tuple(np.round(foot, 3)), round(surface.Radius, 4))
        groups.setdefault(key, []).append((index, face))
    carriers = []
    for (axis_key, foot_key, radius), members in sorted(groups.items()):
        kind = _cylinder_kind(members[0][1])
        if not _matches_size(kind, 2 * radius, spec, nominal, pitch):
            continue
        axis, foot = np.array(axis_key), np.array(foot_key)
        ts = [
            float((np.array(tuple(v.Point)) - foot) @ axis) for _, f in members for v in f.Vertexes
        ]
        start = [float(x) for x in foot + min(ts) * axis]
        end = [float(x) for x in foot + max(ts) * axis]
        faces = [f"Face{i + 1}" for i, _ in members]
        carriers.append((kind, radius, [float(x) for x in axis], start, end, faces))
    return carriers


def _cylinder_kind(face) -> str:
    u0, u1, v0, v1 = face.ParameterRange
    u, v = (u0 + u1) / 2, (v0 + v1) / 2
    point = np.array(tuple(face.valueAt(u, v)))
    normal = np.array(tuple(face.normalAt(u, v)))
    surface = face.Surface
    axis = np.array(tuple(surface.Axis))
    rel = point - np.array(tuple(surface.Center))
    radial = rel - (rel @ axis) * axis
    return "external" if float(normal @ radial) > 0 else "internal"


def _matches_size(kind, diameter, spec, nominal, pitch) -> bool:
    if spec["kind"] is not None and kind != spec["kind"]:
        return False
    if kind == "internal" and spec.get("hole"):
        return abs(diameter - float(spec["hole"])) <= 1e-3
    if nominal is None:
        return False
    if kind == "external":
        return nominal - 0.3 * pitch - 0.1 <= diameter <= nominal + 0.1
    return nominal - 1.25 * pitch - 0.1 <= diameter <= nominal + 0.1
