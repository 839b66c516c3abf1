# SPDX-License-Identifier: LGPL-2.1-or-later
"""semanticMatch: an optimal one-to-one matching of candidate features to target features.

Pure (numpy and scipy only): features are the plain dicts app/recognition/features.py writes, with
type, kind, attributes (text), params (numbers), location and axis.

    semanticMatch = (sum of the credits of the matched pairs) / max(|target|, |candidate|)

and 1.0 when neither part has a feature. A candidate feature can stand for a target
feature only when both have the same type, their locations are within the gate distance and
their axes (where both have one) are parallel within axis_deg. Such a pair earns credit 1
when kind and attributes are equal, every size parameter agrees within tolerance (linear:
max(abs, rel x value); angles: angular; areas: 1 %) and the locations agree within the
position tolerance; otherwise it earns partial_credit (the right feature in the right
place, but the wrong size or kind). The pairs are chosen by the Hungarian algorithm
(scipy.optimize.linear_sum_assignment) to maximise the total credit, nearer pairs first
on ties. A target feature left without a pair is missing, a candidate feature extra: a
candidate missing one hole of five loses exactly that hole (4 of 5 target features).
"""

import math

import numpy as np
from scipy.optimize import linear_sum_assignment

INADMISSIBLE = 1e6
AREA_REL = 0.01


def settings_for(features: dict, linear_abs: float, linear_rel: float, angular: float, size):
    """The matching settings for a reference of the given bounding-box diagonal."""
    return {
        "gate": max(features["gate_abs"], features["gate_rel"] * size),
        "position": max(features["position_abs"], features["position_rel"] * size),
        "axis_deg": features["axis_deg"],
        "partial_credit": features["partial_credit"],
        "linear_abs": linear_abs,
        "linear_rel": linear_rel,
        "angular": angular,
    }


def tolerance_of(name: str, value: float, settings: dict) -> float:
    if "angle" in name:
        return settings["angular"]
    if name.startswith("area"):
        return AREA_REL * abs(value)
    return max(settings["linear_abs"], settings["linear_rel"] * abs(value))


def _distance(a, b) -> float:
    return math.dist(a, b)


def _axis_angle(a, b) -> float:
    cos = abs(sum(x * y for x, y in zip(a, b, strict=True)))
    return math.degrees(math.acos(min(1.0, cos)))


def differences(ref: dict, cand: dict, settings: dict) -> list[str] | None:
    """What differs between two features, or None when one cannot stand for the other."""
    if ref["type"] != cand["type"]:
        return None
    if _distance(ref["location"], cand["location"]) > settings["gate"]:
        return None
    if ref.get("axis") and cand.get("axis"):
        if _axis_angle(ref["axis"], cand["axis"]) > settings["axis_deg"]:
            return None
    found = []
    if ref.get("kind") != cand.get("kind"):
        found.append(f"kind {cand.get('kind')} instead of {ref.get('kind')}")
    ref_attrs, cand_attrs = ref.get("attributes") or {}, cand.get("attributes") or {}
    for key in sorted(set(ref_attrs) | set(cand_attrs)):
        if ref_attrs.get(key) != cand_attrs.get(key):
            found.append(f"{key} {cand_attrs.get(key)} instead of {ref_attrs.get(key)}")
    ref_params, cand_params = ref.get("params") or {}, cand.get("params") or {}
    for key in sorted(set(ref_params) | set(cand_params)):
        if key not in cand_params or key not in ref_params:
            found.append(f"{key} only on the {'reference' if key in ref_params else 'candidate'}")
            continue
        want, got = ref_params[key], cand_params[key]
        tol = tolerance_of(key, want, settings)
        if abs(got - want) > tol:
            found.append(f"{key} {got:.6g} instead of {want:.6g} (tolerance {tol:.3g})")
    offset = _distance(ref["location"], cand["location"])
    if offset > settings["position"]:
        found.append(f"{offset:.3g} mm from its place (tolerance {settings['position']:.3g})")
    return found


