# SPDX-License-Identifier: LGPL-2.1-or-later
"""The shape diagnostics (size, position and area ratios) read off the fine meshes."""

import pytest

from cadbench_wb.app.shape import fidelity as shape_fidelity


def test_diagnostics_of_a_taller_box_are_its_construction(fc, part):
    # A 10 x 20 x 30 box against one 33 tall on the same base: a box's mesh is exact (flat
    # faces), so every figure is the construction's to rounding: height ratio 1.1, centres
    # 1.5 apart in z, box IoU 30 / 33, areas 2 (200 + 300 + 600) against 2 (200 + 330 + 660).
    box = part.makeBox(10, 20, 30)
    taller = part.makeBox(10, 20, 33)
    figures = shape_fidelity.shape_figures(box, taller, keep_shapes=False)["figures"]
    assert figures["volume_ratio"] == pytest.approx(1.1, rel=1e-12)
    assert figures["size_ratio_x"] == pytest.approx(1.0, rel=1e-12)
    assert figures["size_ratio_y"] == pytest.approx(1.0, rel=1e-12)
    assert figures["size_ratio_z"] == pytest.approx(1.1, rel=1e-12)
    assert figures["center_offset"] == pytest.approx(1.5, rel=1e-9)
    assert figures["bbox_iou"] == pytest.approx(30 / 33, rel=1e-12)
    assert figures["surface_ratio"] == pytest.approx(2380 / 2200, rel=1e-12)
    assert figures["reference_diagonal"] == pytest.approx((100 + 400 + 900) ** 0.5, rel=1e-12)


def test_diagnostics_of_a_cylinder_are_within_the_mesh_deflection(fc, part):
    # A curved surface is meshed within 5e-4 of the diagonal (mesh_deflection_rel: 0.025 mm
    # on a 50.7 mm diagonal, 0.25 % of radius 10): its figures are the construction's to
    # that, not to rounding. Radius 10 against 11, both 40 tall on the same axis: x and y
    # sizes 1.1 (to 3e-3: both radii short by up to 0.25 %), centres together, areas
    # (2 pi 11 x 40 + 2 pi 121) / (2 pi 10 x 40 + 2 pi 100) = 561 / 500.
    cylinder = part.makeCylinder(10, 40)
    wider = part.makeCylinder(11, 40)
    figures = shape_fidelity.shape_figures(cylinder, wider, keep_shapes=False)["figures"]
    assert figures["size_ratio_x"] == pytest.approx(1.1, abs=3e-3)
    assert figures["size_ratio_z"] == pytest.approx(1.0, abs=1e-9)
    assert figures["center_offset"] == pytest.approx(0.0, abs=1e-3)
    assert figures["surface_ratio"] == pytest.approx(561 / 500, abs=3e-3)
