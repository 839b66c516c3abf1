# SPDX-License-Identifier: LGPL-2.1-or-later
"""Feature recognition on solids whose features are known from their construction."""

import json
import os

import pytest
from conftest import REALWORLD, ROOT, score_json

from cadbench_wb.app.features.stage import case_features, settings_for
from cadbench_wb.app.recognition import features, threads
from cadbench_wb.case_model import cases
from cadbench_wb.metrics import feature_matching


def recognise(shape):
    return features.recognise(shape, threads.modeled_threads(shape))


def check(shape, entries):
    found = recognise(shape)
    result = feature_matching.check_expected(
        entries, found["features"], settings_for(shape.BoundBox.DiagonalLength)
    )
    assert result["ok"], (result, [(f["type"], f["kind"], f["params"]) for f in found["features"]])
    return found


def holed_block(fc, part, with_second=True):
    """60 x 40 x 20: through holes Ø10 at (15, 20) and (45, 20), a blind Ø6 x 8 at (30, 30)
    from the top, a 1 x 45° chamfer on the top front edge."""
    v = fc.Vector
    block = part.makeBox(60, 40, 20).cut(part.makeCylinder(5, 20, v(15, 20, 0)))
    if with_second:
        block = block.cut(part.makeCylinder(5, 20, v(45, 20, 0)))
    block = block.cut(part.makeCylinder(3, 8, v(30, 30, 12)))
    edge = [
        e
        for e in block.Edges
        if e.BoundBox.ZMin > 19.999 and e.BoundBox.YMax < 1e-9 and e.Length > 59
    ]
    return block.makeChamfer(1.0, edge).Solids[0]


BLOCK_FEATURES = [
    {"type": "hole", "kind": "through", "diameter": 10, "depth": 20, "location": [15, 20, 10]},
    {"type": "hole", "kind": "through", "diameter": 10, "depth": 20, "location": [45, 20, 10]},
    {"type": "hole", "kind": "blind", "bottom": "flat", "diameter": 6, "depth": 8},
    {"type": "chamfer", "kind": "straight", "distance1": 1, "distance2": 1},
]


def test_block_features_are_exactly_its_construction(fc, part):
    found = check(holed_block(fc, part), BLOCK_FEATURES)
    blind = next(f for f in found["features"] if f["kind"] == "blind")
    assert blind["location"] == pytest.approx([30, 30, 16])
    assert found["unrecognised"] == []


def test_every_face_is_claimed_once(fc, part):
    shape = holed_block(fc, part)
    found = recognise(shape)
    claimed = [n for f in found["features"] + found["unrecognised"] for n in f["faces"]]
    claimed += found["base"]
    assert sorted(claimed) == sorted(f"Face{i + 1}" for i in range(len(shape.Faces)))


def test_recognition_is_deterministic(fc, part):
    shape = holed_block(fc, part)
    assert json.dumps(recognise(shape)) == json.dumps(recognise(shape.copy()))


def test_a_candidate_missing_one_hole_loses_exactly_that_hole(fc, part, tmp_path):
    reference = tmp_path / "reference.step"
    candidate = tmp_path / "candidate.step"
    holed_block(fc, part).exportStep(str(reference))
    missing = holed_block(fc, part, with_second=False)
    missing.rotate(fc.Vector(0, 0, 0), fc.Vector(1, 2, 3), 37)
    missing.translate(fc.Vector(40, -10, 5))
    missing.exportStep(str(candidate))
    result = score_json(str(reference), str(candidate), "--only", "features")
    assert result["semanticMatch"] == pytest.approx(3 / 4)
    detail = result["features"]
    assert [f["type"] for f in detail["missing"]] == ["hole"]
    assert detail["missing"][0]["location"] == pytest.approx([45, 20, 10], abs=1e-6)
    assert detail["extra"] == []
    assert all(pair["credit"] == 1.0 for pair in detail["matched"])
    assert result["verdicts"]["semanticMatch"]["verdict"] == "FAIL"


def test_holes_with_heads_pocket_boss_slot_and_rounds(fc, part):
    v = fc.Vector
    solid = part.makeBox(100, 60, 20)
    solid = solid.cut(part.makeBox(30, 20, 6, v(10, 10, 14)))
    solid = solid.fuse(part.makeCylinder(8, 10, v(70, 40, 20)))
    slot = part.makeBox(20, 8, 20, v(60, 10, 0)).fuse(
        [part.makeCylinder(4, 20, v(60, 14, 0)), part.makeCylinder(4, 20, v(80, 14, 0))]
    )
    solid = solid.cut(slot)
    solid = solid.cut(part.makeCylinder(3, 20, v(90, 50, 0)))
    solid = solid.cut(part.makeCylinder(5, 4, v(90, 50, 16)))
    solid = solid.cut(part.makeCylinder(3, 20, v(10, 50, 0)))
    solid = solid.cut(part.makeCone(3, 7, 4, v(10, 50, 16))).removeSplitter()
    corners = [e for e in solid.Edges if e.BoundBox.XMax < 1e-9 and e.BoundBox.ZLength > 19]
    solid = solid.makeFillet(2.0, corners).Solids[0]
    check(
        solid,
        [
            {"type": "hole", "head": "counterbore", "diameter": 6, "counterbore_diameter": 10,
             "counterbore_depth": 4, "location": [90, 50, 10]},
            {"type": "hole", "head": "countersink", "diameter": 6, "countersink_diameter": 14,
             "countersink_angle": 90, "location": [10, 50, 10]},
            {"type": "pocket", "kind": "closed", "length": 30, "width": 20, "depth": 6},
            {"type": "boss", "kind": "cylindrical", "diameter": 16, "height": 10},
            {"type": "slot", "kind": "through", "width": 8, "length": 28, "depth": 20},
            {"type": "fillet", "kind": "convex", "radius": 2, "count": 2},
        ],
    )  # fmt: skip


