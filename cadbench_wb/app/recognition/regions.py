# SPDX-License-Identifier: LGPL-2.1-or-later
"""Region features found from concave edge loops: turned grooves, bosses, pockets, slots,
grooves, steps and breakthroughs (called by features.recognise after holes, chamfers and
rounds have claimed their faces).

The rules read where a planar face's concave edges lie. A concave inner loop is the foot of
a boss standing on the face; a concave outer loop makes the face the floor of a closed
pocket (a slot when the walls are two parallel sides and two half-round ends); an outer
loop that is concave only in part makes it the floor of an open depression (one wall: a
step; two facing walls: a groove; plus an end: an open slot; otherwise an open pocket).
Walls that close into a ring with no floor are a breakthrough (a through slot when the ring
is two sides and two half-round ends). A smooth edge to a concave fillet counts as concave:
fillets at a floor or a foot stay fillet features of their own; fillets in a pocket's or
breakthrough's vertical corners are its corner radius.
"""

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app.recognition.brep_graph import _canonical, axial_range, edge_points, same_line

RECOGNITION = standard.FEATURES["recognition"]
PARALLEL = RECOGNITION["parallel_cos"]
NOISE = RECOGNITION["noise_mm"]


def record(type_, kind, params, location, axis=None, faces=(), attributes=None) -> dict:
    """One feature record (JSON-ready). Every number + 0.0: -0.0 (a flipped axis's zero
    components) would make a shape and its copy record differently."""
    return {
        "type": type_,
        "kind": kind,
        "attributes": dict(attributes or {}),
        "params": {k: float(v) + 0.0 for k, v in params.items()},
        "location": [float(x) + 0.0 for x in location],
        "axis": None if axis is None else [float(x) + 0.0 for x in _canonical(np.asarray(axis))],
        "faces": sorted(faces, key=lambda n: int(n[4:])),
    }


def axial_groups(graph, used, concave: bool, kinds=("Cylinder", "Cone")):
    """Unused faces of the given kinds and side grouped by axis line: [(origin, axis, faces)]."""
    tolerance = RECOGNITION["coaxial_rel"] * graph.size + NOISE
    lines = []
    for info in graph.faces:
        if info.index in used or info.kind not in kinds or info.concave is not concave:
            continue
        for origin, axis, members in lines:
            if same_line(origin, axis, info.origin, info.axis, tolerance):
                members.append(info)
                break
        else:
            lines.append((info.origin, info.axis, [info]))
    return lines


def segments(members, origin, axis) -> list[dict]:
    """Coaxial faces merged into segments of one surface (kind, radius and axial ranges,
    angular coverage in degrees, faces)."""
    found = []
    for info in members:
        (t0, t1), (r0, r1) = axial_range(info.face, origin, axis)
        # Faces of one surface agree to float noise (radius, semi-angle, their touching
        # ends); 1e-4 mm absorbs the sampled boundary's radii. Not tuned.
        key = (info.kind, round(info.radius or 0.0, 6), round(info.semi_angle or 0.0, 6))
        for seg in found:
            overlap = min(seg["t1"], t1) - max(seg["t0"], t0)
            if seg["key"] == key and overlap > -1e-6 and abs(seg["r1"] - r1) < 1e-4:
                seg["faces"].append(info.index)
                seg["span"] += info.span_deg or 0.0
                seg["t0"], seg["t1"] = min(seg["t0"], t0), max(seg["t1"], t1)
                seg["r0"], seg["r1"] = min(seg["r0"], r0), max(seg["r1"], r1)
                break
        else:
            found.append(
                {
                    "key": key,
                    "kind": info.kind,
                    "faces": [info.index],
                    "span": info.span_deg or 0.0,
                    "t0": t0,
                    "t1": t1,
                    "r0": r0,
                    "r1": r1,
                    "semi": info.semi_angle,
                }
            )
    return found


def regions(graph, used, concave_blends) -> list[dict]:
    """Region features, claiming their faces in `used`."""
    blends = set(concave_blends)
    rounds = {
        f.index
        for f in graph.faces
        if f.kind == "Cylinder"
        and f.concave
        and RECOGNITION["half_turn_deg"] <= (f.span_deg or 0.0) < RECOGNITION["full_turn_deg"]
    }
    context = {"blends": blends, "rounds": rounds - used}
    found = _turned_grooves(graph, used, context)
    found += _bosses(graph, used, context)
    found += _pockets(graph, used, context)
    found += _breakthroughs(graph, used, context)
    found += _open_depressions(graph, used, context)
    return found


def _names(graph, indices) -> list[str]:
    return [graph.faces[i].name for i in sorted(indices)]


