# SPDX-License-Identifier: LGPL-2.1-or-later
"""Design features recognised from a solid's B-rep (semanticMatch's input).

Recognition reads the finished geometry only (never a history), in a fixed order so every
face is claimed once:

1. threads (threads.py: helical flanks, crest and root strips; cosmetic ones from data);
2. holes: coaxial stacks of concave full cylinders and cones, with counterbore,
   countersink, drill point or flat bottom, through or blind; internal grooves;
3. chamfers: narrow planar strips between two faces, and narrow convex cones;
4. fillets: partial cylinders, tori, spheres tangent to their neighbours (convex rounds now,
   concave fillets after the regions, which may take pocket corners);
5. regions (feature_regions.py): turned grooves, bosses, pockets, slots, grooves, steps,
   breakthroughs;
6. what is left is the base body (outer faces), or an "unrecognised" record naming its
   faces: nothing is dropped silently.

Each feature is a plain dict: type, kind, attributes (text that must be equal), params
(numbers compared within tolerance), location (the centre of the feature) and axis in the
frame of the shape given (the reference frame for an aligned candidate), and its faces.
"""

import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app.recognition import brep_graph
from cadbench_wb.app.recognition import regions as feature_regions
from cadbench_wb.app.recognition.brep_graph import axial_range, same_line
from cadbench_wb.app.recognition.regions import record

RECOGNITION = standard.FEATURES["recognition"]
NOISE = RECOGNITION["noise_mm"]
PARALLEL = RECOGNITION["parallel_cos"]
RAIL_PARALLEL = RECOGNITION["rail_parallel_cos"]


def recognise(shape, threads=()) -> dict:
    """{"features": [...], "unrecognised": [...], "base": [face names]} of a shape.

    threads: threads.Thread records already found on this shape (modeled and cosmetic);
    their faces are claimed first and each becomes a "thread" feature.
    """
    graph = brep_graph.graph_of(shape)
    used: set[int] = set()
    features = _thread_features(graph, threads, used)
    features += _holes(graph, used)
    features += _chamfers(graph, used)
    convex, concave = _fillet_faces(graph, used)
    features += _fillet_records(graph, convex, used)
    features += feature_regions.regions(graph, used, concave)
    features += _fillet_records(graph, [i for i in concave if i not in used], used)
    base, unrecognised = _leftovers(graph, used)
    _cosmetic_holes(features, threads)
    for number, feature in enumerate(features, 1):
        feature["id"] = f"F{number}"
    for number, entry in enumerate(unrecognised, 1):
        entry["id"] = f"U{number}"
    return {"features": features, "unrecognised": unrecognised, "base": base}


# --- threads -------------------------------------------------------------------------------


def _thread_features(graph, threads, used) -> list[dict]:
    found = []
    names = {f.name: f.index for f in graph.faces}
    for thread in threads:
        faces = [names[n] for n in thread.faces if n in names]
        if thread.modeled:
            used.update(faces)
        if thread.start is None:
            continue
        start, end = np.array(thread.start), np.array(thread.end)
        found.append(
            record(
                "thread",
                thread.kind,
                {"major_diameter": thread.major_diameter or 0.0, "pitch": thread.pitch or 0.0},
                (start + end) / 2,
                np.array(thread.axis),
                [graph.faces[i].name for i in faces],
                # Modeled or cosmetic is threadMatch's question, not the feature's.
                {"hand": thread.hand},
            )
        )
    return found


def _cosmetic_holes(features, threads) -> None:
    """A hole that carries a cosmetic internal thread is that thread, not a plain hole."""
    carriers = {n for t in threads if not t.modeled and t.kind == "internal" for n in t.faces}
    features[:] = [f for f in features if not (f["type"] == "hole" and set(f["faces"]) & carriers)]


# --- holes ---------------------------------------------------------------------------------


