# SPDX-License-Identifier: LGPL-2.1-or-later
"""One scoring, in the current process: load, check delivery, align, run each metric stage.

Call it through runner.py (a child process with time and memory limits) whenever the
candidate is untrusted; call it directly (``score_files``) from FreeCAD's console or a
worker that is itself a disposable process.
"""

import copy
import dataclasses
import os
import tempfile
import time

import numpy as np

from cadbench_wb.app import facts as facts_mod
from cadbench_wb.app import field_meshes, requirements
from cadbench_wb.app.model import loading, placement, reference_facts, thread_flanks
from cadbench_wb.app.shape import alignment as alignment_mod
from cadbench_wb.app.shape import time_budget
from cadbench_wb.errors import CadbenchError, DeliveryFailure
from cadbench_wb.metrics import registry, verdicts
from cadbench_wb.metrics.measured import Measured
from cadbench_wb.results import fingerprint
from cadbench_wb.results import result as results
from cadbench_wb.runtime import freecad_env


def score_files(
    reference: str,
    candidate: str,
    options: dict | None = None,
    case=None,
    stage=lambda name: None,
    aligned=lambda rotation, translation: None,
    refused: DeliveryFailure | None = None,
) -> dict:
    """The finished result dict of one scoring (see README: the JSON it writes).

    aligned(rotation, translation) is told the candidate's pose once it is aligned (the
    worker writes it beside the stage, for the control of a death in a later stage).
    options["control_pose"] (12 floats) makes this a perfect-copy control: the reference
    moved by that pose is the candidate, placed back by the same pose, and a stage that
    fails raises. options["unchecked"] ({metric: {"candidate", "control"}}): metrics whose
    stage failed on the candidate and on its control, left NOT CHECKED and not run.
    refused: a delivery failure found before the candidate is read (a campaign's link out of
    the submissions folder, a script that failed): the candidate is then never read."""
    options = dict(options or {})
    requested = results.requested_metrics(options.get("only"))
    started, cpu = time.perf_counter(), _cpu_now()
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
    t0, c0 = time.perf_counter(), _own_cpu()
    # The reference's checks and volumes as an earlier scoring of this very file measured
    # them (reference_facts.py), else measured now and kept for the next one.
    facts_file = reference_facts.cache_file(result, options)
    kept = reference_facts.known(facts_file)
    # A reference that stays an open shell is scored on what needs no volume (requirements.py).
    ref = loading.load_model(
        reference, "reference", kept.get(reference_facts.VOLUMES), open_shell_ok=True
    )
    reference_facts.keep(facts_file, kept, ref.solid_volumes)
    timing["load_reference"] = time.perf_counter() - t0
    timing["cpu_load_reference"] = _own_cpu() - c0
    result["reference"].update(ref.summary())
    ahead = {}
    if "control_pose" not in options:  # a control runs its stage here, as it failed there
        ahead = _started_ahead(ref, case, options, result, _run(requested, options))
    try:
        return _scored(
            reference, candidate, options, case, (stage, aligned), result, ref, ahead,
            (started, cpu), refused,
        )  # fmt: skip
    finally:
        for work in ahead.values():
            work.close()


def _run(requested, options: dict) -> tuple:
    """The requested metrics whose stages run (not those left unchecked by a control)."""
    return tuple(m for m in requested if m not in (options.get("unchecked") or {}))


