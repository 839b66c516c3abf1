# SPDX-License-Identifier: LGPL-2.1-or-later
"""Located recall per target: its members on the reference, each measured at its place on
the candidate (metrics/located.py), and the figures dimensionRecallLocated and
referenceCoverageLocated.

A target's members are the reference measurements (spectrum entries) that state its value
within tolerance and lie on the geometry that carries it: the faces the case binds it to
(``geometry: {faces: [...]}``, the faces through named points ``{at: [...]}`` or a feature
id), or, without a binding, every measurement of
it, surfaces before edges (an inspector measures a hole's cylinder, not its rim). The
binding used is reported so that an author can confirm or correct an inferred one.
A target earns the share of its members found; a pattern therefore loses one member's
share for each wrong or missing feature.
"""

import numpy as np

from cadbench_wb import standard
from cadbench_wb.metrics.located import EDGE_SOURCES, measure, parse_element, within

BINDINGS = ("faces", "at", "feature", "none", "inferred")


def members_of(dimension, spectrum, geometry, correspondence, bound_faces=None) -> list:
    """[(measurement, elements)] of the reference that carry the target, one per site."""
    found = spectrum.all_within(dimension.kind, dimension.value, dimension.tolerance)
    rows = [
        (m, elements)
        for m in found
        for elements in _face_pairs(m, [parse_element(n) for n in m.geometry], geometry)
    ]
    if bound_faces is not None:
        rows = [(m, e) for m, e in rows if all(_on(x, bound_faces, geometry) for x in e)]
    if any(m.source not in EDGE_SOURCES for m, _ in rows):
        rows = [(m, e) for m, e in rows if m.source not in EDGE_SOURCES]
    members, seen = [], set()
    for measurement, elements in rows:
        sites = tuple(correspondence.site_of(e) for e in elements)
        key = (measurement.source, tuple(sorted(sites)) if len(sites) == 2 else sites)
        if key not in seen:
            seen.add(key)
            members.append((measurement, elements))
    return members


def _face_pairs(measurement, elements, geometry) -> list:
    """A distance between two plane levels, per feature: the spectrum names one face per
    level, but four counterbore floors at one level are four depths. Each face of the level
    with more faces is paired with the face of the other level nearest to it sideways (the
    face it is sunk into, or stands on), so one deeper counterbore costs one member."""
    if measurement.source != "face_distance":
        return [elements]
    (_, a), (_, b) = elements
    normal = geometry.face_dir[a]
    side_a, side_b = _level_faces(geometry, a, normal), _level_faces(geometry, b, normal)
    many, few = (side_a, side_b) if len(side_a) >= len(side_b) else (side_b, side_a)
    points = geometry.face_point
    pairs = []
    for face in many:
        offsets = points[few] - points[face]
        sideways = np.linalg.norm(offsets - np.outer(offsets @ normal, normal), axis=1)
        partner = int(few[int(np.argmin(sideways))])
        pair = (face, partner) if many is side_a else (partner, face)
        pairs.append([("Face", pair[0]), ("Face", pair[1])])
    return pairs


def _level_faces(geometry, face: int, normal) -> np.ndarray:
    """The plane faces parallel to a face (either side) in its plane, the face first."""
    planes = getattr(geometry, "_planes", None)
    if planes is None:  # once per shape: every face pair of a pattern asks
        planes = np.array([i for i, t in enumerate(geometry.face_type) if t == "plane"], np.int64)
        geometry._planes = planes
    parallel = np.abs(geometry.face_dir[planes] @ normal) >= 1 - 1e-9
    level = np.abs((geometry.face_point[planes] - geometry.face_point[face]) @ normal)
    same = planes[parallel & (level <= standard.LOCATED["same_place_mm"])]
    return np.concatenate([[face], same[same != face]]).astype(np.int64)


def _on(element, faces: set, geometry) -> bool:
    kind, index = element
    if kind == "Face":
        return index in faces
    return bool(set(geometry.edge_faces[index]) & faces)


