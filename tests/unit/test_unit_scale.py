# SPDX-License-Identifier: LGPL-2.1-or-later
"""A candidate that is the reference uniformly scaled names the factor and the likely unit
mix-up (issue 31), and a STEP file's declared length unit is read from its text. Boxes'
volumes and moments are analytic: a x b x c has I/V = diag(b^2 + c^2, ...) / 12."""

import numpy as np
import pytest

from cadbench_wb import standard
from cadbench_wb.inputs import step_units
from cadbench_wb.metrics import unit_scale

TOLERANCE = standard.INTERPRETATION["uniform_scale_rel"]


def box(a, b, c, turn=None):
    """(volume, inertia tensor about the centroid) of an a x b x c box, turned by `turn`."""
    volume = a * b * c
    inertia = volume / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    if turn is not None:
        inertia = turn @ inertia @ turn.T
    return volume, inertia


QUARTER = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


@pytest.mark.parametrize(
    "factor,words",
    [
        (1 / 25.4, "modelled in inches? x25.4"),
        (25.4, "declared in inches? /25.4"),
        (1 / 1000, "modelled in metres? x1000"),
        (1000, "/1000"),
        (1 / 10, "centimetres? x10"),
        (1 / 304.8, "feet? x304.8"),
    ],
)
def test_a_scaled_copy_names_its_factor_and_unit(factor, words):
    scale = unit_scale.uniform_scale(
        box(40, 30, 20), box(40 * factor, 30 * factor, 20 * factor, QUARTER), TOLERANCE
    )
    assert scale == pytest.approx(factor, rel=1e-12)
    line = unit_scale.scale_line(scale, TOLERANCE)
    assert words in line and f"{factor:.4g}" in line


def test_a_stretch_along_one_axis_is_no_uniform_scale_at_the_tolerances_boundary():
    # A cube stretched along x by k: cube root of the volume k^(1/3), radius about x 1,
    # so the factors part by k^(1/3) - 1: 0.66 % for a 2 % stretch, outside 0.2 %.
    assert unit_scale.uniform_scale(box(10, 10, 10), box(10.2, 10, 10), TOLERANCE) is None
    k = (1 + 0.9 * TOLERANCE) ** 3  # factors 0.9 x the tolerance apart: still uniform
    assert unit_scale.uniform_scale(box(10, 10, 10), box(10 * k, 10, 10), TOLERANCE)
    k = (1 + 1.1 * TOLERANCE) ** 3
    assert unit_scale.uniform_scale(box(10, 10, 10), box(10 * k, 10, 10), TOLERANCE) is None
    assert unit_scale.unit_mixup(1.5, TOLERANCE) is None  # scaled, but by no unit's factor
    assert "1.5 x the reference" in unit_scale.scale_line(1.5, TOLERANCE)


STEP_UNITS = {
    "mm": "#1 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );",
    "m": "#1 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT($,.METRE.) );",
    "inch": "#1 = ( CONVERSION_BASED_UNIT('INCH',#2) LENGTH_UNIT() NAMED_UNIT(#3) );\n"
    "#4 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );",
    ".FOO.": "#1 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.FOO.,.METRE.) );",
}


@pytest.mark.parametrize("unit", sorted(STEP_UNITS))
def test_the_declared_step_length_unit_is_read_and_an_unknown_prefix_is_a_note(tmp_path, unit):
    path = tmp_path / "part.step"
    area = "#9 = ( AREA_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.SQUARE_METRE.) );"
    path.write_text(f"ISO-10303-21;\nDATA;\n{area}\n{STEP_UNITS[unit]}\nENDSEC;\n")
    found, notes = step_units.length_unit(str(path))
    assert found == unit
    assert bool(notes) == (unit == ".FOO.")
    if notes:
        assert "reads the model as metres" in notes[0]
    path.write_text("ISO-10303-21;\nDATA;\nENDSEC;\n")
    assert step_units.length_unit(str(path)) == (None, [])


def test_a_unit_cut_in_two_by_the_reading_blocks_is_still_found(tmp_path, monkeypatch):
    monkeypatch.setattr(step_units, "CHUNK", 16)
    path = tmp_path / "part.step"
    path.write_text("ISO-10303-21;\n" + STEP_UNITS["inch"] + "\n")
    assert step_units.length_unit(str(path)) == ("inch", [])
