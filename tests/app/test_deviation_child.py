# SPDX-License-Identifier: LGPL-2.1-or-later
"""Show deviation's child (gui/deviation_child.py) run as the workbench runs it: a process
of its own, FreeCAD without its GUI, on BREP files, with the scored alignment.

The reference is a 40 x 30 x 20 block; the candidate is the same block 1 mm taller, moved
by (7, -3, 2), and the alignment given is the move back. Every candidate point on its top
face then lies 1 mm above the reference's top face (the distance FreeCAD's Inspection must
find), and every point of its bottom face on the reference's bottom face (0)."""

import json
import subprocess
import sys

import pytest

from cadbench_wb.runtime import runner

SHIFT = (7.0, -3.0, 2.0)


def _run_child(spec_path):
    return subprocess.run(
        [sys.executable, "-m", "cadbench_wb.gui.deviation_child", str(spec_path)],
        env=runner.child_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def measured(fc, tmp_path_factory):
    import Part

    folder = tmp_path_factory.mktemp("deviation")
    Part.makeBox(40, 30, 20).exportBrep(str(folder / "reference.brep"))
    candidate = Part.makeBox(40, 30, 21)
    candidate.translate(fc.Vector(*SHIFT))
    candidate.exportBrep(str(folder / "candidate.brep"))
    spec = {
        "reference": str(folder / "reference.brep"),
        "candidate": str(folder / "candidate.brep"),
        "alignment": {
            "rotation": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
            "translation": [-s for s in SHIFT],
        },
        "out": str(folder / "out"),
    }
    (folder / "spec.json").write_text(json.dumps(spec))
    process = _run_child(folder / "spec.json")
    return process, folder / "out"


def test_the_child_measures_inspections_distances_in_the_meshes_point_order(measured):
    import Mesh

    from cadbench_wb.gui import deviation_child

    process, out = measured
    assert process.returncode == 0, process.stdout + process.stderr
    data = json.loads((out / deviation_child.FILES["distances"]).read_text())
    # 2 % of the reference's diagonal.
    assert data["search_radius"] == pytest.approx(0.02 * (40**2 + 30**2 + 20**2) ** 0.5)
    aligned = Mesh.Mesh(str(out / deviation_child.FILES["aligned"]))
    distances = data["distances"]
    assert len(distances) == aligned.CountPoints > 100
    top = [abs(d) for p, d in zip(aligned.Points, distances, strict=True) if p.z > 21 - 1e-6]
    bottom = [abs(d) for p, d in zip(aligned.Points, distances, strict=True) if p.z < 1e-6]
    # Aligned, the candidate's top face is z = 21 over the reference's z = 20.
    assert len(top) > 10 and max(top) == pytest.approx(1.0, abs=1e-4), top
    assert min(top) == pytest.approx(1.0, abs=1e-4)
    assert len(bottom) > 10 and max(bottom) < 1e-4, bottom
    nominal = Mesh.Mesh(str(out / deviation_child.FILES["nominal"]))
    assert nominal.Volume == pytest.approx(40 * 30 * 20, rel=1e-9)


def test_the_child_reports_its_progress_going_forward_only(measured):
    process, _ = measured
    percents = [int(line.split()[1]) for line in process.stdout.splitlines()
                if line.startswith("progress ")]  # fmt: skip
    assert percents and percents == sorted(percents) and percents[-1] == 100, process.stdout
    assert len(set(percents)) >= 6, percents  # reading, meshing twice, the slices, done


def test_a_model_it_cannot_read_is_one_error_line_and_exit_1(tmp_path):
    (tmp_path / "bad.brep").write_text("not a BREP")
    spec = {"reference": str(tmp_path / "bad.brep"), "candidate": str(tmp_path / "bad.brep"),
            "alignment": None, "out": str(tmp_path / "out")}  # fmt: skip
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    process = _run_child(tmp_path / "spec.json")
    assert process.returncode == 1, process.stdout + process.stderr
    last = process.stdout.strip().splitlines()[-1]
    assert last.startswith("error ") and "Traceback" not in process.stdout + process.stderr