def _holes(graph, used) -> list[dict]:
    found = []
    full_turn = RECOGNITION["full_turn_deg"]
    gap = RECOGNITION["stack_gap_rel"] * graph.size + NOISE
    for origin, axis, members in feature_regions.axial_groups(graph, used, concave=True):
        full = [
            s for s in feature_regions.segments(members, origin, axis) if s["span"] >= full_turn
        ]
        full.sort(key=lambda s: (s["t0"], s["t1"]))
        stacks: list[list[dict]] = []
        for seg in full:
            if stacks and seg["t0"] <= max(s["t1"] for s in stacks[-1]) + gap:
                stacks[-1].append(seg)
            else:
                stacks.append([seg])
        for stack in stacks:
            found += _hole_records(graph, used, origin, axis, stack)
    return found


def _annuli(graph, used, origin, axis, t, r_in, r_out):
    """Planar faces square to the axis at t, bounded by coaxial circles within [r_in, r_out]
    (steps between stacked cylinders, flat bottoms)."""
    found = []
    level = RECOGNITION["annulus_level_rel"] * graph.size + NOISE
    for info in graph.faces:
        if info.index in used or info.kind != "Plane" or abs(float(info.normal @ axis)) < PARALLEL:
            continue
        if abs(float((info.origin - origin) @ axis) - t) > level:
            continue
        (t0, t1), (r0, r1) = axial_range(info.face, origin, axis)
        if (
            r0 >= r_in - NOISE
            and r1 <= r_out + NOISE
            and all(graph.edges[e].circle for e in graph.by_face[info.index])
        ):
            found.append(info.index)
    return found


def _hole_records(graph, used, origin, axis, stack) -> list[dict]:
    t_lo, t_hi = min(s["t0"] for s in stack), max(s["t1"] for s in stack)
    faces = {i for s in stack for i in s["faces"]}
    ends = {}
    for name, t, seg in (
        ("lo", t_lo, min(stack, key=lambda s: s["t0"])),
        ("hi", t_hi, max(stack, key=lambda s: s["t1"])),
    ):
        cone_apex = seg["kind"] == "Cone" and seg["r0"] < RECOGNITION["apex_rel"] * graph.size
        disc = _annuli(graph, used, origin, axis, t, 0.0, seg["r1"])
        disc = [i for i in disc if len(graph.faces[i].face.Wires) == 1]
        ends[name] = "cone" if cone_apex else ("flat" if disc else None)
        faces.update(disc)
    for low, high in zip(stack, stack[1:], strict=False):
        t = (low["t1"] + high["t0"]) / 2
        faces.update(_annuli(graph, used, origin, axis, t, 0.0, max(low["r1"], high["r1"])))
    blind = ends["lo"] is not None or ends["hi"] is not None
    if blind:
        entry = "hi" if ends["lo"] is not None else "lo"
    else:
        first = min(stack, key=lambda s: s["t0"])["r1"]
        last = max(stack, key=lambda s: s["t1"])["r1"]
        entry = "hi" if last > first + NOISE else "lo"
    ordered = sorted(stack, key=lambda s: s["t0"], reverse=entry == "hi")
    records = []
    cylinders = [s for s in ordered if s["kind"] == "Cylinder"]
    # An inner cylinder wider than both neighbours is a groove cut into the bore.
    grooves = [
        s
        for k, s in enumerate(ordered)
        if 0 < k < len(ordered) - 1
        and s["kind"] == "Cylinder"
        and s["r1"] > ordered[k - 1]["r1"] + NOISE
        and s["r1"] > ordered[k + 1]["r1"] + NOISE
    ]
    for groove in grooves:
        depth = groove["r1"] - max(
            ordered[ordered.index(groove) - 1]["r1"], ordered[ordered.index(groove) + 1]["r1"]
        )
        centre = origin + axis * (groove["t0"] + groove["t1"]) / 2
        records.append(
            record(
                "groove",
                "internal",
                {
                    "diameter": 2 * groove["r1"],
                    "width": groove["t1"] - groove["t0"],
                    "depth": depth,
                },
                centre,
                axis,
                [graph.faces[i].name for i in groove["faces"]],
            )
        )
        faces.difference_update(groove["faces"])
    plain = [s for s in cylinders if s not in grooves]
    if not plain:
        return []  # cones only (a socket's or a spot face's bottom): not a hole
    main = min(plain, key=lambda s: (s["r1"], s["t0"]))
    params = {"diameter": 2 * main["r1"]}
    attributes = {"head": "plain", "bottom": ends["lo"] or ends["hi"] or "none"}
    sign = 1.0 if entry == "lo" else -1.0
    entry_t = t_lo if entry == "lo" else t_hi
    settings = standard.FEATURES
    first_cylinder = next(s for s in ordered if s["kind"] == "Cylinder")
    if first_cylinder is not main and first_cylinder["r1"] > main["r1"] + NOISE:
        attributes["head"] = "counterbore"
        params["counterbore_diameter"] = 2 * first_cylinder["r1"]
        # From the surface the hole opens in (a chamfer at the mouth included), as drawn.
        far = first_cylinder["t1"] if entry == "lo" else first_cylinder["t0"]
        params["counterbore_depth"] = abs(far - (t_lo if entry == "lo" else t_hi))
    mouth = [(ordered[0], "entry")] if ordered[0]["kind"] == "Cone" else []
    if not blind and len(ordered) > 1 and ordered[-1]["kind"] == "Cone":
        mouth.append((ordered[-1], "exit"))
    for cone, where in mouth:
        outer = 2 * cone["r1"]
        # A cone at the mouth sinks a screw head only when it is much wider than the bore
        # it leads into; a narrow one is a chamfer of that bore's edge.
        inner = 2 * first_cylinder["r1"] if where == "entry" else params["diameter"]
        sinks = where == "entry" and attributes["head"] == "plain"
        if sinks and outer >= settings["countersink_min_ratio"] * inner:
            attributes["head"] = "countersink"
            params["countersink_diameter"] = outer
            params["countersink_angle"] = 2 * cone["semi"]
        else:
            records.append(_cone_chamfer(graph, cone, origin, axis))
            faces.difference_update(cone["faces"])
    if blind:
        bottom_seg = ordered[-1]
        end_t = bottom_seg["t0"] if entry == "hi" else bottom_seg["t1"]
        if bottom_seg["kind"] == "Cone" and ends["lo" if entry == "hi" else "hi"] == "cone":
            params["drill_point_angle"] = 2 * bottom_seg["semi"]
            end_t = bottom_seg["t1"] if entry == "hi" else bottom_seg["t0"]
        params["depth"] = abs(end_t - entry_t)
    else:
        params["depth"] = t_hi - t_lo
    centre = origin + axis * (t_lo + t_hi) / 2
    kind = "blind" if blind else "through"
    direction = axis * sign
    records.insert(
        0,
        record(
            "hole",
            kind,
            params,
            centre,
            direction,
            [graph.faces[i].name for i in faces],
            attributes,
        ),
    )
    used.update(faces)
    for rec in records[1:]:
        used.update(int(n[4:]) - 1 for n in rec["faces"])
    return records


