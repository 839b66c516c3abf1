# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read a model file into one scored solid, and decide whether it was delivered at all."""

import contextlib
import dataclasses
import math
import os
import re
import tempfile
from collections.abc import Callable

import numpy as np
import Part

from cadbench_wb import standard
from cadbench_wb.app.model import mesh_solid
from cadbench_wb.errors import DeliveryFailure, ReferenceInvalid, ReferenceOpenShell
from cadbench_wb.inputs import checks as input_checks
from cadbench_wb.inputs import formats, step_units
from cadbench_wb.runtime import memory_use
from cadbench_wb.runtime.freecad_env import import_freecad


@dataclasses.dataclass
class LoadedModel:
    """The shape cadbench scores for one file, with what it took to get there."""

    path: str
    format: str
    # Part.Shape: one solid, or a compound of disjoint solids; from a mesh (STL/OBJ) a
    # mesh_solid.TriangleSolid, measured on its triangles (its B-rep made on first need).
    shape: object
    solids: int
    notes: list[str]
    from_mesh: bool = False
    document_objects: list = dataclasses.field(default_factory=list)
    # FCStd only: each scored object's name, label, type, solid count and exact volume.
    scored_objects: list = dataclasses.field(default_factory=list)
    # The exact volume of shape when loading measured it already (None: not yet): on
    # B-spline thread flanks each exact volume costs about 2 s.
    volume: float | None = None
    # STL/OBJ only: the triangles as delivered, (vertices (n, 3), triangles (m, 3)), from
    # which app/mesh_rebuild/mesh_candidate.py rebuilds an analytic B-rep for the B-rep-only figures.
    mesh: tuple | None = None
    # The exact volume of each delivered solid, in file order (B-rep files: what the checks
    # measured, and what app/model/reference_facts.py keeps for the next scoring of the file).
    solid_volumes: list | None = None
    # STEP only: the length unit the file declares (inputs/step_units.py), None: none read.
    length_unit: str | None = None
    # A reference of faces that sewing does not close (load_model's open_shell_ok): shape is
    # its sewn faces, with no volume; the metrics that need one are not applicable.
    open_shell: bool = False

    def summary(self) -> dict:
        found = {
            "format": self.format,
            "solids": self.solids,
            # The exact B-rep volume of what is scored, whichever route decides shapeIoU
            # (shape.volumeA/B are the deciding method's own figures, mesh ones included).
            "volume": None
            if self.open_shell
            else float(self.shape.Volume if self.volume is None else self.volume),
            "fromMesh": self.from_mesh,
            "notes": list(self.notes),
        }
        if self.length_unit is not None:
            found["lengthUnit"] = self.length_unit
        if self.open_shell:
            found["openShell"] = True
        if self.scored_objects:
            found["objects"] = [dict(o) for o in self.scored_objects]
        return found


def load_model(
    path: str, role: str = "candidate", volumes=None, open_shell_ok: bool = False
) -> LoadedModel:
    """The scored solid of a reference or candidate file.

    A broken candidate raises DeliveryFailure (it is scored 0); a broken reference raises
    ReferenceInvalid (the benchmark's fault, reported loudly). A file that exhausts the
    process's memory limit is `memory`, whatever the reader called its failure.
    volumes: the exact volume of each solid of this very file as these checks measured
    them before (app/model/reference_facts.py): the file passed them, so BRepCheck and the
    volumes are not run again (0.45 s of CPU on a threaded M8 bolt). Used only when there
    is one per solid read. open_shell_ok: a reference of faces that sewing does not close
    is kept as faces (LoadedModel.open_shell) instead of ReferenceOpenShell (the scoring:
    the metrics that need no volume still apply).
    """
    try:
        return _load(path, volumes)
    except MemoryError:
        failure = DeliveryFailure("memory", memory_use.exhausted_detail(f"reading {path}"))
    except DeliveryFailure as caught:
        if role == "reference" and isinstance(caught, OpenShell):
            return _closed_reference(caught, open_shell_ok)
        failure = caught
        if memory_use.exhausted():
            # OpenCASCADE reports a failed allocation as a read error: name the limit instead.
            detail = memory_use.exhausted_detail(f"reading {path}")
            failure = DeliveryFailure("memory", f"{detail} ({caught.reason}: {caught.detail})")
    if role == "reference":
        raise ReferenceInvalid(f"reference {failure.reason}: {failure.detail}") from None
    raise failure from None


def _load(path: str, known_volumes=None) -> LoadedModel:
    fmt = formats.checked_format(path)
    import_freecad()
    return LOADERS[fmt].model(path, fmt, known_volumes)