def _other(edge, index: int) -> int | None:
    others = [f for f in edge.faces if f != index]
    return others[0] if others else None


def _foot(graph, index, edge, context) -> str:
    """concave, convex or smooth, where a smooth edge to a concave blend counts as concave."""
    if edge.kind == "smooth":
        other = _other(edge, index)
        if other in context["blends"] or other in context["rounds"]:
            return "concave"
    return edge.kind


def _walls_across(graph, index, edges, context) -> tuple[list[int], set]:
    """Faces on the far side of a face's edges, seen through concave blends: (walls, blends
    passed)."""
    walls, passed = [], set()
    for edge in edges:
        other = _other(edge, index)
        if other is None:
            continue
        if other in context["blends"] and edge.kind == "smooth":
            passed.add(other)
            for beyond in graph.neighbours(other, ("smooth", "concave")):
                if beyond != index and beyond not in context["blends"] and beyond not in walls:
                    walls.append(beyond)
        elif other not in walls:
            walls.append(other)
    return walls, passed


def _height(graph, faces, origin, normal) -> float:
    points = edge_points([e for i in faces for e in graph.faces[i].face.Edges])
    return float(((points - origin) @ normal).max())


def _frame(normal: np.ndarray, points: np.ndarray, edges=None):
    """In-plane directions (longest first): along the longest straight edge when there is
    one, else the principal directions of the points. Principal directions of a square or
    a circle are arbitrary, and would make the extents depend on the part's pose."""
    lines = [e for e in edges or () if type(e.Curve).__name__ in ("Line", "LineSegment")]
    if lines:
        longest = max(lines, key=lambda e: round(e.Length, 6))
        start, end = (np.array(tuple(v.Point)) for v in longest.Vertexes[:2])
        first = end - start - ((end - start) @ normal) * normal
        if np.linalg.norm(first) > 1e-9:  # a guard against normalising noise, not tuned
            first /= np.linalg.norm(first)
            return first, np.cross(normal, first)
    flat = points - points.mean(axis=0)
    flat = flat - np.outer(flat @ normal, normal)
    _, _, vt = np.linalg.svd(flat, full_matrices=False)
    first = vt[0] - (vt[0] @ normal) * normal
    first /= np.linalg.norm(first)
    second = np.cross(normal, first)
    return first, second


def _is_line_across(edge, direction: np.ndarray) -> bool:
    """A straight edge square to direction (within 1e-6 rad: far beyond a pose's rounding,
    far inside any drafted angle)."""
    if type(edge.Curve).__name__ not in ("Line", "LineSegment"):
        return False
    start, end = (np.array(tuple(v.Point)) for v in edge.Vertexes[:2])
    run = np.linalg.norm(end - start)
    return run > 0 and abs(float((end - start) @ direction)) <= 1e-6 * run


def _extents(points, first, second):
    """(length, width, centre) of points in an in-plane frame."""
    a, b = points @ first, points @ second
    centre = first * (a.max() + a.min()) / 2 + second * (b.max() + b.min()) / 2
    return float(a.max() - a.min()), float(b.max() - b.min()), centre


# --- turned grooves ------------------------------------------------------------------------


def _turned_grooves(graph, used, context) -> list[dict]:
    found = []
    for origin, axis, members in axial_groups(graph, used, False, ("Cylinder",)):
        for seg in segments(members, origin, axis):
            if seg["span"] < RECOGNITION["full_turn_deg"]:
                continue
            walls = []
            for index in seg["faces"]:
                for e in graph.by_face[index]:
                    edge = graph.edges[e]
                    other = _other(edge, index)
                    info = graph.faces[other] if other is not None else None
                    if edge.kind != "concave" or info is None or info.kind != "Plane":
                        continue
                    if abs(float(info.normal @ axis)) < PARALLEL or other in walls:
                        continue
                    walls.append(other)
            # The groove's walls face each other from its two ends.
            lows = [w for w in walls if _wall_at(graph, w, origin, axis, seg["t0"], 1.0)]
            highs = [w for w in walls if _wall_at(graph, w, origin, axis, seg["t1"], -1.0)]
            if not lows or not highs:
                continue
            outer = min(axial_range(graph.faces[w].face, origin, axis)[1][1] for w in walls)
            faces = set(seg["faces"]) | set(walls)
            found.append(
                record(
                    "groove",
                    "turned",
                    {
                        "diameter": 2 * seg["r1"],
                        "width": seg["t1"] - seg["t0"],
                        "depth": outer - seg["r1"],
                    },
                    origin + axis * (seg["t0"] + seg["t1"]) / 2,
                    axis,
                    _names(graph, faces),
                )
            )
            used.update(faces)
            context.setdefault("groove_faces", set()).update(faces)
    return found


