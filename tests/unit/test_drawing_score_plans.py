# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench drawing-score` on drawings as drafters make them (issue 13): registration on
the part, annotation set aside, per-layer geometry, x100 and empty-block attempts ranked
below every clean one.

Fixtures: tests/data/drafting (tools/make_drafting_fixtures.py; PROVENANCE.md). The
expected figures come from the generator's construction: every drafter draws the same
part lines, so each candidate sample lies on a gold line (geometry 1.0, not merely high).
"""

import math
import os

import ezdxf
import matplotlib.image
import numpy as np
import pytest
from ezdxf.enums import TextEntityAlignment
from ezdxf.math import Matrix44

from cadbench_wb import standard
from cadbench_wb.drafting import classify, geometry
from cadbench_wb.drafting.reading import quiet_ezdxf
from cadbench_wb.drafting.score import score_drawings

quiet_ezdxf()
DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "drafting")
# tools/make_drafting_fixtures.py: PLAN_LENGTH, STAIR_LENGTH and the stair's parts.
PLAN_LENGTH = 124227.433
STAIR_LENGTH, STAIR_OUTLINE, TREADS = 18000.0, 7200.0, 9
# The plan's part bounding box: columns 300 x 300 centred on x 100..11900, y 100..7900.
PART_DIAGONAL = math.hypot(12100, 8100)
FALLOFF = standard.DRAWING_2D["match_distance_rel"] * PART_DIAGONAL * 2


def fixture(name):
    return os.path.join(DATA, name + ".dxf")


@pytest.fixture(scope="module")
def plans():
    gold = fixture("plan_gold")
    names = (
        "plan_b",
        "plan_c",
        "plan_d",
        "plan_a_moved",
        "plan_b_x100",
        "plan_c_x100",
        "plan_b_empty_block",
        "plan_c_stair_off",
        "plan_unparseable",
    )
    return {name: score_drawings(gold, fixture(name)) for name in names}


CLEAN = ("plan_b", "plan_c", "plan_d", "plan_a_moved")


def geometry_of(result):
    return result["components"]["geometry_similarity"]


def test_clean_attempts_have_the_golds_geometry_whatever_their_annotation(plans):
    for name in CLEAN:
        result = plans[name]
        assert result["failure"] is None
        assert geometry_of(result)["value"] == 1.0, name
        expected = [-30000.0, -15000.0] if name == "plan_a_moved" else [0.0, 0.0]
        assert result["registration"]["translation"] == pytest.approx(expected, abs=1e-6)
        assert geometry_of(result)["counts"]["gold_length"] == pytest.approx(PLAN_LENGTH, rel=1e-4)


def test_annotation_is_classified_as_the_construction_draws_it(plans):
    gold = plans["plan_b"]["classification"]["gold"]
    # Drafter a: 6 grid lines with a bubble at both ends, each labelled; 7 dimensions;
    # 3 room names and a title; 9 column hatches; 24 wall lines, 2 door leaves, 2 arcs,
    # 2 glazing lines, the stair outline, 9 treads and 9 columns are the part.
    assert gold["by_class"] == {
        "bubble": 12,
        "bubble_label": 12,
        "dimension": 7,
        "grid_line": 6,
        "hatch": 9,
        "part": 49,
        "text": 4,
    }
    assert gold["by_layer"]["A-GRID"] == {"bubble": 12, "bubble_label": 12, "grid_line": 6}
    assert gold["by_layer"]["A-STAIR"] == {"part": 10}
    # Drafter b: bubbles at one end only; walls as 4 polylines and 12 lines.
    b = plans["plan_b"]["classification"]["candidate"]["by_class"]
    assert (b["bubble"], b["bubble_label"], b["grid_line"], b["part"]) == (6, 6, 6, 41)
    # Drafter c: bubbles as blocks with an attribute, plus a north sign; a leader and a note.
    c = plans["plan_c"]["classification"]["candidate"]["by_class"]
    assert (c["bubble"], c["bubble_label"], c["leader"], c["text"]) == (13, 13, 1, 5)
    # Drafter d: grid labels without circles, just past both ends of each grid line; the
    # numbers 1, 2, 3 are labels, not dimensions.
    d = plans["plan_d"]["classification"]["candidate"]["by_class"]
    assert (d["grid_label"], d["grid_line"], d["text"], d["dimension"]) == (12, 6, 4, 7)
    assert "bubble" not in d
    assert plans["plan_d"]["components"]["dimension_similarity"]["counts"]["candidate"] == 7


def test_x100_and_empty_block_attempts_rank_below_every_clean_one(plans):
    worst_clean = min(plans[name]["score"] for name in CLEAN)
    for name in ("plan_b_x100", "plan_c_x100", "plan_b_empty_block"):
        assert geometry_of(plans[name])["value"] == 1.0
        assert plans[name]["score"] < worst_clean, name
    for name in ("plan_b_x100", "plan_c_x100"):
        dims = plans[name]["components"]["dimension_similarity"]
        assert dims["counts"]["values_agree"] == 0
        assert dims["value"] <= standard.DRAWING_2D["placement_share"]
    # Seven dimensions all drawn by one empty block: nothing shows, nothing can match.
    empty = plans["plan_b_empty_block"]["components"]["dimension_similarity"]
    assert empty["value"] == 0.0 and empty["counts"]["unmatchable"] == [0, 7]
    assert plans["plan_unparseable"]["failure"] == "unreadable_dxf"
    assert plans["plan_unparseable"]["score"] == 0.0


def test_a_wrong_stair_reads_so_in_its_layer(plans):
    result = plans["plan_c_stair_off"]
    layers = geometry_of(result)["layers"]
    for name in ("A-WALL", "A-DOOR", "A-GLAZ", "A-COLS"):
        assert layers[name]["value"] == 1.0 and layers[name]["same_layer"] == 1.0
    # Treads 120 off (twice the falloff distance): only the outline coincides, and each
    # tread earns credit at most within the falloff of its two ends on the outline.
    ends = TREADS * 2 * FALLOFF
    stair = layers["A-STAIR"]
    assert (
        STAIR_OUTLINE / STAIR_LENGTH <= stair["same_layer"] <= (STAIR_OUTLINE + ends) / STAIR_LENGTH
    )
    assert stair["recall"] == pytest.approx(stair["precision"], abs=1e-3)
    lost = STAIR_LENGTH - STAIR_OUTLINE
    total = geometry_of(result)["value"]
    assert 1 - lost / PLAN_LENGTH <= total <= 1 - (lost - ends) / PLAN_LENGTH


def _without_layers(source, target, layers):
    doc = ezdxf.readfile(source)
    msp = doc.modelspace()
    for entity in list(msp):
        if entity.dxf.layer in layers:
            msp.delete_entity(entity)
    doc.saveas(target)
    return str(target)


def _with_more_annotation(source, target):
    """Another grid axis far out, a balloon, notes and a leader: annotation only."""
    doc = ezdxf.readfile(source)
    msp = doc.modelspace()
    msp.add_line((3000, -4000), (3000, 9000), dxfattribs={"layer": "A-GRID"})
    msp.add_circle((3000, 9400), 400, dxfattribs={"layer": "A-GRID"})
    msp.add_text("A'", dxfattribs={"height": 350}).set_placement(
        (3000, 9400), align=TextEntityAlignment.MIDDLE_CENTER
    )
    msp.add_text("ISSUED FOR REVIEW", dxfattribs={"height": 500}).set_placement((-6000, -6000))
    msp.add_leader([(1000, 1000), (-2000, -2000)])
    doc.saveas(target)
    return str(target)


def test_geometry_holds_when_annotation_is_removed_or_added(tmp_path):
    gold = fixture("plan_gold")
    bare = _without_layers(gold, tmp_path / "bare.dxf", {"A-GRID", "A-DIMS", "A-TEXT"})
    busy = _with_more_annotation(fixture("plan_b"), tmp_path / "busy.dxf")
    for gold_path, candidate in ((gold, bare), (bare, gold), (gold, busy), (bare, busy)):
        result = score_drawings(gold_path, candidate)
        assert geometry_of(result)["value"] == 1.0
        assert result["registration"]["translation"] == [0.0, 0.0]


def test_part_drawings_register_on_the_part(tmp_path):
    gold = fixture("part_gold")
    for name, shift in (("part_b", [0.0, 0.0]), ("part_b_moved", [400.0, -250.0])):
        result = score_drawings(gold, fixture(name))
        assert geometry_of(result)["value"] == 1.0
        assert result["registration"]["translation"] == pytest.approx(shift, abs=1e-9)
        found = result["classification"]["candidate"]["by_class"]
        # 4 holes x 2 centre marks + 2 long centre lines; 2 hatched bands; the balloon.
        assert found["centre_line"] == 10 and found["hatch"] == 2
        assert (found["bubble"], found["bubble_label"], found["leader"]) == (1, 1, 1)
        assert found["part"] == 8  # outline, 4 holes, bore, 2 section bands


def test_diagnostic_shows_registered_part_and_what_was_set_aside(tmp_path):
    png = tmp_path / "stair.png"
    score_drawings(fixture("plan_gold"), fixture("plan_c_stair_off"), diagnostic=str(png))
    image = matplotlib.image.imread(png)[..., :3]
    red = (image[..., 0] > 0.7) & (image[..., 1] < 0.2) & (image[..., 2] < 0.2)
    blue = (image[..., 2] > 0.7) & (image[..., 0] < 0.2)
    black = image.sum(axis=2) < 0.3
    grey = (np.abs(image - 0.72) < 0.03).all(axis=2)
    green = (np.abs(image - np.array([0.55, 0.82, 0.55])) < 0.03).all(axis=2)
    assert red.sum() > 100 and blue.sum() > 100 and black.sum() > red.sum()
    assert grey.sum() > 1000 and green.sum() > 1000
    # The red and blue treads sit in the stair: a 2400-wide patch of the 12000 plan.
    for mask in (red, blue):
        _rows, columns = np.nonzero(mask[:1024])
        assert np.ptp(columns) < 0.25 * 1024


def _variant(source, target, *, move=None, shift_annotation=None):
    doc = ezdxf.readfile(source)
    msp = doc.modelspace()
    if shift_annotation is not None:
        for entity in msp:
            if entity.dxftype() in ("DIMENSION", "TEXT", "MTEXT", "LEADER", "HATCH"):
                entity.transform(Matrix44.translate(*shift_annotation, 0))
    if move is not None:
        for entity in msp:
            entity.transform(Matrix44.translate(*move, 0))
    doc.saveas(target)
    return str(target)


@pytest.mark.parametrize("name", ["flange", "example01"])
def test_real_drawings_against_moved_and_reannotated_selves(name, tmp_path):
    source = os.path.join(DATA, "qcad", f"{name}.dxf")
    moved = _variant(source, tmp_path / "moved.dxf", move=(1000, -500))
    shifted = _variant(source, tmp_path / "shifted.dxf", shift_annotation=(15, 10))
    result = score_drawings(source, moved)
    assert result["score"] == 1.0
    assert result["registration"]["translation"] == pytest.approx([-1000, 500], abs=1e-9)
    result = score_drawings(source, shifted)
    assert geometry_of(result)["value"] == 1.0
    assert result["score"] < 1.0  # the dimensions and notes did move


def _bubble_doc(path, half, text):
    """A 100 x 60 box, a circle of radius ``half`` at its top right holding ``text``."""
    doc = ezdxf.new("R2010")
    msp = doc.modelspace()
    msp.add_lwpolyline([(0, 0), (100, 0), (100, 60), (0, 60)], close=True)
    msp.add_circle((150, 80), half)
    msp.add_text(text, dxfattribs={"height": 2.5}).set_placement(
        (150, 80), align=TextEntityAlignment.MIDDLE_CENTER
    )
    doc.saveas(path)
    return ezdxf.readfile(path)


@pytest.mark.parametrize(
    ("half", "text", "bubble"),
    [
        # bubble_size_in_text_heights = 4: a circle up to 4 text heights in radius is a
        # bubble, a larger one holding a word is geometry with a note in it.
        (4.0 * 2.5 * 0.99, "A", True),
        (4.0 * 2.5 * 1.01, "A", False),
        # bubble_label_chars = 5: grid and tag labels are short; a sentence is a note.
        (5.0, "ABCDE", True),
        (5.0, "ABCDEF", False),
    ],
)
def test_bubble_rule_boundaries(tmp_path, half, text, bubble):
    doc = _bubble_doc(tmp_path / "b.dxf", half, text)
    curves = geometry.curves_of(doc, 0.0005, 400_000)
    found = classify.classified(curves).report["by_class"]
    assert found.get("bubble", 0) == (1 if bubble else 0)
    assert found.get("bubble_label", 0) == (1 if bubble else 0)


def test_dxf_check_keeps_its_verdicts_on_the_plans():
    from cadbench_wb.drafting.checks import check_file
    from cadbench_wb.drafting.reading import DrawingUnreadable

    expected = {
        "plan_gold": {None},
        "plan_b": {None},
        "plan_c": {None},
        "plan_b_x100": {"dimlfac"},
        "plan_c_x100": {"dimlfac"},
        "plan_b_empty_block": {"empty_block"},
    }
    for name, reasons in expected.items():
        found = {entry["reason"] for entry in check_file(fixture(name))["dimensions"]}
        assert found == reasons, name
    with pytest.raises(DrawingUnreadable) as refused:
        check_file(fixture("plan_unparseable"))
    assert refused.value.reason == "unreadable_dxf"


def test_grid_label_reach_boundary(tmp_path):
    """line_label_reach_in_text_heights = 2.5: a short text whose middle is within 2.5
    text heights of a long grid line's end labels it; farther, it is a note."""
    reach = standard.DRAWING_2D_ANNOTATION["line_label_reach_in_text_heights"]
    found = {}
    for label, factor in (("near", 0.99), ("far", 1.01)):
        doc = ezdxf.new("R2010")
        msp = doc.modelspace()
        msp.add_lwpolyline([(0, 0), (100, 0), (100, 60), (0, 60)], close=True)
        msp.add_line((50, -20), (50, 80))  # crosses the box, both ends free
        msp.add_text("B", dxfattribs={"height": 4}).set_placement(
            (50, 80 + factor * reach * 4), align=TextEntityAlignment.MIDDLE_CENTER
        )
        doc.saveas(tmp_path / f"{label}.dxf")
        curves = geometry.curves_of(ezdxf.readfile(tmp_path / f"{label}.dxf"), 0.0005, 400_000)
        found[label] = classify.classified(curves).report["by_class"]
    assert found["near"].get("grid_label") == 1 and found["near"].get("grid_line") == 1
    assert "grid_label" not in found["far"] and found["far"].get("centre_line") == 1


