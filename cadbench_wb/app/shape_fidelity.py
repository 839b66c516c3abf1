# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shape fidelity: IoU, Dice, precision and recall from Part booleans (seed 002),
safeguarded against silent boolean failures by two independent methods (seed 000)."""

import time

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app import meshing
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
    """Volumes of A, B, A^B, AuB, A-B, B-A from OpenCASCADE; None where a boolean failed."""
    volumes = {"a": reference.Volume, "b": candidate.Volume}
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
    return {"volumes": volumes, "shapes": shapes}


def shape_figures(reference, candidate_aligned, meshes=None) -> dict:
    """Every shape figure of an aligned pair, with its cross-check and per-stage times.

    meshes: the fine (vertices, triangles) of the reference and of the aligned candidate,
    when the alignment already made them (it tessellates at the cross-check's deflection).
    """
    timing = {}
    start = time.perf_counter()
    exact = exact_booleans(reference, candidate_aligned)
    timing["booleans"] = time.perf_counter() - start
    params = standard.CROSS_CHECK
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
    decision = crosscheck.decide(exact["volumes"], mesh_result, sampled, params)
    if decision["volumes"] is not None:
        figures = crosscheck.figures_from(decision["volumes"])
    else:
        fallback = {"a": reference.Volume, "b": candidate_aligned.Volume, "common": 0.0}
        figures = crosscheck.figures_from(fallback)
    figures.update(_diagnostics(reference, candidate_aligned, figures))
    if not decision["checked"]:
        for key in ("iou", "dice", "precision", "recall"):
            figures[key] = None
    figures["method"] = decision["method"]
    figures["crossCheck"] = decision["crossCheck"]
    figures["checked"] = decision["checked"]
    figures["reason"] = decision["reason"]
    return {"figures": figures, "shapes": exact["shapes"], "timing": timing}


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


def _diagnostics(reference, candidate, figures) -> dict:
    box_a, box_b = _bbox(reference), _bbox(candidate)
    size_a, size_b = box_a[3:] - box_a[:3], box_b[3:] - box_b[:3]
    lo, hi = np.maximum(box_a[:3], box_b[:3]), np.minimum(box_a[3:], box_b[3:])
    inter = float(np.prod(np.clip(hi - lo, 0, None)))
    union = float(np.prod(size_a) + np.prod(size_b) - inter)
    centre_a = np.array(tuple(_centre(reference)))
    centre_b = np.array(tuple(_centre(candidate)))
    ratios = np.where(size_a > 0, size_b / np.where(size_a > 0, size_a, 1), 0.0)
    return {
        "volume_ratio": figures["volumeB"] / figures["volumeA"] if figures["volumeA"] else 0.0,
        "center_offset": float(np.linalg.norm(centre_b - centre_a)),
        "bbox_iou": inter / union if union > 0 else 0.0,
        "size_ratio_x": float(ratios[0]),
        "size_ratio_y": float(ratios[1]),
        "size_ratio_z": float(ratios[2]),
        "surface_ratio": candidate.Area / reference.Area if reference.Area else 0.0,
        "reference_diagonal": float(np.linalg.norm(size_a)),
    }


def _centre(shape):
    total, moment = 0.0, np.zeros(3)
    for solid in shape.Solids:
        total += solid.Volume
        moment += solid.Volume * np.array(tuple(solid.CenterOfMass))
    return moment / total
