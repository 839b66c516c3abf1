# SPDX-License-Identifier: LGPL-2.1-or-later
"""Parts with loosely toleranced edges: the exact route is refused from the inputs, and the
mesh route holds. NIST FTC-07's AP242 edition (tests/data/nist, public domain) has 53
B-spline edges toleranced beyond 1e-4 x its diagonal, the largest 0.126 mm; on it the
General Fuse's pieces do not add up to the solids (standard.CROSS_CHECK
exact_max_tolerance_rel), and Part's 0.1 rad tessellation is not closed."""

import os

import pytest
from conftest import ROOT, score_json

from cadbench_wb import standard
from cadbench_wb.app.cases import samples
from cadbench_wb.app.model import meshing
from cadbench_wb.app.shape import fidelity

NIST = os.path.join(ROOT, "tests", "data", "nist")
TOLERANT = "nist_ftc_07_asme1_ap242-e2.stp"


@pytest.fixture(scope="module")
def tolerant(part):
    return part.read(os.path.join(NIST, TOLERANT)).Solids[0]


def test_the_exact_route_is_refused_by_tolerance_at_its_boundary():
    # exact_max_tolerance_rel sits between the loosest part whose exact booleans hold
    # (CTC-05's AP242 edition, 1.9e-5 x diagonal) and FTC-07's AP242 edition (3.1e-4).
    diagonal = 400.0
    limit = standard.CROSS_CHECK["exact_max_tolerance_rel"] * diagonal
    assert fidelity.exact_tolerance_refusal(limit, diagonal) is None
    refusal = fidelity.exact_tolerance_refusal(limit * (1 + 1e-9), diagonal)
    assert refusal is not None and "exact_max_tolerance_rel" in refusal


def test_only_the_tolerant_nist_part_is_beyond_the_limit(part):
    # The other NIST parts measure 1.0 by the exact route (test_shape_nist.py): the limit
    # must not take it from them.
    rel = standard.CROSS_CHECK["exact_max_tolerance_rel"]
    for name in sorted(os.listdir(NIST)):
        if not name.endswith(".stp"):
            continue
        solid = part.read(os.path.join(NIST, name)).Solids[0]
        beyond = fidelity.largest_tolerance(solid) > rel * solid.BoundBox.DiagonalLength
        assert beyond == (name == TOLERANT), name


def test_the_alignments_mesh_is_closed_where_parts_tessellation_is_not(tolerant):
    # Part's 0.1 rad leaves free edges along the tolerant B-spline edges, at the
    # cross-check's deflection and at mesh_retry_factors x it; the alignment's mesh
    # (MeshPart at mesh_angular_deflection), which the mesh boolean falls back on, is a
    # closed manifold whose volume is the solid's within a third of mesh_tolerance_floor
    # (what crosscheck.decide allows a mesh's volume error).
    params = standard.CROSS_CHECK
    diagonal = tolerant.BoundBox.DiagonalLength
    deflection = params["mesh_deflection_rel"] * diagonal
    for factor in (1.0, *params["mesh_retry_factors"]):
        part_mesh = meshing.mesh_of(tolerant.copy(), factor * deflection)
        assert meshing.manifold_of(*part_mesh) is None
    aligned, _ = meshing.cross_check_meshes(tolerant.copy(), tolerant.copy(), diagonal)
    solid = meshing.manifold_of(*aligned)
    assert solid is not None
    error = abs(solid.volume() - tolerant.Volume) / tolerant.Volume
    assert error < params["mesh_tolerance_floor"] / 3


@pytest.mark.slow  # 11-16 s each idle (loads, alignment, two meshings, the mesh boolean)
@pytest.mark.parametrize("moved", [True, False], ids=["moved copy", "itself"])
def test_the_tolerant_part_measures_one_by_the_stated_mesh_route(tolerant, tmp_path, moved):
    reference = os.path.join(NIST, TOLERANT)
    candidate = reference
    if moved:
        candidate = samples.write_step(samples.moved(tolerant), str(tmp_path), "moved.step")
    result = score_json(reference, candidate, "--only", "shape")
    shape = result["shape"]
    assert shape["method"] == "mesh", shape["reason"]
    assert "exact_max_tolerance_rel" in shape["reason"]
    assert shape["crossCheck"]["exactAttempts"] == []  # no seconds spent on a discarded route
    # Part's tessellation of the file is refused; the alignment's mesh stands in for it.
    assert shape["crossCheck"]["meshFailure"] is None
    assert abs(result["shapeIoU"] - 1.0) <= 0.002
    assert 0.0 <= result["shapeIoU"] <= 1.0
