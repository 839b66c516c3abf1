# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mesh candidates: features are read off the B-rep rebuilt from the triangles, other B-rep-
only figures are not applicable (with the reason), never a FAIL by construction; the shape
figure still holds."""

import pytest
from conftest import score_json


def test_features_of_a_mesh_candidate_are_read_off_the_rebuilt_brep(models):
    result = score_json(models["holed"], models["holed_stl"], "--only", "shape,features")
    assert result["candidate"]["fromMesh"] is True
    # The box's six planes and its hole, a cylinder rebuilt in two halves (a face all the
    # way round needs a seam): the hole reads as the reference's, Ø10 through, 20 deep.
    mesh = result["features"]["mesh"]
    assert mesh["rebuilt"] is True
    assert mesh["surfaces"] == {"cylinder": 2, "plane": 6}
    assert result["semanticMatch"] == 1.0
    (hole,) = result["features"]["candidate"]
    assert (hole["type"], hole["kind"]) == ("hole", "through")
    assert hole["params"]["diameter"] == pytest.approx(10.0, abs=1e-4)
    assert hole["params"]["depth"] == pytest.approx(20.0, abs=1e-4)
    # The shape figure is still measured on the mesh (its facets cut the hole's arcs), by
    # the mesh route: the exact booleans on triangles are not attempted (the same
    # polyhedron, and minutes of General Fuse on a real STL).
    assert 0.99 < result["shapeIoU"] <= 1.0
    cross = result["shape"]["crossCheck"]
    assert cross["exactSkipped"].startswith(
        "exact booleans not attempted: the candidate is a mesh (its triangles as faces): "
    )
    assert result["shape"]["method"] == "mesh" and cross["exactAttempts"] == []


def test_a_mesh_no_brep_can_be_rebuilt_from_is_not_applicable_with_the_reason(fc, part, tmp_path):
    import MeshPart

    # A whole ring torus: one face with no boundary to bound a rebuilt face by.
    torus = part.makeTorus(10, 3)
    torus.exportStep(str(tmp_path / "torus.step"))
    mesh = MeshPart.meshFromShape(Shape=torus, LinearDeflection=0.05, AngularDeflection=0.2)
    mesh.write(str(tmp_path / "torus.stl"))
    result = score_json(
        str(tmp_path / "torus.step"), str(tmp_path / "torus.stl"), "--only", "features"
    )
    entry = result["verdicts"]["semanticMatch"]
    assert result["semanticMatch"] is None and entry["verdict"] == "not applicable"
    assert "no analytic B-rep could be rebuilt from its triangles" in entry["reason"]
    assert result["features"]["mesh"]["rebuilt"] is False


def test_a_refused_tessellation_is_repaired_before_the_mesh_route_gives_up():
    import numpy as np

    from cadbench_wb.app.model import meshing

    # A unit cube's 12 facets, plus a zero-area sliver along an edge (a ninth vertex on it)
    # and a duplicated facet: manifold3d refuses it; cleaned up it is the cube, volume 1.
    vertices = np.array(
        [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]]
        + [[0.5, 0, 0]],
        dtype=float,
    )
    cube = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4]]
    cube += [[1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]]
    broken = np.array(cube + [[0, 8, 1], [0, 2, 1]])
    assert meshing.manifold_of(vertices, broken) is None
    assert abs(meshing.repaired_manifold(vertices, broken).volume() - 1.0) < 1e-12


def test_a_tessellation_refused_after_every_retry_names_each_step(fc, part):
    from cadbench_wb.app.model import meshing
    from cadbench_wb.app.shape import fidelity as shape_fidelity

    # A "solid" made from five of a cube's six faces: every tessellation of it is open, so
    # manifold3d refuses it as tessellated, repaired, finer and coarser; the reason says so for the
    # candidate only (the reference is a plain cube).
    cube = part.makeBox(10, 10, 10)
    open_box = part.Solid(part.Shell(cube.Faces[:5]))
    meshes = [meshing.mesh_of(s, 0.005) for s in (cube, open_box)]
    found, why, _, _ = shape_fidelity._mesh_iou(
        meshes, (cube, open_box), cube.BoundBox.DiagonalLength
    )
    assert found is None
    assert why.startswith("tessellation refused by manifold3d (candidate: ")
    assert "reference" not in why
    assert "not a manifold" in why and "nor with its cracks closed" in why
    # (its open loop is the missing face, 10 mm wide: a hole, no crack)
    assert "nor at 0.5 x the deflection, nor at 2 x the deflection" in why
    assert ("trimesh's repair" in why) == meshing.trimesh_available()


def test_the_references_own_mesh_is_never_failed_by_construction(fc, tmp_path):
    """A bundled case scored against its reference's own fine tessellation: shapeIoU passes
    on the triangles; semanticMatch is read off the B-rep rebuilt from them and finds the
    reference's own features; dimensionRecall and drawingMatch are not applicable (a mesh
    has no circles or cylinders to read them off) with the reason, and still carry the
    reference's ceilings; so the case does not FAIL."""
    import MeshPart
    import Part
    from test_bundled_cases import fresh_copy

    from cadbench_wb.app.cases import build as case_build
    from cadbench_wb.app.scoring import score_files
    from cadbench_wb.case_model import cases

    case = cases.load_case(fresh_copy("bracket_slot", tmp_path / "bracket_slot"))
    case_build.build_missing(case)
    shape = Part.read(case.reference_path)
    mesh = MeshPart.meshFromShape(Shape=shape, LinearDeflection=0.01, AngularDeflection=0.1)
    stl = str(tmp_path / "reference.stl")
    mesh.write(stl)
    result = score_files(case.reference_path, stl, {}, case=case)
    assert result["candidate"]["fromMesh"] is True
    assert 0.99 < result["shapeIoU"] <= 1.0
    # The reference's own features (a hole, a through slot, a step, a fillet), every one.
    assert result["semanticMatch"] == 1.0
    assert result["features"]["mesh"]["rebuilt"] is True
    for metric in ("dimensionRecall", "drawingMatch"):
        entry = result["verdicts"][metric]
        assert result[metric] is None and entry["verdict"] == "not applicable", metric
        assert entry["reason"].startswith("the candidate is a triangle mesh (STL/OBJ)"), metric
    # The ceilings are the reference's, as case.yaml's construction says (10 of the 14
    # targets are measurable in the default spectrum; the reference's drawing shows all).
    assert result["referenceCoverage"] == pytest.approx(10 / 14)
    assert result["verdicts"]["dimensionRecall"]["ceiling"] == pytest.approx(10 / 14)
    assert result["drawingSelfTest"] == pytest.approx(1.0)
    assert result["verdict"]["formal"] == "PASS"