def _edited(source, target, edit):
    doc = ezdxf.readfile(source)
    edit(doc, doc.modelspace())
    doc.saveas(target)
    return str(target)


def test_registration_ignores_extra_and_missing_pieces(tmp_path):
    """An extra 6 x 4 m room 8 m east moves the bounding-box centre by 4 m; missing stair
    lines move it not at all but lose their length. Neither moves the registration."""

    def extra_room(doc, msp):
        corners = [(20000, 0), (26000, 0), (26000, 4000), (20000, 4000)]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            msp.add_line(a, b, dxfattribs={"layer": "A-WALL"})

    def no_stair(doc, msp):
        for entity in list(msp):
            if entity.dxf.layer == "A-STAIR":
                msp.delete_entity(entity)

    gold = fixture("plan_gold")
    extra = score_drawings(gold, _edited(fixture("plan_b"), tmp_path / "extra.dxf", extra_room))
    precision = PLAN_LENGTH / (PLAN_LENGTH + 20000)
    assert extra["registration"]["translation"] == [0.0, 0.0]
    assert geometry_of(extra)["counts"]["recall"] == 1.0
    assert geometry_of(extra)["value"] == pytest.approx(2 * precision / (1 + precision), rel=1e-4)
    missing = score_drawings(gold, _edited(fixture("plan_b"), tmp_path / "gone.dxf", no_stair))
    recall = 1 - STAIR_LENGTH / PLAN_LENGTH
    assert missing["registration"]["translation"] == [0.0, 0.0]
    assert geometry_of(missing)["value"] == pytest.approx(2 * recall / (1 + recall), rel=1e-4)
    assert geometry_of(missing)["layers"]["A-STAIR"]["recall"] == 0.0


def test_dimensions_sharing_one_drawn_block_cannot_match(tmp_path):
    """Seed 003: one block drawn for every dimension shows one text at one place."""

    def share(doc, msp):
        dims = [e for e in msp if e.dxftype() == "DIMENSION"]
        for dim in dims[1:]:
            dim.dxf.geometry = dims[0].dxf.geometry

    shared = _edited(fixture("plan_b"), tmp_path / "shared.dxf", share)
    result = score_drawings(fixture("plan_gold"), shared)
    dims = result["components"]["dimension_similarity"]
    assert dims["value"] == 0.0 and dims["counts"]["unmatchable"] == [0, 7]
    assert result["score"] < score_drawings(fixture("plan_gold"), fixture("plan_b"))["score"]
