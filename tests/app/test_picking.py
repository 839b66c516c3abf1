# SPDX-License-Identifier: LGPL-2.1-or-later
"""Authoring picks measured on analytic solids: kind, value and the spectrum declaration
the scorer's own spectrum gives them."""

import math

import pytest

from cadbench_wb.app.cases import picking
from cadbench_wb.case_model import cases


@pytest.fixture(scope="module")
def plate(fc, part):
    """60 x 40 x 10 plate, two Ø8 through holes 26 apart, an R5 rounded vertical corner
    and a 2:1 slope cut along one top edge (the top face keeps 30 of the 40 mm depth)."""
    body = part.makeBox(60, 40, 10)
    body = body.cut(part.makeCylinder(4, 10, fc.Vector(17, 20, 0)))
    body = body.cut(part.makeCylinder(4, 10, fc.Vector(43, 20, 0))).Solids[0]
    corner = [e for e in body.Edges if _is_vertical_at(e, 60, 40)]
    body = body.makeFillet(5, corner)
    wedge = part.makePolygon(
        [fc.Vector(0, 0, 10), fc.Vector(0, 10, 10), fc.Vector(0, 0, 5), fc.Vector(0, 0, 10)]
    )
    cut = part.Face(wedge).extrude(fc.Vector(60, 0, 0))
    return body.cut(cut).Solids[0]


def _is_vertical_at(edge, x, y):
    a, b = edge.Vertexes[0].Point, edge.Vertexes[-1].Point
    return all(abs(p.x - x) < 1e-9 and abs(p.y - y) < 1e-9 for p in (a, b))


def _names(shape, kind, predicate):
    items = shape.Edges if kind == "Edge" else shape.Faces
    return [f"{kind}{i + 1}" for i, item in enumerate(items) if predicate(item)]


@pytest.fixture(scope="module")
def spectra(plate):
    return picking.spectra_of(plate)


def test_full_circle_edge_is_a_diameter_and_an_arc_a_radius(plate, spectra, part):
    circle = _names(plate, "Edge", lambda e: isinstance(e.Curve, part.Circle) and
                    abs(e.Curve.Radius - 4) < 1e-9)[0]  # fmt: skip
    found = picking.measurement_of(plate, [circle], spectra)
    assert found["kind"] == "diameter" and found["value"] == pytest.approx(8)
    assert found["spectrum"] == "default" and found["source"] == circle
    fillet = _names(plate, "Face", lambda f: isinstance(f.Surface, part.Cylinder) and
                    abs(f.Surface.Radius - 5) < 1e-9)[0]  # fmt: skip
    found = picking.measurement_of(plate, [fillet], spectra)
    assert (found["kind"], found["value"]) == ("radius", pytest.approx(5))


def test_parallel_planes_give_the_thickness_and_skew_planes_the_angle(plate, spectra, part):
    def horizontal(z):
        return lambda f: isinstance(f.Surface, part.Plane) and abs(f.CenterOfMass.z - z) < 1e-9

    bottom = _names(plate, "Face", horizontal(0))[0]
    top = _names(plate, "Face", horizontal(10))[0]
    found = picking.measurement_of(plate, [bottom, top], spectra)
    assert (found["kind"], found["value"], found["spectrum"]) == (
        "length",
        pytest.approx(10),
        "default",
    )
    slope = _names(plate, "Face", lambda f: isinstance(f.Surface, part.Plane)
                   and abs(abs(f.normalAt(0, 0).z) - 2 / math.sqrt(5)) < 1e-6)[0]  # fmt: skip
    found = picking.measurement_of(plate, [slope, top], spectra)
    # A 2:1 slope (1 up in 2 along) stands atan(1/2) off the top face (the acute side).
    assert found["kind"] == "angle"
    assert found["value"] == pytest.approx(math.degrees(math.atan(0.5)))
    assert found["spectrum"] == "default"


def test_hole_spacing_is_only_in_the_extended_spectrum(plate, spectra, part):
    bores = _names(plate, "Face", lambda f: isinstance(f.Surface, part.Cylinder) and
                   abs(f.Surface.Radius - 4) < 1e-9)  # fmt: skip
    found = picking.measurement_of(plate, bores, spectra)
    assert (found["kind"], found["value"], found["spectrum"]) == (
        "length",
        pytest.approx(26),
        "extended",
    )


def test_two_vertices_are_measured_but_declared_not_measurable(plate, spectra):
    def vertex_at(x, y, z):
        return next(
            f"Vertex{i + 1}"
            for i, v in enumerate(plate.Vertexes)
            if v.Point.distanceToPoint(type(v.Point)(x, y, z)) < 1e-9
        )

    # Across the bottom and up the back: a distance no edge or face pair of the plate has.
    ends = [vertex_at(0, 40, 0), vertex_at(60, 0, 0)]
    found = picking.measurement_of(plate, ends, spectra)
    assert found["kind"] == "length" and found["value"] == pytest.approx(math.hypot(60, 40))
    assert found["spectrum"] == "none"
    assert picking.measurement_of(plate, ends[:1], spectra) is None


