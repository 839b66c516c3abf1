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


def _score_with_copy(copy_root, *args):
    """`cadbench score ARGS --json -` run from a changed copy of the package."""
    return subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "score", *args, "--json", "-"],
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
from cadbench_wb.metrics import verdicts


def volume_stage(context):
    a, b = context.reference.shape.Volume, context.aligned.Volume
    value = min(a, b) / max(a, b)
    context.result["volumeMatch"] = value
    context.result["verdicts"]["volumeMatch"] = verdicts.verdict("volumeMatch", value)
"""
REGISTRY_LINE = (
    '    Metric("volumeMatch", "volume", "Volume ratio", '
    '"cadbench_wb.app.volume_stage:volume_stage", threshold=0.99),\n'
)


def test_a_sixth_metric_is_one_module_and_one_registry_line(tmp_path, models):
    import math

    package = pathlib.Path(copy_package(tmp_path))
    (package / "app" / "volume_stage.py").write_text(VOLUME_STAGE)
    registry_file = package / "metrics" / "registry.py"
    text = registry_file.read_text()
    end = text.index("\n)\n", text.index("METRICS = ("))
    registry_file.write_text(text[: end + 1] + REGISTRY_LINE + text[end + 1 :])
    process = _score_with_copy(
        tmp_path, models["holed"], models["holed_bigger_hole"], "--only", "shape,volume"
    )
    assert process.returncode == 0, process.stderr
    result = json.loads(process.stdout)
    # The construction: a 40 x 30 x 20 block with a through hole of radius 5, against 6.
    expected = (24000 - math.pi * 36 * 20) / (24000 - math.pi * 25 * 20)
    assert math.isclose(result["volumeMatch"], expected, rel_tol=1e-6)
    assert result["verdicts"]["volumeMatch"]["verdict"] == "FAIL"  # 0.966 < 0.99
    assert result["verdicts"]["volumeMatch"]["threshold"] == 0.99
    assert result["metricFingerprint"] != fingerprint.metric_fingerprint()
