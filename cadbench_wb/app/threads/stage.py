# SPDX-License-Identifier: LGPL-2.1-or-later
"""The threadMatch stage: threads of reference and candidate, compared all or nothing.

Applicable only when the reference has a thread (modeled, or cosmetic in its FCStd data);
otherwise threadMatch is null with a NOT CHECKED verdict marked applicable: false, which
the case verdict skips (seed 000: cases without a thread carry no value here).
"""

from cadbench_wb import standard
from cadbench_wb.app.model import meshing
from cadbench_wb.app.threads import recognition as threads
from cadbench_wb.app.threads import zone as thread_zone
from cadbench_wb.metrics import case_sections, thread_matching, verdicts


def threads_of(context, role: str) -> list:
    """Modeled and cosmetic threads of the reference or the aligned candidate, computed once
    per scoring (the feature stage reports them too)."""
    cache = context.cache.setdefault("threads", {})
    if role not in cache:
        model = context.reference if role == "reference" else context.candidate
        shape = context.reference.shape if role == "reference" else context.aligned
        found = threads.modeled_threads(shape)
        found += threads.cosmetic_threads(model.document_objects, shape)
        cache[role] = found
    return cache[role]


def cosmetic_rule(case) -> str:
    """accept or reject, from the case's `threads: {cosmetic: ...}` (default reject)."""
    section = case.raw.get("threads") if case is not None else None
    where = f"{case.case_file if case is not None else 'case'}: threads"
    return case_sections.threads_section(section, where)["cosmetic"]


def thread_stage(context) -> None:
    """threadMatch, the per-thread detail under `threads`, and the verdict."""
    rule = cosmetic_rule(context.case)
    reference = [t.as_dict() for t in threads_of(context, "reference")]
    candidate = [t.as_dict() for t in threads_of(context, "candidate")]
    detail = {"reference": reference, "candidate": candidate, "cosmetic": rule}
    if not reference:
        context.result["threadMatch"] = None
        context.result["threads"] = dict(detail, applicable=False, pairs=[])
        entry = verdicts.verdict("threadMatch", None, reason="the reference has no thread")
        entry["applicable"] = False
        context.result["verdicts"]["threadMatch"] = entry
        return
    volumes = _zone_volumes(context, reference)
    matched = thread_matching.match_threads(reference, candidate, standard.THREADS, rule, volumes)
    context.result["threadMatch"] = matched["value"]
    context.result["threads"] = dict(
        detail, applicable=True, pairs=matched["pairs"], failures=matched["failures"]
    )
    reason = "; ".join(matched["failures"]) or (
        f"all {len(reference)} reference thread(s) match in type, pitch, hand, position and volume"
    )
    context.result["verdicts"]["threadMatch"] = verdicts.verdict(
        "threadMatch", matched["value"], reason=reason
    )


def reference_stage(reference, case, options: dict, result: dict) -> None:
    """On a failed delivery: threadMatch applies only if the reference has a thread; a
    part without one keeps null and not applicable, so no mean counts a missing thread."""
    found = threads.modeled_threads(reference.shape)
    found += threads.cosmetic_threads(reference.document_objects, reference.shape)
    if not found:
        result["threadMatch"] = None
        entry = verdicts.verdict("threadMatch", None, reason="the reference has no thread")
        entry["applicable"] = False
        result["verdicts"]["threadMatch"] = entry


def _zone_volumes(context, reference: list[dict]) -> dict:
    """{reference index: (reference, candidate) material volume in that thread's zone}."""
    modeled = [i for i, t in enumerate(reference) if t["modeled"]]
    if not modeled:
        return {}
    mesh_ref = _mesh(context, "reference")
    mesh_cand = _mesh(context, "candidate")
    volumes = {}
    for index in modeled:
        zone = threads.Thread(**{k: v for k, v in reference[index].items() if k != "type"})
        volumes[index] = (
            thread_zone.zone_volume(mesh_ref, zone),
            thread_zone.zone_volume(mesh_cand, zone),
        )
    return volumes


def _mesh(context, role: str):
    """The fine mesh the shape stage made, or a new one at the same deflection."""
    key = "mesh_reference" if role == "reference" else "mesh_candidate"
    if context.cache.get(key) is None:
        shape = context.reference.shape if role == "reference" else context.aligned
        diagonal = max(
            context.reference.shape.BoundBox.DiagonalLength, context.aligned.BoundBox.DiagonalLength
        )
        deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * diagonal
        context.cache[key] = meshing.mesh_of(shape, deflection)
    return context.cache[key]