def _wall_at(graph, index, origin, axis, t, facing) -> bool:
    info = graph.faces[index]
    level = RECOGNITION["coaxial_rel"] * graph.size + NOISE
    at = abs(float((info.origin - origin) @ axis) - t) <= level
    return at and float(info.normal @ axis) * facing > 0


# --- bosses --------------------------------------------------------------------------------


def _bosses(graph, used, context) -> list[dict]:
    found = []
    for info in graph.faces:
        # A support may itself be a boss's cap (a shank standing on a washer face).
        if info.kind != "Plane" or info.index in context.get("boss_walls", set()):
            continue
        for wire in graph.wires(info.index)[1:]:
            if not wire or any(_foot(graph, info.index, e, context) != "concave" for e in wire):
                continue
            walls, passed = _walls_across(graph, info.index, wire, context)
            walls = [w for w in walls if w not in used]
            if not walls:
                continue
            caps = {
                n
                for w in walls
                for n in graph.neighbours(w, ("convex",))
                if n != info.index and n not in used and n not in context["blends"]
            }
            faces = set(walls) | caps
            found.append(_boss_record(graph, info, wire, walls, passed, faces, context))
            used.update(faces)
            context.setdefault("boss_walls", set()).update(walls)
    return found


def _boss_record(graph, support, wire, walls, passed, faces, context) -> dict:
    normal, origin = support.normal, support.origin
    foot = edge_points([e.edge for e in wire])
    circles = {(round(e.edge.Curve.Radius, 6),) for e in wire if e.circle}
    reach = _reach(graph, walls, {support.index} | passed, context)
    if len(circles) == 1 and all(e.circle for e in wire):
        radius = next(iter(circles))[0]
        shafts = {
            round(graph.faces[w].radius, 6) for w in walls if graph.faces[w].kind == "Cylinder"
        }
        if len(shafts) == 1:
            radius = next(iter(shafts))  # the foot circle may be a fillet's outer edge
        centre = np.array(tuple(wire[0].edge.Curve.Center))
        # A round boss's height is its whole shaft, threads and tip included.
        points = edge_points([e for i in reach for e in graph.faces[i].face.Edges])
        rel = points - centre
        along = rel @ normal
        radial = np.linalg.norm(rel - np.outer(along, normal), axis=1)
        height = float(along[radial <= radius + NOISE].max())
        params = {"diameter": 2 * radius, "height": height}
        kind = "cylindrical"
    else:
        # The walls' own foot (not a fillet's far edge) gives the boss's footprint.
        feet = [
            graph.edges[e].edge
            for w in walls
            for e in graph.by_face[w]
            if set(graph.edges[e].faces) & ({support.index} | passed)
        ]
        foot = edge_points(feet) if feet else foot
        first, second = _frame(normal, foot, feet)
        length, width, centre_2d = _extents(foot, first, second)
        centre = centre_2d + normal * float(foot.mean(axis=0) @ normal)
        height = _height(graph, reach, origin, normal)
        params = {"length": length, "width": width, "height": height}
        kind = "prismatic"
    return record("boss", kind, params, centre + normal * height / 2, normal, _names(graph, faces))


def _reach(graph, start, blocked, context) -> set:
    """Faces connected to start without passing through blocked ones; the reach stops at
    (includes but does not pass) the support of a further boss."""
    seen, queue = set(start), list(start)
    while queue:
        index = queue.pop()
        if index not in start and _supports_boss(graph, index, context):
            continue
        for other in graph.neighbours(index):
            if other not in seen and other not in blocked:
                seen.add(other)
                queue.append(other)
    return seen


def _supports_boss(graph, index, context) -> bool:
    info = graph.faces[index]
    if info.kind != "Plane" or index in context.get("groove_faces", ()):
        return False  # a groove's wall stands on the shaft: the shaft goes on past it
    return any(
        wire and all(_foot(graph, index, e, context) == "concave" for e in wire)
        for wire in graph.wires(index)[1:]
    )


# --- pockets and slots ---------------------------------------------------------------------


def _corners(graph, walls, normal, context, used) -> set:
    """Concave blends and half-rounds standing square to the floor between the walls."""
    found = set()
    for w in walls:
        for n in graph.neighbours(w, ("smooth", "concave")):
            info = graph.faces[n]
            if n in used or (n not in context["blends"] and n not in context["rounds"]):
                continue
            if info.axis is not None and abs(float(info.axis @ normal)) >= PARALLEL:
                found.add(n)
    return found


