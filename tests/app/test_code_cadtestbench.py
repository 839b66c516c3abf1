# SPDX-License-Identifier: LGPL-2.1-or-later
"""Real AI-generated CadQuery (CADTestBench's GPT-5.2 and Claude-4.6-Sonnet predictions for
four CADPrompt parts, tests/data/cadtestbench) scored through `cadbench run`, each script run
in the bubblewrap sandbox: the figures are those of the STEP the same script exports when
run outside cadbench, and a rerun or a rescoring executes no script again.

The references are built here from the dimensions the prompts state (CADPrompt's own
ground truth carries no licence)."""

import json
import os
import shutil
import subprocess

import pytest
from conftest import ROOT, run_cli

from cadbench_wb.code import dialects, sandbox

DATA = os.path.join(ROOT, "tests", "data", "cadtestbench")
MODELS = ("GPT-5.2", "Claude-4.6-Sonnet")
PARTS = ("00000633", "00001490", "00004154", "00004495")
CODE_PYTHON = os.path.join(dialects.code_venv(), "bin", "python")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.path.exists(CODE_PYTHON),
        reason=f"no CadQuery environment at {dialects.code_venv()}: `make setup-code` installs it",
    ),
    pytest.mark.skipif(
        sandbox.availability() is not None, reason=f"no OS sandbox: {sandbox.availability()}"
    ),
]


def reference_of(fc, part, case_id):
    """The part as its CADTestBench prompt (Detailed) states it."""
    v = fc.Vector
    if case_id == "00000633":  # block 0.75 x 0.1875 x 0.00391, centred hole d 0.12512
        block = part.makeBox(0.75, 0.1875, 0.00391, v(-0.375, -0.09375, 0))
        return block.cut(part.makeCylinder(0.12512 / 2, 0.00391))
    if case_id == "00001490":  # cylinder h 0.48649, r 0.75, central hole d 0.243243...
        return part.makeCylinder(0.75, 0.48649).cut(
            part.makeCylinder(0.243243243243244 / 2, 0.48649)
        )
    if case_id == "00004154":  # box 0.70588 x 0.40809 x 0.22059, vertical edges R 0.08
        box = part.makeBox(0.70588, 0.40809, 0.22059, v(-0.70588 / 2, -0.40809 / 2, 0))
        vertical = [e for e in box.Edges if abs(e.tangentAt(0.0).z) > 0.99]
        return box.makeFillet(0.08, vertical)
    # 00004495: hollow cylinder h 0.75, outer d 0.85714, inner d 0.535714
    return part.makeCylinder(0.85714 / 2, 0.75).cut(part.makeCylinder(0.535714 / 2, 0.75))


@pytest.fixture(scope="module")
def campaign(fc, part, tmp_path_factory):
    root = tmp_path_factory.mktemp("cadtestbench")
    for case_id in PARTS:
        folder = root / "cases" / case_id
        folder.mkdir(parents=True)
        reference_of(fc, part, case_id).exportStep(str(folder / "reference.step"))
        (folder / "case.yaml").write_text(
            f"id: '{case_id}'\ntitle: CADPrompt part {case_id}\nreference: reference.step\n"
            "group: cadprompt\nanchoring: false\n"
        )
    for model in MODELS:
        run = root / "submissions" / model / "detailed"
        run.mkdir(parents=True)
        for case_id in PARTS:
            shutil.copy(os.path.join(DATA, model, f"{case_id}.py"), run / f"{case_id}.py")
    published = root / "submissions" / "GPT-5.2-as-published" / "detailed"
    published.mkdir(parents=True)
    shutil.copy(
        os.path.join(DATA, "as_published", "GPT-5.2_00000633.py"), published / "00000633.py"
    )
    out = root / "out"
    args = (
        "run", "--cases", str(root / "cases"), "--submissions", str(root / "submissions"),
        "--out", str(out), "--only", "shape", "--workers", "2",
    )  # fmt: skip
    status, stdout, stderr = run_cli(*args)
    assert status == 0, stderr + stdout
    return {"root": root, "out": out, "args": args}


def results(out) -> dict:
    with open(os.path.join(out, "results.json")) as handle:
        return json.load(handle)


def stats(out) -> dict:
    with open(os.path.join(out, "timings.json")) as handle:
        return json.load(handle)


