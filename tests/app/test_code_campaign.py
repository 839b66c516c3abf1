# SPDX-License-Identifier: LGPL-2.1-or-later
"""FreeCAD-Python scripts in a campaign on the local pool: each is run once in the sandbox and
its model scored and stored (none left NOT CHECKED), the field's figures and invalidRate are
in results.json and report.html, and a rerun executes nothing. The one fast test of scripts
through `cadbench run` (the Dask and CADTestBench ones are slow)."""

import csv
import json
import xml.etree.ElementTree as ElementTree

import pytest
from conftest import run_cli

from cadbench_wb.code import sandbox

# About 7 CPU s (two campaigns of three scripts, one pool worker); 25 s wall at load 11.
pytestmark = pytest.mark.skipif(
    sandbox.availability() is not None, reason=f"no OS sandbox: {sandbox.availability()}"
)
SCRIPT = """import Part
result = Part.makeBox({x}, 8, 6)
"""


def test_scripts_in_a_campaign_are_scored_stored_and_not_run_again(part, tmp_path):
    case = tmp_path / "cases" / "box"
    case.mkdir(parents=True)
    part.makeBox(10, 8, 6).exportStep(str(case / "reference.step"))
    (case / "case.yaml").write_text(
        "id: box\ntitle: box\nreference: reference.step\ngroup: g\nanchoring: false\n"
    )
    scripts = {
        "exact": SCRIPT.format(x=10),
        "long": SCRIPT.format(x=12.5),
        "broken": "import Part\nx = (\n",
    }
    for system, source in scripts.items():
        run = tmp_path / "submissions" / system / "run1"
        run.mkdir(parents=True)
        (run / "box.py").write_text(source)
    command = ("run", "--cases", str(tmp_path / "cases"), "--submissions")
    command += (str(tmp_path / "submissions"), "--out", str(tmp_path / "out"))
    command += ("--only", "shape", "--workers", "1")
    status, _, err = run_cli(*command)
    assert status == 0, err
    document = json.loads((tmp_path / "out" / "results.json").read_text())
    rows = {r["system"]: r for r in document["scorings"]}
    assert all(r["checked"] for r in rows.values()), [r["notChecked"] for r in rows.values()]
    assert rows["exact"]["shapeIoU"] == 1.0
    assert rows["long"]["shapeIoU"] == pytest.approx(10 / 12.5, abs=1e-6)
    assert rows["broken"]["failure"]["reason"] == "code_syntax_error"
    field = document["fieldFigures"]
    assert field["broken"]["invalidRate"]["count"] == 1
    assert field["exact"]["invalidRate"]["count"] == 0
    assert field["exact"]["invalidRate"]["timeoutOf"] == "script"
    assert field["exact"]["voxelIoU64"]["over"]["median"] == 1.0
    page = (tmp_path / "out" / "report.html").read_text()
    assert "id='field-figures'" in page and "data-table='field'" in page
    # The same figures in results.csv and junit.xml, named with their protocol's benchmark.
    with open(tmp_path / "out" / "results.csv", encoding="utf-8", newline="") as handle:
        lines = {line["system"]: line for line in csv.DictReader(handle)}
    assert float(lines["exact"]["voxelIoU64.BenchCAD"]) == 1.0  # the reference's own box
    shown = float(lines["long"]["chamferDistance.CAD-Recode"])
    assert shown == rows["long"]["fieldFigures"]["chamferDistance"] > 0
    assert lines["broken"]["chamferDistance.CAD-Recode"] == ""  # no model, no figure
    tree = ElementTree.parse(tmp_path / "out" / "junit.xml")
    suites = {
        s.get("name"): {p.get("name"): p.get("value") for p in s.find("properties")}
        for s in tree.iter("testsuite")
    }
    assert float(suites["broken"]["invalidRate"]) == 1.0 and suites["exact"]["invalidRate"] == "0.0"
    assert suites["broken"]["invalidRate.timeoutOf"] == "script"
    timings = json.loads((tmp_path / "out" / "timings.json").read_text())
    assert timings["codeExecutedNow"] == 3

    status, _, err = run_cli(*command)
    assert status == 0, err
    timings = json.loads((tmp_path / "out" / "timings.json").read_text())
    assert timings["codeExecutedNow"] == 0 and timings["fromStore"] == 3
