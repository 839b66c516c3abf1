# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a dimension prints (drafting/printed.py), on real ezdxf documents and files."""

import ezdxf
import pytest

from cadbench_wb.drafting.printed import parse_printed_value, printed_dimensions
from cadbench_wb.drafting.reading import quiet_ezdxf

quiet_ezdxf()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("42", (None, 42.0)),
        ("12,5", (None, 12.5)),
        ("R5", ("radius", 5.0)),
        ("Ø10 H7", ("diameter", 10.0)),
        ("%%c28", ("diameter", 28.0)),
        ("⌀6.5", ("diameter", 6.5)),
        ("\u22056.1788", ("diameter", 6.1788)),
        ("2xR1.4", ("radius", 1.4)),
        ("4X Ø6.5 THRU", ("diameter", 6.5)),
        ("45°", ("angular", 45.0)),
        ("45%%d", ("angular", 45.0)),
        ("135Â°", ("angular", 135.0)),  # TechDraw's UTF-8 degree sign read as cp1252
        ("45°30'", ("angular", 45.5)),
        ("1.5x45°", (None, 1.5)),  # a chamfer: its length
        ("31.83%%p0.1", (None, 31.83)),
        ("(18)", (None, 18.0)),
        ("M10x1.5", ("diameter", 10.0)),
        ("1'-4 1/2\"", (None, 16.5)),
        ("3/4", (None, 0.75)),
        ("text", (None, None)),
        ("", (None, None)),
    ],
)
def test_parse_printed_value(text, expected):
    hint, value = parse_printed_value(text)
    assert hint == expected[0]
    assert value == pytest.approx(expected[1]) if expected[1] is not None else value is None


def _drawing(**override):
    doc = ezdxf.new("R2010", setup=True)
    msp = doc.modelspace()
    msp.add_lwpolyline([(0, 0), (42.5, 0), (42.5, 20), (0, 20)], close=True)
    dim = msp.add_linear_dim(base=(21, -5), p1=(0, 0), p2=(42.5, 0), override=override)
    dim.render()
    return doc, dim.dimension


def test_ezdxf_default_style_prints_dimlfac_100_times_the_lines():
    # Seed 003: ezdxf's EZDXF dimension style ships DIMLFAC = 100.
    doc, _dim = _drawing()
    (printed,) = printed_dimensions(doc)
    assert printed.measured == pytest.approx(42.5)
    assert printed.dimlfac == 100
    assert printed.printed_value == pytest.approx(4250)
    assert (printed.ok, printed.reason) == (False, "dimlfac")


def test_correct_dimension_is_ok_and_reads_its_block_text():
    doc, _dim = _drawing(dimlfac=1.0)
    (printed,) = printed_dimensions(doc)
    assert (printed.printed, printed.printed_value, printed.ok) == ("42.5", 42.5, True)
    assert printed.block_entity_count > 0 and printed.family == "linear"


def test_decimal_comma_and_postfix_are_read_back():
    doc, _dim = _drawing(dimlfac=1.0, dimdsep=ord(","), dimpost="<> mm")
    (printed,) = printed_dimensions(doc)
    assert printed.printed == "42,5 mm"
    assert printed.printed_value == pytest.approx(42.5) and printed.ok


def test_without_block_the_generated_text_follows_the_style():
    # What a CAD program regenerates: measurement x DIMLFAC, DIMDEC decimals, DIMZIN.
    doc, dim = _drawing(dimlfac=2.0, dimdec=3, dimzin=0)
    dim.dxf.discard("geometry")
    (printed,) = printed_dimensions(doc)
    assert printed.block is None
    assert printed.printed == "85.000"
    assert printed.reason == "dimlfac"


def test_fractional_units_print_as_fractions():
    doc, dim = _drawing(dimlfac=1.0, dimlunit=5, dimdec=3)
    dim.dxf.discard("geometry")
    (printed,) = printed_dimensions(doc)
    assert printed.printed == "42 1/2"
    assert printed.printed_value == pytest.approx(42.5) and printed.ok


