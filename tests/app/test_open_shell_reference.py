# SPDX-License-Identifier: LGPL-2.1-or-later
"""A reference of faces and no closed solid: sewn and scored when the faces close, else a
named reason (reference_open_shell, exit 4), never a traceback; a candidate keeps no_solid.
Every shape is made with the real kernel here; every figure comes from its construction."""

import json
import math

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


def test_really_open_reference_is_named_and_exits_4(shells):
    for extra in ((), ("--json", "-")):
        status, out, err = run_cli(
            "score", shells["box_open"], shells["holed"], "--no-auto-targets", *extra
        )
        assert status == 4
        assert "reference_open_shell" in err and "4 free edge(s)" in err
        assert "Traceback" not in out + err


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
