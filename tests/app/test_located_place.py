# SPDX-License-Identifier: LGPL-2.1-or-later
"""A target bound by place (`geometry: {at: ...}`): the face through each named point of
the reference, whatever number the reference gives that face. Every point comes from the
construction of the part it names."""

import pytest

from cadbench_wb import standard
from cadbench_wb.case_model.cases import Case, Dimension

# 80 x 40 x 20 block, a Ø12 through hole at (20, 20) and a Ø12 boss 10 high at (60, 20):
# two R6 cylinders, only the hole is the target.
ON_HOLE = [20.0 + 6.0, 20.0, 10.0]  # the hole's wall, half way down
TOP_EDGE = [40.0, 0.0, 20.0]  # where the top meets the front face (y = 0)


def plate(fc, part):
    block = part.makeBox(80, 40, 20).cut(part.makeCylinder(6, 20, fc.Vector(20, 20, 0)))
    boss = part.makeCylinder(6, 10, fc.Vector(60, 20, 20))
    return block.fuse(boss).removeSplitter().Solids[0]


def renumbered(part, shape):
    """The same solid with its faces in reverse order (as another FreeCAD version or an
    exporter may number them)."""
    return part.Solid(part.Shell(list(reversed(shape.Faces))))


def bind(shape, **geometry):
    from cadbench_wb.app.dimensions import location

    case = Case("t", "t", "/nowhere", "r.step")
    case.dimensions = [Dimension("d", "diameter", 12.0, geometry=geometry)]
    return location.bindings_of(case, shape)[0]


def located(fc, reference, candidate, geometry):
    from test_located_dimensions import located_run

    targets = [Dimension("d", "diameter", 12.0, geometry=geometry), Dimension("u", "diameter", 12)]
    outcomes, _ = located_run(fc, reference, candidate, targets)
    return [o.located for o in outcomes]


def test_a_place_binds_the_face_through_the_point(fc, part):
    reference = plate(fc, part)
    binding = bind(reference, at=[ON_HOLE])
    (face,) = binding["faces"]
    assert binding["kind"] == "at"
    assert reference.Faces[face].Surface.TypeId == "Part::GeomCylinder"
    assert reference.Faces[face].Surface.Center.x == pytest.approx(20)
    on_hole, inferred = located(fc, reference, plate(fc, part), {"at": [ON_HOLE]})
    assert (on_hole["binding"], on_hole["found"], on_hole["total"]) == ("at", 1, 1)
    assert on_hole["at"] == [ON_HOLE]
    assert on_hole["boundFaces"] == [f"Face{face + 1}"]
    # Unbound: a hole and a boss carry it, so it is ambiguous with both as candidates.
    assert inferred["status"] == "ambiguous" and len(inferred["candidates"]) == 2


def test_a_place_on_a_bore_binds_after_the_reference_was_meshed(fc, part):
    """A meshed face's Part BoundBox is its mesh's, inside a curved surface: a place on a
    bore's wall, where no mesh vertex lies, fell outside the box and resolved to no face
    (NIST CTC-02's automatic case, once the shape stage had meshed the reference)."""
    import MeshPart

    reference = plate(fc, part)
    MeshPart.meshFromShape(Shape=reference, LinearDeflection=2.0, AngularDeflection=1.0)
    bore = next(f for f in reference.Faces if f.Surface.TypeId == "Part::GeomCylinder")
    box = bore.BoundBox  # the mesh's: where the bore's wall lies farthest outside it
    gaps = {(1, 0): 26 - box.XMax, (-1, 0): box.XMin - 14, (0, 1): 26 - box.YMax,
            (0, -1): box.YMin - 14}  # fmt: skip
    (dx, dy), gap = max(gaps.items(), key=lambda item: item[1])
    assert gap > standard.LINEAR_TOLERANCE_ABS_MM
    on_wall = [20.0 + 6.0 * dx, 20.0 + 6.0 * dy, 10.0]
    binding = bind(reference, at=[on_wall])
    (face,) = binding["faces"]
    assert reference.Faces[face].Surface.Center.x == pytest.approx(20)


