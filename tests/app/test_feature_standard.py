# SPDX-License-Identifier: LGPL-2.1-or-later
"""The tuned recognition numbers (standard.FEATURES["recognition"]) at their boundaries.

Each test builds a solid just inside and one just outside a number's boundary and checks
that recognition reads them as their construction says (the reasons are in standard.py).
"""

import math

import pytest

from cadbench_wb import standard

RECOGNITION = standard.FEATURES["recognition"]
LENGTH, WIDTH, HEIGHT = 60.0, 40.0, 20.0  # the block most tests cut into
DIAGONAL = math.sqrt(LENGTH**2 + WIDTH**2 + HEIGHT**2)


def recognised(shape) -> list[tuple]:
    from cadbench_wb.app.recognition import features

    return sorted(
        (f["type"], f["kind"], f["attributes"].get("head", ""), f["attributes"].get("bottom", ""))
        for f in features.recognise(shape)["features"]
    )


def of_type(shape, type_) -> list[dict]:
    from cadbench_wb.app.recognition import features

    return [f for f in features.recognise(shape)["features"] if f["type"] == type_]


def block(part):
    return part.makeBox(LENGTH, WIDTH, HEIGHT)


def solid_of(part, fc, polygons):
    """A solid bounded by planar polygons (lists of points, closed implicitly)."""
    faces = [part.Face(part.makePolygon([fc.Vector(*p) for p in (*ps, ps[0])])) for ps in polygons]
    solid = part.Solid(part.Shell(faces))
    if solid.Volume < 0:
        solid.reverse()
    return solid


def prism(part, fc, profile, direction):
    """A profile of (x, y, z) points extruded along direction."""
    wire = part.makePolygon([fc.Vector(*p) for p in (*profile, profile[0])])
    return part.Face(wire).extrude(fc.Vector(*direction))


def test_the_modules_read_the_standards_numbers():
    # nothing is tuned twice: the names the modules use are the standard's values
    from cadbench_wb.app.recognition import brep_graph, features
    from cadbench_wb.app.recognition import regions as feature_regions

    assert brep_graph.SMOOTH_DEG == RECOGNITION["smooth_deg"]
    assert feature_regions.PARALLEL == features.PARALLEL == RECOGNITION["parallel_cos"]
    assert feature_regions.NOISE == features.NOISE == RECOGNITION["noise_mm"]
    assert features.RAIL_PARALLEL == RECOGNITION["rail_parallel_cos"]


# --- brep_graph ----------------------------------------------------------------------------


def test_faces_meeting_below_smooth_deg_are_tangent(fc, part):
    from cadbench_wb.app.recognition import brep_graph

    limit = RECOGNITION["smooth_deg"]
    for angle, smooth in ((0.9 * limit, True), (1.1 * limit, False)):
        # A block whose top turns down by `angle` at x = 50: a shallow roof.
        drop = 50 * math.tan(math.radians(angle))
        roof = prism(part, fc, [(0, 0, 0), (100, 0, 0), (100, 0, 20 - drop), (50, 0, 20), (0, 0, 20)],
                     (0, 40, 0))  # fmt: skip
        kinds = [e.kind for e in brep_graph.graph_of(roof).edges]
        assert kinds.count("smooth") == (1 if smooth else 0), (angle, kinds)
        assert "concave" not in kinds and "unknown" not in kinds


# --- coaxial faces -------------------------------------------------------------------------


def _counterbored(fc, part, tilt_deg=0.0, offset=0.0):
    """A through bore of 6 at (30, 20) with a counterbore of 10 x 4 from the top, the
    counterbore tilted about x through the centre of its floor, or moved along y."""
    v = fc.Vector
    # The bore is made downwards from the counterbore's floor: both axes pass through its
    # centre, so only their angle decides.
    solid = block(part).cut(part.makeCylinder(3, 16, v(30, 20, 16), v(0, 0, -1)))
    direction = v(0, -math.sin(math.radians(tilt_deg)), math.cos(math.radians(tilt_deg)))
    return solid.cut(part.makeCylinder(5, 6, v(30, 20 + offset, 16), direction)).Solids[0]


