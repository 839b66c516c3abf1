# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench drawing-score`: gold/candidate pairs drawn with ezdxf, scores from construction.

The plate: an 80 x 40 outline, holes Ø12 at (20, 20) and Ø16 at (60, 20), dimensions
80, 40 and Ø16, and the note "PLATE 1". Drawn length: 240 + 12π + 16π.
"""

import json
import math
import os

import dxf_fixtures
import ezdxf
import numpy as np
import pytest
from conftest import run_cli
from ezdxf.math import Matrix44

from cadbench_wb import standard
from cadbench_wb.drafting.reading import quiet_ezdxf
from cadbench_wb.drafting.score import FAILURE_REASONS, score_drawings

quiet_ezdxf()
LENGTH = 240 + 12 * math.pi + 16 * math.pi
# Circles are weighed by their flattened chords (chord error 1e-4 of the diagonal): the
# drawn length is short of 2πr by about 1e-4, so shares of length agree to 2e-4.
FLATTENING = 2e-4


def plate(path, *, hole=True, dimlfac=1.0, lie=None, matrix=None, note=True, extra=None):
    doc = ezdxf.new("R2010", setup=True)
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    msp.add_lwpolyline([(0, 0), (80, 0), (80, 40), (0, 40)], close=True)
    if hole:
        msp.add_circle((20, 20), 6)
    msp.add_circle((60, 20), 8)
    # dimlfac None: ezdxf's EZDXF style as shipped (DIMLFAC 100, seed 003).
    style = {"dimtxt": 2.5} if dimlfac is None else {"dimlfac": dimlfac, "dimtxt": 2.5}
    for dimension in (
        msp.add_linear_dim(base=(40, -10), p1=(0, 0), p2=(80, 0), text=lie or "<>", override=style),
        msp.add_linear_dim(base=(-10, 20), p1=(0, 0), p2=(0, 40), angle=90, override=style),
        msp.add_diameter_dim((60, 20), radius=8, angle=45, override=style),
    ):
        dimension.render()
    if note:
        msp.add_text("PLATE 1", dxfattribs={"height": 3.5}).set_placement((0, 50))
    if extra:
        extra(doc, msp)
    if matrix is not None:
        for entity in msp:
            entity.transform(matrix)
    doc.saveas(path)
    return str(path)


@pytest.fixture(scope="module")
def gold(tmp_path_factory):
    return plate(tmp_path_factory.mktemp("gold") / "gold.dxf")


def components(result):
    return {name: part["value"] for name, part in result["components"].items()}


def expected_score(result):
    parts = [p for p in result["components"].values() if p["applicable"]]
    raw = sum(p["weight"] * p["value"] for p in parts) / sum(p["weight"] for p in parts)
    gate = 0.35 + 0.65 * result["components"]["geometry_similarity"]["value"]
    return raw, gate, min(raw, gate)


def test_identical_scores_one(gold, tmp_path):
    result = score_drawings(gold, plate(tmp_path / "same.dxf"))
    assert result["failure"] is None
    assert result["score"] == 1.0
    assert set(components(result).values()) == {1.0}
    assert result["components"]["dimension_similarity"]["counts"]["gold"] == 3


def test_translated_scores_one(gold, tmp_path):
    moved = plate(tmp_path / "moved.dxf", matrix=Matrix44.translate(130, -70, 0))
    result = score_drawings(gold, moved)
    assert result["score"] == pytest.approx(1.0, abs=1e-9)
    assert result["components"]["geometry_similarity"]["counts"]["translation"] == pytest.approx(
        [-130, 70]
    )


def test_rotated_90_degrees_scores_lower(gold, tmp_path):
    turned = plate(tmp_path / "turned.dxf", matrix=Matrix44.z_rotate(math.pi / 2))
    result = score_drawings(gold, turned)
    values = components(result)
    # The best translation (80, -40) lays the turned plate's Ø16 on the gold's, its right
    # and top edges on 40 of the gold's: 80 + 16π of the drawn length coincides (the
    # bounding-box registration of before found less: 0.3 and below).
    assert result["registration"]["translation"] == pytest.approx([80, -40])
    assert values["geometry_similarity"] == pytest.approx((80 + 16 * math.pi) / LENGTH, abs=0.01)
    # 0.6 x 0.40 of geometry plus 0.8 x 0.25 of dimension values: near 0.53 (was < 0.5).
    assert result["score"] == pytest.approx(expected_score(result)[2]) and result["score"] < 0.6
    # The dimensions still print 80, 40 and Ø16: value credit, but no placement credit.
    assert values["dimension_similarity"] == pytest.approx(0.8, abs=0.05)


def test_missing_hole_lowers_geometry_by_its_share_of_length(gold, tmp_path):
    result = score_drawings(gold, plate(tmp_path / "no_hole.dxf", hole=False))
    recall = (LENGTH - 12 * math.pi) / LENGTH
    geometry = result["components"]["geometry_similarity"]
    assert geometry["counts"]["recall"] == pytest.approx(recall, rel=FLATTENING)
    assert geometry["counts"]["precision"] == pytest.approx(1.0)
    assert geometry["value"] == pytest.approx(2 * recall / (1 + recall), rel=FLATTENING)
    raw, gate, score = expected_score(result)
    assert (result["raw"], result["geometry_gate"]) == pytest.approx((raw, gate))
    assert result["score"] == pytest.approx(score) and result["score"] < 1.0


def test_dimlfac_100_loses_every_dimension_value(gold, tmp_path):
    result = score_drawings(gold, plate(tmp_path / "lfac.dxf", dimlfac=None))
    dims = result["components"]["dimension_similarity"]
    # Each printed value is 100 x too large: at most the 20 % placement credit is left.
    assert dims["counts"]["values_agree"] == 0
    assert 0.15 <= dims["value"] <= 0.2
    assert result["components"]["geometry_similarity"]["value"] == 1.0
    assert result["score"] == pytest.approx(expected_score(result)[2])
    assert result["score"] < 0.85


def test_lying_text_override_loses_that_dimension(gold, tmp_path):
    result = score_drawings(gold, plate(tmp_path / "lie.dxf", lie="90"))
    # Two dimensions agree (1.0 each), the lying one keeps its placement (0.2): 2.2 / 3.
    assert result["components"]["dimension_similarity"]["value"] == pytest.approx(2.2 / 3)
    assert result["components"]["geometry_similarity"]["value"] == 1.0


def test_extra_junk_lowers_precision(gold, tmp_path):
    def junk(doc, msp):
        msp.add_lwpolyline([(35, 5), (45, 5), (45, 15), (35, 15)], close=True)
        msp.add_text("JUNK", dxfattribs={"height": 3.5}).set_placement((50, 50))

    result = score_drawings(gold, plate(tmp_path / "junk.dxf", extra=junk))
    precision = LENGTH / (LENGTH + 40)
    geometry = result["components"]["geometry_similarity"]
    assert geometry["counts"]["precision"] == pytest.approx(precision, rel=FLATTENING)
    assert geometry["value"] == pytest.approx(2 * precision / (1 + precision), rel=FLATTENING)
    texts = result["components"]["standalone_text_annotation_similarity"]
    assert texts["value"] == pytest.approx(2 * 1 / 3)  # 1 of 1 gold note, 2 candidate notes


def test_isolated_crossing_line_is_a_centre_line(gold, tmp_path):
    def centre_line(doc, msp):
        msp.add_line((60, -4), (60, 44))  # crosses the plate and the hole, ends free

    result = score_drawings(gold, plate(tmp_path / "centre.dxf", extra=centre_line))
    geometry = result["components"]["geometry_similarity"]
    assert geometry["value"] == 1.0
    assert geometry["counts"]["centre_lines_excluded"] == [0, 1]


def test_dimensions_drafted_as_text_count_as_dimensions(tmp_path):
    gold = plate(tmp_path / "gold.dxf")
    doc = ezdxf.readfile(gold)
    manual = ezdxf.new("R2010")
    msp = manual.modelspace()
    for entity in doc.modelspace():
        if entity.dxftype() == "DIMENSION":
            x, y, _z = entity.dxf.text_midpoint
            text = {"80": "80", "40": "40", "Ø16": "%%c16"}[
                entity.get_geometry_block().query("MTEXT")[0].plain_text()
            ]
            msp.add_text(text, dxfattribs={"height": 2.5}).set_placement(
                (x, y), align=ezdxf.enums.TextEntityAlignment.MIDDLE_CENTER
            )
        else:
            msp.add_entity(entity.copy())
    manual.saveas(tmp_path / "manual.dxf")
    result = score_drawings(gold, str(tmp_path / "manual.dxf"))
    assert result["components"]["dimension_similarity"]["value"] == pytest.approx(1.0)


def test_missing_component_is_not_applicable_and_weights_renormalise(tmp_path):
    gold = plate(tmp_path / "gold_plain.dxf", note=False)
    result = score_drawings(gold, plate(tmp_path / "noted.dxf", hole=False))
    text = result["components"]["standalone_text_annotation_similarity"]
    assert text["applicable"] is False and text["value"] is None
    raw, _gate, _score = expected_score(result)
    assert result["raw"] == pytest.approx(raw)


def test_same_inputs_give_identical_json(gold, tmp_path):
    candidate = plate(tmp_path / "no_hole.dxf", hole=False)
    first = json.dumps(score_drawings(gold, candidate), sort_keys=True)
    assert json.dumps(score_drawings(gold, candidate), sort_keys=True) == first


def test_diagnostic_png_colours(gold, tmp_path):
    import matplotlib.image

    png = tmp_path / "diagnostic.png"
    result = score_drawings(gold, plate(tmp_path / "no_hole.dxf", hole=False), diagnostic=str(png))
    assert result["diagnostic"] == str(png)
    image = matplotlib.image.imread(png)[..., :3]
    red = (image[..., 0] > 0.7) & (image[..., 1] < 0.2) & (image[..., 2] < 0.2)
    black = image.sum(axis=2) < 0.3
    blue = (image[..., 2] > 0.7) & (image[..., 0] < 0.2)
    assert red.sum() > 100 and black.sum() > red.sum() and blue.sum() == 0
    # The red pixels are the missing Ø12 hole: a ring left of the Ø16 one.
    rows, columns = np.nonzero(red)
    assert np.ptp(columns) == pytest.approx(np.ptp(rows), rel=0.1)


def _failures(tmp_path, gold):
    dwg = tmp_path / "candidate_dwg.dxf"
    dwg.write_bytes(b"AC1032\x00\x00\x00\x00\x00\x0b\x01" + bytes(range(256)))
    empty = tmp_path / "empty.dxf"
    ezdxf.new("R2010").saveas(empty)

    def picture(doc, msp):
        image = doc.add_image_def(filename="gold.png", size_in_pixel=(64, 64))
        msp.add_image(image, insert=(0, 0), size_in_units=(80, 40))

    def external(doc, msp):
        doc.add_xref_def("other.dxf", "OTHER")
        msp.add_blockref("OTHER", (0, 0))

    def recursive(doc, msp):
        block = doc.blocks.new("LOOP")
        block.add_line((0, 0), (1, 1))
        block.add_blockref("LOOP", (1, 0))
        msp.add_blockref("LOOP", (90, 0))

    def nested(doc, msp):  # one level more than standard.DXF_MAX_BLOCK_DEPTH allows
        inner = None
        for level in range(standard.DXF_MAX_BLOCK_DEPTH + 1):
            block = doc.blocks.new(f"LEVEL{level}")
            if inner is None:
                block.add_line((0, 0), (1, 1))
            else:
                block.add_blockref(inner, (0, 0))
            inner = block.name
        msp.add_blockref(inner, (90, 0))

    def not_a_number(doc, msp):
        msp.add_line((0, 0), (float("nan"), 10))

    def too_far(doc, msp):
        msp.add_line((0, 0), (1e300, 10))

    fifo = tmp_path / "fifo.dxf"
    os.mkfifo(fifo)
    return {
        "missing_candidate": (gold, str(tmp_path / "nowhere.dxf")),
        "unreadable_file": (gold, str(fifo)),
        "blocks_too_deep": (gold, plate(tmp_path / "deep.dxf", extra=nested)),
        "non_finite_coordinates": (gold, plate(tmp_path / "nan.dxf", extra=not_a_number)),
        "coordinates_out_of_range": (gold, plate(tmp_path / "far.dxf", extra=too_far)),
        "unreadable_dxf": (gold, str(dwg)),
        "empty_model_space": (gold, str(empty)),
        "prohibited_entity": (gold, plate(tmp_path / "picture.dxf", extra=picture)),
        "external_reference": (gold, plate(tmp_path / "xref.dxf", extra=external)),
        "render_failed": (gold, plate(tmp_path / "loop.dxf", extra=recursive)),
        "gold_invalid": (str(dwg), gold),
    }


def test_every_failure_reason_scores_zero(gold, tmp_path):
    cases = _failures(tmp_path, gold)
    assert set(cases) == set(FAILURE_REASONS)
    for reason, (gold_path, candidate_path) in cases.items():
        result = score_drawings(gold_path, candidate_path)
        assert (result["failure"], result["score"]) == (reason, 0.0), result["failure_detail"]
        assert result["failure_detail"]
    detail = score_drawings(*cases["unreadable_dxf"])["failure_detail"]
    assert "DWG" in detail and "export the drawing as DXF" in detail


def test_prohibited_list_is_configurable(gold, tmp_path):
    def mesh(doc, msp):
        with msp.add_mesh().edit_data() as data:
            data.vertices = [(100, 0, 0), (110, 0, 0), (100, 10, 5)]
            data.faces = [(0, 1, 2)]

    candidate = plate(tmp_path / "mesh.dxf", extra=mesh)
    assert score_drawings(gold, candidate)["failure"] == "prohibited_entity"
    allowed = score_drawings(gold, candidate, prohibited=[])
    # Allowed, the mesh is no curve (geometry intact) but it shows in the render.
    assert allowed["failure"] is None
    assert allowed["components"]["geometry_similarity"]["value"] == 1.0
    assert allowed["components"]["registered_visual_similarity"]["value"] < 1.0
    assert allowed["scorerConfigHash"] != score_drawings(gold, gold)["scorerConfigHash"]


def test_cli_writes_json_and_exit_status(gold, tmp_path):
    status, out, err = run_cli("drawing-score", gold, plate(tmp_path / "c.dxf"), "--json", "-")
    assert status == 0, err
    result = json.loads(out)
    assert result["score"] == 1.0 and len(result["scorerConfigHash"]) == 16
    assert set(result["components"]) == {
        "geometry_similarity",
        "dimension_similarity",
        "standalone_text_annotation_similarity",
        "registered_visual_similarity",
    }
    status, out, err = run_cli("drawing-score", str(tmp_path / "no.dxf"), gold, "--json", "-")
    assert status == 4 and json.loads(out)["failure"] == "gold_invalid"
    assert "Traceback" not in err


# Copies in the repository (tests/data/drafting/PROVENANCE.md: QCAD's examples, GPL-3.0).
QCAD = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "drafting", "qcad")


def test_real_drawings_against_themselves_and_each_other():
    flange, example = os.path.join(QCAD, "flange.dxf"), os.path.join(QCAD, "example01.dxf")
    same = score_drawings(flange, flange)
    assert same["score"] == 1.0
    assert same["components"]["dimension_similarity"]["counts"]["gold"] >= 6
    other = score_drawings(flange, example)
    assert other["failure"] is None and other["score"] < 0.2


def test_drawings_against_themselves_and_each_other(tmp_path):
    # Drawings in QCAD's forms (flange.dxf, example01.dxf), written by tests/unit/dxf_fixtures.
    flange = dxf_fixtures.flange_drawing(tmp_path / "flange.dxf")
    part = dxf_fixtures.part_drawing(tmp_path / "part.dxf")
    same = score_drawings(flange, flange)
    assert same["score"] == 1.0
    assert same["components"]["dimension_similarity"]["counts"]["gold"] == 6
    other = score_drawings(flange, part)
    # The shaft's dimensions share neither values nor layout with the flange's (dimension
    # similarity about 0.03). Registered on the part, two simple outlines still share some
    # straight edges (geometry about 0.3), so the whole stays low but above the 0.2 the
    # bounding-box registration gave.
    assert other["failure"] is None and other["score"] < 0.3
    assert other["components"]["dimension_similarity"]["value"] < 0.1
