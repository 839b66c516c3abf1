# SPDX-License-Identifier: LGPL-2.1-or-later
"""threadMatch: all or nothing (seed 000), from measured thread records.

Pure: the records are plain dicts (threads.Thread.as_dict() plus zone volumes), so the
rule can be read and tested without FreeCAD. For every reference thread, the candidate's
thread of the same kind nearest to its axis is compared on: modeled (or cosmetic where the
case accepts it), major diameter, pitch, hand, axis position and direction, both ends, and
the material volume in the reference thread's zone. threadMatch is 1.0 when every
reference thread passes every check, else 0.0.
"""

import math

CHECKS = ("modeled", "major", "pitch", "hand", "axis", "ends", "volume")
_FAILURE_WORDS = {
    "modeled": "only cosmetic (the case does not accept cosmetic threads)",
    "major": "major diameter differs",
    "pitch": "pitch differs",
    "hand": "hand differs",
    "axis": "axis elsewhere",
    "ends": "thread ends elsewhere",
    "volume": "thread volume differs",
}


def _axis_offset(ref: dict, cand: dict) -> tuple[float, float]:
    """Angle (deg) between the axes, and the distance of the candidate's start from the
    reference axis line."""
    a, b = ref["axis"], cand["axis"]
    cos = min(1.0, abs(sum(x * y for x, y in zip(a, b, strict=True))))
    angle = math.degrees(math.acos(cos))
    rel = [c - r for c, r in zip(cand["start"], ref["start"], strict=True)]
    along = sum(x * y for x, y in zip(rel, a, strict=True))
    perp = [x - along * y for x, y in zip(rel, a, strict=True)]
    return angle, math.sqrt(sum(x * x for x in perp))


def _axial_ends(ref: dict, cand: dict) -> tuple[list[float], list[float]]:
    """Both threads' ends as coordinates along the reference axis, sorted."""
    axis, origin = ref["axis"], ref["start"]

    def along(point):
        return sum((p - o) * a for p, o, a in zip(point, origin, axis, strict=True))

    return sorted([along(ref["start"]), along(ref["end"])]), sorted(
        [along(cand["start"]), along(cand["end"])]
    )


def _located(thread: dict) -> bool:
    return all(thread.get(k) is not None for k in ("axis", "start", "end"))


def _candidate_for(ref: dict, candidates: list[dict], used: set, params: dict) -> int | None:
    """The unused candidate thread of the same kind nearest the reference axis; among those
    on the same axis (within axis_offset and axis_angle_deg), the one whose ends lie
    nearest the reference's. Without the second rule the two threads of a stud threaded at
    both ends, coaxial to 3e-4 mm, were paired by that rounding noise: in some poses each
    reference thread took the other end's and both read "thread ends elsewhere"."""
    best = None
    for index, cand in enumerate(candidates):
        if index in used or cand["kind"] != ref["kind"]:
            continue
        if _located(ref) and _located(cand):
            angle, offset = _axis_offset(ref, cand)
            coaxial = angle <= params["axis_angle_deg"] and offset <= params["axis_offset"]
            ref_ends, cand_ends = _axial_ends(ref, cand)
            shift = max(abs(c - r) for r, c in zip(ref_ends, cand_ends, strict=True))
            key = (angle > 5.0, not coaxial, shift if coaxial else 0.0, offset, index)
        else:
            key = (True, True, 0.0, math.inf, index)
        if best is None or key < best[0]:
            best = (key, index)
    return None if best is None else best[1]