def _scored(
    reference, candidate, options, case, callbacks, result, ref, ahead, clocks, refused=None
) -> dict:
    """score_files once the reference is read, with the work started ahead for it;
    callbacks: (stage, aligned) of score_files; clocks: (wall, CPU) when it started."""
    started, cpu = clocks
    stage, told_aligned = callbacks
    requested = results.requested_metrics(options.get("only"))
    timing = result["timing"]
    stage("candidate")
    t0, c0 = time.perf_counter(), _own_cpu()
    try:
        if refused is not None:
            raise refused
        cand = _candidate_model(candidate, ref, options)
    except DeliveryFailure as failure:
        failed = results.failure_result(
            reference, candidate, _public(options), failure.reason, failure.detail, requested
        )
        if refused is not None:  # unread: its target's hash is not the delivery's
            failed["candidate"].update(sha256=None, identicalToReference=False)
        failed["reference"].update(ref.summary())
        failed["freecadVersion"] = result["freecadVersion"]
        if case is not None:
            failed["case"] = result["case"]
        _reference_stages(ref, case, options, failed, requested)
        return results.finish(failed)
    timing["load_candidate"] = time.perf_counter() - t0
    timing["cpu_load_candidate"] = _own_cpu() - c0
    result["candidate"].update(cand.summary())
    for work in ahead.values():
        work.delivered(candidate, cand)
    stage("alignment")
    t0, c0 = time.perf_counter(), _own_cpu()
    if options.get("control_pose") is not None:  # the candidate's pose, not searched again
        rotation, translation = _pose_arrays(options["control_pose"])
        pose = alignment_mod.Pose(rotation, translation, 1.0, "the candidate's (control)")
        align = alignment_mod.Alignment(pose, False, [], 0, "perfect-copy control")
    elif options.get("no_align") or ref.open_shell:
        # An open shell has no volume to align on (its inertia): the pose as delivered.
        pose = alignment_mod.Pose(np.eye(3), np.zeros(3), 0.0, "none")
        why = "not aligned" + (": the reference is an open shell" if ref.open_shell else "")
        align = alignment_mod.Alignment(pose, False, [], 0, why)
    else:
        align = alignment_mod.align(ref.shape, cand.shape)
    told_aligned(align.best.rotation, align.best.translation)
    aligned = placement.placed(cand.shape, align.best.rotation, align.best.translation)
    # A rigid motion keeps a thread: the shape stage reads it off the candidate's answer.
    thread_flanks.same_thread_as(aligned, cand.shape)
    timing["alignment"] = time.perf_counter() - t0
    timing["cpu_alignment"] = _own_cpu() - c0
    context = facts_mod.Facts(ref, cand, aligned, align, options, case, result, timing, ahead)
    for work in ahead.values():
        work.aligned(candidate, align.best)
    unchecked = options.get("unchecked") or {}
    for metric, measure in stage_functions(requested):
        if metric.name in unchecked:
            failed = unchecked[metric.name]
            results.unchecked_by_control(
                result, metric.name, failed["candidate"], failed["control"]
            )
            continue
        c0 = _own_cpu()
        _run_stage(context, metric, stage, measure)
        timing[f"cpu_{metric.name}"] = _own_cpu() - c0
    for work in ahead.values():
        timing.update(work.close())
    t0, c0 = time.perf_counter(), _own_cpu()
    result["fieldFigures"] = field_meshes.field_figures_of(ref.shape, cand.shape)
    if ref.open_shell:  # voxels inside an open shell: none (its Chamfer points stand)
        voxels = result["fieldFigures"]["voxelIoU64"]
        voxels.update(value=None, reason="reference_open_shell: no inside to voxelise")
    timing["field_figures"] = time.perf_counter() - t0
    timing["cpu_field_figures"] = _own_cpu() - c0
    timing["total"] = time.perf_counter() - started
    timing.update(_cpu_since(cpu))
    return results.finish(result)


def _run_stage(context, metric: registry.Metric, stage, measure) -> None:
    """Mark the stage, then measure the metric (_measured). On the candidate, a stage that raises (not a delivery
    failure, not exhausted memory: those are the candidate's) leaves its metric NOT
    CHECKED for the control to judge (result.stage_failed) and the other metrics are
    measured; in a control it raises, which is the control's failure."""
    if "control_pose" in context.options:
        _measured(context, metric, stage, measure)
        return
    try:
        _measured(context, metric, stage, measure)
    except (CadbenchError, MemoryError):
        raise
    except Exception as exc:  # whose failure it is, the control decides
        best = context.alignment.best
        pose = (*best.rotation.ravel(), *best.translation.ravel())
        # As text: the result's rounding to 6 digits would make the rotation one that
        # OpenCASCADE refuses ("Moving with scaling transformation is forbidden").
        results.stage_failed(
            context.result,
            metric.name,
            f"{type(exc).__name__}: {exc}",
            [repr(float(x)) for x in pose],
        )


class MetricContractBroken(RuntimeError):
    """A metric's measure broke its registry line's contract: the scorer's own bug. Raised,
    so the metric is NOT CHECKED with this cause (the control shares it), never a figure."""


class StageWroteNoVerdict(MetricContractBroken):
    """A requested metric's measure returned no Measured (metrics/measured.py), so it has no
    verdict; left out of result.finish's case verdict, the case would pass without it."""


class UndeclaredOutput(MetricContractBroken):
    """A metric's measure returned an output its registry line does not declare, or wrote
    into the result itself: the result's keys are the registry's, so every output can read
    them, and only the orchestrator writes them."""