def _step_model(path: str, fmt: str, known_volumes) -> LoadedModel:
    """A STEP file: its declared faces counted and its length unit read before the kernel
    reads it."""
    faces = step_face_count(path)
    if faces > standard.INPUT_SIZE["brep_max_faces"]:
        raise DeliveryFailure("too_large", size_refusal(path, faces, "brep_max_faces", "faces"))
    unit, notes = step_units.length_unit(path)
    return _brep_model(path, fmt, [_read_shape(path)], notes, known_volumes, length_unit=unit)


def _kernel_model(path: str, fmt: str, known_volumes) -> LoadedModel:
    """A file OpenCASCADE reads as it is (BREP, IGES)."""
    return _brep_model(path, fmt, [_read_shape(path)], [], known_volumes)


def _fcstd_model(path: str, fmt: str, known_volumes) -> LoadedModel:
    """A FreeCAD document, its shapes read as data (app/fcstd_shapes.py)."""
    # Here: its readers of the archive (zipfile, xml) are no cost of a STEP or BREP pair.
    from cadbench_wb.app.model import fcstd_shapes  # noqa: PLC0415 - FCStd files only

    shapes, notes, objects, scored = fcstd_shapes.document_shapes(path)
    return _brep_model(
        path, fmt, shapes, notes, known_volumes, objects=objects, scored_objects=scored
    )


def _brep_model(
    path: str,
    fmt: str,
    shapes: list,
    notes: list[str],
    known_volumes,
    objects=(),
    scored_objects=(),
    length_unit: str | None = None,
) -> LoadedModel:
    """The scored solid of the B-rep shapes a file holds, once they passed the checks
    (size, solids, BRepCheck, self-intersection), without degenerate solids, united."""
    notes = list(notes)
    solids = [s for shape in shapes for s in shape.Solids]
    faces = sum(len(s.Faces) for s in solids)
    if faces > standard.INPUT_SIZE["brep_max_faces"]:
        raise DeliveryFailure("too_large", size_refusal(path, faces, "brep_max_faces", "faces"))
    if not solids:
        faces = sum(len(shape.Faces) for shape in shapes)
        edges = sum(len(shape.Edges) for shape in shapes)
        if faces:
            raise OpenShell(
                f"{path}: {faces} face(s) but no closed solid (surfaces or shells)",
                shapes,
                lambda closed, note: _brep_model(
                    path, fmt, closed, [*notes, note], None, objects, scored_objects, length_unit
                ),
                lambda sewn, note: LoadedModel(
                    path, fmt, sewn, 0, [*notes, note], length_unit=length_unit, open_shell=True
                ),
            )
        if edges:
            raise DeliveryFailure(
                "no_solid", f"{path}: {edges} edge(s) (wires or curves) but no face or solid"
            )
        raise DeliveryFailure("empty_model", f"{path}: the file holds no geometry")
    if known_volumes is not None and len(known_volumes) == len(solids):
        volumes = [float(v) for v in known_volumes]
    else:
        volumes = checked_volumes(path, solids)
    solid_volumes = list(volumes)
    delivered = len(solids)
    solids, volumes, dropped_notes = _without_degenerate(solids, volumes)
    notes.extend(dropped_notes)
    shape, union_notes = _one_shape(solids)
    notes.extend(union_notes)
    return LoadedModel(
        path=path,
        format=fmt,
        shape=shape,
        solids=delivered,
        notes=notes,
        volume=volumes[0] if len(solids) == 1 else None,
        document_objects=list(objects),
        scored_objects=list(scored_objects),
        solid_volumes=solid_volumes,
        length_unit=length_unit,
    )


class OpenShell(DeliveryFailure):
    """no_solid: the file holds faces but no closed solid. A reference is sewn first
    (_closed_reference); retry(solids, note) reads the closed solids as that file,
    retry_open(faces, note) keeps the faces."""

    def __init__(self, detail: str, shapes: list, retry: Callable, retry_open: Callable):
        super().__init__("no_solid", detail)
        self.shapes = shapes
        self.retry = retry
        self.retry_open = retry_open  # (sewn faces, note): the reference kept open


# The tolerance of FreeCAD's Part sewing (TopoShape::sewShape: OpenCASCADE's
# BRepBuilderAPI_Sewing at its default, whatever tolerance Python passes in 0.20): a gap
# between two faces' edges up to it is closed (measured: 0.95e-6 mm closes, 1.05e-6 does
# not, tests/app/test_open_shell_reference.py), a face removed never is.
SEWING_TOLERANCE_MM = 1e-6


