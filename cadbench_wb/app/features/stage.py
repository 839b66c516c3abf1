# SPDX-License-Identifier: LGPL-2.1-or-later
"""The semanticMatch stage: features of the reference and the aligned candidate, matched.

The target is what recognition finds on the reference, unless the case's `features:`
section says otherwise (see README, "Features"):

    features:                      # a list: what recognition must find on the reference
      - {type: hole, kind: through, diameter: 11, count: 2}
    features:                      # or a mapping with a target rule
      target: recognised           # recognised (default) | replace | supplement
      expected: [...]              # entries as above; replace/supplement need `location`

`recognised` scores against the recognised reference features and reports whether they
are what the case expects (`features.expectedCheck`); `replace` scores against the
expected entries only; `supplement` adds the expected entries recognition did not find.
"""

from cadbench_wb import standard
from cadbench_wb.metrics import case_sections, feature_matching
from cadbench_wb.metrics.measured import Measured


def case_features(case) -> tuple[str, list[dict]] | None:
    """(target rule, expected entries) from case.yaml (validated when the case was loaded,
    by the same function); None without a section."""
    if case is None or case.raw.get("features") is None:
        return None
    return case_sections.features_section(case.raw["features"], f"{case.case_file}: features")


def settings_for(size: float) -> dict:
    return feature_matching.settings_for(
        standard.FEATURES,
        standard.LINEAR_TOLERANCE_ABS_MM,
        standard.LINEAR_TOLERANCE_REL,
        standard.ANGULAR_TOLERANCE_DEG,
        size,
    )


def _all(found: dict) -> list[dict]:
    return found["features"] + found["unrecognised"]


def feature_stage(context) -> Measured:
    """semanticMatch, the `features` detail and the verdict's reason. Recognition is the facts'
    (app/facts.py): on a mesh candidate, of the B-rep rebuilt from its triangles (the
    orchestrator made the metric not applicable where that failed)."""
    rebuild = context.mesh_rebuild.detail if context.is_mesh else None
    rule = case_features(context.case)
    reference = context.reference_features
    candidate = context.candidate_features
    settings = settings_for(context.reference.shape.BoundBox.DiagonalLength)
    target = _all(reference)
    detail = {"target": rule[0] if rule else "recognised"}
    if rebuild is not None:
        detail["mesh"] = rebuild
    if rule is not None:
        target_rule, entries = rule
        check = feature_matching.check_expected(entries, reference["features"], settings)
        detail["expectedCheck"] = {
            "ok": check["ok"],
            "missing": check["missing"],
            "unexpected": [reference["features"][j]["id"] for j in check["unexpected"]],
        }
        expected = feature_matching.expected_records(entries)
        for number, record in enumerate(expected, 1):
            record["id"] = f"E{number}"
        if target_rule == "replace":
            target = expected
        elif target_rule == "supplement":
            target = target + [e for e in check["missing"] if e.get("location") is not None]
    cand_all = _all(candidate)
    matched = feature_matching.match_features(target, cand_all, settings)
    pairs = [
        {
            "reference": target[p["reference"]]["id"] if "id" in target[p["reference"]] else None,
            "candidate": cand_all[p["candidate"]]["id"],
            "type": target[p["reference"]]["type"],
            "credit": p["credit"],
            "differences": p["differences"],
        }
        for p in matched["matched"]
    ]
    detail.update(
        {
            "matched": pairs,
            "missing": [target[i] for i in matched["missing"]],
            "extra": [cand_all[j] for j in matched["extra"]],
            "unrecognised": {
                "reference": reference["unrecognised"],
                "candidate": candidate["unrecognised"],
            },
            "reference": reference["features"],
            "candidate": candidate["features"],
            "counts": {"target": len(target), "candidate": len(cand_all)},
        }
    )
    exact = sum(1 for p in pairs if p["credit"] == 1.0)
    reason = (
        f"{exact} of {len(target)} target features matched exactly"
        + (f", {len(pairs) - exact} in part" if len(pairs) > exact else "")
        + f", {len(matched['missing'])} missing, {len(matched['extra'])} extra"
    )
    return Measured(matched["value"], {"features": detail}, reason=reason)
