# SPDX-License-Identifier: LGPL-2.1-or-later
"""The dimensionRecall stage: a case's target dimensions re-measured on both bodies.

Writes the top-level figures ``dimensionRecall`` (share of targets found on the
candidate), ``referenceCoverage`` (the same on the reference: seed 000's ceiling),
``randomHitRate`` ({length, angle}: seed 000's chance floor), the per-dimension list
``dimensions`` and ``dimensionSpectrum`` (mode, counts, sampling ranges). The spectrum is
pose-independent, so the candidate is measured as delivered and its sub-element names are
the ones of the delivered file.
"""

import time

from cadbench_wb import dimensions as dims
from cadbench_wb.app.spectrum import diagonal_of, spectrum_of
from cadbench_wb.metrics import verdicts

METRIC = "dimensionRecall"


def dimension_stage(context) -> None:
    result = context.result
    mode = context.options.get("spectrum") or "default"
    case = context.case
    if case is None or not case.dimensions:
        reason = "no case: no target dimensions" if case is None else "the case lists no dimensions"
        _not_applicable(result, reason)
        return
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
    result["dimensions"] = [o.as_dict() for o in outcomes]
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
    entry = verdicts.verdict(METRIC, recall, ceiling=coverage)
    entry["reason"] += (
        f" ({found} of {len(outcomes)} found, {measurable} of {len(outcomes)} measurable"
        f" on the reference, {mode} spectrum)"
    )
    result["verdicts"][METRIC] = entry


def reference_stage(reference, case, options: dict, result: dict) -> None:
    """On a failed delivery: whether the metric applies, and the case's ceiling, which
    belongs to the case and the reference, not to the missing candidate."""
    if case is None or not case.dimensions:
        _not_applicable(
            result,
            "no case: no target dimensions" if case is None else "the case lists no dimensions",
        )
        return
    mode = options.get("spectrum") or "default"
    spectrum = spectrum_of(reference.shape, mode)
    outcomes = dims.outcomes(case.dimensions, spectrum, spectrum)
    coverage = dims.coverage(outcomes)
    result["referenceCoverage"] = coverage
    result["verdicts"][METRIC]["ceiling"] = coverage


def _not_applicable(result: dict, reason: str) -> None:
    result["dimensionRecall"] = None
    result["referenceCoverage"] = None
    result["randomHitRate"] = None
    result["dimensions"] = []
    entry = verdicts.verdict(METRIC, None, reason=reason)
    entry["applicable"] = False
    result["verdicts"][METRIC] = entry
