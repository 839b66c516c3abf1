# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read a model file into one scored solid, and decide whether it was delivered at all."""

import contextlib
import dataclasses
import os
import tempfile

from cadbench_wb import formats, input_checks, memory_use
from cadbench_wb.app import fcstd_shapes, solid_union
from cadbench_wb.errors import DeliveryFailure, ReferenceInvalid
from cadbench_wb.freecad_env import import_freecad


@dataclasses.dataclass
class LoadedModel:
    """The shape cadbench scores for one file, with what it took to get there."""

    path: str
    format: str
    shape: object  # Part.Shape: one solid, or a compound of disjoint solids
    solids: int
    notes: list[str]
    from_mesh: bool = False
    document_objects: list = dataclasses.field(default_factory=list)
    # FCStd only: each scored object's name, label, type, solid count and exact volume.
    scored_objects: list = dataclasses.field(default_factory=list)

    def summary(self) -> dict:
        found = {
            "format": self.format,
            "solids": self.solids,
            # The exact B-rep volume of what is scored, whichever route decides shapeIoU
            # (shape.volumeA/B are the deciding method's own figures, mesh ones included).
            "volume": float(self.shape.Volume),
            "fromMesh": self.from_mesh,
            "notes": list(self.notes),
        }
        if self.scored_objects:
            found["objects"] = [dict(o) for o in self.scored_objects]
        return found


def load_model(path: str, role: str = "candidate") -> LoadedModel:
    """The scored solid of a reference or candidate file.

    A broken candidate raises DeliveryFailure (it is scored 0); a broken reference raises
    ReferenceInvalid (the benchmark's fault, reported loudly). A file that exhausts the
    process's memory limit is `memory`, whatever the reader called its failure.
    """
    try:
        return _load(path)
    except MemoryError:
        failure = DeliveryFailure("memory", memory_use.exhausted_detail(f"reading {path}"))
    except DeliveryFailure as caught:
        failure = caught
        if memory_use.exhausted():
            # OpenCASCADE reports a failed allocation as a read error: name the limit instead.
            detail = memory_use.exhausted_detail(f"reading {path}")
            failure = DeliveryFailure("memory", f"{detail} ({caught.reason}: {caught.detail})")
    if role == "reference":
        raise ReferenceInvalid(f"reference {failure.reason}: {failure.detail}") from None
    raise failure from None


def _load(path: str) -> LoadedModel:
    fmt = formats.checked_format(path)
    import_freecad()
    notes: list[str] = []
    objects, scored = [], []
    if fmt == "fcstd":
        shapes, notes, objects, scored = fcstd_shapes.document_shapes(path)
    elif fmt in formats.MESH_FORMATS:
        shapes = [_mesh_solid(path)]
        notes.append("mesh converted to a solid: scored on its triangles")
    else:
        shapes = [_read_shape(path)]
    solids = [s for shape in shapes for s in shape.Solids]
    if not solids:
        faces = sum(len(shape.Faces) for shape in shapes)
        edges = sum(len(shape.Edges) for shape in shapes)
        if faces:
            raise DeliveryFailure(
                "no_solid", f"{path}: {faces} face(s) but no closed solid (surfaces or shells)"
            )
        if edges:
            raise DeliveryFailure(
                "no_solid", f"{path}: {edges} edge(s) (wires or curves) but no face or solid"
            )
        raise DeliveryFailure("empty_model", f"{path}: the file holds no geometry")
    for index, solid in enumerate(solids):
        if not solid.isValid() or solid.Volume <= 0:
            raise DeliveryFailure(
                "invalid_solid",
                f"{path}: solid {index + 1} of {len(solids)} fails OpenCASCADE's BRepCheck"
                + ("" if solid.Volume > 0 else " (zero or negative volume)"),
            )
    shape, union_notes = _one_shape(solids)
    notes.extend(union_notes)
    return LoadedModel(
        path=path,
        format=fmt,
        shape=shape,
        solids=len(solids),
        notes=notes,
        from_mesh=fmt in formats.MESH_FORMATS,
        document_objects=objects,
        scored_objects=scored,
    )


def _read_shape(path: str):
    import Part  # noqa: PLC0415

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


def _one_shape(solids):
    """One solid, a compound of disjoint solids, or the checked union of those that touch
    or overlap (app/solid_union.py), with the notes that say which."""
    if len(solids) == 1:
        return solids[0], []
    try:
        return solid_union.united(solids)
    except solid_union.UnionFailed as failure:
        raise DeliveryFailure("invalid_solid", str(failure)) from None


def _mesh_solid(path: str):
    """A solid from a closed triangle mesh (STL/OBJ), or a named failure."""
    import Mesh  # noqa: PLC0415
    import Part  # noqa: PLC0415

    try:
        with kernel_path(path) as readable:
            mesh = Mesh.Mesh(readable)
    except Exception as exc:
        raise DeliveryFailure("unreadable_file", f"{path}: not a readable mesh ({exc})")
    if mesh.CountFacets == 0:
        raise DeliveryFailure("empty_model", f"{path}: the mesh has no triangles")
    if not mesh.isSolid() or mesh.hasNonManifolds():
        raise DeliveryFailure(
            "no_solid", f"{path}: the mesh is not closed ({mesh.CountFacets} triangles): no solid"
        )
    shell_shape = Part.Shape()
    shell_shape.makeShapeFromMesh(mesh.Topology, 1e-6)
    try:
        solid = Part.Solid(Part.Shell(shell_shape.Faces))
    except Exception as exc:
        raise DeliveryFailure(
            "invalid_solid", f"{path}: the closed mesh does not form a solid ({exc})"
        )
    if solid.Volume < 0:
        solid.reverse()
    return solid
