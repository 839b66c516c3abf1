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
from cadbench_wb.metrics import verdicts

METRIC = "dimensionRecall"


def dimension_stage(context) -> None:
    """dimensionRecall and its figures, on a case with targets and a B-rep candidate (the
    registry line's requires, checked by the orchestrator)."""
    result = context.result
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
    result["dimensionRecall"] = recall
    result["referenceCoverage"] = coverage
    result["randomHitRate"] = dims.random_hit_rate(candidate, diagonal)
    found = sum(o.candidate is not None for o in outcomes)
    measurable = sum(o.reference is not None for o in outcomes)
    result["dimensionSpectrum"] = {
        "mode": mode,
        "targets": len(outcomes),
        "found": found,
        "measurableOnReference": measurable,
        "candidateCounts": candidate.counts(),
        "referenceCounts": reference.counts(),
        "randomHitRange": dims.random_ranges(diagonal),
    }
    context.timing["dimension_matching"] = time.perf_counter() - started
    started = time.perf_counter()
    _located(context, outcomes, reference, mode)
    context.timing["dimension_located"] = time.perf_counter() - started
    result["dimensions"] = [o.as_dict() for o in outcomes]
    entry = verdicts.verdict(METRIC, recall, ceiling=coverage)
    entry["reason"] += (
        f" ({found} of {len(outcomes)} found, {measurable} of {len(outcomes)} measurable"
        f" on the reference, {mode} spectrum)"
    )
    if result["dimensionLocated"]["differs"]:
        entry["note"] = located_note(result)
    if case.raw.get("auto"):
        entry = auto_verdict(result, entry)
    result["verdicts"][METRIC] = entry


def auto_verdict(result: dict, seed_entry: dict) -> dict:
    """Automatic targets are each bound to the faces that carry them: the verdict is the
    located recall (a value found on another feature is not the target), seed 000's
    value match beside it in the note."""
    located = result["dimensionLocated"]
    entry = verdicts.verdict(
        METRIC, located["dimensionRecallLocated"], ceiling=located["referenceCoverageLocated"]
    )
    entry["reason"] += (
        f" (automatic targets, each at its place: {located['membersFound']} of "
        f"{located['membersTotal']} members found)"
    )
    entry["note"] = f"value match (seed 000) {result['dimensionRecall']:.4f}: " + seed_entry[
        "reason"
    ].split(" (", 1)[-1].rstrip(")")
    return entry


def _located(context, outcomes, reference_spectrum, mode) -> None:
    result = context.result
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
    _write_located(result, figures)


def _extended(shape, mode: str, diagonal: float):
    """The extended spectrum, measured only if a reason asks for it (axis positions)."""
    return None if mode != "default" else lambda: spectrum_of(shape, "extended", diagonal)


def _write_located(result: dict, figures: dict) -> None:
    result["dimensionRecallLocated"] = figures["dimensionRecallLocated"]
    result["referenceCoverageLocated"] = figures["referenceCoverageLocated"]
    differs = any(
        result.get(seed) is not None and abs(result[seed] - figures[located]) > 1e-12
        for seed, located in (
            ("dimensionRecall", "dimensionRecallLocated"),
            ("referenceCoverage", "referenceCoverageLocated"),
        )
    )
    result["dimensionLocated"] = {**figures, "differs": differs}


def located_note(result: dict) -> str:
    """One line for the verdict and the summary: the located figures beside seed 000's."""
    located = result["dimensionLocated"]
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
