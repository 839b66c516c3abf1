# SPDX-License-Identifier: LGPL-2.1-or-later
"""The measurement spectrum of real FreeCAD solids, and the dimension stage around it."""

import math

import pytest

from cadbench_wb import standard
from cadbench_wb.case_model.cases import Case, Dimension
from cadbench_wb.metrics import dimension_matching as dims


def values(spectrum, family):
    return sorted({round(v, 6) for v in spectrum.values(family)})


@pytest.fixture(scope="module")
def spectra(fc, part):
    from cadbench_wb.app.dimensions.spectrum import spectrum_of

    return spectrum_of


def holed_box(fc, part):
    """40 x 30 x 20 with an Ø10 through hole whose axis is 12 from x=0 and 10 from y=0."""
    return part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0))).Solids[0]


def test_default_spectrum_of_a_holed_box(fc, part, spectra):
    s = spectra(holed_box(fc, part))
    assert values(s, "length") == [20, 30, 40]
    assert values(s, "diameter") == [10]
    assert values(s, "radius") == [5]
    assert values(s, "angle") == [90]
    assert s.mode == "default"
    assert s.diagonal == pytest.approx(math.sqrt(40**2 + 30**2 + 20**2))


def test_axis_positions_are_measured_only_in_extended_mode(fc, part, spectra):
    shape = holed_box(fc, part)
    default, extended = spectra(shape), spectra(shape, "extended")
    for position in (12.0, 28.0, 10.0):  # from the hole's axis to the faces around it
        target = Dimension("p", "length", position)
        assert dims.match(target, default) is None
        assert dims.match(target, extended).source == "axis_position"
    with pytest.raises(ValueError):
        spectra(shape, "everything")


def test_geometry_names_point_at_the_measured_sub_elements(fc, part, spectra):
    import Part

    shape = holed_box(fc, part)
    s = spectra(shape, "extended")
    hole = dims.match(Dimension("h", "diameter", 10.0), s)
    assert hole.source in ("cylinder", "circle")
    element = shape.getElement(hole.geometry[0])
    measured = element.Surface if hole.source == "cylinder" else element.Curve
    assert isinstance(measured, (Part.Cylinder, Part.Circle))
    width = dims.match(Dimension("w", "length", 30.0), s)
    faces = [shape.getElement(n) for n in width.geometry]
    if width.source == "face_distance":
        assert abs(faces[0].Surface.Position.y - faces[1].Surface.Position.y) == pytest.approx(30)
    position = dims.match(Dimension("p", "length", 12.0), s)
    named = {type(shape.getElement(n).Surface).__name__ for n in position.geometry}
    assert named == {"Cylinder", "Plane"}


def test_a_2_to_1_slope_gives_its_angle_and_the_supplement(fc, part, spectra):
    vec = fc.Vector
    points = [
        vec(0, 0, 0),
        vec(80, 0, 0),
        vec(80, 0, 10),
        vec(40, 0, 30),
        vec(0, 0, 30),
        vec(0, 0, 0),
    ]
    wedge = part.Face(part.makePolygon(points)).extrude(vec(0, 20, 0))
    s = spectra(wedge)
    slope = math.degrees(math.atan(0.5))
    angles = values(s, "angle")
    for expected in (slope, 90 - slope, 90 + slope, 180 - slope, 90):
        assert any(abs(a - expected) < 1e-6 for a in angles), expected
    assert not any(abs(a - 45) < 0.25 for a in angles)


def test_curved_faces_give_radii_diameters_and_cone_angles(fc, part, spectra):
    vec = fc.Vector
    ball = part.makeSphere(6, vec(0, 0, 0))
    cone = part.makeCone(10, 5, 20, vec(50, 0, 0))  # half angle atan(5/20)
    ring = part.makeTorus(20, 3, vec(0, 60, 0))
    s = spectra(part.makeCompound([ball, cone, ring]))
    assert 12 in values(s, "diameter") and 6 in values(s, "radius")
    assert 3 in values(s, "radius")  # the torus's minor radius (a fillet)
    half = math.degrees(math.atan(5 / 20))
    angles = values(s, "angle")
    assert any(abs(a - half) < 1e-6 for a in angles)
    assert any(abs(a - 2 * half) < 1e-6 for a in angles)


def test_a_half_cylinder_is_a_diameter_a_quarter_only_a_radius(fc, part, spectra):
    vec = fc.Vector
    half = part.makeCylinder(8, 10, vec(0, 0, 0), vec(0, 0, 1), 180)
    quarter = part.makeCylinder(7, 10, vec(40, 0, 0), vec(0, 0, 1), 90)
    s = spectra(part.makeCompound([half, quarter]))
    assert 16 in values(s, "diameter") and 8 in values(s, "radius")
    assert 14 not in values(s, "diameter") and 7 in values(s, "radius")


def test_bolt_circle_appears_in_extended_mode(fc, part, spectra):
    vec = fc.Vector
    disc = part.makeCylinder(60, 10).cut(part.makeCylinder(20, 10))
    for k in range(6):
        a = 2 * math.pi * k / 6 + 0.3
        disc = disc.cut(part.makeCylinder(5, 10, vec(45 * math.cos(a), 45 * math.sin(a), 0)))
    target = Dimension("pcd", "diameter", 90.0)
    assert dims.match(target, spectra(disc)) is None
    found = dims.match(target, spectra(disc, "extended"))
    assert found.source == "bolt_circle" and len(found.geometry) == 6


