# SPDX-License-Identifier: LGPL-2.1-or-later
"""The metric registry in a real FreeCAD: every stage loads, the stamps cover every module a
stage imports, and a missing stage makes scoring fail loudly instead of dropping a metric."""

import json
import os
import pathlib
import subprocess
import sys

from conftest import ROOT, copy_package

from cadbench_wb.results import fingerprint

LOADED_MODULES = """
import json, sys
from cadbench_wb.runtime.freecad_env import import_freecad
import_freecad()
from cadbench_wb.app import scoring
from cadbench_wb.metrics import registry
scoring.stage_functions()
for metric in registry.METRICS:
    if metric.reference_stage:
        registry.resolve(metric.reference_stage)
print(json.dumps(sorted(
    m.__file__ for name, m in list(sys.modules.items())
    if name.startswith("cadbench_wb") and getattr(m, "__file__", None)
)))
"""


def _python(code, cwd, env=None):
    full = dict(os.environ, PYTHONPATH=cwd, **(env or {}))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=full
    )


def test_every_module_a_stage_loads_is_sealed():
    process = _python(LOADED_MODULES, ROOT)
    assert process.returncode == 0, process.stderr
    loaded = {os.path.realpath(p) for p in json.loads(process.stdout.splitlines()[-1])}
    sealed = {
        os.path.realpath(p)
        for stamp in ("metric", "drawing")
        for p in fingerprint.sealed_files(stamp)
    }
    unsealed = {p for p in loaded - sealed if os.path.basename(p) != "__init__.py"}
    assert unsealed == set()


def test_every_case_section_validator_loads_without_freecad():
    code = (
        "import sys\n"
        "from cadbench_wb.metrics import registry\n"
        "for key, (metric, validator) in registry.section_owners().items():\n"
        "    registry.resolve(validator)\n"
        "print(sorted(m for m in sys.modules if m in ('FreeCAD', 'Part')))\n"
    )
    process = _python(code, ROOT)
    assert process.returncode == 0, process.stderr
    assert process.stdout.strip() == "[]"


def _score_with_copy(copy_root, *args, json_path="-"):
    """`cadbench score ARGS --json PATH` (default: standard output) run from a changed copy
    of the package."""
    return subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "score", *args, "--json", str(json_path)],
        capture_output=True,
        text=True,
        cwd=copy_root,
        env=dict(os.environ, PYTHONPATH=str(copy_root)),
        timeout=600,
    )


def test_a_missing_stage_module_fails_the_scoring_loudly(tmp_path, models):
    copy_package(tmp_path)
    os.remove(tmp_path / "cadbench_wb/app/threads/stage.py")
    process = _score_with_copy(tmp_path, models["holed"], models["holed_moved"], "--only", "shape")
    # Even with only the shape asked for, a registry that names a missing module is broken.
    assert process.returncode == 3, (process.returncode, process.stdout, process.stderr)
    assert "cadbench_wb.app.threads.stage" in process.stderr
    assert "Traceback" not in process.stderr
    assert '"PASS"' not in process.stdout


VOLUME_STAGE = """
from cadbench_wb.metrics.measured import Measured


def volume_stage(facts):
    a, b = facts.reference.shape.Volume, facts.aligned.Volume
    return Measured(min(a, b) / max(a, b), {"volume": {"reference": a, "candidate": b}})
"""
# One line: the orchestrator applies the mesh rule to it (requires a B-rep) with its reason.
REGISTRY_LINE = (
    '    Metric("volumeMatch", "volume", "Volume ratio", '
    '"cadbench_wb.app.volume.stage:volume_stage", threshold=0.99, requires=("brep",), '
    'outputs=("volume",), brep="the volume is read off the exact solid"),\n'
)
# The outputs, each fed the result the copy scored: nothing in them names the new metric.
OUTPUTS = """
import json, sys
from cadbench_wb.results import result as results
from cadbench_wb.campaign import figures, reports
from cadbench_wb.campaign.layout import Submission
from cadbench_wb.case_model.cases import Case
from cadbench_wb.commands import demo
from cadbench_wb.gui import panel_model

scored = [json.load(open(path)) for path in sys.argv[1:]]
case = Case(id="k1", title="one", path="/c/k1", reference="r.step", group="g")
rows = [figures.row_of(Submission("s", f"r{i}", "k1", "/s/x.step"), case, r)
        for i, r in enumerate(scored)]
document = {
    "schema": "cadbench.campaign/1", "metricFingerprint": "f" * 16,
    "drawingFingerprint": "d" * 16, "options": {}, "thresholds": {},
    "metrics": figures.rows_metrics(rows),
    "campaign": {"cases": 1, "groups": {"g": 1}, "anchoringCases": [],
                 "systems": {"s": ["r0", "r1"]}, "scorings": len(rows),
                 "unmatchedFiles": [], "ignoredFiles": []},
    "cases": [{"id": "k1"}], "summary": figures.campaign_summary(rows), "scorings": rows,
}
print(json.dumps({
    "csv": reports.csv_text(document),
    "html": reports.html_text(document),
    "panel": [row.cells for row in panel_model.metric_rows(scored[0])],
    "panelMesh": [row.cells for row in panel_model.metric_rows(scored[1])],
    "batchColumns": list(panel_model.BATCH_COLUMNS),
    "demoColumns": list(demo.COLUMNS),
    "groups": results.METRIC_GROUPS["volume"],
}))
"""


