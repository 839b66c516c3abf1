# SPDX-License-Identifier: LGPL-2.1-or-later
"""Located dimension recall on real shapes: bindings, correspondence, reasons.

The FreeCAD side of metrics/located*.py and metrics/unmeasurable.py: reads both bodies'
geometry (the candidate as aligned into the reference frame), resolves each target's
binding (the case's faces, place or feature id, a cosmetic thread's carrier, or inferred),
and
explains each target the reference cannot measure. Seed 000's figures are not touched.
"""

import math

from cadbench_wb import standard
from cadbench_wb.app.dimensions.measured_geometry import geometry_of
from cadbench_wb.metrics import dimension_matching as dims
from cadbench_wb.metrics import located_dimensions, unmeasurable
from cadbench_wb.metrics.located import Correspondence


class BindingInvalid(ValueError):
    """A case binds a target to a feature or face the reference does not have."""


def bindings_of(case, reference_shape, threads=(), features=None) -> list[dict]:
    """Per target: {"kind": faces|at|feature|none|inferred, "faces"?: set, ...}.

    threads: the reference's cosmetic threads (carrier bindings). features: the feature
    stage's recognition of the reference, or a callable giving it (called only when a
    target names a feature, so the ids are the ones the feature stage reports)."""
    face_count = len(reference_shape.Faces)
    result = []
    for dimension in case.dimensions:
        declared = dimension.geometry or {}
        if "none" in declared:
            result.append({"kind": "none", "reason": declared["none"]})
        elif "faces" in declared:
            faces = set(declared["faces"])
            beyond = [f + 1 for f in sorted(faces) if f >= face_count]
            if beyond:
                raise BindingInvalid(
                    f"dimension {dimension.id}: geometry.faces: the reference has "
                    f"{face_count} faces, not Face{beyond[0]}"
                )
            result.append({"kind": "faces", "faces": faces})
        elif "at" in declared:
            result.append(resolved_place(dimension, declared, reference_shape))
        elif "feature" in declared:
            result.append(
                _feature_binding(dimension, declared["feature"], reference_shape, threads, features)
            )
        else:
            result.append(_inferred(dimension, threads))
    return result


def resolved_place(dimension, declared: dict, shape) -> dict:
    """{at: points, normal|axis?}: per point the one face of the reference whose surface
    passes through it within the linear tolerance (and, when given, has that normal or
    axis there). Face numbers change between FreeCAD versions and exports; the place an
    inspector names on the part does not."""
    tolerance = standard.LINEAR_TOLERANCE_ABS_MM
    faces = set()
    for point in declared["at"]:
        on = _faces_through(shape, point, tolerance)
        where = f"dimension {dimension.id}: geometry.at {_point_text(point)}"
        if not on:
            raise BindingInvalid(
                f"{where}: no face of the reference passes within {tolerance:g} mm of it"
            )
        for direction in ("normal", "axis"):
            if direction in declared:
                on = [f for f in on if _has_direction(shape.Faces[f], point, direction, declared)]
                if not on:
                    raise BindingInvalid(
                        f"{where}: no face there has {direction} {_point_text(declared[direction])}"
                    )
        if len(on) > 1:
            names = ", ".join(f"Face{f + 1}" for f in on)
            raise BindingInvalid(
                f"{where}: {len(on)} faces pass through it ({names}: an edge or a corner); "
                "move the point inside one face or add normal: or axis:"
            )
        faces.add(on[0])
    binding = {"kind": "at", "faces": faces, "at": [list(p) for p in declared["at"]]}
    for direction in ("normal", "axis"):
        if direction in declared:
            binding[direction] = list(declared[direction])
    return binding


def _faces_through(shape, point, tolerance) -> list[int]:
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only
    import Part  # noqa: PLC0415 - FreeCAD-only

    vector = FreeCAD.Vector(*point)
    vertex = Part.Vertex(vector)
    found = []
    for index, face in enumerate(shape.Faces):
        box = untriangulated_box(face)
        box.enlarge(tolerance)
        if box.isInside(vector) and face.distToShape(vertex)[0] <= tolerance:
            found.append(index)
    return found


