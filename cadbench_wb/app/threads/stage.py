# SPDX-License-Identifier: LGPL-2.1-or-later
"""The threadMatch stage: threads of reference and candidate, compared all or nothing.

Applicable only when the reference has a thread (modeled, or cosmetic in its FCStd data:
the registry line's ``requires``); otherwise the orchestrator makes threadMatch null with a
NOT CHECKED verdict marked applicable: false, which the case verdict skips (seed 000: cases
without a thread carry no value here), and not_applicable_detail says what each side has.
"""

from cadbench_wb import standard
from cadbench_wb.app.recognition import threads
from cadbench_wb.app.threads import zone as thread_zone
from cadbench_wb.metrics import case_sections, thread_matching
from cadbench_wb.metrics.measured import Measured


def cosmetic_rule(case) -> str:
    """accept or reject, from the case's `threads: {cosmetic: ...}` (default reject)."""
    section = case.raw.get("threads") if case is not None else None
    where = f"{case.case_file if case is not None else 'case'}: threads"
    return case_sections.threads_section(section, where)["cosmetic"]


def _found(facts) -> dict:
    """The threads found on both sides, and the case's rule on cosmetic ones."""
    return {
        "reference": [t.as_dict() for t in facts.reference_threads],
        "candidate": [t.as_dict() for t in facts.candidate_threads],
        "cosmetic": cosmetic_rule(facts.case),
    }


def thread_stage(context) -> Measured:
    """threadMatch, the per-thread detail under `threads`, and the verdict's reason (the
    reference has a thread: the orchestrator checked the registry's requires)."""
    detail = _found(context)
    reference, candidate, rule = detail["reference"], detail["candidate"], detail["cosmetic"]
    volumes = _zone_volumes(context, reference)
    matched = thread_matching.match_threads(reference, candidate, standard.THREADS, rule, volumes)
    reason = "; ".join(matched["failures"]) or (
        f"all {len(reference)} reference thread(s) match in type, pitch, hand, position and volume"
    )
    threads_detail = dict(
        detail, applicable=True, pairs=matched["pairs"], failures=matched["failures"]
    )
    return Measured(matched["value"], {"threads": threads_detail}, reason=reason)


def not_applicable_detail(facts, reason: str) -> dict:
    """The `threads` detail when the reference has no thread: what each side has."""
    return dict(_found(facts), applicable=False, pairs=[])


def _zone_volumes(context, reference: list[dict]) -> dict:
    """{reference index: (reference, candidate) material volume in that thread's zone},
    on the fine meshes of the scoring (the shape stage's, else made at its deflection)."""
    modeled = [i for i, t in enumerate(reference) if t["modeled"]]
    if not modeled:
        return {}
    mesh_ref = context.reference_mesh
    mesh_cand = context.candidate_mesh
    volumes = {}
    for index in modeled:
        zone = threads.Thread(**{k: v for k, v in reference[index].items() if k != "type"})
        volumes[index] = (
            thread_zone.zone_volume(mesh_ref, zone),
            thread_zone.zone_volume(mesh_cand, zone),
        )
    return volumes
