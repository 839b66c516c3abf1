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

import re

import numpy as np

from cadbench_wb import standard
from cadbench_wb.metrics.located import EDGE_SOURCES, measure, parse_element, within

BINDINGS = ("faces", "at", "feature", "none", "inferred")
# Located statuses: all, some or none of the members found; none on the reference; or, for
# an unbound target, several unrelated features carrying its value (ambiguous).
STATUSES = ("found", "partial", "not_found", "not_measurable_on_reference", "ambiguous")


def members_of(dimension, spectrum, geometry, correspondence, bound_faces=None) -> list:
    """[(measurement, elements)] of the reference that carry the target, one per site."""
    found = spectrum.all_within(dimension.kind, dimension.value, dimension.tolerance)
    rows = [
        (m, elements)
        for m in found
        for elements in _face_pairs(m, [parse_element(n) for n in m.geometry], geometry)
    ]
    if bound_faces is not None:
        rows = [(m, _bound_angle(m, e, bound_faces, geometry)) for m, e in rows]
        rows = [(m, e) for m, e in rows if e and all(_on(x, bound_faces, geometry) for x in e)]
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


def _bound_angle(measurement, elements, bound_faces: set, geometry) -> list:
    """An angle between two plane directions names one face of each (the spectrum's
    representative); bound to other faces of those directions (NIST CTC-01's 60° between
    the flanks of a V), it is measured between the lowest bound face of each."""
    if measurement.source != "face_angle":
        return elements
    sides = []
    for _, face in elements:
        direction = geometry.face_dir[face]
        parallel = sorted(
            f
            for f in bound_faces
            if geometry.face_type[f] == "plane"
            and abs(float(geometry.face_dir[f] @ direction)) >= 1 - 1e-9
        )
        if not parallel:
            return []
        sides.append(("Face", parallel[0]))
    return sides


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
    pattern = None
    if binding["kind"] == "inferred" and members:
        members, pattern, rivals = _one_family(dimension, members, reference)
        if rivals:
            return _ambiguous(entry, rivals, reference, seed_hit, candidate)
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
    total = max(len(members), pattern or 0)
    if total > len(members):
        # A 4X callout with three such holes on the reference: the fourth is missing.
        entry["pattern"] = {"count": pattern, "onReference": len(members)}
    entry["found"], entry["total"] = found, total
    entry["credit"] = found / total
    entry["status"] = "found" if found == len(members) else "partial" if found else "not_found"
    if binding["kind"] == "inferred":
        entry["boundFaces"] = sorted(
            {f"Face{i + 1}" for _, e in members for k, i in e if k == "Face"},
            key=lambda n: int(n[4:]),
        )
    return _rejected_seed_hit(entry, seed_hit, candidate, reference, members)


# Sources that are one feature's own size (a hole, a boss, a round, a cone): where several
# unrelated ones carry an unbound target's value, it is ambiguous.
CURVED_SOURCES = ("cylinder", "sphere", "torus", "circle", "cone_half_angle", "cone_full_angle")
# A callout's count as a drafter writes it ('4X Ø12', '4 x Ø12', '4× R3').
_COUNT = re.compile(r"^\s*(\d+)\s*[xX×]\s*")


def pattern_count(dimension) -> int | None:
    """N of an 'NX ...' callout in the target's source, else None."""
    found = _COUNT.match(getattr(dimension, "source", "") or "")
    return int(found.group(1)) if found and int(found.group(1)) > 1 else None


def _family_keys(measurement, elements, geometry) -> list:
    """Keys that make members one feature family: the source, and per element its type,
    side (hole or shaft) and direction (sign-free), with, for a cylinder, either its
    length (the four holes of a pattern) or its axis line (a shaft a groove cuts in two).
    A counterbore and a through hole of one diameter, a hole and a boss, share neither."""
    shape_keys, line_keys = [measurement.source], [measurement.source]
    for kind, index in elements:
        if kind == "Face":
            direction = geometry.face_dir[index]
            common = (geometry.face_type[index], bool(geometry.face_convex[index]))
        else:
            direction, common = geometry.edge_dir[index], (geometry.edge_type[index],)
        main = int(np.argmax(np.abs(direction))) if len(direction) else 0
        sign = -1.0 if len(direction) and direction[main] < 0 else 1.0
        unit = sign * np.asarray(direction, float)
        common = (kind, *common, *np.round(unit, 3).tolist())
        point = geometry.point((kind, index))
        foot = point - unit * float(point @ unit)  # where the axis line crosses its normal plane
        extent = round(float(geometry.face_extent[index]), 2) if kind == "Face" else 0.0
        shape_keys.append((*common, extent))
        line_keys.append((*common, *np.round(foot, 2).tolist()))
    return [("shape", *shape_keys), ("line", *line_keys)]


def _one_family(dimension, members, geometry) -> tuple:
    """(members, pattern count, rival families) of an unbound target: its members when they
    are one feature family; for an 'NX' callout the one family with at least N members (N
    counted, the missing ones not found); rivals (a list of families) when several
    unrelated features carry the value and nothing says which is meant."""
    count = pattern_count(dimension)
    groups = _families(members, geometry)
    if not count and any(m.source not in CURVED_SOURCES for m, _ in members):
        # Lengths between face pairs keep seed 000's reading (every pair stating the
        # value): a block's 10 mm notch is 10 wide and 10 deep, one target for both.
        return members, None, []
    if count:
        enough = [g for g in groups if len(g) >= count]
        if len(enough) == 1:
            return enough[0], count, []
        if not enough and len(groups) == 1:
            return groups[0], count, []
        return members, count, (enough or groups)
    if len(groups) > 1:
        return members, None, groups
    return members, None, []


def _families(members, geometry) -> list:
    """Members grouped into feature families: two members are one family when they share
    a key (_family_keys), and families joined through a shared member are one."""
    from scipy.cluster.hierarchy import DisjointSet  # noqa: PLC0415 - heavy: loaded on first use

    families = DisjointSet(range(len(members)))
    first = {}
    for i, member in enumerate(members):
        for key in _family_keys(*member, geometry):
            if key in first:
                families.merge(i, first[key])
            else:
                first[key] = i
    # In the order of each family's first member, members in their own order.
    groups = {}
    for i, member in enumerate(members):
        groups.setdefault(families[i], []).append(member)
    return list(groups.values())


def _ambiguous(entry, rivals, reference, seed_hit, candidate) -> dict:
    """An unbound target several unrelated features carry: not found, not missed, but
    ambiguous, with each candidate family, until the case binds it (geometry:)."""
    entry["status"] = "ambiguous"
    entry["candidates"] = [
        {
            "members": len(group),
            "source": group[0][0].source,
            "geometry": sorted({reference.describe(e)["element"] for _, es in group for e in es}),
        }
        for group in rivals
    ]
    entry["reason"] = (
        f"the value is carried by {len(rivals)} unrelated feature families ("
        + "; ".join(
            f"{c['members']} x {c['source']} {', '.join(c['geometry'][:4])}"
            for c in entry["candidates"]
        )
        + "): bind it with geometry: {faces: [...]} or {at: ...}"
    )
    return entry


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