def _cone_chamfer(graph, segment, origin, axis) -> dict:
    axial = segment["t1"] - segment["t0"]
    radial = segment["r1"] - segment["r0"]
    centre = origin + axis * (segment["t0"] + segment["t1"]) / 2
    distances = sorted([axial, radial])
    return record(
        "chamfer",
        "circular",
        {"distance1": distances[0], "distance2": distances[1]},
        centre,
        axis,
        [graph.faces[i].name for i in segment["faces"]],
    )


# --- chamfers ------------------------------------------------------------------------------


def _chamfers(graph, used) -> list[dict]:
    straight = {}
    for info in graph.faces:
        if info.index not in used and info.kind == "Plane":
            measured = _planar_chamfer(graph, info)
            if measured is not None:
                straight[info.index] = measured
    found = _chains(graph, straight, "straight", used)
    conical = {}
    for info in graph.faces:
        if info.index not in used and info.kind == "Cone" and not info.concave:
            measured = _conical_chamfer(graph, info)
            if measured is not None:
                conical[info.index] = measured
    found += _chains(graph, conical, "circular", used, by_surface=True)
    return found


def _planar_chamfer(graph, info):
    """(d1, d2, rail direction) when a planar face is a chamfer strip, else None."""
    rails = []
    for e in graph.by_face[info.index]:
        edge = graph.edges[e]
        if not edge.straight or edge.kind not in ("convex", "concave") or len(edge.faces) < 2:
            continue
        other = graph.faces[edge.faces[0] if edge.faces[1] == info.index else edge.faces[1]]
        if other.kind != "Plane":
            continue
        direction = brep_graph.edge_points([edge.edge], 2)
        rails.append((edge, other, (direction[1] - direction[0]) / edge.length))
    best = None
    for k, (e1, n1, d1) in enumerate(rails):
        for e2, n2, d2 in rails[k + 1 :]:
            if n1.index == n2.index or e1.kind != e2.kind or abs(float(d1 @ d2)) < RAIL_PARALLEL:
                continue
            length = min(e1.length, e2.length)
            if best is None or length > best[0]:
                best = (length, e1, n1, e2, n2, d1)
    if best is None:
        return None
    _, e1, n1, e2, n2, direction = best
    angle = math.degrees(math.acos(max(-1.0, min(1.0, float(n1.normal @ n2.normal)))))
    low, high = RECOGNITION["chamfer_deg"]
    if not low <= angle <= high:
        return None
    between = math.degrees(math.acos(max(-1.0, min(1.0, float(info.normal @ n1.normal)))))
    between += math.degrees(math.acos(max(-1.0, min(1.0, float(info.normal @ n2.normal)))))
    # The strip's normal lies between its neighbours' (it turns the corner, it does not fold
    # back). Not tuned: with parallel rails of one kind the two sums agree to float noise,
    # or (a strip turning more than 180 degrees) differ by 40 degrees and more.
    if abs(between - angle) > 1.0:
        return None
    point, line = _plane_intersection(n1, n2)
    if point is None:
        return None
    distances = []
    for edge in (e1, e2):
        p = brep_graph.edge_points([edge.edge], 2)[0]
        rel = p - point
        distances.append(float(np.linalg.norm(rel - (rel @ line) * line)))
    extent = min(_extent_across(n1, line), _extent_across(n2, line))
    if max(distances) > standard.FEATURES["chamfer_max_rel"] * extent:
        return None
    return sorted(distances) + [line]