def test_a_sixth_metric_is_one_package_and_one_registry_line(tmp_path, models):
    # Issue 28: the package and the line are the only edits; scoring, --only, the not-
    # applicable rule, the CLI summary, the JSON, the CSV, the HTML page, the GUI panel and
    # the demo's table all take the metric from the registry.
    import math

    package = pathlib.Path(copy_package(tmp_path))
    (package / "app" / "volume").mkdir()
    (package / "app" / "volume" / "__init__.py").write_text('"""A toy sixth metric."""\n')
    (package / "app" / "volume" / "stage.py").write_text(VOLUME_STAGE)
    registry_file = package / "metrics" / "registry.py"
    text = registry_file.read_text()
    end = text.index("\n)\n", text.index("METRICS = ("))
    registry_file.write_text(text[: end + 1] + REGISTRY_LINE + text[end + 1 :])
    solid, mesh = tmp_path / "solid.json", tmp_path / "mesh.json"
    process = _score_with_copy(
        tmp_path, models["holed"], models["holed_bigger_hole"], "--only", "shape,volume",
        json_path=solid,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr
    assert "Volume ratio (volumeMatch)" in process.stdout  # the CLI summary's line
    result = json.loads(solid.read_text())
    # The construction: a 40 x 30 x 20 block with a through hole of radius 5, against 6.
    expected = (24000 - math.pi * 36 * 20) / (24000 - math.pi * 25 * 20)
    assert math.isclose(result["volumeMatch"], expected, rel_tol=1e-6)
    assert math.isclose(result["volume"]["reference"], 24000 - math.pi * 25 * 20, rel_tol=1e-6)
    assert result["verdicts"]["volumeMatch"]["verdict"] == "FAIL"  # 0.966 < 0.99
    assert result["verdicts"]["volumeMatch"]["threshold"] == 0.99
    assert result["metricFingerprint"] != fingerprint.metric_fingerprint()
    # On a mesh candidate the orchestrator makes it not applicable, with the line's reason.
    process = _score_with_copy(
        tmp_path, models["holed"], models["holed_stl"], "--only", "volume", json_path=mesh
    )
    assert process.returncode == 0, process.stderr
    on_mesh = json.loads(mesh.read_text())
    entry = on_mesh["verdicts"]["volumeMatch"]
    assert on_mesh["volumeMatch"] is None and "volume" not in on_mesh
    assert (
        entry["verdict"] == "not applicable"
        and "the volume is read off the exact solid" in (entry["reason"])
    )
    process = _python_in_copy(tmp_path, OUTPUTS, str(solid), str(mesh))
    assert process.returncode == 0, process.stderr
    shown = json.loads(process.stdout.splitlines()[-1])
    header, first = shown["csv"].splitlines()[:2]
    assert "volumeMatch,volumeMatch.verdict" in header and ",FAIL," in first
    assert f"{result['volumeMatch']}" in first
    assert "volumeMatch (volume ratio)" in shown["html"]
    labels = [cells[0] for cells in shown["panel"]]
    assert "Volume ratio (volumeMatch)" in labels
    mesh_row = next(c for c in shown["panelMesh"] if c[0] == "Volume ratio (volumeMatch)")
    assert "not applicable" in mesh_row
    assert "volumeMatch" in shown["batchColumns"] and "volumeMatch" in shown["demoColumns"]
    assert shown["groups"] == ["volumeMatch"]


def _python_in_copy(copy_root, code, *args):
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=copy_root,
        env=dict(os.environ, PYTHONPATH=str(copy_root)),
        timeout=600,
    )


SILENT_STAGE = """
def silent_stage(facts):
    value = 1.0  # measured, but never returned: no verdict
"""


def test_a_metric_whose_stage_writes_no_verdict_is_the_scorers_failure_never_a_pass(
    tmp_path, models
):
    # Issue 28: a stage that returns without its verdict used to leave the case verdict
    # PASS without it. Now it raises (StageWroteNoVerdict) on the candidate and on the
    # perfect-copy control alike, so the metric is NOT CHECKED, named as the scorer's.
    package = pathlib.Path(copy_package(tmp_path))
    (package / "app" / "silent_stage.py").write_text(SILENT_STAGE)
    registry_file = package / "metrics" / "registry.py"
    text = registry_file.read_text()
    end = text.index("\n)\n", text.index("METRICS = ("))
    line = (
        '    Metric("silentMatch", "silent", "Silent", '
        '"cadbench_wb.app.silent_stage:silent_stage", threshold=0.5),\n'
    )
    registry_file.write_text(text[: end + 1] + line + text[end + 1 :])
    process = _score_with_copy(tmp_path, models["holed"], models["holed_moved"], "--only", "silent")
    assert process.returncode == 0, process.stderr
    result = json.loads(process.stdout)
    entry = result["verdicts"]["silentMatch"]
    assert result["silentMatch"] is None and entry["verdict"] == "NOT CHECKED"
    assert "StageWroteNoVerdict" in entry["control"]["failed"]
    assert "StageWroteNoVerdict" in entry["control"]["candidate"]
    assert result["verdict"]["formal"] == "NOT CHECKED"