def located_outcome(
    dimension, spectrum, reference, candidate, correspondence, binding: dict, seed_hit=None
) -> dict:
    """The located verdict of one target: its binding, members, credit and, where seed 000
    counts it but the located match does not, why."""
    entry = {
        "binding": binding["kind"],
        "status": "not_measurable_on_reference",
        "found": 0,
        "total": 0,
        "credit": 0.0,
        "members": [],
    }
    if binding.get("feature"):
        entry["feature"] = binding["feature"]
    if binding["kind"] == "at":
        # The place as the case names it, and the faces it resolved to on this reference.
        entry["at"] = binding["at"]
        entry.update({k: binding[k] for k in ("normal", "axis") if k in binding})
        entry["boundFaces"] = [f"Face{i + 1}" for i in sorted(binding["faces"])]
    if binding["kind"] == "none":
        entry["reason"] = binding["reason"]
        return _rejected_seed_hit(entry, seed_hit, candidate, reference, [])
    bound = binding.get("faces")
    members = members_of(dimension, spectrum, reference, correspondence, bound)
    if not members:
        if bound is not None:
            entry["reason"] = (
                "the bound faces do not measure it (" + _faces_text(sorted(bound)) + ")"
            )
        return _rejected_seed_hit(entry, seed_hit, candidate, reference, [])
    for measurement, elements in members:
        entry["members"].append(
            _member(dimension, measurement, elements, reference, candidate, correspondence)
        )
    found = sum(m["status"] == "found" for m in entry["members"])
    entry["found"], entry["total"] = found, len(members)
    entry["credit"] = found / len(members)
    entry["status"] = "found" if found == len(members) else "partial" if found else "not_found"
    if binding["kind"] == "inferred":
        entry["boundFaces"] = sorted(
            {f"Face{i + 1}" for _, e in members for k, i in e if k == "Face"},
            key=lambda n: int(n[4:]),
        )
    return _rejected_seed_hit(entry, seed_hit, candidate, reference, members)


def _member(dimension, measurement, elements, reference, candidate, correspondence) -> dict:
    member = {
        "source": measurement.source,
        "reference": {
            "value": measurement.value,
            "geometry": [reference.describe(e) for e in elements],
        },
        "candidate": None,
        "status": "no_geometry_here",
    }
    pairs = [correspondence.of(e) for e in elements]
    if any(p is None for p in pairs):
        return member
    mapped = [p[0] for p in pairs]
    value = measure(
        dimension.kind,
        measurement.source,
        mapped,
        candidate,
        measurement.value,
        (reference, elements),
    )
    member["candidate"] = {
        "value": None if not np.isfinite(value) else float(value),
        "geometry": [candidate.describe(e) for e in mapped],
        "offset": round(max(p[1] for p in pairs), 6),
    }
    hit = within(value, dimension.value, dimension.tolerance)
    member["status"] = "found" if hit else "wrong_value"
    return member


def _rejected_seed_hit(entry, seed_hit, candidate, reference, members) -> dict:
    """Seed 000 found the value on the candidate; say where, when located matching does
    not accept it on every member."""
    if seed_hit is None or entry["status"] == "found":
        return entry
    where = f"{seed_hit.source} {', '.join(seed_hit.geometry)} measures {seed_hit.value:.6g}"
    missed = [me for me, r in zip(members, entry["members"], strict=True) if r["status"] != "found"]
    if not members:
        entry["rejectedSeedHit"] = (
            f"value found, but not on geometry that carries it on the reference: {where}"
        )
        return entry
    # Centre to centre: a slot's wall may sit where the reference's other wall was.
    hit = np.mean([candidate.point(parse_element(n)) for n in seed_hit.geometry], axis=0)
    centres = [np.mean([reference.point(e) for e in elements], axis=0) for _, elements in missed]
    distance = min(float(np.linalg.norm(hit - c)) for c in centres)
    share = f"{entry['found']} of {entry['total']} members at their place"
    entry["rejectedSeedHit"] = (
        f"value found, but elsewhere: {where}, {distance:.4g} mm from the reference geometry "
        f"({share})"
    )
    return entry


def _faces_text(indices) -> str:
    return ", ".join(f"Face{i + 1}" for i in indices)


def located_figures(located: list) -> dict:
    """dimensionRecallLocated (mean credit) and referenceCoverageLocated (share of targets
    with a member on the reference), with member counts (None without targets)."""
    if not located:
        return {"dimensionRecallLocated": None, "referenceCoverageLocated": None}
    return {
        "dimensionRecallLocated": sum(e["credit"] for e in located) / len(located),
        "referenceCoverageLocated": sum(e["total"] > 0 for e in located) / len(located),
        "membersFound": sum(e["found"] for e in located),
        "membersTotal": sum(e["total"] for e in located),
    }
