# SPDX-License-Identifier: LGPL-2.1-or-later
"""Dimensions of circles and cylinders in a view: hole callouts with their count, radii,
pitch circles of evenly spaced holes, shaft diameters across a turned part's silhouette.

Pure Python on drawing_plan's view geometry (no FreeCAD).
"""

import itertools
import math

from cadbench_wb import standard
from cadbench_wb.drafting.plan import (
    LEVEL_TOLERANCE,
    MIN_VALUE,
    Candidate,
    ViewGeometry,
    _rounded,
    _vertex_at,
    length_key,
)

# Tuned, with its reason: standard.DRAWING["plan"].
PITCH_ANGLE_TOLERANCE_DEG = standard.DRAWING["plan"]["pitch_angle_tolerance_deg"]


def radial_candidates(view: ViewGeometry) -> list:
    """Diameters of full circles that bound a cylinder (holes, bosses seen end-on) and
    radii of arcs (fillets, slot ends). A circle that bounds no cylinder (a chamfer's edge,
    a round's tangent line) is offered for targets only."""
    found = []
    groups = {}
    for arc in view.arcs:
        key = (_rounded(arc.center), round(arc.radius, 4))
        groups.setdefault(key, []).append(arc)
    holes = {}  # radius -> centres of the full circles of holes and bosses seen end-on
    for (center, radius), arcs in groups.items():
        # hidden-line removal may return a circle as two half arcs
        whole = any(a.full for a in arcs) or sum(a.sweep_deg for a in arcs) >= 359.9
        if whole and any(a.cylindrical for a in arcs):
            holes.setdefault(radius, set()).add(center)
    for (center, _), arcs in sorted(groups.items()):
        full = any(a.full for a in arcs) or sum(a.sweep_deg for a in arcs) >= 359.9
        arc = min(arcs, key=lambda a: a.index)
        where = (view.world_level(0, center[0]), view.world_level(1, center[1]))
        sweep = sum(a.sweep_deg for a in arcs)
        if full:
            dia_role = "hole" if arc.cylindrical else "fallback"
            rad_role = "fallback"
        else:
            # A default radius is a model radius: an arc of a cylinder seen end-on. An arc
            # of a round's outline seen from the side (a torus, a free-form blend) is a
            # projection whose radius may print R5.01 for an R5; only a target takes it.
            dia_role, rad_role = "fallback", "radius" if arc.cylindrical else "fallback"
        offered = [("radius", "Radius", arc.radius, rad_role)]
        # ISO 129: an arc beyond a half circle takes a diameter, a smaller one a radius; a
        # quarter-round bend is never given a diameter.
        if full or sweep > 180.0 - 1e-6:
            offered.insert(0, ("diameter", "Diameter", 2 * arc.radius, dia_role))
        for family, kind, value, role in offered:
            found.append(
                Candidate(
                    family,
                    value,
                    view.name,
                    kind,
                    (f"Edge{arc.index}",),
                    role,
                    (family, view.name, where, round(value, 4)),
                    (arc.center, (arc.radius, 0.0)),
                    count=len(holes.get(round(arc.radius, 4), ())) if role == "hole" else 1,
                )
            )
    return found


def bolt_circle_candidates(view: ViewGeometry) -> list:
    """The pitch circle of three or more equal holes whose centres lie on one circle (a
    bolt circle), drawn as a construction circle and dimensioned with its diameter."""
    found = []
    holes = {}
    for arc in view.arcs:
        if arc.full and arc.cylindrical:
            holes.setdefault(round(arc.radius, 4), {})[_rounded(arc.center)] = arc.center
    for _radius, centers in sorted(holes.items()):
        points = list(centers.values())
        if len(points) < 3:
            continue
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        distances = [math.dist(p, (cx, cy)) for p in points]
        pitch = sum(distances) / len(distances)
        if pitch < MIN_VALUE or max(abs(d - pitch) for d in distances) > LEVEL_TOLERANCE:
            continue
        if not _evenly_spaced(points, (cx, cy)) or not _within(view, (cx, cy), pitch):
            # Any four holes at a rectangle's corners lie on a circle: a drafter locates
            # them by coordinates; a pitch circle is for holes spaced evenly round it,
            # and a construction circle never runs outside the part.
            continue
        where = (view.world_level(0, cx), view.world_level(1, cy))
        found.append(
            Candidate(
                "diameter",
                2 * pitch,
                view.name,
                "Diameter",
                ("Cosmetic",),
                "pitch",
                ("diameter", view.name, where, round(2 * pitch, 4)),
                ((cx, cy), (pitch, 0.0)),
                cosmetic=("circle", (cx, cy), pitch),
            )
        )
    return found


def _evenly_spaced(points: list, center: tuple) -> bool:
    angles = sorted(math.atan2(p[1] - center[1], p[0] - center[0]) for p in points)
    gaps = [b - a for a, b in itertools.pairwise(angles)] + [angles[0] + 2 * math.pi - angles[-1]]
    return max(gaps) - min(gaps) <= math.radians(PITCH_ANGLE_TOLERANCE_DEG)


def _within(view: ViewGeometry, center: tuple, radius: float) -> bool:
    x0, y0, x1, y1 = view.bbox()
    return (
        center[0] - radius >= x0 - LEVEL_TOLERANCE
        and center[0] + radius <= x1 + LEVEL_TOLERANCE
        and center[1] - radius >= y0 - LEVEL_TOLERANCE
        and center[1] + radius <= y1 + LEVEL_TOLERANCE
    )


def shaft_candidates(view: ViewGeometry) -> list:
    """Outer cylinders seen from the side: a linear dimension across the silhouette with
    the diameter sign, as a drafter dimensions a turned part."""
    found = []
    points = dict(view.vertices)
    for shaft in view.shafts:
        across = 1 if shaft.axis == "x" else 0
        low = _vertex_at(view, across, shaft.offset - shaft.radius)
        high = _vertex_at(view, across, shaft.offset + shaft.radius)
        if low is None or high is None:
            continue
        found.append(
            Candidate(
                "diameter",
                2 * shaft.radius,
                view.name,
                "DistanceY" if across == 1 else "DistanceX",
                (f"Vertex{low}", f"Vertex{high}"),
                "shaft",
                # The key of the plain length across the silhouette: the same distance is
                # shown once, with the diameter sign.
                length_key(view, across, points[low][across], points[high][across]),
                (points[low], points[high]),
            )
        )
    return found