def _closed_reference(open_shell: OpenShell, keep_open: bool = False) -> LoadedModel:
    """The reference whose faces hold no closed solid, closed the way FreeCAD users do
    (Part sewing at the kernel's tolerance, then makeSolid) and scored with a note naming
    the repair; when sewing leaves a shell open or no shell at all, the faces as sewn
    (keep_open: LoadedModel.open_shell, its note naming the free edges) or ReferenceOpenShell."""
    faces = [face for shape in open_shell.shapes for face in shape.Faces]
    tolerance = SEWING_TOLERANCE_MM
    sewn = Part.Compound(faces).copy()
    sewn.sewShape()
    shells = list(sewn.Shells)
    open_shells = [shell for shell in shells if not shell.isClosed()]
    loose = len(faces) - sum(len(shell.Faces) for shell in shells)
    if not shells or open_shells or loose > 0:
        free_edges = sum(len(shell.getFreeEdges().Edges) for shell in open_shells)
        detail = (
            f"{open_shell.detail}; sewn at {tolerance:g} mm they stay open "
            f"({len(open_shells)} open shell(s), {free_edges} free edge(s)"
            + (f", {loose} face(s) in no shell" if loose > 0 else "")
            + "): no volume to score against"
        )
        if not keep_open:
            raise ReferenceOpenShell(detail)
        return open_shell.retry_open(sewn, f"reference_open_shell: {detail}")
    solids = [Part.Solid(shell) for shell in shells]
    note = (
        f"reference repaired: {len(faces)} face(s) and no solid, sewn at {tolerance:g} mm "
        f"(Part sewing, then makeSolid) into {len(solids)} closed solid(s)"
    )
    try:
        return open_shell.retry([Part.Compound(solids)], note)
    except DeliveryFailure as failure:
        raise ReferenceOpenShell(
            f"{open_shell.detail}; sewn at {tolerance:g} mm into {len(solids)} closed "
            f"shell(s), but then {failure.reason}: {failure.detail}"
        ) from None


def checked_volumes(path: str, solids) -> list[float]:
    """The exact volume of each solid, once each has passed OpenCASCADE's BRepCheck, has a
    positive volume and no self-intersecting face; else the DeliveryFailure that says
    which solid fails which check."""
    volumes = []
    for index, solid in enumerate(solids):
        volume = solid.Volume if solid.isValid() else None
        if volume is None or volume <= 0:
            raise DeliveryFailure(
                "invalid_solid",
                f"{path}: solid {index + 1} of {len(solids)} fails OpenCASCADE's BRepCheck"
                + ("" if volume is None else " (zero or negative volume)"),
            )
        volumes.append(volume)
    for index, solid in enumerate(solids):
        crossing = self_intersecting_face(solid)
        if crossing:
            raise DeliveryFailure(
                "invalid_solid",
                f"{path}: solid {index + 1} of {len(solids)} is self-intersecting ({crossing}):"
                " its volume would count the overlap twice",
            )
    return volumes


def scored_shape(path: str, role: str = "candidate"):
    """The shape load_model(path, role) scores, read again where it was read and checked
    before (the drawing child: the scoring process read this file, and scores it only if
    it passed): the same reading, without the measurements that only decide whether the
    file was delivered (BRepCheck and the exact volume: 0.7 s of CPU on a threaded M8
    bolt, against 0.55 s for the reading itself). Only a STEP or BREP file of one solid
    is read so (a loader with `read`); several solids (their union needs the volumes), an
    FCStd (its objects are measured) and meshes go through load_model."""
    fmt = formats.checked_format(path)
    read = LOADERS[fmt].read
    if read is None:
        from cadbench_wb.app.model import mesh_solid  # noqa: PLC0415 - see _mesh_model

        return mesh_solid.part_shape(load_model(path, role).shape)
    import_freecad()
    solids = read(path).Solids
    if len(solids) != 1:
        return load_model(path, role).shape
    return solids[0]


def size_refusal(path: str, count: int, limit_name: str, what: str) -> str:
    """The too_large detail: the count, the limit and where it is set."""
    limit = standard.INPUT_SIZE[limit_name]
    return (
        f"{path}: {count} {what} > {limit} (standard.INPUT_SIZE {limit_name}): refused before "
        "scoring, which would run into the time limit"
    )


def step_face_count(path: str) -> int:
    """The faces a STEP file declares (ADVANCED_FACE entities), read as bytes before
    OpenCASCADE reads the model: a big file is refused in a second, not after minutes."""
    pattern = re.compile(rb"\bADVANCED_FACE\s*\(")
    count, tail = 0, b""
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 22):
            block = tail + chunk
            # The last bytes of the block before are read again (a name cut in two): the
            # matches wholly inside them were counted then.
            count += len(pattern.findall(block)) - len(pattern.findall(tail))
            tail = block[-32:]
    return count