def _is_stadium(graph, planar, ends) -> float | None:
    """Width of a slot outline (two facing parallel sides, two half-round ends), else None."""
    if len(planar) != 2 or len(ends) != 2:
        return None
    a, b = graph.faces[planar[0]], graph.faces[planar[1]]
    if float(a.normal @ b.normal) > -PARALLEL:
        return None
    width = abs(float((b.origin - a.origin) @ a.normal))
    radii = [graph.faces[e].radius for e in ends]
    # Not tuned: ends spanning half_turn_deg or more are tangent to the sides, so their
    # diameter equals the width to 4e-5 of it; 1e-4 only absorbs float noise.
    if any(abs(2 * r - width) > 1e-4 * max(width, 1.0) for r in radii):
        return None
    return width


def _pockets(graph, used, context) -> list[dict]:
    found = []
    for info in graph.faces:
        if info.index in used or info.kind != "Plane":
            continue
        outer = graph.wires(info.index)[0]
        if not outer or any(_foot(graph, info.index, e, context) != "concave" for e in outer):
            continue
        walls, _passed = _walls_across(graph, info.index, outer, context)
        walls = [w for w in walls if w not in used]
        if not walls:
            continue
        corners = _corners(graph, walls, info.normal, context, used)
        walls = [w for w in walls if w not in corners]
        ends = sorted(c for c in corners if c in context["rounds"]) + [
            w for w in walls if w in context["rounds"]
        ]
        planar = [w for w in walls if graph.faces[w].kind == "Plane"]
        depth = _height(graph, walls + sorted(corners), info.origin, info.normal)
        floor = edge_points([e.edge for e in outer])
        first, second = _frame(info.normal, floor, [e.edge for e in outer])
        length, width, centre_2d = _extents(floor, first, second)
        centre = centre_2d + info.normal * (float(info.origin @ info.normal) + depth / 2)
        faces = {info.index} | set(walls) | corners
        slot_width = _is_stadium(graph, planar, ends) if len(walls) <= 4 else None
        if slot_width is not None:
            params = {"width": slot_width, "length": length, "depth": depth}
            found.append(
                record("slot", "closed", params, centre, info.normal, _names(graph, faces))
            )
        else:
            fillet_radii = [graph.faces[c].radius for c in corners if c in context["blends"]]
            params = {
                "length": length,
                "width": width,
                "depth": depth,
                "corner_radius": min(fillet_radii) if fillet_radii else 0.0,
            }
            found.append(
                record("pocket", "closed", params, centre, info.normal, _names(graph, faces))
            )
        used.update(faces)
    return found


# --- breakthroughs -------------------------------------------------------------------------


def _breakthroughs(graph, used, context) -> list[dict]:
    pool = {f.index for f in graph.faces if f.index not in used}
    found, seen = [], set()
    for start in sorted(pool):
        if start in seen:
            continue
        component, queue = [], [start]
        seen.add(start)
        while queue:
            index = queue.pop()
            component.append(index)
            for other in graph.neighbours(index, ("concave", "smooth")):
                if other in pool and other not in seen:
                    seen.add(other)
                    queue.append(other)
        result = _through_cut(graph, sorted(component), context)
        if result is not None:
            found.append(result)
            used.update(component)
    return found


def _through_cut(graph, component, context) -> dict | None:
    if len(component) < 2:
        return None
    members = set(component)
    for index in component:
        inside = [n for n in graph.neighbours(index, ("concave", "smooth")) if n in members]
        if len(inside) < 2:
            return None  # an open profile (a groove), not a ring
        for e in graph.by_face[index]:
            edge = graph.edges[e]
            other = _other(edge, index)
            if other is not None and other not in members and edge.kind not in ("convex",):
                return None
    direction = _common_direction(graph, component)
    if direction is None:
        return None
    edges = [e for i in component for e in graph.faces[i].face.Edges]
    points = edge_points(edges)
    # The ring's straight edges across the cut (not along it) set the frame: principal
    # directions of a square's points are arbitrary, and NIST FTC-08's square cut-out read
    # 36.52 in one pose of a perfect copy and 36.04 (its side) in another.
    across = [e for e in edges if _is_line_across(e, direction)]
    first, second = _frame(direction, points, across)
    length, width, centre_2d = _extents(points, first, second)
    along = points @ direction
    depth = float(along.max() - along.min())
    centre = centre_2d + direction * float(along.max() + along.min()) / 2
    planar = [i for i in component if graph.faces[i].kind == "Plane"]
    ends = [i for i in component if i in context["rounds"]]
    fillets = [graph.faces[i].radius for i in component if i in context["blends"]]
    names = _names(graph, component)
    slot_width = _is_stadium(graph, planar, ends) if len(component) == 4 else None
    if slot_width is not None:
        params = {"width": slot_width, "length": length, "depth": depth}
        return record("slot", "through", params, centre, direction, names)
    params = {
        "length": length,
        "width": width,
        "depth": depth,
        "corner_radius": min(fillets) if fillets else 0.0,
    }
    return record("breakthrough", "through", params, centre, direction, names)


