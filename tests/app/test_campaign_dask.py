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


def _stored(out) -> int:
    import sqlite3

    path = os.path.join(out, "campaign.sqlite")
    if not os.path.exists(path):
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
    except sqlite3.OperationalError:  # the table not made yet
        return 0


@pytest.mark.slow
def test_a_run_whose_every_worker_dies_ends_and_keeps_what_finished(part, tmp_path, monkeypatch):
    """Issue 31: after its only worker died, `run --scheduler` still said '6/20 scored' 360 s
    later. The plate's candidates hang (a fault in the scoring child), the others finish;
    then the only worker is taken away: the run ends within WORKERS_LOST_S and a few polls,
    with what finished stored and the rest NOT CHECKED (exit 6 from the command line)."""
    import threading

    from distributed import LocalCluster

    from cadbench_wb.campaign import batch

    campaign = build_campaign(str(tmp_path / "campaign"), part)
    monkeypatch.setattr(distributed, "WORKERS_LOST_S", 5)
    monkeypatch.setenv("CADBENCH_FAULT", "hang:alignment plate_c")  # the workers inherit it
    # Four task threads: the three plate candidates that hang leave one for the others.
    local = LocalCluster(
        n_workers=1, threads_per_worker=4, processes=True, dashboard_address=None,
        local_directory=str(tmp_path / "cluster"),
    )  # fmt: skip
    monkeypatch.delenv("CADBENCH_FAULT")
    out = str(tmp_path / "out")
    settings = batch.Settings(
        cases_dir=campaign["cases"], submissions_dir=campaign["submissions"], out_dir=out,
        scheduler=local.scheduler_address, timeout=600, options={"only": ["shape"]},
        progress_stream=open(os.devnull, "w"),  # closed with the process
    )  # fmt: skip
    finished = {}
    thread = threading.Thread(
        target=lambda: finished.update(document=batch.run_campaign(settings)), daemon=True
    )
    try:
        thread.start()
        deadline = time.monotonic() + 300
        while _stored(out) < 4 and time.monotonic() < deadline:  # 8 of 11 can finish
            time.sleep(0.5)
        assert _stored(out) >= 4, "the cluster scored too little before its worker went"
        local.scale(0)  # the only worker ends, with hung plate_c tasks in hand
        lost_at = time.monotonic()
        thread.join(timeout=120)
        assert not thread.is_alive(), "the run did not end after its every worker was lost"
        assert time.monotonic() - lost_at < 120
    finally:
        local.close()
    rows = finished["document"]["scorings"]
    stored = _stored(out)
    checked = [r for r in rows if r["checked"]]
    unchecked = [r for r in rows if not r["checked"]]
    assert len(checked) == stored  # every row scored is stored (the missing delivery too)
    assert unchecked and all(r["notChecked"]["reason"] == "worker_lost" for r in unchecked)
    assert all("no worker" in r["notChecked"]["detail"] for r in unchecked)
    assert {r["case"] for r in unchecked} >= {"plate_c"}


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