def _plane_intersection(first, second):
    line = np.cross(first.normal, second.normal)
    norm = np.linalg.norm(line)
    if norm < 1e-9:  # parallel planes (a guard against dividing by noise, not tuned)
        return None, None
    line /= norm
    matrix = np.array([first.normal, second.normal, line])
    rhs = np.array([first.normal @ first.origin, second.normal @ second.origin, 0.0])
    return np.linalg.solve(matrix, rhs), line


def _extent_across(info, line) -> float:
    """A planar face's width square to a direction lying in its plane."""
    across = np.cross(info.normal, line)
    points = brep_graph.edge_points(info.face.Edges, 4)
    values = points @ across
    return float(values.max() - values.min())


def _conical_chamfer(graph, info):
    (t0, t1), (r0, r1) = axial_range(info.face, info.origin, info.axis)
    low, high = RECOGNITION["cone_chamfer_semi_deg"]
    if not low <= info.semi_angle <= high or r1 <= 0:
        return None
    square = [
        n
        for n in graph.neighbours(info.index, ("convex",))
        if graph.faces[n].kind == "Plane"
        and abs(float(graph.faces[n].normal @ info.axis)) > PARALLEL
    ]
    if not square:
        return None
    # Measured from the circle the cone shares with the square face: a thread or a slot
    # that cuts into the chamfer changes the cone's outline, not the chamfer.
    shared = [e for s in square for e in graph.edges_between(info.index, s) if e.circle]
    if shared:
        r0 = min(e.edge.Curve.Radius for e in shared)
    coaxial = RECOGNITION["coaxial_rel"] * graph.size + NOISE
    shafts = [
        f.radius
        for f in graph.faces
        if f.kind == "Cylinder"
        and not f.concave
        # r1 is measured about the cone's axis, which may lie `coaxial` off the shaft's:
        # a shaft that much narrower than the rim is still the one it leads to (on a solid
        # rebuilt from triangles the rim stood 1.1e-6 mm proud of its 15 mm shaft, and the
        # 20 mm shaft beyond made a 1 mm chamfer read 6 x 6).
        and f.radius >= r1 - coaxial
        and same_line(f.origin, f.axis, info.origin, info.axis, coaxial)
    ]
    if shafts:
        r1 = min(shafts)  # the shaft the chamfer leads to, even where a thread cut the cone
    radial = r1 - r0
    axial = radial / math.tan(math.radians(info.semi_angle))
    cap = standard.FEATURES["chamfer_max_rel"] * r1
    if axial > cap or radial > cap:
        return None
    # Placed at the middle of its axial run from the square face, not at the centroid of
    # what is left of the cone.
    plane = graph.faces[square[0]]
    t_plane = float((plane.origin - info.origin) @ info.axis)
    side = 1.0 if (t0 + t1) / 2 > t_plane else -1.0
    centre = info.origin + info.axis * (t_plane + side * axial / 2)
    return sorted([axial, radial]) + [info.axis, centre]


