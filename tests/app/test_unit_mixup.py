# SPDX-License-Identifier: LGPL-2.1-or-later
"""A candidate modelled in the wrong unit: the failure names the factor and the likely
mix-up, the JSON carries shape.scaleFactor and each STEP side's declared lengthUnit
(issue 31). Real FreeCAD solids; the factors are the construction's."""

import pytest


@pytest.fixture(scope="module")
def parts(fc, part, tmp_path_factory):
    folder = tmp_path_factory.mktemp("units")
    solid = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0)))
    paths = {"reference": str(folder / "reference.step")}
    solid.exportStep(paths["reference"])
    for name, factor in (("inch", 1 / 25.4), ("metre", 1000.0), ("odd", 3.0)):
        matrix = fc.Matrix()
        matrix.scale(factor, factor, factor)
        paths[name] = str(folder / f"{name}.step")
        solid.transformGeometry(matrix).exportStep(paths[name])
    stretch = fc.Matrix()
    stretch.scale(1.1, 1.0, 1.0)  # 10 % in volume, along one axis only: no uniform scale
    paths["stretched"] = str(folder / "stretched.step")
    solid.transformGeometry(stretch).exportStep(paths["stretched"])
    return paths


def shape_of(parts, name):
    from cadbench_wb.app.scoring import score_files

    return score_files(parts["reference"], parts[name], {"only": ["shape"]})


@pytest.mark.parametrize(
    "name,factor,words",
    [("inch", 1 / 25.4, "modelled in inches? x25.4"), ("metre", 1000.0, "/1000"), ("odd", 3.0, "")],
)
def test_a_uniformly_scaled_candidate_names_its_factor(parts, name, factor, words):
    result = shape_of(parts, name)
    assert result["verdicts"]["shapeIoU"]["verdict"] == "FAIL"
    assert result["shape"]["scaleFactor"] == pytest.approx(factor, rel=1e-3)
    note = result["verdicts"]["shapeIoU"]["note"]
    assert note.startswith("Uniformly scaled") and words in note
    assert any(line.startswith("Uniformly scaled") for line in result["shape"]["interpretation"])
    assert result["reference"]["lengthUnit"] == "mm" == result["candidate"]["lengthUnit"]


def test_a_stretched_candidate_carries_no_scale_factor(parts):
    result = shape_of(parts, "stretched")
    assert "scaleFactor" not in result["shape"]
    assert not any("Uniformly" in line for line in result["shape"]["interpretation"])
