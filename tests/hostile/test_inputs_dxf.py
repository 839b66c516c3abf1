# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hostile DXF drawings in dxf-check and drawing-score: 3,000 nested blocks (measured
iteratively, refused past standard.DXF_MAX_BLOCK_DEPTH, never a RecursionError) and NaN
or infinite coordinates (refused with a reason before anything measures them, so numpy
prints no RuntimeWarning). Drawings are generated here with ezdxf."""

import ezdxf
import pytest
from inputs_support import cli, json_of, refused

from cadbench_wb import standard
from cadbench_wb.drafting.reading import DrawingUnreadable, block_depth, read_drawing


def _plate(path, extra=None) -> str:
    doc = ezdxf.new("R2010", setup=True)
    msp = doc.modelspace()
    msp.add_lwpolyline([(0, 0), (80, 0), (80, 40), (0, 40)], close=True)
    msp.add_circle((20, 20), 6)
    msp.add_linear_dim(base=(40, -10), p1=(0, 0), p2=(80, 0)).render()
    if extra:
        extra(doc, msp)
    doc.saveas(path)
    return str(path)


def _nesting(levels: int):
    """A chain of blocks each placing the one before: INSERT depth ``levels``."""

    def extra(doc, msp):
        inner = None
        for level in range(levels):
            block = doc.blocks.new(f"LEVEL{level}")
            if inner is None:
                block.add_line((0, 0), (1, 1))
            else:
                block.add_blockref(inner, (0.5, 0))
            inner = block.name
        msp.add_blockref(inner, (100, 0))

    return extra


def _bad_number(value):
    def extra(doc, msp):
        msp.add_line((0, 0), (value, 10))

    return extra


@pytest.fixture(scope="module")
def gold(tmp_path_factory):
    return _plate(tmp_path_factory.mktemp("gold") / "gold.dxf")


def test_three_thousand_nested_blocks_are_refused_in_both_front_doors(gold, tmp_path):
    deep = _plate(tmp_path / "deep.dxf", _nesting(3000))
    status, out, err = cli("dxf-check", deep, "--json", "-")
    refused(status, err, 2, "blocks_too_deep", "dxf-check")
    assert "3000 levels" in err and json_of(out)["failure"] == "blocks_too_deep"
    status, out, err = cli("drawing-score", gold, deep, "--json", "-")
    assert status == 0 and "Traceback" not in err, err
    result = json_of(out)
    assert (result["failure"], result["score"]) == ("blocks_too_deep", 0.0)
    status, out, err = cli("drawing-score", deep, gold)
    assert status == 4 and "gold_invalid: gold blocks_too_deep" in err, err


@pytest.mark.parametrize(
    "value,reason",
    [
        (float("nan"), "non_finite_coordinates"),
        (float("inf"), "non_finite_coordinates"),
        (float("-inf"), "non_finite_coordinates"),
        (1e308, "coordinates_out_of_range"),  # finite, but its differences overflow
    ],
)
def test_unmeasurable_coordinates_are_refused_without_numpy_warnings(gold, tmp_path, value, reason):
    bad = _plate(tmp_path / "bad.dxf", _bad_number(value))
    status, out, err = cli("dxf-check", bad, "--json", "-")
    refused(status, err, 2, reason, "dxf-check")
    assert "RuntimeWarning" not in err
    status, out, err = cli("drawing-score", gold, bad, "--json", "-")
    assert status == 0 and "Traceback" not in err and "RuntimeWarning" not in err, err
    assert json_of(out)["failure"] == reason


def test_coordinate_limit_at_its_boundary(tmp_path):
    limit = standard.DXF_MAX_COORDINATE
    read_drawing(_plate(tmp_path / "far.dxf", _bad_number(limit)))
    with pytest.raises(DrawingUnreadable) as refusal:
        read_drawing(_plate(tmp_path / "farther.dxf", _bad_number(-limit * (1 + 1e-9))))
    assert refusal.value.reason == "coordinates_out_of_range"


def test_block_depth_limit_at_its_boundary(tmp_path):
    limit = standard.DXF_MAX_BLOCK_DEPTH
    deepest = _plate(tmp_path / "deepest.dxf", _nesting(limit))
    assert block_depth(read_drawing(deepest)) == limit
    with pytest.raises(DrawingUnreadable) as refusal:
        read_drawing(_plate(tmp_path / "deeper.dxf", _nesting(limit + 1)))
    assert refusal.value.reason == "blocks_too_deep"


def test_the_deepest_allowed_drawing_is_checked_to_the_end(tmp_path):
    # At the limit, ezdxf's own (recursive) audit and the checks still run through.
    deepest = _plate(tmp_path / "deepest.dxf", _nesting(standard.DXF_MAX_BLOCK_DEPTH))
    status, out, err = cli("dxf-check", deepest, "--json", "-")
    assert status == 0 and "Traceback" not in err, err
    assert json_of(out)["failure"] is None


def test_an_unplaced_chain_of_blocks_is_measured_too(tmp_path):
    # ezdxf's audit walks every block definition, placed or not.
    def unplaced(doc, msp):
        _nesting(3000)(doc, msp)
        msp.delete_entity(msp.query("INSERT").first)

    with pytest.raises(DrawingUnreadable) as refusal:
        read_drawing(_plate(tmp_path / "unplaced.dxf", unplaced))
    assert refusal.value.reason == "blocks_too_deep"


def test_a_block_cycle_is_measured_once_not_for_ever(tmp_path):
    def cycle(doc, msp):
        first, second = doc.blocks.new("FIRST"), doc.blocks.new("SECOND")
        first.add_line((0, 0), (1, 1))
        first.add_blockref("SECOND", (1, 0))
        second.add_blockref("FIRST", (1, 0))
        msp.add_blockref("FIRST", (100, 0))

    assert block_depth(read_drawing(_plate(tmp_path / "cycle.dxf", cycle))) == 2