def test_text_override_is_authoritative():
    doc = ezdxf.new("R2010", setup=True)
    msp = doc.modelspace()
    msp.add_linear_dim(
        base=(21, -5), p1=(0, 0), p2=(42, 0), text="40", override={"dimlfac": 1}
    ).render()
    msp.add_linear_dim(
        base=(21, -9), p1=(0, 0), p2=(42, 0), text="<> TYP", override={"dimlfac": 1}
    ).render()
    lying, honest = printed_dimensions(doc)
    assert (lying.printed_value, lying.override, lying.reason) == (40.0, True, "text_override")
    assert (honest.printed, honest.ok) == ("42 TYP", True)


def test_radius_diameter_and_angle_families():
    doc = ezdxf.new("R2010", setup=True)
    msp = doc.modelspace()
    msp.add_circle((0, 0), 5)
    msp.add_radius_dim((0, 0), radius=5, angle=30, override={"dimlfac": 1}).render()
    msp.add_diameter_dim((0, 0), radius=5, angle=120, override={"dimlfac": 1}).render()
    msp.add_angular_dim_3p(
        base=(8, 8), center=(0, 0), p1=(10, 0), p2=(0, 10), override={"dimadec": 0}
    ).render()
    radius, diameter, angle = printed_dimensions(doc)
    assert (radius.family, radius.printed, radius.ok) == ("radius", "R5", True)
    assert (diameter.family, diameter.printed_value, diameter.ok) == ("diameter", 10.0, True)
    assert angle.family == "angular"
    assert angle.measured == pytest.approx(90.0) and angle.printed_value == 90.0 and angle.ok


def test_empty_block_shared_by_every_dimension_is_flagged():
    # Seed 003: one empty drawing block shared by all dimensions once gave full marks.
    doc, _dim = _drawing(dimlfac=1.0)
    msp = doc.modelspace()
    msp.add_linear_dim(base=(-5, 10), p1=(0, 0), p2=(0, 20), angle=90, override={"dimlfac": 1})
    empty = doc.blocks.new_anonymous_block(type_char="D")
    for dim in msp.query("DIMENSION"):
        dim.dxf.geometry = empty.name
    found = printed_dimensions(doc)
    assert [d.reason for d in found] == ["empty_block", "empty_block"]
    assert all(d.block_entity_count == 0 for d in found)


def test_shared_block_that_draws_is_still_flagged():
    doc, first = _drawing(dimlfac=1.0)
    second = doc.modelspace().add_linear_dim(
        base=(21, -9), p1=(0, 0), p2=(42.5, 0), override={"dimlfac": 1}
    )
    second.dimension.dxf.geometry = first.dxf.geometry
    assert [d.reason for d in printed_dimensions(doc)] == ["shared_block", "shared_block"]


def test_dimension_inside_inserted_block_is_placed_per_insert(tmp_path):
    doc = ezdxf.new("R2010", setup=True)
    block = doc.blocks.new("PART")
    block.add_line((0, 0), (10, 0))
    block.add_linear_dim(base=(5, -3), p1=(0, 0), p2=(10, 0), override={"dimlfac": 1}).render()
    msp = doc.modelspace()
    msp.add_blockref("PART", (100, 0))
    msp.add_blockref("PART", (0, 50))
    path = tmp_path / "blocks.dxf"
    doc.saveas(path)
    doc = ezdxf.readfile(path)
    placed = printed_dimensions(doc)
    assert len(placed) == 2 and len({d.handle for d in placed}) == 1
    assert sorted(d.text_position[0] for d in placed) == pytest.approx([5.0, 105.0])
    assert all(d.printed_value == 10.0 and d.ok for d in placed)
    (defined,) = printed_dimensions(doc, each_insert=False)
    assert defined.insert_path == ("PART",)


def test_missing_dimension_style_falls_back_to_the_header(tmp_path):
    doc, dim = _drawing(dimlfac=1.0)
    dim.dxf.dimstyle = "NOT_THERE"
    path = tmp_path / "nostyle.dxf"
    doc.saveas(path)
    (printed,) = printed_dimensions(ezdxf.readfile(path))
    assert (printed.printed_value, printed.ok) == (42.5, True)