def _measured(context, metric: registry.Metric, stage, measure) -> None:
    """Check the metric's requirements (the standard not-applicable result when one does not
    hold), else measure it; then hold it to its declaration."""
    stage(metric.name)
    result = context.result
    _stamped(metric, result)
    before, verdicts_before = dict(result), set(result["verdicts"])
    unmet = requirements.unmet(context, metric)
    if unmet is None:
        measured = measure(context)
        _wrote_nothing(metric, result, before, verdicts_before)
        if not isinstance(measured, Measured):
            raise StageWroteNoVerdict(
                f"the measure of {metric.name} returned {type(measured).__name__}, not the "
                "Measured its verdict is built from"
            )
        _written(result, metric, measured)
        return
    _not_applicable(context, metric, unmet)
    if unmet.candidate_side and metric.reference_stage:
        # The case's ceiling stands without the candidate (the reference's own figure).
        work = context.ahead.get(metric.name)
        if work is not None:
            context.timing.update(work.settled())
        hook = registry.resolve(metric.reference_stage)
        hook(context.reference, context.case, context.options, result)
    _held_to_declaration(metric, result, before, verdicts_before)


def _wrote_nothing(metric, result: dict, before: dict, verdicts_before: set) -> None:
    """UndeclaredOutput when a measure wrote into the result itself (a top-level key or a
    verdict) since before: it returns its figures, the orchestrator writes them."""
    written = sorted(k for k in result if k not in before or result[k] is not before[k])
    written += [f"verdicts.{v}" for v in sorted(set(result["verdicts"]) - verdicts_before)]
    if written:
        raise UndeclaredOutput(
            f"the measure of {metric.name} wrote into the result itself: {', '.join(written)}"
            " (a measure returns its value and outputs in a Measured)"
        )


def _written(result: dict, metric: registry.Metric, measured: Measured) -> None:
    """Write what a measure returned: its value under the metric's name, each output under
    its key (UndeclaredOutput for a key the registry line does not declare), and the verdict
    built from its verdict inputs."""
    undeclared = sorted(set(measured.outputs) - set(metric.outputs))
    if undeclared:
        raise UndeclaredOutput(
            f"the measure of {metric.name} returned undeclared output(s): {', '.join(undeclared)}"
        )
    result[metric.name] = measured.value
    result.update(measured.outputs)
    result["verdicts"][metric.name] = verdict_of(metric.name, measured)


def verdict_of(name: str, measured: Measured) -> dict:
    """The verdict of one metric's measurement (metrics/verdicts.py), with the detail its
    reason carries and its note."""
    entry = verdicts.verdict(
        name, measured.judged_value, reason=measured.reason, ceiling=measured.ceiling
    )
    if measured.reason_detail:
        entry["reason"] += measured.reason_detail
    if measured.note is not None:
        entry["note"] = measured.note
    return entry


def _held_to_declaration(metric, result: dict, before: dict, verdicts_before: set) -> None:
    """UndeclaredOutput when the metric wrote a top-level key its line does not declare (or
    another metric's verdict) since before; StageWroteNoVerdict when it has no verdict."""
    written = {k for k in result if k not in before or result[k] is not before[k]}
    undeclared = sorted(written - set(metric.keys))
    other_verdicts = sorted(set(result["verdicts"]) - verdicts_before - {metric.name})
    if undeclared or other_verdicts:
        what = ", ".join(undeclared + [f"verdicts.{v}" for v in other_verdicts])
        raise UndeclaredOutput(f"the stage of {metric.name} wrote undeclared output(s): {what}")
    if metric.name not in result["verdicts"]:
        raise StageWroteNoVerdict(
            f"the stage of {metric.name} returned without writing its verdict"
        )


def _stamped(metric: registry.Metric, result: dict) -> None:
    """A metric with a stamp of its own (the drawing chain's) reports it, applicable or not."""
    if metric.stamp == "drawing":
        result["drawingFingerprint"] = fingerprint.drawing_fingerprint()


def _not_applicable(facts, metric: registry.Metric, unmet, delivered: bool = True) -> None:
    """The standard result of a metric that does not apply: its value and ceiling null, its
    blank outputs, its detail (what its explain hook reports once a candidate was read, else
    applicable false with the reason) and the not-applicable verdict."""
    result = facts.result
    result[metric.name] = None
    if metric.ceiling:
        result[metric.ceiling] = None
    for key, value in metric.blank:
        result[key] = copy.deepcopy(value)
    if metric.detail and metric.explain is None:
        result[metric.detail] = {"applicable": False, "reason": unmet.reason, **unmet.detail}
    elif metric.detail and delivered:
        result[metric.detail] = registry.resolve(metric.explain)(facts, unmet.reason)
    result["verdicts"][metric.name] = verdicts.not_applicable(metric.name, unmet.reason)