def _chains(graph, measured: dict, kind: str, used, by_surface=False) -> list[dict]:
    """Chamfer faces of equal size joined into chains (one record per chain)."""
    tolerance = standard.LINEAR_TOLERANCE_ABS_MM / RECOGNITION["chain_divisor"]
    found, seen = [], set()
    for start in sorted(measured):
        if start in seen:
            continue
        chain, queue = [], [start]
        seen.add(start)
        while queue:
            index = queue.pop()
            chain.append(index)
            candidates = (
                [j for j in measured if _same_cone(graph.faces[index], graph.faces[j])]
                if by_surface
                else graph.neighbours(index)
            )
            for other in candidates:
                if other in seen or other not in measured:
                    continue
                if all(
                    abs(a - b) <= tolerance
                    for a, b in zip(measured[index][:2], measured[other][:2], strict=True)
                ):
                    seen.add(other)
                    queue.append(other)
        chain.sort()
        areas = np.array([graph.faces[i].area for i in chain])
        centres = np.array([tuple(graph.faces[i].face.CenterOfMass) for i in chain])
        centre = (areas[:, None] * centres).sum(axis=0) / areas.sum()
        if by_surface:
            centre = measured[chain[0]][3]
        d1, d2, direction = measured[chain[0]][:3]
        found.append(
            record(
                "chamfer",
                kind,
                {"distance1": d1, "distance2": d2},
                centre,
                direction,
                [graph.faces[i].name for i in chain],
            )
        )
        used.update(chain)
    return found


def _same_cone(first, second) -> bool:
    # Pieces of one conical surface (split by a seam or a cut) agree to float noise: these
    # bounds are not tuned.
    return (
        abs(first.semi_angle - second.semi_angle) < 1e-6
        and same_line(first.origin, first.axis, second.origin, second.axis, 1e-6)
        and float(np.linalg.norm(first.origin - second.origin)) < 1e-6
    )


# --- fillets -------------------------------------------------------------------------------

BLEND_KINDS = ("Cylinder", "Toroid", "Sphere", "SurfaceOfRevolution")


def _fillet_faces(graph, used) -> tuple[list[int], list[int]]:
    """Blend faces tangent to their neighbours: (convex rounds, concave fillets)."""
    convex, concave = [], []
    for info in graph.faces:
        if info.index in used or info.kind not in BLEND_KINDS or info.radius is None:
            continue
        if info.kind == "Cylinder" and _joined_span(graph, info) >= RECOGNITION["half_turn_deg"]:
            continue  # a full round or a whole cylinder (in one face or pieces), not a blend
        smooth = [n for n in graph.neighbours(info.index, ("smooth",)) if n != info.index]
        if len(smooth) < 2 and not (info.kind == "Sphere" and smooth):
            continue
        (convex, concave)[bool(info.concave)].append(info.index)
    return convex, concave


def _joined_span(graph, info) -> float:
    """The angular span of a cylinder face together with the pieces of the same cylinder it
    joins through smooth edges (exporters and rebuilt meshes split a bore in halves)."""
    seen, queue, span = {info.index}, [info.index], 0.0
    while queue:
        index = queue.pop()
        span += graph.faces[index].span_deg or 0.0
        for other in graph.neighbours(index, ("smooth",)):
            piece = graph.faces[other]
            if other in seen or piece.kind != "Cylinder":
                continue
            # Pieces of one surface agree to float noise (not tuned, as in _same_cone).
            if abs(piece.radius - info.radius) > 1e-6 or not same_line(
                piece.origin, piece.axis, info.origin, info.axis, 1e-6
            ):
                continue
            seen.add(other)
            queue.append(other)
    return span