def test_declarations_match_what_case_verify_checks(spectra):
    dims = [
        cases.Dimension("A", "length", 60.0),
        cases.Dimension("B", "diameter", 8.0),
        cases.Dimension("C", "length", 26.0),
        cases.Dimension("D", "diameter", 123.0),
    ]
    assert picking.spectrum_declarations(spectra, dims) == [
        "default",
        "default",
        "extended",
        "none",
    ]


def test_techdraw_page_dimensions_are_read_in_model_units(fc, plate):
    import TechDraw  # noqa: F401 - registers the TechDraw document types

    from cadbench_wb.app.drawing import techdraw as drawing
    from cadbench_wb.app.model import kernel_compat

    doc = fc.newDocument("picking_techdraw")
    try:
        feature = doc.addObject("Part::Feature", "Plate")
        feature.Shape = plate
        page = doc.addObject("TechDraw::DrawPage", "Page")
        template = doc.addObject("TechDraw::DrawSVGTemplate", "Template")
        template.Template = drawing.template_file()
        page.Template = template
        view = doc.addObject("TechDraw::DrawViewPart", "Top")
        view.Source = [feature]
        view.Direction = fc.Vector(0, 0, 1)
        view.Scale = 0.5
        page.addView(view)
        doc.recompute()
        kernel_compat.finished_views([view])  # TechDraw 1.0 projects in Qt's thread pool
        circle = next(
            i
            for i, e in enumerate(view.getVisibleEdges())
            if "Circle" in type(e.Curve).__name__ and e.isClosed()
        )
        dimension = doc.addObject("TechDraw::DrawViewDimension", "Dim")
        dimension.Type = "Diameter"
        dimension.References2D = [(view, f"Edge{circle}")]
        page.addView(dimension)
        doc.recompute()
        found = picking.techdraw_dimensions(page)
    finally:
        fc.closeDocument(doc.Name)
    assert [(d["kind"], round(d["value"], 6)) for d in found] == [("diameter", 8.0)]
    assert found[0]["source"] == "TechDraw Dim"


def test_picked_faces_are_bound_by_place_the_scorer_resolves_back_to_them(fc, part, plate):
    """A hole's cylinder: a point on its wall (centre of mass projected), its axis; two
    parallel planes: one point each and their normal. The same place names the same faces
    on a copy whose faces are numbered the other way round."""
    from cadbench_wb.app.dimensions import location

    hole = _names(plate, "Face", lambda f: _hole_at(f, 17))
    (binding,) = [picking.place_binding(plate, hole)]
    ((x, y, z),) = binding["at"]
    assert math.hypot(x - 17, y - 20) == pytest.approx(4)  # on the Ø8 wall
    assert 0 <= z <= 10
    assert binding["axis"] in ([0, 0, 1], [0, 0, -1])
    ends = _names(plate, "Face", lambda f: _plane_at_x(f, 0) or _plane_at_x(f, 60))
    pair = picking.place_binding(plate, ends)
    assert sorted(p[0] for p in pair["at"]) == pytest.approx([0, 60])
    assert pair["normal"] in ([1, 0, 0], [-1, 0, 0])
    copy = part.Solid(part.Shell(list(reversed(plate.Faces))))
    case = cases.Case("t", "t", "/nowhere", "r.step")
    case.dimensions = [
        cases.Dimension("d", "diameter", 8.0, geometry=binding),
        cases.Dimension("l", "length", 60.0, geometry=pair),
    ]
    on_hole, on_ends = location.bindings_of(case, copy)
    (found,) = on_hole["faces"]
    assert copy.Faces[found].isSame(plate.Faces[int(hole[0][4:]) - 1])
    # The copy's faces are the original's in reverse: copy index i is original Face(n - i).
    assert {f"Face{len(plate.Faces) - f}" for f in on_ends["faces"]} == set(ends)
    # An edge is not a face: no place form (the inferred binding stays).
    assert picking.place_binding(plate, ["Edge1"]) is None
    assert picking.place_binding(plate, hole + ["Edge1"]) is None


def _hole_at(face, x):
    surface = face.Surface
    return surface.TypeId == "Part::GeomCylinder" and abs(surface.Center.x - x) < 1e-9


def _plane_at_x(face, x):
    return (
        face.Surface.TypeId == "Part::GeomPlane"
        and abs(abs(face.normalAt(0, 0).x) - 1) < 1e-9
        and abs(face.CenterOfMass.x - x) < 1e-9
    )
