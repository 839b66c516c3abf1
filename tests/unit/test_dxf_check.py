# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench dxf-check`: printed numbers against the drawing's own lines (seed 003, L0-L2).

Real third-party drawings (tests/data/realworld/dxf, values from its PROVENANCE.md) and
drawings written here with ezdxf, checked through the real command line and in-process.
"""

import json
import os

import dxf_fixtures
import ezdxf
import pytest
from conftest import REALWORLD, run_cli

from cadbench_wb.drafting.checks import check_file
from cadbench_wb.drafting.reading import quiet_ezdxf

quiet_ezdxf()
DXF = os.path.join(REALWORLD, "dxf")


def plate(path, *, dimlfac=1.0, lie=None, units=4, extra=None, size=1.0):
    """80 x 40 plate with a Ø16 hole, dimensioned 80, 40 and Ø16 (coordinates x size)."""
    doc = ezdxf.new("R2010", setup=True)
    doc.header["$INSUNITS"] = units
    msp = doc.modelspace()

    def at(x, y):
        return (x * size, y * size)

    msp.add_lwpolyline([at(0, 0), at(80, 0), at(80, 40), at(0, 40)], close=True)
    msp.add_circle(at(60, 20), 8 * size)
    style = {} if dimlfac is None else {"dimlfac": dimlfac}
    dimensions = (
        msp.add_linear_dim(
            base=at(40, -10), p1=at(0, 0), p2=at(80, 0), text=lie or "<>", override=style
        ),
        msp.add_linear_dim(base=at(-10, 20), p1=at(0, 0), p2=at(0, 40), angle=90, override=style),
        msp.add_diameter_dim(at(60, 20), radius=8 * size, angle=45, override=style),
    )
    for dimension in dimensions:
        dimension.render()
    if extra:
        extra(doc, msp)
    doc.saveas(path)
    return str(path)


def by_handle(report):
    return {d["handle"]: d for d in report["dimensions"]}


def test_correct_drawing_is_clean(tmp_path):
    report = check_file(plate(tmp_path / "ok.dxf"))
    assert report["ok"] is True and report["failure"] is None
    assert [level["ok"] for level in report["levels"].values()] == [True, True, True]
    values = sorted(d["printed_value"] for d in report["dimensions"])
    assert values == [16.0, 40.0, 80.0]
    assert all(d["ok"] and d["on_geometry"] for d in report["dimensions"])


def test_library_default_dimlfac_100_is_flagged(tmp_path):
    # Seed 003: ezdxf's EZDXF style prints every dimension 100 times its lines.
    report = check_file(plate(tmp_path / "lfac.dxf", dimlfac=None))
    assert report["ok"] is False and report["levels"]["L2"]["ok"] is False
    assert {d["reason"] for d in report["dimensions"]} == {"dimlfac"}
    assert sorted(d["printed_value"] for d in report["dimensions"]) == [1600, 4000, 8000]
    assert sorted(d["measured"] for d in report["dimensions"]) == pytest.approx([16, 40, 80])
    codes = {f["code"]: f["count"] for f in report["levels"]["L2"]["findings"]}
    assert codes["dimlfac"] == 3


def test_lying_text_override_is_flagged(tmp_path):
    report = check_file(plate(tmp_path / "lie.dxf", lie="90"))
    flagged = [d for d in report["dimensions"] if not d["ok"]]
    assert len(flagged) == 1
    assert (flagged[0]["printed"], flagged[0]["measured"]) == ("90", 80.0)
    assert flagged[0]["reason"] == "text_override" and flagged[0]["override"] is True


def test_half_size_sheet_is_clean_at_its_declared_scale(tmp_path):
    # Drawn at 1:2 with DIMLFAC 2 (or overrides printing model sizes, as TechDraw does):
    # flagged at 1:1 with a uniform-ratio hint, clean when the scale is declared.
    path = plate(tmp_path / "half.dxf", dimlfac=2.0, size=0.5)
    at_one = check_file(path)
    assert {d["reason"] for d in at_one["dimensions"]} == {"dimlfac"}
    codes = [f["code"] for f in at_one["levels"]["L2"]["findings"]]
    assert "uniform_ratio" in codes
    at_half = check_file(path, scale=2.0)
    assert at_half["ok"] is True and at_half["scale"] == 2.0
    status, out, err = run_cli("dxf-check", path, "--scale", "1:2", "--json", "-")
    assert status == 0 and json.loads(out)["ok"] is True, err


def test_dimension_measuring_nothing_drawn_is_off_geometry(tmp_path):
    def stray(doc, msp):
        # Prints 25, measures 25, but no line of the plate runs from x=100 to x=125.
        msp.add_linear_dim(
            base=(112, 50), p1=(100, 45), p2=(125, 45), override={"dimlfac": 1}
        ).render()

    report = check_file(plate(tmp_path / "stray.dxf", extra=stray))
    flagged = [d for d in report["dimensions"] if not d["ok"]]
    assert [(d["printed_value"], d["reason"]) for d in flagged] == [(25.0, "off_geometry")]


def test_geometry_findings_of_level_one(tmp_path):
    def defects(doc, msp):
        msp.add_line((10, 10), (10, 10))
        msp.add_line((0, 0), (80, 0))
        msp.add_line((80, 0), (0, 0))  # the same line, drawn the other way

    report = check_file(plate(tmp_path / "defects.dxf", units=0, extra=defects))
    findings = {f["code"]: f for f in report["levels"]["L1"]["findings"]}
    assert findings["zero_length"]["count"] == 1
    assert findings["duplicate"]["count"] == 1
    assert "units_undeclared" in findings
    assert report["levels"]["L1"]["ok"] is False and report["ok"] is False


def test_dimension_without_block_is_regenerated_and_warned(tmp_path):
    path = plate(tmp_path / "noblock.dxf")
    doc = ezdxf.readfile(path)
    for dim in doc.modelspace().query("DIMENSION"):
        dim.dxf.discard("geometry")
    doc.saveas(path)
    report = check_file(path)
    assert all(d["ok"] and d["block"] is None for d in report["dimensions"])
    codes = {f["code"]: f["severity"] for f in report["levels"]["L2"]["findings"]}
    assert codes == {"no_block": "warning"}
    assert report["ok"] is True


def test_part_drawing_prints_its_construction_values(tmp_path):
    # Stands in for QCAD's example01.dxf (GPL-3.0, not redistributed): the same text forms.
    report = check_file(dxf_fixtures.part_drawing(tmp_path / "part.dxf"))
    values = sorted(d["printed_value"] for d in report["dimensions"])
    assert values == pytest.approx(sorted(v for v, _ in dxf_fixtures.PART_PRINTS.values()))
    printed = {d["printed"] for d in report["dimensions"]}
    assert {"Ø40", "(20)", "30 h11"} <= printed
    assert report["levels"]["L1"]["facts"]["units"] == "millimeters"
    assert all(d["ok"] for d in report["dimensions"]) and report["ok"] is True


def test_unstored_measurements_are_recomputed_from_definition_points(tmp_path):
    # As in QCAD's flange.dxf: group 42 is -1 and no block; values come from the points.
    report = check_file(dxf_fixtures.flange_drawing(tmp_path / "flange.dxf"))
    shown = sorted((d["family"], d["printed"]) for d in report["dimensions"])
    assert shown == dxf_fixtures.FLANGE_PRINTS
    assert all(d["ok"] and d["block"] is None for d in report["dimensions"])
    codes = [f["code"] for f in report["levels"]["L1"]["findings"]]
    assert codes == ["zero_length"]


def test_dimensions_inside_blocks_are_read_through_their_inserts(tmp_path):
    # As in QCAD's entities.dxf: every dimension sits in a block placed by INSERTs.
    report = check_file(dxf_fixtures.sheet_in_blocks(tmp_path / "sheet.dxf", copies=2))
    # A block placed twice holds its three dimensions once: each is one DIMENSION entity.
    assert len(report["dimensions"]) == 3
    assert all(d["insert_path"] == ["SHEET"] for d in report["dimensions"])
    not_numbers = [d for d in report["dimensions"] if d["printed"] == "text"]
    assert len(not_numbers) == 1 and {d["reason"] for d in not_numbers} == {"not_a_number"}
    assert report["levels"]["L1"]["facts"]["units"] == "unitless"


def test_ezdxf_uncommon_inch_drawing():
    report = check_file(os.path.join(DXF, "ezdxf", "uncommon.dxf"))
    assert report["levels"]["L1"]["facts"]["units"] == "inches"
    families = sorted(d["family"] for d in report["dimensions"])
    assert families.count("ordinate") == 4 and families.count("angular") == 3
    # Every printed number equals what its definition points measure...
    for entry in report["dimensions"]:
        assert entry["printed_value"] == pytest.approx(entry["measured"], abs=0.5), entry
    # ...but this parser test sheet dimensions geometry it does not draw.
    assert {d["reason"] for d in report["dimensions"] if not d["ok"]} == {"off_geometry"}


def test_ezdxf_dimension_in_block():
    report = check_file(os.path.join(DXF, "ezdxf", "dimension_in_block.dxf"))
    assert report["ok"] is True
    assert sorted(len(d["insert_path"]) for d in report["dimensions"]) == [0, 1]
    assert all(d["printed_value"] == 10.0 for d in report["dimensions"])


def test_cli_json_and_exit_zero_when_checked(tmp_path):
    status, out, err = run_cli(
        "dxf-check", plate(tmp_path / "lfac.dxf", dimlfac=None), "--json", "-"
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["ok"] is False and report["failure"] is None
    for entry in report["dimensions"]:
        assert {"handle", "printed", "printed_value", "measured", "ok", "reason"} <= set(entry)


def _bad_inputs(tmp_path):
    good = plate(tmp_path / "good.dxf")
    data = open(good, "rb").read()
    truncated = tmp_path / "truncated.dxf"
    truncated.write_bytes(data[: len(data) // 2])
    dwg = tmp_path / "drawing.dxf"
    dwg.write_bytes(b"AC1032\x00\x00\x00\x00\x00\x0b\x01" + bytes(range(256)) * 4)
    garbage = tmp_path / "garbage.dxf"
    garbage.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    empty = tmp_path / "empty_model.dxf"
    ezdxf.new("R2010").saveas(empty)
    return {
        "truncated_dxf": truncated,
        "dwg_not_dxf": dwg,
        "not_dxf": garbage,
        "empty_model_space": empty,
        "missing_file": tmp_path / "nowhere.dxf",
    }


def test_bad_inputs_get_a_named_reason_and_non_zero_exit(tmp_path):
    for reason, path in _bad_inputs(tmp_path).items():
        status, out, err = run_cli("dxf-check", str(path), "--json", "-")
        assert status == 2, (reason, err)
        assert json.loads(out)["failure"] == reason
        assert err.startswith(f"cadbench dxf-check: {reason}:") and "Traceback" not in err


def test_binary_dxf_is_read(tmp_path):
    doc = ezdxf.readfile(plate(tmp_path / "ascii.dxf"))
    binary = tmp_path / "binary.dxf"
    doc.saveas(binary, fmt="bin")
    report = check_file(str(binary))
    assert report["levels"]["L0"]["facts"]["format"] == "binary"
    assert report["ok"] is True