def test_the_same_place_finds_the_same_face_when_the_faces_are_renumbered(fc, part):
    original = plate(fc, part)
    copy = renumbered(part, original)
    assert copy.Volume == pytest.approx(original.Volume)
    (first,) = bind(original, at=[ON_HOLE])["faces"]
    (second,) = bind(copy, at=[ON_HOLE])["faces"]
    assert first != second  # another number ...
    assert copy.Faces[second].isSame(original.Faces[first])  # ... the same face
    # So a face-number binding written on the original names another face on the copy.
    assert not copy.Faces[first].isSame(original.Faces[first])
    # Located on either, against a candidate whose hole is Ø10: the target's one member is
    # the hole on both, and is not found there.
    candidate = part.makeBox(80, 40, 20).cut(part.makeCylinder(5, 20, fc.Vector(20, 20, 0)))
    candidate = candidate.fuse(part.makeCylinder(6, 10, fc.Vector(60, 20, 20)))
    candidate = candidate.removeSplitter().Solids[0]
    for reference in (original, copy):
        entry = located(fc, reference, candidate, {"at": [ON_HOLE]})[0]
        assert (entry["found"], entry["total"]) == (0, 1)
        centre = entry["members"][0]["reference"]["geometry"][0]["centre"]
        assert centre[:2] == pytest.approx([20, 20])


def test_a_point_on_no_face_is_a_named_error(fc, part):
    from cadbench_wb.app.dimensions import location

    with pytest.raises(location.BindingInvalid, match=r"geometry.at \[40, 20, 30\]: no face"):
        bind(plate(fc, part), at=[[40.0, 20.0, 30.0]])  # above the top, beside the boss


def test_a_point_on_an_edge_names_both_faces_and_a_direction_settles_it(fc, part):
    from cadbench_wb.app.dimensions import location

    reference = plate(fc, part)
    with pytest.raises(location.BindingInvalid, match="2 faces pass through it") as caught:
        bind(reference, at=[TOP_EDGE])
    assert "add normal: or axis:" in str(caught.value)
    (top,) = bind(reference, at=[TOP_EDGE], normal=[0, 0, -1])["faces"]  # either sense
    assert reference.Faces[top].CenterOfMass.z == pytest.approx(20)
    (front,) = bind(reference, at=[TOP_EDGE], normal=[0, 1, 0])["faces"]
    assert reference.Faces[front].CenterOfMass.y == pytest.approx(0)
    with pytest.raises(location.BindingInvalid, match=r"no face there has normal \[1, 0, 0\]"):
        bind(reference, at=[TOP_EDGE], normal=[1, 0, 0])
    with pytest.raises(location.BindingInvalid, match="no face there has axis"):
        bind(reference, at=[TOP_EDGE], axis=[0, 0, 1])  # planes have no axis
    (hole,) = bind(reference, at=[ON_HOLE], axis=[0, 0, 1])["faces"]
    assert reference.Faces[hole].Surface.TypeId == "Part::GeomCylinder"


@pytest.mark.parametrize("above, binds", [(0.04, True), (0.06, False)])
def test_a_point_is_on_a_face_within_the_linear_tolerance(fc, part, above, binds):
    """standard.LINEAR_TOLERANCE_ABS_MM (0.05 mm, seed 001's linear tolerance) on either
    side: a point written to the drawing's precision still names its face."""
    from cadbench_wb.app.dimensions import location

    assert standard.LINEAR_TOLERANCE_ABS_MM == 0.05
    point = [[40.0, 30.0, 20.0 + above]]  # over the top, away from hole and boss
    if binds:
        (face,) = bind(plate(fc, part), at=point)["faces"]
        assert plate(fc, part).Faces[face].CenterOfMass.z == pytest.approx(20)
    else:
        with pytest.raises(location.BindingInvalid, match="no face"):
            bind(plate(fc, part), at=point)


def test_scoring_with_a_place_on_no_face_is_case_invalid_not_a_traceback(fc, part, tmp_path):
    from conftest import run_cli

    folder = tmp_path / "placed"
    folder.mkdir()
    plate(fc, part).exportStep(str(folder / "reference.step"))
    (folder / "case.yaml").write_text(
        "id: placed\ntitle: placed\nreference: reference.step\nanchoring: false\n"
        "dimensions:\n"
        "  - {id: D1, kind: diameter, value: 12, geometry: {at: [26, 20, 10], axis: [0, 0, 1]}}\n"
        "  - {id: D2, kind: diameter, value: 12, geometry: {at: [40, 20, 30]}}\n"
    )
    status, out, err = run_cli(
        "score", "--case", str(folder), str(folder / "reference.step"), "--json", "-"
    )
    assert status == 2 and "Traceback" not in err  # a usage error's exit status
    assert "case_invalid" in err and "D2: geometry.at [40, 20, 30]: no face" in err
