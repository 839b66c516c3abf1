# SPDX-License-Identifier: LGPL-2.1-or-later
"""The diff pieces come from the route that decided shapeIoU, without slivers.

Boxes give every volume by construction: A = 40 x 30 x 20 at the origin, B = A moved 4 mm
along x, so missing = extra = 4 x 30 x 20 = 2400 mm³ and common = 36 x 30 x 20 = 21600 mm³.
"""

import pytest

from cadbench_wb import standard

VOLUME_A = 40 * 30 * 20
MISSING = 4 * 30 * 20
COMMON = 36 * 30 * 20


def _pieces(fc, part, sliver_extra=False):
    from cadbench_wb.app.model import meshing

    a = part.makeBox(40, 30, 20)
    b = part.makeBox(40, 30, 20, fc.Vector(4, 0, 0))
    extra = b.cut(a)
    if sliver_extra:  # a 1e-3 mm³ chip beside the real extra piece: a tessellation crumb
        extra = part.makeCompound(extra.Solids + [part.makeBox(0.1, 0.1, 0.1, fc.Vector(0, 0, 30))])
    return {
        "missing": a.cut(b),
        "extra": extra,
        "common": a.common(b),
        "mesh_reference": meshing.mesh_of(a, 0.01),
        "mesh_candidate": meshing.mesh_of(b, 0.01),
    }


def test_exact_route_writes_the_exact_solids(fc, part, tmp_path):
    from cadbench_wb.app.shape import diff_export

    files = diff_export.write_diff(_pieces(fc, part), str(tmp_path), "exact", VOLUME_A)
    assert files["route"] == "exact" and files["droppedSlivers"] == 0
    assert files["missing"]["volume"] == pytest.approx(MISSING, rel=1e-9)
    assert files["common"]["volume"] == pytest.approx(COMMON, rel=1e-9)
    assert files["missing"]["step"].endswith("diff_missing.step")


def test_mesh_route_writes_the_mesh_booleans_pieces_not_the_refuted_exact_ones(fc, part, tmp_path):
    from cadbench_wb.app.shape import diff_export

    pieces = _pieces(fc, part)
    pieces["common"] = part.makeBox(1, 1, 1)  # what a refuted exact boolean might give
    files = diff_export.write_diff(pieces, str(tmp_path), "mesh", VOLUME_A)
    assert files["route"] == "mesh"
    assert "step" not in files["common"] and files["common"]["stl"].endswith(".stl")
    # Boxes tessellate exactly: the mesh pieces have the constructed volumes.
    assert files["common"]["volume"] == pytest.approx(COMMON, rel=1e-9)
    assert files["extra"]["volume"] == pytest.approx(MISSING, rel=1e-9)
    assert (tmp_path / "diff_common.glb").read_bytes()[:4] == b"glTF"


def test_slivers_under_the_threshold_are_left_out_and_counted(fc, part, tmp_path):
    from cadbench_wb.app.shape import diff_export

    files = diff_export.write_diff(_pieces(fc, part, True), str(tmp_path), "exact", VOLUME_A)
    assert files["droppedSlivers"] == 1
    assert files["extra"]["volume"] == pytest.approx(MISSING, rel=1e-9)
    # The chip is 1e-3 mm³; the threshold 1e-5 x 24000 = 0.24 mm³ lies above it, while a
    # piece of the real extra (2400 mm³) is far above: the boundary is the share itself.
    assert files["sliverVolume"] == pytest.approx(standard.DIFF_SLIVER_REL * VOLUME_A)
    just_above = diff_export.write_diff(
        _pieces(fc, part, True),
        str(tmp_path / "above"),
        "exact",
        1e-3 / standard.DIFF_SLIVER_REL / 1.01,
    )
    assert just_above["droppedSlivers"] == 0