def match_features(target: list[dict], candidate: list[dict], settings: dict) -> dict:
    """semanticMatch with its matched pairs, missing and extra features (by list index)."""
    n, m = len(target), len(candidate)
    if n == 0 and m == 0:
        return {"value": 1.0, "matched": [], "missing": [], "extra": []}
    cost = np.full((n, m), INADMISSIBLE)
    found: dict = {}
    for i, ref in enumerate(target):
        for j, cand in enumerate(candidate):
            diff = differences(ref, cand, settings)
            if diff is None:
                continue
            credit = 1.0 if not diff else settings["partial_credit"]
            nearness = _distance(ref["location"], cand["location"]) / settings["gate"]
            # Credit first; among equal credits the nearer pair (a small tie-breaker).
            cost[i, j] = (1.0 - credit) + 1e-3 * nearness
            found[i, j] = (credit, diff)
    rows, cols = linear_sum_assignment(cost) if n and m else ([], [])
    matched, used_ref, used_cand = [], set(), set()
    for i, j in zip(rows, cols, strict=True):
        if cost[i, j] >= INADMISSIBLE:
            continue
        credit, diff = found[int(i), int(j)]
        matched.append(
            {"reference": int(i), "candidate": int(j), "credit": credit, "differences": diff}
        )
        used_ref.add(int(i))
        used_cand.add(int(j))
    total = sum(p["credit"] for p in matched)
    return {
        "value": total / max(n, m),
        "matched": sorted(matched, key=lambda p: p["reference"]),
        "missing": [i for i in range(n) if i not in used_ref],
        "extra": [j for j in range(m) if j not in used_cand],
    }


# --- a case's expected features (case.yaml `features:`) -----------------------------------

META_KEYS = ("type", "kind", "count", "location", "axis", "note", "id")


def expected_records(entries: list[dict]) -> list[dict]:
    """Expected-feature entries expanded by count into feature-shaped dicts: text and
    true/false values are attributes, numbers are size params."""
    records = []
    for entry in entries:
        attributes = {
            k: v
            for k, v in entry.items()
            if k not in META_KEYS and isinstance(v, (str, bool)) and k != "params"
        }
        params = {
            k: float(v)
            for k, v in entry.items()
            if k not in META_KEYS and isinstance(v, (int, float)) and not isinstance(v, bool)
        }
        for _ in range(int(entry.get("count", 1))):
            records.append(
                {
                    "type": entry["type"],
                    "kind": entry.get("kind"),
                    "attributes": attributes,
                    "params": params,
                    "location": entry.get("location"),
                    "axis": entry.get("axis"),
                }
            )
    return records


def _fits(expected: dict, feature: dict, settings: dict) -> bool:
    """Whether a recognised feature is what an expected entry describes (only the fields
    the entry gives are compared)."""
    if expected["type"] != feature["type"]:
        return False
    if expected.get("kind") is not None and expected["kind"] != feature.get("kind"):
        return False
    attrs = feature.get("attributes") or {}
    if any(attrs.get(k) != v for k, v in expected["attributes"].items()):
        return False
    params = feature.get("params") or {}
    for key, want in expected["params"].items():
        if key not in params or abs(params[key] - want) > tolerance_of(key, want, settings):
            return False
    if expected.get("location") is not None:
        if _distance(expected["location"], feature["location"]) > settings["position"]:
            return False
    if expected.get("axis") is not None and feature.get("axis"):
        if _axis_angle(expected["axis"], feature["axis"]) > settings["axis_deg"]:
            return False
    return True


def check_expected(entries: list[dict], recognised: list[dict], settings: dict) -> dict:
    """Does recognition find exactly the expected features? {ok, missing, unexpected}:
    missing lists expected entries not found, unexpected the indices of recognised features
    nothing expected."""
    expected = expected_records(entries)
    n, m = len(expected), len(recognised)
    cost = np.ones((n, m))
    for i, want in enumerate(expected):
        for j, feature in enumerate(recognised):
            if _fits(want, feature, settings):
                cost[i, j] = 0.0
    rows, cols = linear_sum_assignment(cost) if n and m else ([], [])
    pairs = {(int(i), int(j)) for i, j in zip(rows, cols, strict=True) if cost[i, j] == 0.0}
    found_expected = {i for i, _ in pairs}
    found_recognised = {j for _, j in pairs}
    missing = [expected[i] for i in range(n) if i not in found_expected]
    unexpected = [j for j in range(m) if j not in found_recognised]
    return {"ok": not missing and not unexpected, "missing": missing, "unexpected": unexpected}