def untriangulated_box(face):
    """The face's bounding box from its surface and edges, never from a triangulation it
    carries: Part's BoundBox of a meshed face is its mesh's, inside a curved surface (a
    cylinder of radius 25 meshed at 2 mm: 24.82), so a point on the surface fell outside
    it and a place bound on NIST CTC-02's bores resolved to no face once the shape stage
    had meshed the reference. optimalBoundingBox(useTriangulation) is FreeCAD >= 0.19."""
    if hasattr(face, "optimalBoundingBox"):
        return face.optimalBoundingBox(False)
    return face.BoundBox


def _has_direction(face, point, direction: str, declared: dict) -> bool:
    """Whether the face's normal at the point (planes) or its axis (surfaces of
    revolution) is parallel to the declared vector, either sense."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    wanted = FreeCAD.Vector(*declared[direction])
    surface = face.Surface
    if direction == "axis":
        if not hasattr(surface, "Axis") or surface.TypeId == "Part::GeomPlane":
            return False
        actual = surface.Axis
    else:
        if surface.TypeId != "Part::GeomPlane":
            return False
        u, v = surface.parameter(FreeCAD.Vector(*point))
        actual = face.normalAt(u, v)
    cosine = abs(actual.normalize().dot(wanted.normalize()))
    return cosine >= math.cos(math.radians(standard.LOCATED["parallel_deg"]))


def _point_text(point) -> str:
    return "[" + ", ".join(f"{v:g}" for v in point) + "]"


def _feature_binding(dimension, ident, shape, threads, features) -> dict:
    if callable(features):
        features = features()
    if features is None:
        from cadbench_wb.app.recognition import features as recognition  # noqa: PLC0415 - heavy: loaded on first use

        features = recognition.recognise(shape, threads)
    for feature in features["features"] + features["unrecognised"]:
        if feature.get("id") == ident:
            faces = {int(name[4:]) - 1 for name in feature.get("faces", [])}
            return {"kind": "feature", "feature": ident, "faces": faces}
    known = ", ".join(f["id"] for f in features["features"]) or "none"
    raise BindingInvalid(
        f"dimension {dimension.id}: geometry.feature: the reference has no feature "
        f"{ident!r} (recognised: {known})"
    )


def _inferred(dimension, threads) -> dict:
    """A diameter a cosmetic thread states is carried by that thread's faces (the plain
    hole or shaft under it), not by whatever else has that size."""
    if dimension.kind == "diameter":
        for thread in threads:
            major = thread.major_diameter
            if not thread.modeled and major and abs(major - dimension.value) <= dimension.tolerance:
                faces = {int(n[4:]) - 1 for n in thread.faces if n.startswith("Face")}
                return {
                    "kind": "inferred",
                    "faces": faces,
                    "thread": thread.designation or f"M{major:g}",
                }
    return {"kind": "inferred"}


def reference_threads(model, shape) -> list:
    """The reference's cosmetic threads, for thread-carrier bindings and reasons (a modeled
    thread has its own surfaces; detecting those costs seconds on a threaded part)."""
    from cadbench_wb.app.recognition import threads as thread_recognition  # noqa: PLC0415 - heavy: loaded on first use

    return thread_recognition.cosmetic_threads(model.document_objects, shape)


def locate(outcomes, reference_spectrum, reference, candidate, bindings) -> dict:
    """Fill each outcome's ``located`` entry from the reference's and the aligned
    candidate's geometry (geometry_of); return the located figures."""
    correspondence = Correspondence(reference, candidate)
    entries = []
    for outcome, binding in zip(outcomes, bindings, strict=True):
        entry = located_dimensions.located_outcome(
            outcome.dimension,
            reference_spectrum,
            reference,
            candidate,
            correspondence,
            binding,
            seed_hit=outcome.candidate,
        )
        if binding.get("thread") and not entry["total"]:
            entry["reason"] = (
                f"a cosmetic thread ({binding['thread']}): its faces are the plain hole or "
                "shaft under it, which does not state the thread's diameter"
            )
        outcome.located = entry
        entries.append(entry)
    figures = located_dimensions.located_figures(entries)
    figures["maxOffset"] = correspondence.limit
    return figures