def _common_direction(graph, component) -> np.ndarray | None:
    """The direction every wall of a through-cut runs along, if there is one."""
    normals = [graph.faces[i].normal for i in component if graph.faces[i].kind == "Plane"]
    axes = [graph.faces[i].axis for i in component if graph.faces[i].kind in ("Cylinder",)]
    if len(normals) + len(axes) < len(component):
        return None
    direction = axes[0] if axes else None
    if direction is None:
        for k, a in enumerate(normals):
            for b in normals[k + 1 :]:
                cross = np.cross(a, b)
                # Not tuned: a pair closer to parallel gives an ill-conditioned direction;
                # a ring of walls always has a pair at a drawn angle.
                if np.linalg.norm(cross) > 1e-3:
                    direction = cross / np.linalg.norm(cross)
                    break
            if direction is not None:
                break
    if direction is None:
        return None
    if any(abs(float(n @ direction)) > RECOGNITION["through_wall_cos"] for n in normals):
        return None
    if any(abs(float(a @ direction)) < PARALLEL for a in axes):
        return None
    return _canonical(direction)


# --- open depressions ----------------------------------------------------------------------


def _open_depressions(graph, used, context) -> list[dict]:
    floors = []
    for info in graph.faces:
        if info.index in used or info.kind != "Plane":
            continue
        outer = graph.wires(info.index)[0]
        feet = [_foot(graph, info.index, e, context) for e in outer]
        concave = [e for e, f in zip(outer, feet, strict=True) if f == "concave"]
        if concave and len(concave) < len(outer):
            # Areas rounded: equal faces (the three of a corner notch) must tie whatever
            # the pose, or float noise in the area decides which one is the floor.
            floors.append((-len(concave), -round(info.area, 6), info.index, concave))
    found = []
    for _, _, index, concave in sorted(floors, key=lambda f: f[:3]):
        if index in used:
            continue
        info = graph.faces[index]
        walls, _passed = _walls_across(graph, index, concave, context)
        walls = [w for w in walls if w not in used]
        planar = [w for w in walls if graph.faces[w].kind == "Plane"]
        if not planar:
            continue
        rounds = [w for w in walls if w in context["rounds"]]
        faces = {index} | set(walls)
        found.append(_open_record(graph, info, concave, walls, planar, rounds, faces))
        used.update(faces)
    return found


def _open_record(graph, floor, concave, walls, planar, rounds, faces) -> dict:
    normal = floor.normal
    depth = _height(graph, walls, floor.origin, normal)
    outline = edge_points(floor.face.Edges)
    names = _names(graph, faces)
    if len(walls) == 1:
        line = edge_points([concave[0].edge], 2)
        # 1e-12: a guard against a degenerate edge, not tuned.
        direction = (line[1] - line[0]) / max(np.linalg.norm(line[1] - line[0]), 1e-12)
        across = np.cross(normal, direction)
        values = outline @ across
        joint = edge_points([e.edge for e in concave])
        centre = joint.mean(axis=0)
        params = {"width": float(values.max() - values.min()), "height": depth}
        return record("step", "open", params, centre, direction, names)
    facing = [
        (a, b)
        for k, a in enumerate(planar)
        for b in planar[k + 1 :]
        if float(graph.faces[a].normal @ graph.faces[b].normal) < -PARALLEL
    ]
    if facing:
        a, b = (graph.faces[i] for i in facing[0])
        width = abs(float((b.origin - a.origin) @ a.normal))
        direction = np.cross(normal, a.normal)
        along = outline @ direction
        length = float(along.max() - along.min())
        centre = outline.mean(axis=0) + normal * depth / 2
        params = {"width": width, "length": length, "depth": depth}
        if len(walls) == 2:
            return record("groove", "prismatic", params, centre, direction, names)
        if len(walls) == 3 and (rounds or len(planar) == 3):
            return record("slot", "open", params, centre, direction, names)
    first, second = _frame(normal, outline, floor.face.Edges)
    length, width, centre_2d = _extents(outline, first, second)
    centre = centre_2d + normal * (float(floor.origin @ normal) + depth / 2)
    params = {"length": length, "width": width, "depth": depth}
    return record("pocket", "open", params, centre, normal, names)
