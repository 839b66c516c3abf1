# SPDX-License-Identifier: LGPL-2.1-or-later
"""Degenerate solids are dropped before measuring, so that a candidate can never choose
NOT CHECKED by adding a sliver (issue 20), and self-intersecting solids are refused."""

import math

import pytest

from cadbench_wb import standard
from cadbench_wb.app.model import loading
from cadbench_wb.app.scoring import score_files
from cadbench_wb.errors import DeliveryFailure


def test_degenerate_reason_at_its_volume_boundary():
    # A solid at exactly volume_rel of the total is kept; just under it is dropped.
    share = standard.DEGENERATE_SOLID["volume_rel"]
    total, diagonal = 1000.0, 10.0
    thick_area = 6 * (share * total) ** (2 / 3)  # a cube of that volume: not thin
    assert loading.degenerate_reason(share * total, thick_area, total, diagonal) is None
    assert "volume" in loading.degenerate_reason(0.99 * share * total, thick_area, total, diagonal)


def test_degenerate_reason_at_its_thickness_boundary():
    # A square slab of side 1 and thickness t: 2V/A = 2t/(2 + 4t) ~ t.
    limit = standard.DEGENERATE_SOLID["thickness_rel"] * 100.0  # diagonal 100 mm
    for factor, dropped in ((1.01, False), (0.99, True)):
        # Solve 2t/(2 + 4t) = factor x limit for t.
        target = factor * limit
        t = 2 * target / (2 - 4 * target)
        volume, area = t, 2 + 4 * t
        why = loading.degenerate_reason(volume, area, total_volume=volume, diagonal=100.0)
        assert (why is not None) == dropped


def _step(part, solids, path):
    part.makeCompound(solids).exportStep(str(path))
    return str(path)


def test_a_sliver_beside_a_wrong_part_scores_like_the_wrong_part(fc, part, tmp_path):
    # Reference 40 x 30 x 20, wrong part 40 x 30 x 10: best aligned it sits inside, so
    # shapeIoU is 12000 / 24000 = 0.5 (FAIL). The sliver 50 x 1e-6 x 1e-6 mm (the issue's)
    # has no manifold tessellation; it must be dropped with a note, not decide the route.
    reference = _step(part, [part.makeBox(40, 30, 20)], tmp_path / "reference.step")
    wrong = part.makeBox(40, 30, 10)
    sliver = part.makeBox(50, 1e-6, 1e-6, fc.Vector(-5, 40, 5))
    alone = _step(part, [wrong], tmp_path / "wrong.step")
    plus = _step(part, [wrong, sliver], tmp_path / "wrong_plus_sliver.step")
    loaded = loading.load_model(plus)
    assert loaded.solids == 2 and len(loaded.shape.Solids) == 1
    assert any("dropped before measuring as degenerate" in n for n in loaded.notes)
    results = [score_files(reference, path, {"only": ["shape"]}) for path in (alone, plus)]
    for result in results:
        assert result["shapeIoU"] == pytest.approx(0.5, abs=1e-6)
        assert result["verdicts"]["shapeIoU"]["verdict"] == "FAIL"
    assert results[0]["shapeIoU"] == results[1]["shapeIoU"]


def test_the_largest_solid_is_never_dropped(fc, part):
    # One thin plate alone (0.0005 mm over a 100 mm square, 2V/A far below the bound) is
    # what was delivered: it is measured, not dropped.
    plate = part.makeBox(100, 100, 0.0005)
    kept, volumes, notes = loading._without_degenerate([plate], [plate.Volume])
    assert kept == [plate] and volumes == [plate.Volume] and notes == []


def test_a_spindle_torus_is_refused_as_self_intersecting(fc, part, tmp_path):
    # Minor radius 8 > major radius 5: the tube crosses the axis, and the lens-shaped core
    # is inside the surface twice. OpenCASCADE's Volume counts it twice (2 pi^2 R r^2), and
    # isValid() passes, so only the surface's own radii tell.
    torus = part.makeTorus(5, 8)
    assert torus.isValid()
    assert torus.Volume == pytest.approx(2 * math.pi**2 * 5 * 8**2, rel=1e-9)
    path = _step(part, [torus], tmp_path / "spindle.step")
    with pytest.raises(DeliveryFailure) as failure:
        loading.load_model(path)
    assert failure.value.reason == "invalid_solid"
    assert "self-intersecting" in failure.value.detail


def test_a_ring_torus_is_read(fc, part, tmp_path):
    path = _step(part, [part.makeTorus(8, 5)], tmp_path / "ring.step")
    assert loading.load_model(path).shape.Volume == pytest.approx(2 * math.pi**2 * 8 * 25, rel=1e-9)


def test_a_round_on_a_thin_pin_lies_on_a_spindle_torus_and_is_read(fc, part, tmp_path):
    # Pin radius 1, round 0.8 on its end: the round's torus has major 0.2, minor 0.8, but
    # the face stays outside the axis: a valid part whose volume is counted once.
    pin = part.makeCylinder(1, 5)
    top = [e for e in pin.Edges if abs(e.BoundBox.ZMin - 5) < 1e-9][0]
    rounded = pin.makeFillet(0.8, [top])
    tori = [f.Surface for f in rounded.Faces if isinstance(f.Surface, part.Toroid)]
    assert [(t.MajorRadius, t.MinorRadius) for t in tori] == [pytest.approx((0.2, 0.8))]
    path = _step(part, [rounded], tmp_path / "pin.step")
    # (STEP writes the volume back to about 1e-7 of itself)
    assert loading.load_model(path).shape.Volume == pytest.approx(rounded.Volume, rel=1e-6)
