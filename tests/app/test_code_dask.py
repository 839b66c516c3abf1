# SPDX-License-Identifier: LGPL-2.1-or-later
"""Code submissions on a real dask.distributed LocalCluster: the scripts run once here, in the
sandbox; the models they made travel to the workers with their jobs; the results are the
local pool's, byte for byte."""

import json

import pytest
from conftest import run_cli

from cadbench_wb.code import sandbox

pytestmark = [
    pytest.mark.slow,  # a LocalCluster and two campaigns: about 45 s on 2 cores
    pytest.mark.skipif(
        sandbox.availability() is not None, reason=f"no OS sandbox: {sandbox.availability()}"
    ),
]
SCRIPT = """import FreeCAD as App
doc = App.newDocument("m")
box = doc.addObject("Part::Box", "Box")
box.Length, box.Width, box.Height = {x}, 8, 6
doc.recompute()
"""


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    local = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    )
    yield local
    local.close()


def test_code_submissions_on_dask_match_the_local_run(part, cluster, tmp_path):
    case = tmp_path / "cases" / "box"
    case.mkdir(parents=True)
    part.makeBox(10, 8, 6).exportStep(str(case / "reference.step"))
    (case / "case.yaml").write_text(
        "id: box\ntitle: box\nreference: reference.step\ngroup: g\nanchoring: false\n"
    )
    for system, x in (("exact", 10), ("long", 12.5)):
        run = tmp_path / "submissions" / system / "run1"
        run.mkdir(parents=True)
        (run / "box.py").write_text(SCRIPT.format(x=x))
    base = (
        "run",
        "--cases",
        str(tmp_path / "cases"),
        "--submissions",
        str(tmp_path / "submissions"),
    )
    status, _, err = run_cli(*base, "--out", str(tmp_path / "local"), "--only", "shape")
    assert status == 0, err
    status, _, err = run_cli(
        *base, "--out", str(tmp_path / "dask"), "--only", "shape",
        "--scheduler", cluster.scheduler_address,
    )  # fmt: skip
    assert status == 0, err
    local = json.loads((tmp_path / "local" / "results.json").read_text())
    assert (tmp_path / "dask" / "results.json").read_text() == (
        tmp_path / "local" / "results.json"
    ).read_text()
    rows = {r["system"]: r for r in local["scorings"]}
    assert rows["exact"]["shapeIoU"] == 1.0
    assert rows["long"]["shapeIoU"] == pytest.approx(10 / 12.5, abs=1e-6)
    assert rows["long"]["candidate"] == "long/run1/box.py"