def test_a_counterbore_askew_beyond_coaxial_deg_is_another_hole(fc, part):
    limit = RECOGNITION["coaxial_deg"]
    inside = [
        f for f in recognised(_counterbored(fc, part, tilt_deg=0.8 * limit)) if f[0] == "hole"
    ]
    outside = [
        f for f in recognised(_counterbored(fc, part, tilt_deg=1.2 * limit)) if f[0] == "hole"
    ]
    assert inside == [("hole", "through", "counterbore", "none")]
    assert outside == [("hole", "through", "plain", "none")] * 2


def test_a_counterbore_off_the_axis_beyond_coaxial_rel_is_another_hole(fc, part):
    tolerance = RECOGNITION["coaxial_rel"] * DIAGONAL + RECOGNITION["noise_mm"]
    inside = of_type(_counterbored(fc, part, offset=0.5 * tolerance), "hole")
    outside = of_type(_counterbored(fc, part, offset=2.0 * tolerance), "hole")
    assert [h["attributes"]["head"] for h in inside] == ["counterbore"]
    assert sorted(h["params"]["diameter"] for h in outside) == pytest.approx([6.0, 10.0])


def test_a_counterbore_wider_by_less_than_noise_mm_is_no_head(fc, part):
    """A bore with a 4 mm deep step at its top, 0.8 and 1.6 x noise_mm wider in radius: the
    radii round to different micrometres, so the faces stay two segments and noise_mm alone
    decides whether the wider one is a head."""
    v = fc.Vector
    noise = RECOGNITION["noise_mm"]
    heads = []
    small = 3.0000004
    for step in (0.8 * noise, 1.6 * noise):
        solid = block(part).cut(part.makeCylinder(small, HEIGHT, v(30, 20, 0)))
        solid = solid.cut(part.makeCylinder(small + step, 4, v(30, 20, 16))).Solids[0]
        assert round(small, 6) != round(small + step, 6) and len(solid.Faces) == 9
        heads += [h["attributes"]["head"] for h in of_type(solid, "hole")]
    assert heads == ["plain", "counterbore"]


# --- holes ---------------------------------------------------------------------------------


def _keyed_bore(fc, part, missing_deg):
    """A through bore of 10 with a keyway cut along it at +x (the seam of the cylinder), so
    narrow that the bore's wall spans 360 - missing_deg degrees."""
    v = fc.Vector
    width = 10 * math.sin(math.radians(missing_deg / 2))
    solid = block(part).cut(part.makeCylinder(5, HEIGHT, v(30, 20, 0)))
    return solid.cut(part.makeBox(6, width, HEIGHT, v(30, 20 - width / 2, 0))).Solids[0]


def test_a_bore_is_a_hole_when_its_wall_spans_full_turn_deg(fc, part):
    missing = 360.0 - RECOGNITION["full_turn_deg"]
    assert len(of_type(_keyed_bore(fc, part, 0.5 * missing), "hole")) == 1
    assert of_type(_keyed_bore(fc, part, 1.5 * missing), "hole") == []


def test_a_web_thinner_than_the_stack_gap_joins_two_holes(fc, part):
    v = fc.Vector
    gap = RECOGNITION["stack_gap_rel"] * DIAGONAL + RECOGNITION["noise_mm"]
    found = []
    for web in (0.5 * gap, 2.0 * gap):
        low, high = HEIGHT / 2 - web / 2, HEIGHT / 2 + web / 2
        solid = block(part).cut(part.makeCylinder(3, low, v(30, 20, 0)))
        solid = solid.cut(part.makeCylinder(3, HEIGHT - high, v(30, 20, high))).Solids[0]
        found.append(sorted((h["kind"], h["attributes"]["bottom"]) for h in of_type(solid, "hole")))
    # Beyond the gap the holes are two. (The first one's bottom takes both faces of the web,
    # which lie within annulus_level of each other, so the second reads as through.)
    assert found[0] == [("through", "none")]
    assert len(found[1]) == 2 and ("blind", "flat") in found[1]


