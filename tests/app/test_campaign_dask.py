# SPDX-License-Identifier: LGPL-2.1-or-later
"""The same campaign on a real dask.distributed LocalCluster gives the same results.json."""

import json
import os
import time

import pytest
from conftest import run_cli
from test_campaign_support import build_campaign

from cadbench_wb.campaign import distributed
from cadbench_wb.errors import UsageError


@pytest.fixture(scope="module")
def cluster_temp(tmp_path_factory):
    """The cluster's own temporary folder (TMPDIR of its worker processes), so that what its
    scorings leave behind can be seen apart from every other process on the machine."""
    return tmp_path_factory.mktemp("cluster-tmp")


@pytest.fixture(scope="module")
def cluster(cluster_temp):
    from distributed import LocalCluster

    before = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(cluster_temp)  # inherited by the worker processes it starts
    try:
        # Processes, not threads: the scheduler is reached over TCP like a remote one.
        local = LocalCluster(
            n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None,
            local_directory=str(cluster_temp),
        )  # fmt: skip
    finally:
        if before is None:
            del os.environ["TMPDIR"]
        else:
            os.environ["TMPDIR"] = before
    yield local
    local.close()


def test_a_campaign_on_dask_matches_the_local_run(part, cluster, tmp_path):
    campaign = build_campaign(str(tmp_path / "campaign"), part)
    base = ("run", "--cases", campaign["cases"], "--submissions", campaign["submissions"])
    status, _, stderr = run_cli(*base, "--out", str(tmp_path / "local"), "--only", "shape")
    assert status == 0, stderr
    status, stdout, stderr = run_cli(
        *base, "--out", str(tmp_path / "dask"), "--only", "shape",
        "--scheduler", cluster.scheduler_address,
    )  # fmt: skip
    assert status == 0, stderr
    local = (tmp_path / "local" / "results.json").read_bytes()
    assert (tmp_path / "dask" / "results.json").read_bytes() == local
    timings = json.loads((tmp_path / "dask" / "timings.json").read_text())
    assert timings["scheduler"] == cluster.scheduler_address and timings["scoredNow"] == 12
    assert all(seconds > 0 for seconds in timings["secondsPerJob"].values())


def test_an_unreachable_scheduler_is_a_usage_error():
    started = time.monotonic()
    with pytest.raises(UsageError, match="cannot reach the Dask scheduler"):
        distributed.client_of("tcp://127.0.0.1:9", timeout=1)
    assert time.monotonic() - started < 30


def test_a_closed_cluster_leaves_no_scoring_folder_behind(cluster, cluster_temp):
    """Last in this file: it closes the module's cluster. Each Dask task thread kept a
    scoring process with its folder (pool.WorkerProcess); none may outlive the cluster."""
    assert any(cluster_temp.iterdir()), "the cluster never used its temporary folder"
    cluster.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        left = sorted(p.name for p in cluster_temp.iterdir() if p.name.startswith("cadbench-"))
        if not left:
            break
        time.sleep(0.5)
    assert left == []