def test_a_drilled_blind_hole_has_its_depth_to_the_rim_in_extended_mode(fc, part, spectra):
    """60 x 40 x 30, a counterbore Ø14 x 5 on top, then an Ø8 bore 18 deep from the top to
    the rim of its 118° drill point; beside it a through hole with a 90° countersink (a
    cone that widens at the mouth, no drill point). ASME Y14.5 and ISO 129 dimension a
    drilled depth to the rim: 18 from the top, 13 from the counterbore's floor, and the
    point's tip (18 + 4 / tan 59° = 20.40) is no depth."""
    point = 4 / math.tan(math.radians(59))
    drill = part.makeCylinder(4, 18, fc.Vector(20, 20, 12))
    drill = drill.fuse(part.makeCone(0, 4, point, fc.Vector(20, 20, 12 - point)))
    drill = drill.fuse(part.makeCylinder(7, 5, fc.Vector(20, 20, 25)))
    sink = part.makeCylinder(3, 30, fc.Vector(45, 20, 0))
    sink = sink.fuse(part.makeCone(3, 6, 3, fc.Vector(45, 20, 27)))
    shape = part.makeBox(60, 40, 30).cut(drill).cut(sink).Solids[0]
    extended = spectra(shape, "extended")
    depths = [m for m in extended.all_within("length", 0, 1e9) if m.source == "hole_depth"]
    assert sorted(round(m.value, 9) for m in depths) == [13.0, 18.0]
    assert dims.match(Dimension("tip", "length", 18 + point), extended) is None
    assert dims.match(Dimension("d", "length", 18.0), spectra(shape)) is None
    for m in depths:  # the entry plane, the bore, the drill point
        faces = [shape.getElement(name).Surface for name in m.geometry]
        assert [type(f).__name__ for f in faces] == ["Plane", "Cylinder", "Cone"]


def test_the_spectrum_does_not_depend_on_pose(fc, part, spectra):
    shape = holed_box(fc, part)
    moved = shape.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(1, 2, 3), 37)
    moved.translate(fc.Vector(100, -40, 25))
    for mode in ("default", "extended"):
        a, b = spectra(shape, mode), spectra(moved, mode)
        for family in dims.FAMILIES:
            assert values(a, family) == values(b, family)


def test_many_parallel_faces_stay_near_linear(fc, part, spectra):
    """A comb of 300 teeth: 602 levels in one direction are paired within a window."""
    vec = fc.Vector
    comb = part.makeBox(300 * 4, 10, 5)
    teeth = [part.makeBox(2, 10, 5, vec(4 * k, 0, 5)) for k in range(300)]
    comb = comb.fuse(teeth).removeSplitter()
    s = spectra(comb)
    window = standard.SPECTRUM["neighbour_window"]
    face_pairs = sum(len(b.values) for b in s.blocks if b.source == "face_distance")
    assert face_pairs <= 602 * (window + 2) + 10
    assert dims.match(Dimension("t", "length", 2.0), s) is not None  # a tooth
    assert dims.match(Dimension("L", "length", 1198.0), s) is not None  # first to last tooth


def case_of(fc, part, tmp_path, targets):
    path = tmp_path / "ref.step"
    holed_box(fc, part).exportStep(str(path))
    return Case("demo", "Demo", str(tmp_path), "ref.step", dimensions=targets), str(path)


def test_dimension_stage_reports_per_dimension_detail(fc, part, tmp_path, models):
    from cadbench_wb.app.scoring import score_files

    targets = [
        Dimension("L", "length", 40.0),
        Dimension("D", "diameter", 10.0),
        Dimension("X", "length", 12.0, spectrum="extended"),
    ]
    case, reference = case_of(fc, part, tmp_path, targets)
    options = {"only": ["dimensions"]}
    result = score_files(reference, models["holed_bigger_hole"], options, case=case)
    assert result["dimensionRecall"] == pytest.approx(1 / 3)
    assert result["referenceCoverage"] == pytest.approx(2 / 3)
    assert set(result["randomHitRate"]) == {"length", "angle"}
    rows = {d["id"]: d for d in result["dimensions"]}
    assert rows["L"]["status"] == "found" and rows["L"]["candidateGeometry"]
    assert rows["D"]["status"] == "not_found" and rows["D"]["referenceGeometry"]
    assert rows["X"]["status"] == "not_measurable_on_reference"
    verdict = result["verdicts"]["dimensionRecall"]
    assert verdict["verdict"] == "FAIL" and verdict["reachable"] == "FAIL"
    assert verdict["ceiling"] == pytest.approx(2 / 3)
    assert result["dimensionSpectrum"]["mode"] == "default"
    extended = score_files(
        reference, models["holed_moved"], dict(options, spectrum="extended"), case=case
    )
    assert extended["dimensionRecall"] == 1.0 and extended["referenceCoverage"] == 1.0
    assert extended["verdicts"]["dimensionRecall"]["verdict"] == "PASS"
    assert extended["dimensionSpectrum"]["mode"] == "extended"


def test_without_a_case_the_metric_is_not_applicable(models):
    from cadbench_wb.app.scoring import score_files

    result = score_files(models["holed"], models["holed_moved"], {"only": ["dimensions"]})
    assert result["dimensionRecall"] is None and result["referenceCoverage"] is None
    assert result["randomHitRate"] is None
    verdict = result["verdicts"]["dimensionRecall"]
    assert verdict["verdict"] == verdict["reachable"] == "not applicable"
    assert verdict["reason"] == "no case: no target dimensions"