def test_a_bottom_face_within_annulus_level_is_the_holes_flat_bottom(fc, part):
    """A blind hole of 6 x 8 with a pin of 2 standing in its bottom: the pin's top is the
    flat bottom while it stays within the level tolerance, else the hole has no bottom."""
    v = fc.Vector
    level = RECOGNITION["annulus_level_rel"] * DIAGONAL + RECOGNITION["noise_mm"]
    kinds = []
    for height in (0.5 * level, 2.0 * level):
        solid = block(part).cut(part.makeCylinder(3, 8, v(30, 20, 12)))
        solid = solid.fuse(part.makeCylinder(1, height, v(30, 20, 12))).Solids[0]
        kinds.append([(h["kind"], h["attributes"]["bottom"]) for h in of_type(solid, "hole")])
    assert kinds == [[("blind", "flat")], [("through", "none")]]


def test_a_cone_narrower_than_apex_rel_is_a_drill_point(fc, part):
    v = fc.Vector
    apex = RECOGNITION["apex_rel"] * DIAGONAL
    bottoms = []
    for tip in (0.5 * apex, 2.0 * apex):
        depth = (3 - tip) / math.tan(math.radians(59))  # a 118-degree drill point
        solid = block(part).cut(part.makeCylinder(3, 8, v(30, 20, 12)))
        solid = solid.cut(part.makeCone(tip, 3, depth, v(30, 20, 12 - depth))).Solids[0]
        bottoms += [h["attributes"]["bottom"] for h in of_type(solid, "hole")]
    assert bottoms == ["cone", "flat"]


# --- chamfers ------------------------------------------------------------------------------


def _chamfered_edge(fc, part, profile, near):
    solid = prism(part, fc, profile, (0, 40, 0))
    edge = min(
        (e for e in solid.Edges if e.BoundBox.YLength > 39),
        key=lambda e: (e.BoundBox.Center - fc.Vector(*near)).Length,
    )
    return solid.makeChamfer(1.0, [edge]).Solids[0]


def test_a_bevel_is_a_chamfer_between_faces_within_chamfer_deg(fc, part):
    low, high = RECOGNITION["chamfer_deg"]
    counts = []
    for angle in (low - 1, low + 1):
        # The top turns down by `angle` at x = 50 (the faces' normals differ by it).
        drop = 50 * math.tan(math.radians(angle))
        # 40 high, so the right side stays wider than a chamfer of the bottom and the slope.
        profile = [(0, 0, 0), (100, 0, 0), (100, 0, 40 - drop), (50, 0, 40), (0, 0, 40)]
        counts.append(len(of_type(_chamfered_edge(fc, part, profile, (50, 20, 40)), "chamfer")))
    for angle in (high + 1, high - 1):
        # A wedge whose tip at x = 100 is 180 - angle degrees sharp.
        rise = 100 * math.tan(math.radians(180 - angle))
        profile = [(0, 0, 0), (100, 0, 0), (0, 0, rise)]
        counts.append(len(of_type(_chamfered_edge(fc, part, profile, (100, 20, 0)), "chamfer")))
    assert counts == [0, 1, 0, 1]


def test_a_bevel_whose_rails_part_beyond_rail_parallel_is_no_chamfer(fc, part):
    """A bevel on the block's top front edge, 1 x 1 at x = 0 and (1 + grow) x (1 + grow)
    at x = 60: its rails run along (60, 0, -grow) and (60, grow, 0), at an angle whose
    cosine is 3600 / (3600 + grow^2)."""
    limit = math.acos(RECOGNITION["rail_parallel_cos"])
    counts = []
    for angle in (0.8 * limit, 1.2 * limit):
        grow = LENGTH * math.sqrt(1 / math.cos(angle) - 1)
        a = (0.0, 0.0, HEIGHT - 1)
        b = (0.0, 1.0, HEIGHT)
        c = (LENGTH, 0.0, HEIGHT - 1 - grow)
        # The bevel's plane, grown beyond the block, extruded away from it.
        corners = [
            tuple(a[k] + s * (c[k] - a[k]) + t * (b[k] - a[k]) for k in range(3))
            for s, t in ((-0.1, -1.0), (1.1, -1.0), (1.1, 2.0), (-0.1, 2.0))
        ]
        cutter = prism(part, fc, corners, (0, -5, 5))
        solid = block(part).cut(cutter).Solids[0]
        counts.append(len(of_type(solid, "chamfer")))
    assert counts == [1, 0]


def _shaft_end(fc, part, semi_deg, radial=0.5):
    """A shaft of 20 whose end is turned down by radial at semi_deg: a convex cone."""
    axial = radial / math.tan(math.radians(semi_deg))
    shaft = part.makeCylinder(10, 40)
    cone = part.makeCone(10 - radial, 10, axial, fc.Vector(0, 0, -axial))
    return shaft.fuse(cone).removeSplitter().Solids[0]