def _read_shape(path: str):
    try:
        with kernel_path(path) as readable:
            return Part.read(readable)
    except Exception as exc:  # OCC raises Part.OCCError or RuntimeError, unpredictably
        raise DeliveryFailure("unreadable_file", f"{path}: OpenCASCADE cannot read it ({exc})")


@contextlib.contextmanager
def kernel_path(path: str):
    """A name of the file that FreeCAD can take: FreeCAD and OpenCASCADE take file names as
    UTF-8 text, so a name with bytes that are not UTF-8 (carried by Python as surrogates)
    is read through a symlink with a plain name in a temporary folder."""
    if input_checks.kernel_safe_name(path):
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="cadbench-name-") as folder:
        link = os.path.join(folder, "model" + os.path.splitext(path)[1].lower())
        os.symlink(os.path.abspath(path), link)
        yield link


def self_intersecting_face(solid) -> str | None:
    """Which face of the solid passes through itself, or None.

    BRepCheck (isValid, check(True)) accepts a spindle torus (minor radius above the major):
    its tube crosses the axis, the lens inside it is enclosed twice and OpenCASCADE's
    Volume counts it twice. A surface of revolution (a Toroid, or the SurfaceOfRevolution
    STEP turns it into) crosses itself where its meridian passes the axis over more than
    half a turn (the parts beyond the axis then overlap those of the opposite side). A
    fillet on a thin pin lies on a spindle torus too, but on its outer side only: its
    meridian never reaches the axis. Checked on 64 points of the face's first meridian.
    """
    for number, face in enumerate(solid.Faces, start=1):
        axis = _revolution_axis(face.Surface)
        if axis is None:
            continue
        u0, u1, v0, v1 = face.ParameterRange
        if u1 - u0 <= math.pi:
            continue
        centre, direction = axis
        meridian = np.array(
            [tuple(face.valueAt(u0, v)) for v in np.linspace(v0, v1, 64)], dtype=float
        )
        radial = meridian - centre
        radial -= np.outer(radial @ direction, direction)
        lengths = np.linalg.norm(radial, axis=1)
        outward = radial[int(np.argmax(lengths))] / max(lengths.max(), 1e-300)
        signed = radial @ outward
        if signed.min() < -1e-6 * lengths.max():
            return (
                f"face {number}: a surface of revolution whose meridian passes through its "
                f"axis (to {-signed.min():.4g} mm beyond it), like a spindle torus"
            )
    return None


def _revolution_axis(surface):
    """(a point, the unit direction) of a surface's axis of revolution, if it has one that
    its meridian may cross (tori and surfaces of revolution)."""
    if isinstance(surface, Part.Toroid):
        point, direction = surface.Center, surface.Axis
    elif isinstance(surface, Part.SurfaceOfRevolution):
        point, direction = surface.Location, surface.Direction
    else:
        return None
    direction = np.array(tuple(direction), dtype=float)
    return np.array(tuple(point), dtype=float), direction / np.linalg.norm(direction)


def degenerate_reason(volume: float, area: float, total_volume: float, diagonal: float):
    """Why a solid of these measures is degenerate beside the others (standard.
    DEGENERATE_SOLID), or None."""
    limits = standard.DEGENERATE_SOLID
    thickness = 2 * volume / area if area > 0 else 0.0
    if volume < limits["volume_rel"] * total_volume:
        return f"volume {volume:.3g} mm3 < {limits['volume_rel']:g} of the total {total_volume:.6g}"
    if thickness < limits["thickness_rel"] * diagonal:
        return (
            f"thickness {thickness:.3g} mm (2 x volume / area) < {limits['thickness_rel']:g}"
            f" of the model's diagonal {diagonal:.6g} mm"
        )
    return None


def _without_degenerate(solids, volumes):
    """The solids and their volumes without the degenerate ones (never the largest), and a
    note per drop."""
    if len(solids) < 2:
        return solids, volumes, []
    total = sum(volumes)
    diagonal = Part.makeCompound(solids).BoundBox.DiagonalLength
    largest = max(range(len(solids)), key=lambda i: volumes[i])
    kept, kept_volumes, notes = [], [], []
    for index, solid in enumerate(solids):
        why = None
        if index != largest:
            why = degenerate_reason(volumes[index], solid.Area, total, diagonal)
        if why is None:
            kept.append(solid)
            kept_volumes.append(volumes[index])
        else:
            notes.append(
                f"solid {index + 1} of {len(solids)} dropped before measuring as degenerate: "
                f"{why} (standard.DEGENERATE_SOLID)"
            )
    return kept, kept_volumes, notes


