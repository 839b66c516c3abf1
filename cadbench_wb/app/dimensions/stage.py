# SPDX-License-Identifier: LGPL-2.1-or-later
"""The dimensionRecall stage: a case's target dimensions re-measured on both bodies.

Writes the top-level figures ``dimensionRecall`` (share of targets found on the
candidate), ``referenceCoverage`` (the same on the reference: seed 000's ceiling),
``randomHitRate`` ({length, angle}: seed 000's chance floor), the per-dimension list
``dimensions`` and ``dimensionSpectrum`` (mode, counts, sampling ranges). The spectrum is
pose-independent, so the candidate is measured as delivered and its sub-element names are
the ones of the delivered file.

Beside seed 000's figures (never instead of them: verdicts use dimensionRecall), located
matching (app/dimensions/location.py) writes ``dimensionRecallLocated`` and
``referenceCoverageLocated``, per target ``located`` (binding, members with the reference
and candidate geometry, why a seed hit is rejected) and, for each target the reference
does not hold, ``unmeasurableReason``; ``dimensionLocated`` sums it up.
"""

import time

from cadbench_wb.app.dimensions import location
from cadbench_wb.app.dimensions.measured_geometry import geometry_of
from cadbench_wb.app.dimensions.spectrum import diagonal_of, spectrum_of
from cadbench_wb.errors import UsageError
from cadbench_wb.metrics import dimension_matching as dims
from cadbench_wb.metrics.measured import Measured

METRIC = "dimensionRecall"


def dimension_stage(context) -> Measured:
    """dimensionRecall and its figures, on a case with targets and a B-rep candidate (the
    registry line's requires, checked by the orchestrator)."""
    mode = context.options.get("spectrum") or "default"
    case = context.case
    started = time.perf_counter()
    reference = spectrum_of(context.reference.shape, mode)
    candidate = spectrum_of(context.candidate.shape, mode)
    context.timing["dimension_spectrum"] = time.perf_counter() - started
    started = time.perf_counter()
    outcomes = dims.outcomes(case.dimensions, candidate, reference)
    recall = dims.recall(outcomes)
    coverage = dims.coverage(outcomes)
    diagonal = diagonal_of(context.reference.shape)
    found = sum(o.candidate is not None for o in outcomes)
    measurable = sum(o.reference is not None for o in outcomes)
    outputs = {
        "referenceCoverage": coverage,
        "randomHitRate": dims.random_hit_rate(candidate, diagonal),
        "dimensionSpectrum": {
            "mode": mode,
            "targets": len(outcomes),
            "found": found,
            "measurableOnReference": measurable,
            "candidateCounts": candidate.counts(),
            "referenceCounts": reference.counts(),
            "randomHitRange": dims.random_ranges(diagonal),
        },
    }
    context.timing["dimension_matching"] = time.perf_counter() - started
    started = time.perf_counter()
    outputs.update(_located(context, outcomes, reference, mode, (recall, coverage)))
    context.timing["dimension_located"] = time.perf_counter() - started
    outputs["dimensions"] = [o.as_dict() for o in outcomes]
    counted = (
        f"{found} of {len(outcomes)} found, {measurable} of {len(outcomes)} measurable"
        f" on the reference, {mode} spectrum"
    )
    located = outputs["dimensionLocated"]
    if case.raw.get("auto"):
        return auto_measured(recall, located, counted, outputs)
    note = located_note(located) if located["differs"] else None
    return Measured(recall, outputs, reason_detail=f" ({counted})", ceiling=coverage, note=note)


def auto_measured(recall: float, located: dict, counted: str, outputs: dict) -> Measured:
    """Automatic targets are each bound to the faces that carry them: the verdict judges the
    located recall (a value found on another feature is not the target), seed 000's value
    match beside it in the note (counted: what seed 000's reason counts)."""
    return Measured(
        recall,
        outputs,
        reason_detail=(
            f" (automatic targets, each at its place: {located['membersFound']} of "
            f"{located['membersTotal']} members found)"
        ),
        ceiling=located["referenceCoverageLocated"],
        note=f"value match (seed 000) {recall:.4f}: {counted}",
        judged=located["dimensionRecallLocated"],
    )


def _located(context, outcomes, reference_spectrum, mode, seed_figures) -> dict:
    """The located outputs; seed_figures: seed 000's (recall, coverage)."""
    threads = location.reference_threads(context.reference, context.reference.shape)
    try:
        bindings = location.bindings_of(
            context.case, context.reference.shape, threads, lambda: context.reference_features
        )
    except location.BindingInvalid as exc:
        raise CaseBindingInvalid(f"{context.case.case_file}: {exc}") from None
    diagonal = reference_spectrum.diagonal
    with_edge_faces = any("faces" in b for b in bindings)
    reference = geometry_of(context.reference.shape, diagonal, with_edge_faces)
    candidate = geometry_of(context.aligned, diagonal)
    figures = location.locate(outcomes, reference_spectrum, reference, candidate, bindings)
    location.explain(
        outcomes,
        reference_spectrum,
        reference,
        _extended(context.reference.shape, mode, diagonal),
        threads,
    )
    return _located_outputs(seed_figures, figures)


def _extended(shape, mode: str, diagonal: float):
    """The extended spectrum, measured only if a reason asks for it (axis positions)."""
    return None if mode != "default" else lambda: spectrum_of(shape, "extended", diagonal)


def _located_outputs(seed_figures: tuple, figures: dict) -> dict:
    differs = any(
        seed is not None and abs(seed - figures[located]) > 1e-12
        for seed, located in zip(
            seed_figures, ("dimensionRecallLocated", "referenceCoverageLocated"), strict=True
        )
    )
    return {
        "dimensionRecallLocated": figures["dimensionRecallLocated"],
        "referenceCoverageLocated": figures["referenceCoverageLocated"],
        "dimensionLocated": {**figures, "differs": differs},
    }


def located_note(located: dict) -> str:
    """One line for the verdict and the summary: the located figures (dimensionLocated)
    beside seed 000's."""
    return (
        f"located recall {located['dimensionRecallLocated']:.4f} (coverage "
        f"{located['referenceCoverageLocated']:.4f}, {located['membersFound']} of "
        f"{located['membersTotal']} members at their place) differs from the value match"
    )


class CaseBindingInvalid(UsageError):
    reason = "case_invalid"


def reference_stage(reference, case, options: dict, result: dict) -> None:
    """The case's ceiling, which belongs to the case and the reference, not to the missing
    (or mesh) candidate; the orchestrator checked the case has targets."""
    mode = options.get("spectrum") or "default"
    spectrum = spectrum_of(reference.shape, mode)
    outcomes = dims.outcomes(case.dimensions, spectrum, spectrum)
    coverage = dims.coverage(outcomes)
    result["referenceCoverage"] = coverage
    result["verdicts"][METRIC]["ceiling"] = coverage
    threads = location.reference_threads(reference, reference.shape)
    try:
        bindings = location.bindings_of(case, reference.shape, threads)
    except location.BindingInvalid as exc:
        raise CaseBindingInvalid(f"{case.case_file}: {exc}") from None
    geometry = geometry_of(reference.shape, spectrum.diagonal, any("faces" in b for b in bindings))
    figures = location.locate(outcomes, spectrum, geometry, geometry, bindings)
    result["referenceCoverageLocated"] = figures["referenceCoverageLocated"]
    # Nothing delivered: located recall is what seed 000's recall is (0).
    result["dimensionRecallLocated"] = result.get("dimensionRecall")
