# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a metric needs to apply, by the names its registry line's ``requires`` lists.

The orchestrator (app/scoring.py) checks each before it calls the metric's measure: the
first one unmet makes the metric not applicable with its reason (seed 000: a case without a
thread carries no threadMatch), and the orchestrator writes that result itself. A
requirement of the case or the reference (``reference_side``) is checked on a failed
delivery too; one of the candidate (the mesh rule) leaves the case's ceiling to the
metric's reference-only hook.
"""

import dataclasses

from cadbench_wb.app.mesh_rebuild import mesh_candidate


@dataclasses.dataclass(frozen=True)
class Unmet:
    """Why a metric does not apply; detail: what its ``detail`` output reports beside."""

    reason: str
    detail: dict = dataclasses.field(default_factory=dict)
    candidate_side: bool = False  # the case and reference have what it needs


@dataclasses.dataclass(frozen=True)
class Requirement:
    name: str
    check: object  # (facts, registry.Metric) -> Unmet | None
    reference_side: bool  # checked on a failed delivery, from the reference alone
    says: str  # what it requires, for docs and errors


def _targets(facts, metric):
    if facts.case is None:
        return Unmet("no case: no target dimensions")
    if not facts.case.dimensions:
        return Unmet("the case lists no dimensions")
    return None


def _thread(facts, metric):
    return None if facts.reference_threads else Unmet("the reference has no thread")


def _solid_reference(facts, metric):
    if not getattr(facts.reference, "open_shell", False):
        return None
    return Unmet(
        "reference_open_shell: the reference is faces that sewing does not close, no solid: "
        "no volume to compare"
    )


def _brep(facts, metric):
    if not facts.is_mesh:
        return None
    return Unmet(mesh_candidate.reason(metric.brep), candidate_side=True)


def _brep_or_rebuilt(facts, metric):
    if not facts.is_mesh:
        return None
    rebuild = facts.mesh_rebuild.detail
    if rebuild["rebuilt"]:
        return None
    reason = mesh_candidate.reason(metric.brep, rebuild["reason"])
    return Unmet(reason, {"mesh": rebuild}, candidate_side=True)


REQUIREMENTS = {
    r.name: r
    for r in (
        Requirement("targets", _targets, True, "a case that lists target dimensions"),
        Requirement("thread", _thread, True, "a reference with a modeled or cosmetic thread"),
        Requirement(
            "solid_reference",
            _solid_reference,
            True,
            "a reference that is a closed solid (not an open shell of faces)",
        ),
        Requirement("brep", _brep, False, "a B-rep candidate (not a triangle mesh)"),
        Requirement(
            "brep_or_rebuilt",
            _brep_or_rebuilt,
            False,
            "a B-rep candidate, or one rebuilt from a mesh candidate's triangles",
        ),
    )
}


class UnknownRequirement(KeyError):
    """A registry line requires what no requirement here checks."""


def unmet(facts, metric, reference_only: bool = False) -> Unmet | None:
    """The first of the metric's requirements that does not hold, or None; reference_only:
    only those of the case and the reference (a failed delivery)."""
    for name in metric.requires:
        requirement = REQUIREMENTS.get(name)
        if requirement is None:
            raise UnknownRequirement(f"{metric.name} requires {name!r}: no such requirement")
        if reference_only and not requirement.reference_side:
            continue
        found = requirement.check(facts, metric)
        if found is not None:
            return found
    return None
