# SPDX-License-Identifier: LGPL-2.1-or-later
"""One scoring, in the current process: load, check delivery, align, run each metric stage.

Call it through runner.py (a child process with time and memory limits) whenever the
candidate is untrusted; call it directly (``score_files``) from FreeCAD's console or a
worker that is itself a disposable process.
"""

import dataclasses
import importlib
import os
import time

import numpy as np

from cadbench_wb import freecad_env
from cadbench_wb import result as results
from cadbench_wb.app import alignment as alignment_mod
from cadbench_wb.app import loading, shape_fidelity
from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.metrics import verdicts

# Metric stages in the order they run: (metric, "module:function"). A stage reads the
# context and writes its figures into context.result. Later metrics add themselves here.
STAGES = [
    ("shapeIoU", "cadbench_wb.app.scoring:shape_stage"),
    ("dimensionRecall", "cadbench_wb.app.dimension_stage:dimension_stage"),
    ("semanticMatch", "cadbench_wb.app.feature_stage:feature_stage"),
    ("threadMatch", "cadbench_wb.app.thread_stage:thread_stage"),
    ("drawingMatch", "cadbench_wb.app.drawing_stage:drawing_stage"),
]


@dataclasses.dataclass
class Context:
    reference: loading.LoadedModel
    candidate: loading.LoadedModel
    aligned: object  # the candidate's shape in the reference frame
    alignment: alignment_mod.Alignment
    options: dict
    case: object  # cases.Case or None
    result: dict
    timing: dict
    shapes: dict = dataclasses.field(default_factory=dict)  # common/missing/extra


def score_files(
    reference: str, candidate: str, options: dict | None = None, case=None, stage=lambda name: None
) -> dict:
    """The finished result dict of one scoring (see README: the JSON it writes)."""
    options = dict(options or {})
    requested = results.requested_metrics(options.get("only"))
    started = time.perf_counter()
    result = results.base_result(reference, candidate, _public(options))
    # Which kernel made these figures: a few case expectations differ by version.
    result["freecadVersion"] = freecad_env.freecad_version()
    if case is not None:
        result["case"] = {
            "id": case.id,
            "title": case.title,
            "anchoring": case.anchoring,
            "group": case.group,
        }
    timing = result["timing"]
    stage("reference")
    t0 = time.perf_counter()
    ref = loading.load_model(reference, "reference")
    timing["load_reference"] = time.perf_counter() - t0
    result["reference"].update(ref.summary())
    stage("candidate")
    t0 = time.perf_counter()
    try:
        cand = loading.load_model(candidate, "candidate")
    except DeliveryFailure as failure:
        failed = results.failure_result(
            reference, candidate, _public(options), failure.reason, failure.detail, requested
        )
        failed["reference"].update(ref.summary())
        failed["freecadVersion"] = result["freecadVersion"]
        if case is not None:
            failed["case"] = result["case"]
        _reference_stages(ref, case, options, failed, requested)
        return results.finish(failed)
    timing["load_candidate"] = time.perf_counter() - t0
    result["candidate"].update(cand.summary())
    stage("alignment")
    t0 = time.perf_counter()
    if options.get("no_align"):
        pose = alignment_mod.Pose(np.eye(3), np.zeros(3), 0.0, "none")
        align = alignment_mod.Alignment(pose, False, [], 0, "not aligned")
    else:
        align = alignment_mod.align(ref.shape, cand.shape)
    aligned = shape_fidelity.placed(cand.shape, align.best.rotation, align.best.translation)
    timing["alignment"] = time.perf_counter() - t0
    context = Context(ref, cand, aligned, align, options, case, result, timing)
    for metric, target in STAGES:
        if metric not in requested:
            continue
        function = _stage_function(target)
        if function is None:
            continue
        stage(metric)
        function(context)
    timing["total"] = time.perf_counter() - started
    return results.finish(result)


def _reference_stages(reference, case, options: dict, result: dict, requested) -> None:
    """On a failed delivery, let each metric say whether it applies to this case at all
    (threadMatch on a part without threads does not, and stays out of every mean) and
    report the case's ceilings, through an optional reference_stage() of its module."""
    for metric, target in STAGES:
        if metric not in requested:
            continue
        module_name = target.split(":")[0]
        function = _stage_function(f"{module_name}:reference_stage", optional=True)
        if function is not None:
            function(reference, case, options, result)


def _public(options: dict) -> dict:
    """Options that change figures go into the result and fingerprint; paths do not."""
    return {k: v for k, v in sorted(options.items()) if k in ("only", "no_align", "spectrum")}


def _stage_function(target: str, optional: bool = False):
    module_name, function_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None  # that metric is not built yet
        raise
    return getattr(module, function_name, None) if optional else getattr(module, function_name)


def shape_stage(context: Context) -> None:
    """shapeIoU with its diagnostics, cross-check and alignment."""
    computed = shape_fidelity.shape_figures(
        context.reference.shape,
        context.aligned,
        context.alignment.aligned_meshes(),
        keep_shapes=bool(context.options.get("export_diff")),
    )
    figures = computed["figures"]
    context.timing.update({f"shape_{k}": v for k, v in computed["timing"].items()})
    context.shapes = computed["shapes"]
    figures["alignment"] = context.alignment.as_dict()
    figures["interpretation"] = interpretation_lines(figures)
    context.result["shape"] = figures
    context.result["shapeIoU"] = figures["iou"]
    reason = figures["reason"]
    if figures["method"] == "mesh":
        reason = f"method mesh (+-{figures['crossCheck']['sampledStderr']:.4f}): {reason}"
    context.result["verdicts"]["shapeIoU"] = verdicts.verdict(
        "shapeIoU", figures["iou"], reason=None if figures["method"] == "exact" else reason
    )
    if context.alignment.ambiguous:
        context.result["verdicts"]["shapeIoU"]["note"] = (
            f"{len(context.alignment.alternatives)} other pose(s) fit equally well "
            "(symmetric part): see shape.alignment.alternatives"
        )
    export_dir = context.options.get("export_diff")
    if export_dir:
        context.result["diffFiles"] = export_diff(context, export_dir)


def interpretation_lines(figures: dict) -> list[str]:
    """Plain-language reading of the figures (seed 002)."""
    from cadbench_wb import standard  # noqa: PLC0415

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
    if ratio < 1 - p["size_ratio_off"]:
        lines.append(f"Undersized by {1 - ratio:.1%} in volume")
    elif ratio > 1 + p["size_ratio_off"]:
        lines.append(f"Oversized by {ratio - 1:.1%} in volume")
    if figures["center_offset"] > p["center_offset_rel"] * figures["reference_diagonal"]:
        lines.append(f"Position: centres {figures['center_offset']:.3f} mm apart after alignment")
    return lines


def export_diff(context: Context, folder: str) -> dict:
    """missing, extra and common as STEP and GLB (seed 002's diff outputs)."""
    from cadbench_wb.app import diff_export  # noqa: PLC0415

    os.makedirs(folder, exist_ok=True)
    shape = context.result.get("shape") or {}
    return diff_export.write_diff(context.shapes, folder, shape.get("method"), shape.get("volumeA"))