def test_turned_shaft_groove_chamfer_and_step(fc, part):
    v = fc.Vector
    shaft = part.makeCylinder(15, 80).fuse(part.makeCylinder(10, 30, v(0, 0, 80)))
    ring = part.makeCylinder(20, 3, v(0, 0, 40)).cut(part.makeCylinder(12, 3, v(0, 0, 40)))
    shaft = shaft.cut(ring).removeSplitter()
    end = [e for e in shaft.Edges if e.BoundBox.ZMax < 1e-9]
    shaft = shaft.makeChamfer(1.0, end).Solids[0]
    check(
        shaft,
        [
            {"type": "groove", "kind": "turned", "diameter": 24, "width": 3, "depth": 3},
            {"type": "chamfer", "kind": "circular", "distance1": 1, "distance2": 1},
            {"type": "boss", "kind": "cylindrical", "diameter": 20, "height": 30},
        ],
    )


def test_free_form_dimple_is_a_typed_unrecognised_record(fc, part):
    v = fc.Vector
    egg = part.makeSphere(10, v(0, 0, 0))
    matrix = fc.Matrix()
    matrix.scale(2.0, 1.0, 0.5)
    egg = egg.transformGeometry(matrix)
    egg.translate(v(30, 20, 20))
    block = part.makeBox(60, 40, 20).cut(egg).Solids[0]
    found = recognise(block)
    assert found["features"] == []
    assert len(found["unrecognised"]) == 1
    entry = found["unrecognised"][0]
    assert entry["type"] == "unrecognised" and "free-form" in entry["reason"]
    assert entry["faces"]


def test_freecad_hole_features_of_real_documents():
    from cadbench_wb.app.model import loading

    blind = loading.load_model(os.path.join(REALWORLD, "fcstd/freepdm/0001.FCStd"), "reference")
    found = recognise(blind.shape)
    holes = [f for f in found["features"] if f["type"] == "hole"]
    assert len(holes) == 2
    for hole in holes:
        assert hole["kind"] == "blind" and hole["attributes"]["bottom"] == "cone"
        assert hole["params"]["diameter"] == pytest.approx(9.0)
        assert hole["params"]["depth"] == pytest.approx(9.4)
        assert hole["params"]["drill_point_angle"] == pytest.approx(118.0)
    bored = loading.load_model(os.path.join(REALWORLD, "fcstd/freepdm/0002.FCStd"), "reference")
    holes = [f for f in recognise(bored.shape)["features"] if f["type"] == "hole"]
    assert len(holes) == 2
    for hole in holes:
        assert hole["kind"] == "through" and hole["attributes"]["head"] == "counterbore"
        assert hole["params"]["diameter"] == pytest.approx(9.0)
        assert hole["params"]["counterbore_diameter"] == pytest.approx(18.0)
        assert hole["params"]["counterbore_depth"] == pytest.approx(10.2)


def _cases_with_features():
    folder = os.path.join(ROOT, "cases")
    if not os.path.isdir(folder):
        return []
    return [c for c in cases.discover_cases(folder) if c.raw.get("features") is not None]


@pytest.mark.parametrize("case", _cases_with_features(), ids=lambda c: c.id)
def test_bundled_case_features_are_what_its_construction_says(fc, case):
    from cadbench_wb.app.cases import build as case_build
    from cadbench_wb.app.model import loading

    case_build.build_missing(case)
    reference = loading.load_model(case.reference_path, "reference")
    found = features.recognise(
        reference.shape,
        threads.modeled_threads(reference.shape)
        + threads.cosmetic_threads(reference.document_objects, reference.shape),
    )
    _rule, entries = case_features(case)
    settings = settings_for(reference.shape.BoundBox.DiagonalLength)
    result = feature_matching.check_expected(entries, found["features"], settings)
    described = [(f["type"], f["kind"], f["params"]) for f in found["features"]]
    assert result["ok"], (result["missing"], [described[j] for j in result["unexpected"]])


def test_features_do_not_depend_on_the_pose(models):
    """The same part in another pose has the same features: a corner notch whose three
    faces tie for 'floor' and a square outline must not read differently when rotated."""
    from conftest import score_json

    result = score_json(models["chiral"], models["chiral_moved"], "--only", "shape,features")
    assert result["semanticMatch"] == 1.0
    assert result["features"]["missing"] == [] and result["features"]["extra"] == []


@pytest.mark.parametrize("turn_deg", [0.0, 30.0, 45.0])
def test_a_square_cut_out_reads_its_side_in_every_pose(fc, part, turn_deg):
    """An 80 x 80 x 5 plate with a 28 x 28 square cut through it, its corners R1.6, turned
    in its own plane: a breakthrough of length and width 28 (its side). The frame came from
    the principal directions of the ring's points, which a square leaves arbitrary: NIST
    FTC-08's cut-out read 36.52 in one pose of a perfect copy and 36.04 in another."""
    cut = part.makeBox(28, 28, 5, fc.Vector(26, 26, 0))
    cut = cut.makeFillet(1.6, [e for e in cut.Edges if abs(e.tangentAt(0).z) > 0.99])
    plate = part.makeBox(80, 80, 5).cut(cut).Solids[0]
    plate.rotate(fc.Vector(40, 40, 0), fc.Vector(0, 0, 1), turn_deg)
    found = [f for f in recognise(plate)["features"] if f["type"] == "breakthrough"]
    assert len(found) == 1
    params = found[0]["params"]
    assert params["length"] == pytest.approx(28, abs=1e-6)
    assert params["width"] == pytest.approx(28, abs=1e-6)
    assert params["corner_radius"] == pytest.approx(1.6, abs=1e-9)