def _one_shape(solids):
    """One solid, a compound of disjoint solids, or the checked union of those that touch
    or overlap (app/model/solid_union.py), with the notes that say which."""
    if len(solids) == 1:
        return solids[0], []
    from cadbench_wb.app.model import solid_union  # noqa: PLC0415 - see _mesh_model

    try:
        return solid_union.united(solids)
    except solid_union.UnionFailed as failure:
        raise DeliveryFailure("invalid_solid", str(failure)) from None


def _mesh_model(path: str, fmt: str, known_volumes=None) -> LoadedModel:
    """The scored solid of a closed triangle mesh (STL/OBJ), checked on its triangles
    (mesh_solid.checked_mesh), or a named failure. The mesh modules are imported where a
    mesh or a union is read, not with this module: the drawing child reads STEP and BREP
    files through scored_shape, and scipy, which they bring in, cost it 0.2-0.35 s of CPU."""
    import Mesh  # noqa: PLC0415 - FreeCAD-only

    try:
        with kernel_path(path) as readable:
            mesh = Mesh.Mesh(readable)
    except Exception as exc:
        raise DeliveryFailure("unreadable_file", f"{path}: not a readable mesh ({exc})")
    if mesh.CountFacets == 0:
        raise DeliveryFailure("empty_model", f"{path}: the mesh has no triangles")
    if mesh.CountFacets > standard.INPUT_SIZE["mesh_max_triangles"]:
        detail = size_refusal(path, mesh.CountFacets, "mesh_max_triangles", "triangles")
        raise DeliveryFailure("too_large", detail)
    vertices, triangles = mesh_solid.checked_mesh(mesh, path)
    solid = mesh_solid.TriangleSolid(vertices, triangles)
    if _has_slivers(vertices, triangles):
        _check_brep(solid.brep(), path)
    volume = solid.Volume
    if volume <= 0:
        raise DeliveryFailure("invalid_solid", f"{path}: the closed mesh encloses no volume")
    return LoadedModel(
        path=path,
        format=fmt,
        shape=solid,
        solids=1,
        notes=["mesh converted to a solid: scored on its triangles"],
        from_mesh=True,
        volume=volume,
        mesh=(vertices, triangles),
    )


def _has_slivers(vertices, triangles) -> bool:
    """Whether a facet is thinner (its height over its longest edge: twice its area over
    that edge's length) than the conversion's sewing tolerance
    (mesh_solid.SEWING_TOLERANCE_MM), where its planar face may collapse (a zero-area facet
    makes the polyhedron fail BRepCheck): only then does BRepCheck decide, on the B-rep."""
    from cadbench_wb.app.model import mesh_solid  # noqa: PLC0415 - see _mesh_model

    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    longest = np.max([np.linalg.norm(p - q, axis=1) for p, q in ((a, b), (b, c), (c, a))], axis=0)
    twice_area = np.linalg.norm(np.cross(b - a, c - a), axis=1)
    return bool(np.any(twice_area <= mesh_solid.SEWING_TOLERANCE_MM * longest))


def _check_brep(solid, path: str) -> None:
    """The polyhedral solid's BRepCheck, as before the mesh checks, for meshes with slivers."""
    if not solid.isValid() or solid.Volume <= 0:
        raise DeliveryFailure(
            "invalid_solid", f"{path}: solid 1 of 1 fails OpenCASCADE's BRepCheck"
        )


@dataclasses.dataclass(frozen=True)
class Loader:
    """How cadbench reads one format (its name, extensions and sniff: inputs/formats.py).

    model(path, format, known_volumes) -> LoadedModel reads and checks a file whose format
    the sniff accepted (known_volumes: see load_model; a loader may ignore them), raising
    DeliveryFailure with a named reason. read(path) -> Part.Shape, when given, reads the
    file as the kernel holds it, unchecked, for scored_shape's second reading of a file
    already scored; without it, scored_shape goes through load_model.
    """

    model: Callable[[str, str, list | None], LoadedModel]
    read: Callable[[str], object] | None = None


# The loader of each format in inputs/formats.TABLE, as trimesh's exchange/load.py keeps
# its mesh_loaders: load_model and scored_shape dispatch on this table alone. Adding a
# format: its line in formats.TABLE, one loader function and its line here.
LOADERS = {
    "fcstd": Loader(_fcstd_model),
    "step": Loader(_step_model, read=_read_shape),
    "brep": Loader(_kernel_model, read=_read_shape),
    "iges": Loader(_kernel_model, read=_read_shape),
    "stl": Loader(_mesh_model),
    "obj": Loader(_mesh_model),
}
