# SPDX-License-Identifier: LGPL-2.1-or-later
"""A reference of faces and no closed solid: sewn and scored when the faces close; else kept
as faces, what needs a volume not applicable (reference_open_shell), the rest scored; a
command that needs a solid (case new) exits 4 with that reason; a candidate keeps no_solid.
Every shape is made with the real kernel here; every figure comes from its construction."""

import json
import math
import shutil

import pytest
from conftest import run_cli

# The holed block: 40 x 30 x 20 with a through hole of radius 5 (its volume by construction).
HOLED_VOLUME = 40 * 30 * 20 - math.pi * 5**2 * 20


@pytest.fixture(scope="module")
def shells(fc, part, tmp_path_factory):
    folder = tmp_path_factory.mktemp("open_shells")
    holed = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0)))
    paths = {}

    def save(name, shape, ext="step"):
        path = str(folder / f"{name}.{ext}")
        shape.exportStep(path) if ext == "step" else shape.exportBrep(path)
        paths[name] = path

    save("holed", holed)
    save("plain", part.makeBox(40, 30, 20))
    # The holed block without its face at x = 40: six faces, four free edges, the hole whole.
    save("holed_open", part.Compound([f.copy() for f in holed.Faces[:5] + holed.Faces[6:]]))
    # Each face of the closed solid on its own, no shell and no solid in the file.
    save("holed_faces", part.Compound([f.copy() for f in holed.Faces]))
    box = part.makeBox(50, 40, 30)
    # A box with its top removed: five faces, four free edges, no volume.
    save("box_open", part.Compound([f.copy() for f in box.Faces[:5]]))
    # The box's six faces, its top lifted by GAP: sewing closes a gap within
    # loading.SEWING_TOLERANCE_MM (1e-6 mm), its boundary 5 % either side.
    for name, gap in (("box_gap_small", 0.95e-6), ("box_gap_wide", 1.05e-6)):
        faces = [f.copy() for f in box.Faces]
        faces[5].translate(fc.Vector(0, 0, gap))
        save(name, part.Compound(faces), "brep")
    return paths


def test_faces_of_a_closed_solid_are_sewn_and_scored_with_a_note(shells):
    status, out, err = run_cli(
        "score", shells["holed_faces"], shells["holed"], "--json", "-", "--no-auto-targets"
    )
    assert status == 0, err
    result = json.loads(out)
    reference = result["reference"]
    assert reference["solids"] == 1
    assert reference["volume"] == pytest.approx(HOLED_VOLUME, rel=1e-6)
    (note,) = [n for n in reference["notes"] if n.startswith("reference repaired")]
    assert "sewn" in note and "makeSolid" in note
    # The candidate is the very solid whose faces the reference holds.
    assert result["shapeIoU"] == pytest.approx(1.0, abs=1e-6)
    assert result["verdicts"]["semanticMatch"]["verdict"] == "PASS"
    status, text, err = run_cli(
        "score", shells["holed_faces"], shells["holed"], "--no-auto-targets"
    )
    assert status == 0 and "reference repaired" in text and "Traceback" not in text + err


OPEN = "reference_open_shell"


def test_open_reference_scores_what_needs_no_volume(shells):
    for candidate, features in (("holed", 1.0), ("plain", 0.0)):
        status, out, err = run_cli(
            "score", shells["holed_open"], shells[candidate], "--json", "-", "--no-auto-targets"
        )
        assert status == 0, err
        result = json.loads(out)
        assert result["reference"]["openShell"] is True
        assert result["reference"]["volume"] is None and result["reference"]["solids"] == 0
        assert "4 free edge(s)" in result["reference"]["notes"][-1]
        for metric in ("shapeIoU", "threadMatch"):
            assert result[metric] is None
            assert result["verdicts"][metric]["verdict"] == "not applicable"
            assert result["verdicts"][metric]["reason"].startswith(OPEN)
        # The one feature, the through hole: found on the holed candidate, not on the plain.
        assert result["semanticMatch"] == features
        assert result["fieldFigures"]["voxelIoU64"]["value"] is None
        assert result["fieldFigures"]["chamferDistance"]["value"] > 0
    status, text, err = run_cli("score", shells["holed_open"], shells["plain"], "--no-auto-targets")
    assert status == 0 and f"not applicable ({OPEN}" in text
    assert "Traceback" not in text + err


def test_open_reference_is_dimensioned_by_its_case(shells, tmp_path):
    """Dimensions are measured on faces, and the drawing drawn of them: the plain block
    has the depth and height (30, 20) and not the hole's diameter (10), 2 of 3."""
    shutil.copy(shells["holed_open"], tmp_path / "reference.step")
    (tmp_path / "case.yaml").write_text(
        "id: holed_open\ntitle: holed block, one face removed\ngroup: prismatic\n"
        "anchoring: false\nreference: reference.step\nprovenance: made by this test\n"
        "dimensions:\n"
        "  - {id: D1, kind: length, value: 30}\n"
        "  - {id: D2, kind: diameter, value: 10}\n"
        "  - {id: D3, kind: length, value: 20}\n"
    )
    status, out, err = run_cli("score", "--case", str(tmp_path), shells["plain"], "--json", "-")
    assert status == 0, err
    result = json.loads(out)
    assert result["dimensionRecall"] == pytest.approx(2 / 3)
    assert result["verdicts"]["drawingMatch"]["verdict"] != "not applicable"
    assert 0 <= result["drawingMatch"] <= 1
    assert result["verdicts"]["shapeIoU"]["reason"].startswith(OPEN)


def test_a_command_that_needs_a_solid_names_the_open_shell(shells, tmp_path):
    status, out, err = run_cli("case", "new", shells["box_open"], "--out", str(tmp_path / "c"))
    assert status == 4
    assert f"{OPEN}:" in err and "4 free edge(s)" in err
    assert "Traceback" not in out + err
    # score without a case: no automatic targets, said why; what needs none is scored.
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    status, out, err = run_cli(
        "score", shells["box_open"], shells["plain"], "--json", "-", env=cache
    )
    assert status == 0, err
    result = json.loads(out)
    assert result["autoCase"]["failure"]["reason"] == OPEN
    assert result["verdicts"]["semanticMatch"]["verdict"] != "not applicable"


@pytest.mark.parametrize("name,closes", [("box_gap_small", True), ("box_gap_wide", False)])
def test_sewing_tolerance_boundary(fc, shells, name, closes):
    from cadbench_wb.app.model import loading
    from cadbench_wb.errors import ReferenceOpenShell

    if closes:
        model = loading.load_model(shells[name], "reference")
        assert model.solids == 1
        assert model.summary()["volume"] == pytest.approx(50 * 40 * 30, rel=1e-6)
        assert loading.SEWING_TOLERANCE_MM == 1e-6
    else:
        with pytest.raises(ReferenceOpenShell):
            loading.load_model(shells[name], "reference")


def test_open_shell_candidate_keeps_its_delivery_failure(shells):
    status, out, err = run_cli(
        "score", shells["holed"], shells["holed_faces"], "--json", "-", "--no-auto-targets"
    )
    assert status == 0, err
    result = json.loads(out)
    assert result["delivered"] is False and result["failure"]["reason"] == "no_solid"
