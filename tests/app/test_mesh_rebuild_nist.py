# SPDX-License-Identifier: LGPL-2.1-or-later
"""Public NIST parts' own tessellations rebuild into analytic B-reps (app/features/
mesh_brep.py): FTC-08 (spheres at rounded corners, tori, cylinders) and FTC-09. The STL is
MeshPart's tessellation of the committed STEP (tests/data/nist, public domain), so the
expected figures come from the STEP itself: the rebuilt faces lie on surfaces fitted to
vertices of the STEP's own faces, so the rebuilt volume is the STEP's within its area
times the fit tolerance, and the rebuild has the STEP's faces, kind by kind."""

import os

import pytest
from conftest import ROOT, mesh_arrays, own_mesh

NIST = os.path.join(ROOT, "tests", "data", "nist")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["nist_ftc_08_asme1_rc.stp", "nist_ftc_09_asme1_rd.stp"])
def test_a_nist_parts_own_stl_rebuilds_to_its_volume(part, name):
    from cadbench_wb.app.mesh_rebuild import mesh_brep

    solid = part.read(os.path.join(NIST, name)).Solids[0]
    mesh = own_mesh(solid)
    vertices, triangles = mesh_arrays(mesh)
    rebuilt, summary = mesh_brep.rebuilt_solid(vertices, triangles, mesh.Volume)
    assert rebuilt.isValid()
    allowed = solid.Area * summary["fitTolerance"]
    assert abs(rebuilt.Volume - solid.Volume) <= allowed
    # Every plane, cone, sphere and torus of the STEP is a face of the rebuild; the STEP's
    # cylinders come in halves (FTC-08: 157, FTC-09: 88), which the rebuild unifies into
    # one face with a seam where both halves are in one region.
    step, kinds = _kinds(solid), _kinds(rebuilt)
    for kind in ("Plane", "Cone", "Sphere", "Toroid"):
        assert kinds.get(kind, 0) == step.get(kind, 0), kind
    assert step["Cylinder"] / 2 <= kinds["Cylinder"] <= step["Cylinder"]


def _kinds(solid) -> dict:
    found: dict = {}
    for face in solid.Faces:
        kind = type(face.Surface).__name__
        found[kind] = found.get(kind, 0) + 1
    return found


@pytest.mark.slow
def test_nist_ftc_06s_own_stl_rebuilds_and_reads_the_steps_features(part, tmp_path):
    """FTC-06: drill points (cones ending in their apex), a hemispherical pocket and a
    dome beyond a hemisphere, whose faces would not close before (an open shell), or came
    out as their complements (the volume check refused them). The tessellation as MeshPart
    gives it, and its STL file scored against the STEP (the reader orders the vertices
    otherwise, and the alignment turns them)."""
    from cadbench_wb.app.features import stage
    from cadbench_wb.app.mesh_rebuild import mesh_brep
    from cadbench_wb.app.recognition import features as recognition
    from cadbench_wb.app.scoring import score_files
    from cadbench_wb.metrics import feature_matching

    solid = part.read(os.path.join(NIST, "nist_ftc_06_asme1_rd.stp")).Solids[0]
    mesh = own_mesh(solid)
    vertices, triangles = mesh_arrays(mesh)
    rebuilt, summary = mesh_brep.rebuilt_solid(vertices, triangles, mesh.Volume)
    assert rebuilt.isValid()
    assert abs(rebuilt.Volume - solid.Volume) <= solid.Area * summary["fitTolerance"]
    # Planes and spheres face for face; cones, cylinders and tori whole or in halves.
    step, kinds = _kinds(solid), _kinds(rebuilt)
    for kind in ("Plane", "Sphere"):
        assert kinds.get(kind, 0) == step.get(kind, 0), kind
    for kind in ("Cone", "Cylinder", "Toroid"):
        assert step[kind] <= kinds[kind] <= 2 * step[kind], kind
    # Every feature recognition finds on the STEP is read off the rebuild, exactly.
    target = recognition.recognise(solid)
    found = recognition.recognise(rebuilt)
    matched = feature_matching.match_features(
        target["features"] + target["unrecognised"],
        found["features"] + found["unrecognised"],
        stage.settings_for(solid.BoundBox.DiagonalLength),
    )
    assert matched["value"] == 1.0, (matched["missing"], matched["extra"])
    stl = str(tmp_path / "ftc_06.stl")
    mesh.write(stl)
    result = score_files(
        os.path.join(NIST, "nist_ftc_06_asme1_rd.stp"), stl, {"only": ["features"]}
    )
    assert result["features"]["mesh"]["rebuilt"] is True, result["features"]["mesh"]
    assert result["semanticMatch"] == 1.0, (
        result["features"]["missing"],
        result["features"]["extra"],
    )


@pytest.mark.slow
# Turned, an STL reads at least as well as it does as meshed: before, float32 rounding split
# its planes into groups a few facets wide, which were counted as facets of a curved face no
# fit took (not applicable). The target is the STEP's own features: none missing, FTC-06
# every one exactly; FTC-08 one breakthrough's size read short (0.994), and on FreeCAD 1.0
# as meshed one concave fillet too many (0.982), which turned it does not read.
@pytest.mark.parametrize("name", ["nist_ftc_06_asme1_rd.stp", "nist_ftc_08_asme1_rc.stp"])
def test_a_nist_parts_own_stl_turned_reads_as_meshed(part, tmp_path, name):
    from cadbench_wb.app.scoring import score_files

    path = os.path.join(NIST, name)
    solid = part.read(path).Solids[0]
    figures = []
    for turned in (False, True):
        stl = str(tmp_path / f"{int(turned)}.stl")
        own_mesh(solid, turned=turned).write(stl)
        result = score_files(path, stl, {"only": ["features"]})
        features = result["features"]
        assert features["mesh"]["rebuilt"] is True, features["mesh"]
        assert features["missing"] == []
        partial = [pair for pair in features["matched"] if pair["credit"] < 1]
        assert len(partial) <= 1 and len(features["extra"]) <= 1, (partial, features["extra"])
        figures.append(result["semanticMatch"])
    assert figures[1] >= figures[0]