def test_a_cone_is_a_chamfer_within_cone_chamfer_semi_deg(fc, part):
    low, high = RECOGNITION["cone_chamfer_semi_deg"]
    counts = [
        len(of_type(_shaft_end(fc, part, semi), "chamfer"))
        for semi in (low - 1, low + 1, high - 1, high + 1)
    ]
    assert counts == [0, 1, 1, 0]


def test_a_chamfer_rim_within_coaxial_of_its_shaft_leads_to_that_shaft(fc, part):
    """A neck of radius 15 on a shaft of 20, its end chamfered 1 mm by a cone whose rim
    stands proud of the neck by half the coaxial tolerance (a solid rebuilt from triangles
    leaves it so): the rim's radius is measured about the cone's axis, which may lie that far
    off the neck's, so the chamfer leads to the neck (1 x 1), not to the shaft beyond (6 x 6,
    read before on FreeCAD 1.0's turned_shaft STL)."""
    v = fc.Vector
    found = []
    for proud in (0.0, 0.5):
        base = part.makeCylinder(20, 100)
        neck = part.makeCylinder(15, 49, v(0, 0, 100))
        size = base.fuse(neck).BoundBox.DiagonalLength
        step = proud * (RECOGNITION["coaxial_rel"] * size + RECOGNITION["noise_mm"])
        cone = part.makeCone(15 + step, 14, 1, v(0, 0, 149))
        solid = base.fuse(neck).fuse(cone).removeSplitter().Solids[0]
        chamfers = of_type(solid, "chamfer")
        found.append([round(d, 3) for c in chamfers for d in c["params"].values()])
    assert found == [[1.0, 1.0], [1.0, 1.0]]


def test_a_mouth_cone_is_a_countersink_from_countersink_min_ratio(fc, part):
    """A through bore of 6 whose top edge is sunk by a 90-degree cone of outer diameter
    0.98 and 1.02 x the ratio x 6."""
    v = fc.Vector
    ratio = standard.FEATURES["countersink_min_ratio"]
    found = []
    for share in (0.98, 1.02):
        outer = share * ratio * 3
        solid = block(part).cut(part.makeCylinder(3, HEIGHT, v(30, 20, 0)))
        cone = part.makeCone(3, outer, outer - 3, v(30, 20, HEIGHT - (outer - 3)))
        solid = solid.cut(cone).Solids[0]
        holes = of_type(solid, "hole")
        found.append((holes[0]["attributes"]["head"], len(of_type(solid, "chamfer"))))
    assert found == [("plain", 1), ("countersink", 0)]


def test_a_bevel_wider_than_chamfer_max_rel_is_a_face(fc, part):
    """The block's top front edge bevelled d x d: the front face keeps HEIGHT - d across, so
    the bevel is a chamfer while d <= share x (HEIGHT - d)."""
    share = standard.FEATURES["chamfer_max_rel"]
    limit = share * HEIGHT / (1 + share)
    counts = []
    for size in (0.98 * limit, 1.02 * limit):
        solid = block(part)
        edge = [
            e for e in solid.Edges if e.BoundBox.ZMin > HEIGHT - 1e-9 and e.BoundBox.YMax < 1e-9
        ]
        solid = solid.makeChamfer(size, edge).Solids[0]
        counts.append(len(of_type(solid, "chamfer")))
    assert counts == [1, 0]


def test_a_shaft_end_cone_wider_than_chamfer_max_rel_is_a_face(fc, part):
    limit = standard.FEATURES["chamfer_max_rel"] * 10  # the shaft's radius
    counts = [len(of_type(_shaft_end(fc, part, 45, s * limit), "chamfer")) for s in (0.98, 1.02)]
    assert counts == [1, 0]