def compare(ref: dict, cand: dict, params: dict, cosmetic: str) -> dict:
    """{check: {"ok", "reference", "candidate"}} for one reference/candidate thread pair."""
    checks = {}
    cosmetic_ok = cand["modeled"] or cosmetic == "accept"
    checks["modeled"] = {
        "ok": bool(cosmetic_ok),
        "reference": "modeled" if ref["modeled"] else "cosmetic",
        "candidate": "modeled" if cand["modeled"] else "cosmetic",
    }
    d_ref, d_cand = ref.get("major_diameter"), cand.get("major_diameter")
    tol = max(params["major_abs"], params["major_rel"] * (d_ref or 0.0))
    checks["major"] = {
        "ok": d_ref is not None and d_cand is not None and abs(d_ref - d_cand) <= tol,
        "reference": d_ref,
        "candidate": d_cand,
        "tolerance": tol,
    }
    p_ref, p_cand = ref.get("pitch"), cand.get("pitch")
    checks["pitch"] = {
        "ok": p_ref is not None
        and p_cand is not None
        and abs(p_ref - p_cand) <= params["pitch_rel"] * p_ref,
        "reference": p_ref,
        "candidate": p_cand,
    }
    checks["hand"] = {
        "ok": ref.get("hand") == cand.get("hand"),
        "reference": ref.get("hand"),
        "candidate": cand.get("hand"),
    }
    if _located(ref) and _located(cand):
        angle, offset = _axis_offset(ref, cand)
        ok = angle <= params["axis_angle_deg"] and offset <= params["axis_offset"]
        checks["axis"] = {"ok": ok, "angleDeg": angle, "offset": offset}
        ref_ends, cand_ends = _axial_ends(ref, cand)
        slack = params["end_pitches"] * (p_ref or 0.0)
        shifts = [c - r for r, c in zip(ref_ends, cand_ends, strict=True)]
        checks["ends"] = {
            "ok": ok and all(abs(s) <= slack for s in shifts),
            "reference": ref_ends,
            "candidate": cand_ends,
            "tolerance": slack,
        }
    else:
        checks["axis"] = {"ok": False, "reason": "thread not located on the geometry"}
        checks["ends"] = {"ok": False, "reason": "thread not located on the geometry"}
    checks["volume"] = _volume_check(ref, cand, params)
    return checks


def _volume_check(ref: dict, cand: dict, params: dict) -> dict:
    v_ref, v_cand = ref.get("zoneVolume"), cand.get("zoneVolume")
    if not ref["modeled"] or not cand["modeled"]:
        return {"ok": True, "reason": "not compared: a cosmetic thread has no thread volume"}
    if v_ref is None or v_cand is None or v_ref <= 0:
        # Not "differs": nothing was compared (a perfect copy once read so when its mesh
        # could not be measured).
        return {
            "ok": False,
            "reason": "zone volume not measurable",
            "failure": "thread volume not measurable",
            "reference": v_ref,
        }
    rel = abs(v_cand - v_ref) / v_ref
    return {
        "ok": rel <= params["volume_rel"],
        "reference": v_ref,
        "candidate": v_cand,
        "relative": rel,
        "tolerance": params["volume_rel"],
    }


def match_threads(
    reference: list[dict],
    candidate: list[dict],
    params: dict,
    cosmetic: str = "reject",
    zone_volumes: dict | None = None,
) -> dict:
    """threadMatch (1.0 or 0.0), one entry per reference thread, and what failed.

    zone_volumes: {reference index: (reference volume, candidate volume)}, the material of
    each part inside that reference thread's zone (the stage measures them on meshes).
    """
    zone_volumes = zone_volumes or {}
    used: set = set()
    pairs, failures = [], []
    for index, ref in enumerate(reference):
        chosen = _candidate_for(ref, candidate, used, params)
        if chosen is None:
            pairs.append({"reference": index, "candidate": None, "matched": False, "checks": {}})
            failures.append(f"thread {index + 1} ({_name(ref)}): no {ref['kind']} thread")
            continue
        used.add(chosen)
        volumes = zone_volumes.get(index, (None, None))
        checks = compare(
            dict(ref, zoneVolume=volumes[0]),
            dict(candidate[chosen], zoneVolume=volumes[1]),
            params,
            cosmetic,
        )
        failed = [name for name in CHECKS if not checks[name]["ok"]]
        pairs.append(
            {"reference": index, "candidate": chosen, "matched": not failed, "checks": checks}
        )
        if failed:
            words = [checks[name].get("failure", _FAILURE_WORDS[name]) for name in failed]
            failures.append(f"thread {index + 1} ({_name(ref)}): {', '.join(words)}")
    value = 1.0 if reference and not failures else 0.0
    return {"value": value, "pairs": pairs, "failures": failures}


def _name(thread: dict) -> str:
    return thread.get("designation") or f"d {thread.get('major_diameter')}"