def _candidate_model(candidate: str, reference, options: dict):
    """The candidate as read and checked, or in a control the reference moved by the
    candidate's pose (x -> R x + t took the candidate onto the reference, so the candidate
    lies at R^T (x - t)) and delivered as a candidate is: written to STEP and read back, so
    that it carries the rounding of a file in that pose too."""
    if options.get("control_pose") is None:
        return loading.load_model(candidate, "candidate")
    rotation, translation = _pose_arrays(options["control_pose"])
    moved = placement.placed(reference.shape, rotation.T, -rotation.T @ translation)
    try:
        with tempfile.TemporaryDirectory(prefix="cadbench-control-") as folder:
            path = os.path.join(folder, "perfect_copy.step")
            moved.exportStep(path)
            return dataclasses.replace(loading.load_model(path, "candidate"), path=candidate)
    except MemoryError:
        raise
    except Exception:  # no STEP of it (a mesh): the moved shape itself
        return dataclasses.replace(reference, shape=moved, path=candidate)


def _pose_arrays(pose) -> tuple:
    """(rotation 3x3, translation 3) of 12 floats: the rotation row by row, then t."""
    values = np.asarray(pose, dtype=float)
    return values[:9].reshape(3, 3), values[9:12].copy()


def _cpu_now() -> tuple:
    """(this process's, its children's) CPU seconds so far: those it waited for, and the
    exact-boolean child it keeps for its next job (time_budget.ExactWorker.release)."""
    import resource  # noqa: PLC0415 - Unix-only

    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    kept = time_budget.kept_children_cpu_s()
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime + kept


def _own_cpu() -> float:
    """This process's CPU seconds so far (every thread): a stage's cpu_<stage> timing, which
    a loaded machine does not inflate as it does the stage's wall time."""
    return sum(os.times()[:2])


def _cpu_since(cpu: tuple) -> dict:
    """CPU seconds since cpu (_cpu_now): of the scoring process, and of the children it
    started and has ended (the exact-boolean child, the drawing child)."""
    now = _cpu_now()
    return {"cpu_scoring": now[0] - cpu[0], "cpu_children": now[1] - cpu[1]}


def _started_ahead(reference, case, options: dict, result: dict, requested) -> dict:
    """{metric: its work started ahead (registry.Metric.ahead)} for the requested metrics
    that start some: it runs in a child while this process reads, aligns and measures."""
    started = {}
    for metric in registry.METRICS:
        if metric.name in requested and metric.ahead:
            work = registry.resolve(metric.ahead)(reference, case, options, result)
            if work is not None:
                started[metric.name] = work
    return started


def _reference_stages(reference, case, options: dict, result: dict, requested) -> None:
    """On a failed delivery, say for each metric whether it applies to this case at all
    (threadMatch on a part without threads does not, and stays out of every mean: its
    requirements of the case and the reference) and report the case's ceilings, through
    an optional reference_stage() of its module."""
    facts = facts_mod.Facts(reference, options=options, case=case, result=result)
    for metric in registry.METRICS:
        if metric.name not in requested:
            continue
        before, verdicts_before = dict(result), set(result["verdicts"])
        _stamped(metric, result)
        unmet = requirements.unmet(facts, metric, reference_only=True)
        if unmet is not None:
            _not_applicable(facts, metric, unmet, delivered=False)
        elif metric.reference_stage:
            registry.resolve(metric.reference_stage)(reference, case, options, result)
        _held_to_declaration(metric, result, before, verdicts_before)


def _public(options: dict) -> dict:
    """Options that change figures go into the result and fingerprint; paths do not."""
    return {k: v for k, v in sorted(options.items()) if k in ("only", "no_align", "spectrum")}


def stage_functions(requested=registry.NAMES) -> list:
    """(registry.Metric, its measure function) in registry order for the requested metrics,
    all resolved before the first one runs: a measure that cannot load, or a requirement no
    one checks, is an error, never a skipped metric (registry.MetricNotLoadable)."""
    chosen = [m for m in registry.METRICS if m.name in requested]
    for metric in chosen:
        unknown = [r for r in metric.requires if r not in requirements.REQUIREMENTS]
        if unknown:
            raise registry.MetricNotLoadable(
                f"{metric.name} requires {', '.join(unknown)}: no such requirement "
                "(known: "
                + "; ".join(f"{r.name}: {r.says}" for r in requirements.REQUIREMENTS.values())
                + ")"
            )
    return [(m, registry.resolve(m.measure)) for m in chosen]