def test_fillets_join_one_run_within_the_chain_tolerance(fc, part):
    """A corner rounded by two tangent arcs, 45 degrees each, radii 2 and 2 + step."""
    v = fc.Vector
    tolerance = standard.LINEAR_TOLERANCE_ABS_MM / RECOGNITION["chain_divisor"]
    runs = []
    for step in (0.8 * tolerance, 1.2 * tolerance):
        r1, r2 = 2.0, 2.0 + step
        c1 = v(30 - r1, r1, 0)
        joint = c1 + v(math.sin(math.pi / 4), -math.cos(math.pi / 4), 0) * r1
        c2 = joint - v(math.sin(math.pi / 4), -math.cos(math.pi / 4), 0) * r2
        right = c2.x + r2

        def on(centre, radius, deg):
            return centre + v(math.sin(math.radians(deg)), -math.cos(math.radians(deg)), 0) * radius

        edges = [
            part.LineSegment(v(0, 0, 0), v(c1.x, 0, 0)).toShape(),
            part.Arc(v(c1.x, 0, 0), on(c1, r1, 22.5), joint).toShape(),
            part.Arc(joint, on(c2, r2, 67.5), v(right, c2.y, 0)).toShape(),
            part.LineSegment(v(right, c2.y, 0), v(right, 20, 0)).toShape(),
            part.LineSegment(v(right, 20, 0), v(0, 20, 0)).toShape(),
            part.LineSegment(v(0, 20, 0), v(0, 0, 0)).toShape(),
        ]
        solid = part.Face(part.Wire(edges)).extrude(v(0, 0, 10))
        runs.append(sorted(len(f["faces"]) for f in of_type(solid, "fillet")))
    assert runs == [[2], [1, 1]]


# --- regions -------------------------------------------------------------------------------


def test_facing_walls_within_parallel_cos_make_a_groove(fc, part):
    """A groove 10 wide and 6 deep along x, one wall leaning out by `lean`."""
    limit = math.degrees(math.acos(RECOGNITION["parallel_cos"]))
    kinds = []
    for lean in (0.85 * limit, 1.15 * limit):
        out = 10 * math.tan(math.radians(lean))
        profile = [(-1, 15, 14), (-1, 25, 14), (-1, 25 + out, 24), (-1, 15, 24)]
        solid = block(part).cut(prism(part, fc, profile, (LENGTH + 2, 0, 0))).Solids[0]
        kinds.append(recognised(solid))
    assert kinds == [[("groove", "prismatic", "", "")], [("pocket", "open", "", "")]]


def test_round_ends_of_half_turn_deg_make_a_slot(fc, part):
    """A pocket 8 wide and 6 deep whose ends are arcs spanning `span` degrees."""
    v = fc.Vector
    limit = RECOGNITION["half_turn_deg"]
    kinds = []
    for span in (limit - 0.5, limit + 0.5):
        radius = 4 / math.sin(math.radians(span / 2))
        sag = radius - math.sqrt(radius**2 - 16)
        edges = [
            part.LineSegment(v(20, 16, 14), v(40, 16, 14)).toShape(),
            part.Arc(v(40, 16, 14), v(40 + sag, 20, 14), v(40, 24, 14)).toShape(),
            part.LineSegment(v(40, 24, 14), v(20, 24, 14)).toShape(),
            part.Arc(v(20, 24, 14), v(20 - sag, 20, 14), v(20, 16, 14)).toShape(),
        ]
        cutter = part.Face(part.Wire(edges)).extrude(v(0, 0, 10))
        kinds.append(recognised(block(part).cut(cutter).Solids[0]))
    assert kinds == [[("pocket", "closed", "", "")], [("slot", "closed", "", "")]]


def test_a_window_with_a_wall_leaning_beyond_through_wall_cos_is_no_breakthrough(fc, part):
    limit = math.degrees(math.asin(RECOGNITION["through_wall_cos"]))
    kinds = []
    for lean in (0.5 * limit, 2.0 * limit):
        out = 22 * math.tan(math.radians(lean))
        bottom = [(20, 10, -1), (40, 10, -1), (40, 30, -1), (20, 30, -1)]
        top = [(20, 10, 21), (40 + out, 10, 21), (40 + out, 30, 21), (20, 30, 21)]
        sides = [[bottom[k], bottom[(k + 1) % 4], top[(k + 1) % 4], top[k]] for k in range(4)]
        cutter = solid_of(part, fc, [bottom, top, *sides])
        kinds.append([f[0] for f in recognised(block(part).cut(cutter).Solids[0])])
    assert kinds[0] == ["breakthrough"]
    assert "breakthrough" not in kinds[1]
