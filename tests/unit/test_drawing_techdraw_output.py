# SPDX-License-Identifier: LGPL-2.1-or-later
"""The drawing tools accept the drawings `cadbench drawing` writes.

tests/data/drafting/techdraw_bearing_block.dxf is the bundled bearing_block case's drawing
(PROVENANCE.md): TechDraw wrote two zero-long SPLINEs whose knots are all equal, where
ezdxf's renderer divides by the knot span. One entity nothing can draw is left out and
named; it does not make the whole gold invalid.
"""

import os

import ezdxf
from conftest import run_cli

from cadbench_wb.drafting import raster
from cadbench_wb.drafting.checks import check_file
from cadbench_wb.drafting.score import score_drawings

HERE = os.path.dirname(os.path.abspath(__file__))
BEARING = os.path.join(HERE, "..", "data", "drafting", "techdraw_bearing_block.dxf")
# The two SPLINEs with equal knots (found by reading the file with ezdxf, PROVENANCE.md).
DEGENERATE = {"A41", "A46"}


def test_a_techdraw_drawing_scores_one_against_itself():
    result = score_drawings(BEARING, BEARING)
    assert result["failure"] is None, result["failure_detail"]
    assert result["score"] == 1.0
    for side in ("gold", "candidate"):
        named = {entry.split()[1].rstrip(":") for entry in result["notDrawn"][side]}
        assert named == DEGENERATE
        assert all(e.startswith("SPLINE ") for e in result["notDrawn"][side])


def test_the_command_scores_it_and_says_what_it_left_out():
    status, out, err = run_cli("drawing-score", BEARING, BEARING)
    assert status == 0, err
    assert out.startswith("score 1.0000")
    assert "not drawn (left out of the raster): SPLINE A41: ZeroDivisionError" in out


def test_one_spline_with_equal_knots_is_skipped_and_the_rest_drawn(tmp_path):
    doc = ezdxf.new()
    space = doc.modelspace()
    space.add_line((0, 0), (100, 0))
    space.add_line((100, 0), (100, 50))
    spline = space.add_open_spline([(40, 20), (40, 20)], degree=1, knots=[0.5] * 4)
    path = str(tmp_path / "degenerate.dxf")
    doc.saveas(path)
    player, not_drawn = raster.recorded_strokes(ezdxf.readfile(path))
    assert not_drawn == [f"SPLINE {spline.dxf.handle}: ZeroDivisionError: float division by zero"]
    segments = raster.segments_of(player, 0.1)
    assert len(segments) == 2  # the two lines, nothing of the spline
    result = score_drawings(path, path)
    assert result["failure"] is None and result["score"] == 1.0


def test_dxf_check_says_which_dimension_it_cannot_check_and_why():
    """TechDraw 0.20 writes radius and diameter dimensions collapsed onto the circle's
    centre: nothing measures them. dxf-check names each and where its points lie; every
    linear dimension reads true or names the point that lies off the drawn lines."""
    report = check_file(BEARING)
    flagged = [d for d in report["dimensions"] if not d["ok"]]
    assert flagged
    for entry in flagged:
        if entry["reason"] == "undefined_measurement":
            assert entry["family"] in ("radius", "diameter")
            assert "every definition point is at (" in entry["detail"]
        else:
            assert entry["reason"] == "off_geometry" and "e.g. (" in entry["detail"]
    linear = [d for d in report["dimensions"] if d["family"] == "linear"]
    assert all(d["measured"] == d["printed_value"] for d in linear)