def test_every_prediction_runs_in_the_sandbox_and_is_scored(campaign):
    rows = {(r["system"], r["case"]): r for r in results(campaign["out"])["scorings"]}
    for model in MODELS:
        for case_id in PARTS:
            row = rows[(model, case_id)]
            assert row["delivered"] is True, row["failure"]
            assert 0 <= row["fieldFigures"]["chamferDistance"] < 1000
    # As published, the script ends exporting an STL into experiments/... of its working
    # folder (CadQuery makes the folders): in the sandbox's scratch, harmless; its
    # final_result is the same model as without that line.
    assert len(stats(campaign["out"])["codeSecondsPerJob"]) == 9
    assert all(seconds > 0 for seconds in stats(campaign["out"])["codeSecondsPerJob"].values())
    published = rows[("GPT-5.2-as-published", "00000633")]
    stripped = rows[("GPT-5.2", "00000633")]
    assert published["delivered"] is True
    assert published["shapeIoU"] == stripped["shapeIoU"]
    assert published["fieldFigures"] == stripped["fieldFigures"]
    field = results(campaign["out"])["fieldFigures"]
    assert field["GPT-5.2"]["invalidRate"]["rate"] == 0.0
    assert field["GPT-5.2"]["invalidRate"]["timeoutSeconds"] == sandbox.CodeLimits().timeout
    assert field["GPT-5.2"]["invalidRate"]["timeoutOf"] == "script"


def exported_outside(script: str, folder) -> str:
    """The script run as its authors would (CadQuery's Python, no sandbox, no cadbench),
    final_result exported to STEP by CadQuery's own exporter."""
    step = os.path.join(folder, os.path.basename(script) + ".step")
    code = (
        "import runpy, sys, cadquery as cq\n"
        "ns = runpy.run_path(sys.argv[1])\n"
        "cq.exporters.export(ns['final_result'], sys.argv[2])\n"
    )
    subprocess.run([CODE_PYTHON, "-c", code, script, step], check=True, cwd=folder, timeout=300)
    return step


def test_the_figures_are_those_of_the_step_exported_outside_cadbench(campaign, tmp_path):
    rows = {(r["system"], r["case"]): r for r in results(campaign["out"])["scorings"]}
    for model, case_id in (("GPT-5.2", "00004154"), ("Claude-4.6-Sonnet", "00001490")):
        step = exported_outside(os.path.join(DATA, model, f"{case_id}.py"), tmp_path)
        reference = str(campaign["root"] / "cases" / case_id / "reference.step")
        status, out, err = run_cli("score", reference, step, "--only", "shape", "--json", "-")
        assert status == 0, err
        alone = json.loads(out)
        row = rows[(model, case_id)]
        assert alone["shapeIoU"] == row["shapeIoU"]
        for name in ("chamferDistance", "voxelIoU64"):
            assert alone["fieldFigures"][name]["value"] == row["fieldFigures"][name]


def test_a_rerun_and_a_rescoring_execute_no_script(campaign):
    status, _, stderr = run_cli(*campaign["args"])
    assert status == 0, stderr
    assert stats(campaign["out"])["codeExecutedNow"] == 0
    assert stats(campaign["out"])["scoredNow"] == 0
    rescored = [*campaign["args"][:-4], "--only", "shape,features", "--workers", "2"]
    status, _, stderr = run_cli(*rescored)
    assert status == 0, stderr
    # Every scoring again (9 scripts, and the 3 cases the as-published run lacks), no script run.
    assert stats(campaign["out"])["scoredNow"] == 12
    assert stats(campaign["out"])["codeExecutedNow"] == 0


BUILD123D = """from build123d import BuildPart, Box, Cylinder, Mode

with BuildPart() as part:
    Box(10, 20, 30)
    Cylinder(2, 30, mode=Mode.SUBTRACT)
"""


def test_a_build123d_script_is_scored_by_its_buildpart(fc, part, tmp_path):
    reference = tmp_path / "block.step"
    block = part.makeBox(10, 20, 30, fc.Vector(-5, -10, -15))
    block.cut(part.makeCylinder(2, 30, fc.Vector(0, 0, -15))).exportStep(str(reference))
    script = tmp_path / "block.py"
    script.write_text(BUILD123D)
    status, out, err = run_cli(
        "score", str(reference), str(script), "--only", "shape", "--json", "-"
    )
    assert status == 0, err
    result = json.loads(out)
    assert result["code"]["dialect"] == "build123d" and result["code"]["status"] == "ok"
    assert result["shapeIoU"] == pytest.approx(1.0, abs=1e-6)
