# SPDX-License-Identifier: LGPL-2.1-or-later
"""The shapeIoU stage: volume IoU after alignment, its diagnostics and cross-check, the
plain-language reading (seed 002) and the diff export."""

import os

from cadbench_wb import standard
from cadbench_wb.app.shape import diff_export
from cadbench_wb.app.shape import fidelity as shape_fidelity
from cadbench_wb.metrics import unit_scale
from cadbench_wb.metrics.measured import Measured


def shape_stage(context) -> Measured:
    """shapeIoU with its diagnostics, cross-check and alignment (under `shape`), the
    verdict's reason and note, and the diff files when options["export_diff"] asks."""
    computed = shape_fidelity.shape_figures(
        context.reference.shape,
        context.aligned,
        context.alignment.aligned_meshes(),
        keep_shapes=bool(context.options.get("export_diff")),
        volumes=(context.reference.volume, context.candidate.volume),
        meshed=_meshed_role(context),
        snapped=context.alignment.snapped,
    )
    figures = computed["figures"]
    context.timing.update({f"shape_{k}": v for k, v in computed["timing"].items()})
    context.diff_shapes = computed["shapes"]
    # The thread stage measures thread zones on the same fine meshes (app/facts.py).
    for key, fact in (("mesh_reference", "reference_mesh"), ("mesh_candidate", "candidate_mesh")):
        if computed["shapes"].get(key) is not None:
            setattr(context, fact, computed["shapes"][key])
    figures["alignment"] = context.alignment.as_dict()
    scale = scale_factor(context, figures)
    if scale is not None:
        figures["scaleFactor"] = scale
    figures["interpretation"] = interpretation_lines(figures)
    reason = figures["reason"]
    if figures["method"] == "mesh":
        reason = f"method mesh (+-{figures['crossCheck']['sampledStderr']:.4f}): {reason}"
    notes = []
    if scale is not None:  # the failure names the factor and the likely unit mix-up
        tolerance = standard.INTERPRETATION["uniform_scale_rel"]
        notes.append(unit_scale.scale_line(scale, tolerance))
    if context.alignment.ambiguous:
        notes.append(
            f"{len(context.alignment.alternatives)} other pose(s) fit equally well "
            "(symmetric part): see shape.alignment.alternatives"
        )
    outputs = {"shape": figures}
    export_dir = context.options.get("export_diff")
    if export_dir:
        outputs["diffFiles"] = export_diff(context, export_dir, figures)
    return Measured(
        figures["iou"],
        outputs,
        reason="" if figures["method"] == "exact" else reason,
        note="; ".join(notes) or None,
    )


def scale_factor(context, figures: dict) -> float | None:
    """The candidate's uniform scale of the reference (metrics/unit_scale.py) when its volume
    is off by more than INTERPRETATION's size_ratio_off; None otherwise. Measured on the
    exact B-reps (their moments), or on the fine meshes of alignment where a side is a
    mesh, and only for such a candidate (on B-spline flanks each exact moment costs ~1 s)."""
    p = standard.INTERPRETATION
    ratio = figures.get("volume_ratio")
    if not ratio or abs(ratio - 1) <= p["size_ratio_off"]:
        return None
    from cadbench_wb.app.shape import alignment  # noqa: PLC0415 - heavy: loaded on first use

    properties = []
    for index, model in enumerate((context.reference, context.candidate)):
        if getattr(model, "from_mesh", False):
            meshes = context.alignment.meshes
            if meshes is None:
                return None
            volume, _centre, inertia = alignment.mesh_mass_properties(*meshes[index])
        else:
            volume, _centre, inertia = alignment.mass_properties(model.shape)
        properties.append((volume, inertia))
    scale = unit_scale.uniform_scale(*properties, p["uniform_scale_rel"])
    return None if scale is None else float(f"{scale:.6g}")


def _meshed_role(context) -> str | None:
    """Which side was delivered as triangles (STL, OBJ), the candidate first; None: neither."""
    return next(
        (r for r in ("candidate", "reference") if getattr(getattr(context, r), "from_mesh", False)),
        None,
    )


def interpretation_lines(figures: dict) -> list[str]:
    """Plain-language reading of the figures (seed 002)."""
    if figures["iou"] is None:
        return ["IoU not checked: the methods disagree"]
    p = standard.INTERPRETATION
    lines = []
    iou = figures["iou"]
    if iou >= 0.999:
        lines.append("Identical within tolerance")
    elif iou >= 0.9:
        lines.append(f"Close match (IoU {iou:.1%})")
    elif iou >= 0.5:
        lines.append(f"Partial match (IoU {iou:.1%})")
    else:
        lines.append(f"Poor match (IoU {iou:.1%})")
    a, b = figures["volumeA"], figures["volumeB"]
    if a and figures["volumeMissing"] / a > p["missing_share"]:
        lines.append(
            f"Under-generating: {figures['volumeMissing'] / a:.1%} of the reference is missing"
        )
    if b and figures["volumeExtra"] / b > p["excess_share"]:
        lines.append(f"Over-generating: {figures['volumeExtra'] / b:.1%} of the candidate is extra")
    ratio = figures["volume_ratio"]
    if figures.get("scaleFactor") is not None:
        lines.append(unit_scale.scale_line(figures["scaleFactor"], p["uniform_scale_rel"]))
    if ratio < 1 - p["size_ratio_off"]:
        lines.append(f"Undersized by {1 - ratio:.1%} in volume")
    elif ratio > 1 + p["size_ratio_off"]:
        lines.append(f"Oversized by {ratio - 1:.1%} in volume")
    if figures["center_offset"] > p["center_offset_rel"] * figures["reference_diagonal"]:
        lines.append(f"Position: centres {figures['center_offset']:.3f} mm apart after alignment")
    return lines


def export_diff(context, folder: str, figures: dict) -> dict:
    """missing, extra and common as STEP and GLB (seed 002's diff outputs); figures: the
    stage's `shape` output."""
    os.makedirs(folder, exist_ok=True)
    return diff_export.write_diff(
        context.diff_shapes, folder, figures.get("method"), figures.get("volumeA")
    )