def _fillet_records(graph, faces: list[int], used) -> list[dict]:
    """Blend faces of one radius and side joined through smooth edges: one record each."""
    pool = set(faces)
    found, seen = [], set()
    tolerance = standard.LINEAR_TOLERANCE_ABS_MM / RECOGNITION["chain_divisor"]
    for start in sorted(pool):
        if start in seen:
            continue
        first = graph.faces[start]
        chain, queue = [], [start]
        seen.add(start)
        while queue:
            index = queue.pop()
            chain.append(index)
            for other in graph.neighbours(index, ("smooth",)):
                info = graph.faces[other]
                if other in seen or other not in pool:
                    continue
                if abs(info.radius - first.radius) <= tolerance and info.concave == first.concave:
                    seen.add(other)
                    queue.append(other)
        chain.sort()
        areas = np.array([graph.faces[i].area for i in chain])
        centres = np.array([tuple(graph.faces[i].face.CenterOfMass) for i in chain])
        axes = [graph.faces[i].axis for i in chain if graph.faces[i].kind == "Cylinder"]
        axis = axes[0] if axes and len(axes) == len(chain) else None
        if axis is not None and any(abs(float(a @ axis)) < RAIL_PARALLEL for a in axes):
            axis = None
        found.append(
            record(
                "fillet",
                "concave" if first.concave else "convex",
                {"radius": first.radius},
                (areas[:, None] * centres).sum(axis=0) / areas.sum(),
                axis,
                [graph.faces[i].name for i in chain],
            )
        )
        used.update(chain)
    return found


# --- what is left --------------------------------------------------------------------------


def _leftovers(graph, used) -> tuple[list[str], list[dict]]:
    """Base faces (the body's outer skin) and unrecognised groups of the remaining faces."""
    base, rest = [], []
    for info in graph.faces:
        if info.index in used:
            continue
        # A concave edge to a feature's face is that feature's foot or floor line: the
        # face is still part of the body. A concave edge to another loose face is not.
        loose = [
            f
            for e in graph.by_face[info.index]
            if graph.edges[e].kind == "concave"
            for f in graph.edges[e].faces
            if f != info.index and f not in used
        ]
        outer = info.concave is not True and info.kind in (
            "Plane",
            "Cylinder",
            "Cone",
            "Sphere",
            "Toroid",
        )
        if outer and not loose:
            base.append(info.name)
        else:
            rest.append(info.index)
    pool, seen, groups = set(rest), set(), []
    for start in rest:
        if start in seen:
            continue
        group, queue = [], [start]
        seen.add(start)
        while queue:
            index = queue.pop()
            group.append(index)
            for other in graph.neighbours(index):
                if other in pool and other not in seen:
                    seen.add(other)
                    queue.append(other)
        group.sort()
        kinds = sorted({graph.faces[i].kind for i in group})
        areas = np.array([graph.faces[i].area for i in group])
        centres = np.array([tuple(graph.faces[i].face.CenterOfMass) for i in group])
        groups.append(
            {
                "type": "unrecognised",
                "kind": "+".join(kinds),
                "attributes": {},
                "params": {"area": float(areas.sum())},
                "location": [float(x) for x in (areas[:, None] * centres).sum(0) / areas.sum()],
                "axis": None,
                "faces": [graph.faces[i].name for i in group],
                "reason": _why_unrecognised(graph, group),
            }
        )
    return base, groups


def _why_unrecognised(graph, group) -> str:
    kinds = {graph.faces[i].kind for i in group}
    freeform = kinds - {"Plane", "Cylinder", "Cone", "Sphere", "Toroid"}
    if freeform:
        return f"free-form surfaces ({', '.join(sorted(freeform))}) that fit no feature"
    return "faces with concave edges that fit no feature pattern"
