# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shape fidelity: IoU, Dice, precision and recall from Part booleans (seed 002),
safeguarded against silent boolean failures by two independent methods (seed 000)."""

import time

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app import meshing, threads
from cadbench_wb.metrics import crosscheck, sampling


def placed(shape, rotation: np.ndarray, translation: np.ndarray):
    """A copy of shape moved by x -> R x + t."""
    import FreeCAD  # noqa: PLC0415

    m = FreeCAD.Matrix(
        rotation[0, 0],
        rotation[0, 1],
        rotation[0, 2],
        translation[0],
        rotation[1, 0],
        rotation[1, 1],
        rotation[1, 2],
        translation[1],
        rotation[2, 0],
        rotation[2, 1],
        rotation[2, 2],
        translation[2],
        0,
        0,
        0,
        1,
    )
    moved = shape.copy()
    moved.transformShape(m)
    return moved


def exact_booleans(reference, candidate) -> dict:
    """Volumes of A, B, A^B, AuB, A-B, B-A from OpenCASCADE; None where a boolean failed.

    One General Fuse (BOPAlgo_Builder, the engine under common, fuse and cut) splits both
    solids into pieces that each belong to A, to B or to both: common, the two differences
    and the union are sums over the same pieces, at about a third of the cost of four
    separate booleans. The pieces of A must still add up to A's own volume (and B's to B's),
    which crosscheck.exact_residuals tests. If the General Fuse fails, four booleans do.
    """
    volumes = {"a": reference.Volume, "b": candidate.Volume}
    try:
        pieces = _general_fuse_pieces(reference, candidate)
    except Exception:  # OCC failures surface as several exception types
        pieces = None
    if pieces is None:
        return _four_booleans(reference, candidate, volumes)
    import Part  # noqa: PLC0415

    shapes = {}
    for key in ("common", "missing", "extra"):
        solids = pieces[key]
        volumes[key] = sum(s.Volume for s in solids)
        shapes[key] = Part.makeCompound(solids) if solids else None
    volumes["union"] = volumes["common"] + volumes["missing"] + volumes["extra"]
    shapes["union"] = None
    return {"volumes": volumes, "shapes": shapes, "route": "general fuse"}


def _general_fuse_pieces(reference, candidate) -> dict | None:
    result, piece_map = reference.generalFuse([candidate])
    if result.isNull() or len(piece_map) != 2:
        return None
    of_a, of_b = piece_map
    in_b = [p for p in of_b if p.ShapeType == "Solid"]
    common, missing = [], []
    for piece in of_a:
        if piece.ShapeType != "Solid":
            continue
        shared = any(piece.isSame(other) for other in in_b)
        (common if shared else missing).append(piece)
    extra = [p for p in in_b if not any(p.isSame(c) for c in common)]
    return {"common": common, "missing": missing, "extra": extra}


def _four_booleans(reference, candidate, volumes) -> dict:
    shapes = {}
    for key, operation in (
        ("common", lambda: reference.common(candidate)),
        ("union", lambda: reference.fuse(candidate)),
        ("missing", lambda: reference.cut(candidate)),
        ("extra", lambda: candidate.cut(reference)),
    ):
        try:
            result = operation()
            null = result.isNull()
        except Exception:  # OCC failures surface as several exception types
            result, null = None, True
        shapes[key] = None if null else result
        volumes[key] = None if null else sum(s.Volume for s in result.Solids)
    return {"volumes": volumes, "shapes": shapes, "route": "four booleans"}


def shape_figures(reference, candidate_aligned, meshes=None) -> dict:
    """Every shape figure of an aligned pair, with its cross-check and per-stage times.

    meshes: the fine (vertices, triangles) of the reference and of the aligned candidate,
    when the alignment already made them (it tessellates at the cross-check's deflection).
    """
    timing = {}
    params = standard.CROSS_CHECK
    start = time.perf_counter()
    skipped = None
    if not params["exact_booleans_on_threads"] and (
        threads.has_modeled_thread(reference) or threads.has_modeled_thread(candidate_aligned)
    ):
        skipped = "modeled thread: exact booleans skipped"
        exact = {
            "volumes": {"a": reference.Volume, "b": candidate_aligned.Volume},
            "shapes": {},
            "route": "skipped",
        }
    else:
        exact = exact_booleans(reference, candidate_aligned)
    timing["booleans"] = time.perf_counter() - start
    diagonal = max(reference.BoundBox.DiagonalLength, candidate_aligned.BoundBox.DiagonalLength)
    start = time.perf_counter()
    if meshes is None:
        deflection = params["mesh_deflection_rel"] * diagonal
        meshes = (
            meshing.mesh_of(reference, deflection),
            meshing.mesh_of(candidate_aligned, deflection),
        )
    mesh_a, mesh_b = meshes
    timing["tessellation"] = time.perf_counter() - start
    start = time.perf_counter()
    mesh_result = _mesh_iou(mesh_a, mesh_b)
    timing["mesh_boolean"] = time.perf_counter() - start
    start = time.perf_counter()
    sampled = sampling.sampled_iou(mesh_a, mesh_b, params["sample_points"], params["sample_seed"])
    timing["sampling"] = time.perf_counter() - start
    decision = crosscheck.decide(exact["volumes"], mesh_result, sampled, params, skipped)
    if decision["volumes"] is not None:
        figures = crosscheck.figures_from(decision["volumes"])
    else:
        fallback = {"a": reference.Volume, "b": candidate_aligned.Volume, "common": 0.0}
        figures = crosscheck.figures_from(fallback)
    # On modeled threads each exact mass property costs about a second per solid (B-spline
    # flanks): the diagnostics come from the fine meshes there, as the volumes do.
    figures.update(_diagnostics(reference, candidate_aligned, figures, meshes if skipped else None))
    if not decision["checked"]:
        for key in ("iou", "dice", "precision", "recall"):
            figures[key] = None
    figures["method"] = decision["method"]
    figures["crossCheck"] = decision["crossCheck"]
    figures["checked"] = decision["checked"]
    figures["reason"] = decision["reason"]
    missing = meshing.manifold_missing()
    if missing:  # an Addon Manager install without manifold3d: point sampling cross-checks
        figures["crossCheck"]["meshSkipped"] = missing
        figures["reason"] += f"; {missing}"
    # The fine meshes are kept for later stages (thread zone volumes) so they are made once.
    shapes = dict(exact["shapes"], mesh_reference=mesh_a, mesh_candidate=mesh_b)
    return {"figures": figures, "shapes": shapes, "timing": timing}


def _mesh_iou(mesh_a, mesh_b) -> dict | None:
    first = meshing.manifold_of(*mesh_a)
    second = meshing.manifold_of(*mesh_b)
    if first is None or second is None:
        return None
    common = (first ^ second).volume()
    va, vb = first.volume(), second.volume()
    return {"a": va, "b": vb, "common": common, "union": va + vb - common}


def _bbox(shape) -> np.ndarray:
    box = shape.optimalBoundingBox() if hasattr(shape, "optimalBoundingBox") else shape.BoundBox
    return np.array([box.XMin, box.YMin, box.ZMin, box.XMax, box.YMax, box.ZMax])


def _diagnostics(reference, candidate, figures, meshes=None) -> dict:
    if meshes is None:
        box_a, box_b = _bbox(reference), _bbox(candidate)
        centre_a = np.array(tuple(_centre(reference)))
        centre_b = np.array(tuple(_centre(candidate)))
        area_a, area_b = reference.Area, candidate.Area
    else:
        (box_a, centre_a, area_a), (box_b, centre_b, area_b) = map(_mesh_properties, meshes)
    size_a, size_b = box_a[3:] - box_a[:3], box_b[3:] - box_b[:3]
    lo, hi = np.maximum(box_a[:3], box_b[:3]), np.minimum(box_a[3:], box_b[3:])
    inter = float(np.prod(np.clip(hi - lo, 0, None)))
    union = float(np.prod(size_a) + np.prod(size_b) - inter)
    ratios = np.where(size_a > 0, size_b / np.where(size_a > 0, size_a, 1), 0.0)
    return {
        "volume_ratio": figures["volumeB"] / figures["volumeA"] if figures["volumeA"] else 0.0,
        "center_offset": float(np.linalg.norm(centre_b - centre_a)),
        "bbox_iou": inter / union if union > 0 else 0.0,
        "size_ratio_x": float(ratios[0]),
        "size_ratio_y": float(ratios[1]),
        "size_ratio_z": float(ratios[2]),
        "surface_ratio": area_b / area_a if area_a else 0.0,
        "reference_diagonal": float(np.linalg.norm(size_a)),
    }


def _centre(shape):
    total, moment = 0.0, np.zeros(3)
    for solid in shape.Solids:
        total += solid.Volume
        moment += solid.Volume * np.array(tuple(solid.CenterOfMass))
    return moment / total


def _mesh_properties(mesh):
    """Bounding box, centre of volume and area of a closed triangle mesh."""
    vertices, triangles = mesh
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    signed = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    centre = ((a + b + c) / 4.0 * signed[:, None]).sum(axis=0) / signed.sum()
    area = float(np.linalg.norm(np.cross(b - a, c - a), axis=1).sum() / 2)
    box = np.concatenate([vertices.min(axis=0), vertices.max(axis=0)])
    return box, centre, area