def explain(outcomes, spectrum, geometry, extended=None, threads=()) -> None:
    """Each target the reference does not hold gets ``unmeasurable`` = {code, text}."""
    pending = [o for o in outcomes if o.reference is None]
    if not pending:
        return
    if extended is not None:
        once = {}
        measured = extended
        extended = lambda: once.setdefault("spectrum", measured())  # noqa: E731
    cosmetic = [t.major_diameter for t in threads if not t.modeled and t.major_diameter]
    for outcome in pending:
        outcome.unmeasurable = unmeasurable.reason_of(
            outcome.dimension, spectrum, geometry, extended, cosmetic
        )


def authoring_notes(case, model) -> list[str]:
    """`case verify`'s lines on each target: where located matching finds it on the
    reference (an inferred binding for the author to confirm), or why it cannot."""
    from cadbench_wb.app.dimensions.spectrum import diagonal_of, spectrum_of  # noqa: PLC0415 - heavy: loaded on first use

    shape = model.shape
    diagonal = diagonal_of(shape)
    # Seed 000's default spectrum, as scoring uses it; the extended one only for reasons.
    spectrum = spectrum_of(shape, "default", diagonal)
    threads = reference_threads(model, shape)
    bindings = bindings_of(case, shape, threads, lambda: _recognised(model, shape))
    geometry = geometry_of(shape, diagonal, with_edge_faces=True)
    outcomes = dims.outcomes(case.dimensions, spectrum, spectrum)
    locate(outcomes, spectrum, geometry, geometry, bindings)
    explain(outcomes, spectrum, geometry, lambda: spectrum_of(shape, "extended", diagonal), threads)
    return [_authoring_line(o, geometry) for o in outcomes]


def _recognised(model, shape) -> dict:
    """Recognition as the feature stage runs it (modeled threads included), so a feature
    id in case.yaml means the same in `case verify` and in scoring."""
    from cadbench_wb.app.recognition import features as recognition  # noqa: PLC0415 - heavy: loaded on first use
    from cadbench_wb.app.recognition import threads as thread_recognition  # noqa: PLC0415 - heavy: loaded on first use

    threads = thread_recognition.modeled_threads(shape)
    threads += thread_recognition.cosmetic_threads(model.document_objects, shape)
    return recognition.recognise(shape, threads)


def _authoring_line(outcome, geometry) -> str:
    dimension = outcome.dimension
    head = f"dimension {dimension.id} ({dimension.kind} {dimension.value:g})"
    located = outcome.located
    if outcome.unmeasurable is not None:
        reason = outcome.unmeasurable
        return f"{head}: not measurable on the reference: {reason['code']}: {reason['text']}"
    if not located["total"]:
        why = located.get("reason") or "no member on the bound geometry"
        return f"{head}: the value is on the reference, but not on geometry that carries it: {why}"
    faces = sorted(
        {g["element"] for m in located["members"] for g in m["reference"]["geometry"]},
        key=lambda n: (n[:4], int(n[4:])),
    )
    where = f"located on {', '.join(faces)} ({located['total']} member(s)"
    if located["binding"] == "inferred":
        numbers = {int(n[4:]) for n in faces if n.startswith("Face")}
        for name in faces:  # an edge is bound through the faces it bounds
            if name.startswith("Edge"):
                numbers.update(f + 1 for f in geometry.edge_faces[int(name[4:]) - 1])
        numbers = sorted(numbers)
        return f"{head}: {where}, inferred: confirm with geometry: {{faces: {numbers}}})"
    if located["binding"] == "at":
        return f"{head}: {where}, bound by place: {', '.join(map(_point_text, located['at']))})"
    return f"{head}: {where}, bound by the case: {located['binding']})"
