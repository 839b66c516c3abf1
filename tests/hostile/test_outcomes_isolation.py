# SPDX-License-Identifier: LGPL-2.1-or-later
"""The right party blamed, the caller isolated, campaigns that end: real processes, real
files (generated here), the scorer's own limits."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from children import scoring_children
from conftest import ROOT, run_cli

from cadbench_wb.runtime import outcome

# The fault and the killer hit only candidates whose name holds TOKEN: one per test process,
# so a killer never takes another xdist worker's victim (or another run's on the machine).
TOKEN = f"victim{os.getpid()}"


@pytest.fixture(scope="module")
def boxes(part, tmp_path_factory):
    root = tmp_path_factory.mktemp("isolation")
    reference, candidate = root / "reference.step", root / f"{TOKEN}.step"
    part.makeBox(10, 8, 6).exportStep(str(reference))
    part.makeBox(10.5, 8, 6).exportStep(str(candidate))
    return {"reference": str(reference), "candidate": str(candidate), "root": root}


@pytest.fixture(scope="module")
def many_faces(tmp_path_factory):
    """A STEP that declares 20,160 faces (3,360 boxes' worth) and holds no model: its header
    makes it a STEP by content, its entities are ADVANCED_FACE lines only. Read, it would be
    the candidate's unreadable failure, so too_large says the count refused it first. (The
    real 54 MB export of 3,360 boxes cost a minute of `make test` to write; reading a real
    20k-face STEP is tests/app/test_input_size.py's count on public parts.)"""
    path = tmp_path_factory.mktemp("many") / "many_faces.step"
    body = b"".join(b"#%d=ADVANCED_FACE('',(#1),#2,.T.);\n" % (i + 10) for i in range(20160))
    path.write_bytes(b"ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n" + body + b"ENDSEC;\n")
    return str(path)


def test_a_candidate_too_big_to_read_is_its_scored_failure_before_any_read(boxes, many_faces):
    # Under the smallest limit accepted, the face count in the STEP's text refuses it before
    # any read, with the limit named, as the candidate's failure (standard.INPUT_SIZE). Memory
    # exhausted by a candidate is the candidate's `memory` failure in every front door:
    # tests/hostile/test_outcomes_front_doors.py.
    from cadbench_wb import standard

    status, out, err = run_cli(
        "score", boxes["reference"], many_faces, "--only", "shape",
        "--memory-mb", str(standard.MIN_MEMORY_MB), "--json", "-",
    )  # fmt: skip
    assert status == 0, err
    result = json.loads(out)
    assert result["delivered"] is False and result["failure"]["reason"] == "too_large"
    assert str(standard.INPUT_SIZE["brep_max_faces"]) in result["failure"]["detail"]
    assert "20160 faces" in result["failure"]["detail"]
    assert result["shapeIoU"] == 0.0


def test_a_candidate_that_stalls_is_never_the_references_timeout(boxes):
    status, out, err = run_cli(
        "score", boxes["reference"], boxes["candidate"], "--only", "shape", "--timeout", "20",
        "--json", "-", env={"CADBENCH_FAULT": f"hang:candidate {TOKEN}"},
    )  # fmt: skip
    assert status == 0, err
    failure = json.loads(out)["failure"]
    assert failure["reason"] == "timeout"
    assert f"stage 'candidate' ({TOKEN}.step)" in failure["detail"]


def test_a_reference_that_stalls_is_the_reference_and_names_its_file(boxes):
    status, out, err = run_cli(
        "score", boxes["reference"], boxes["candidate"], "--only", "shape", "--timeout", "20",
        env={"CADBENCH_FAULT": "hang:reference"},
    )  # fmt: skip
    assert status == 4 and out == "" and err.count("\n") == 1
    assert "reference_invalid" in err and "stage 'reference' (reference.step)" in err


def test_memory_exhausted_before_any_model_is_the_limit_given(boxes):
    status, _, err = run_cli(
        "score", boxes["reference"], boxes["candidate"], "--memory-mb", "2048",
        env={"CADBENCH_FAULT": "memory:selftest:compound"},
    )  # fmt: skip
    assert status == 2 and "memory: " in err and "--memory-mb 2048 is too low" in err


def test_the_workbench_shows_only_what_a_child_read_and_checked(fc, boxes, monkeypatch):
    from cadbench_wb.errors import DeliveryFailure
    from cadbench_wb.gui import session

    work = session.Session()
    shown = work.load("reference", boxes["reference"])
    assert shown.object().Shape.Volume == pytest.approx(10 * 8 * 6, rel=1e-9)
    assert len(shown.object().Shape.Faces) == 6
    for fault, reason in (("crash", "evaluator_error"), ("memory", "memory")):
        monkeypatch.setenv("CADBENCH_FAULT", f"{fault}:candidate {TOKEN}")
        with pytest.raises(DeliveryFailure) as failure:
            work.load("candidate", boxes["candidate"])  # this process survives the child
        assert failure.value.reason == reason and f"({TOKEN}.step)" in failure.value.detail
        assert work.candidate.object() is None  # nothing of the file was shown
    monkeypatch.delenv("CADBENCH_FAULT")
    assert work.load("candidate", boxes["candidate"]).object().Shape.Volume == pytest.approx(
        10.5 * 8 * 6, rel=1e-9
    )


@pytest.mark.parametrize("fault,reason", [("crash", "evaluator_error"), ("hang", "timeout")])
def test_drawing_runs_in_a_child_and_names_its_death(boxes, tmp_path, fault, reason):
    status, out, err = run_cli(
        "drawing", boxes["candidate"], "--out", str(tmp_path), "--timeout", "20",
        env={"CADBENCH_FAULT": f"{fault}:drawing {TOKEN}"},
    )  # fmt: skip
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"cadbench drawing: {reason}: ") and "stage 'drawing'" in err


def _campaign(part, root, system=b"sysA"):
    cases = os.path.join(root, "cases", "box_a")
    os.makedirs(cases)
    part.makeBox(10, 8, 6).exportStep(os.path.join(cases, "reference.step"))
    with open(os.path.join(cases, "case.yaml"), "w") as handle:
        handle.write("id: box_a\ntitle: a box\nreference: reference.step\ngroup: boxes\n")
    run = os.path.join(os.fsencode(root), b"submissions", system, b"run1")
    os.makedirs(run)
    made = os.path.join(root, "made.step")  # FreeCAD's writer takes UTF-8 paths only
    part.makeBox(10 * 1.25, 8, 6).exportStep(made)
    os.rename(made, os.path.join(run, b"box_a.step"))
    return os.path.join(root, "cases"), os.path.join(root, "submissions")


def test_a_submission_folder_named_in_bytes_that_are_not_utf8_is_reported_escaped(part, tmp_path):
    cases, submissions = _campaign(part, str(tmp_path), system=b"sys\xff")
    out = tmp_path / "out"
    status, stdout, err = run_cli(
        "run", "--cases", cases, "--submissions", submissions, "--out", str(out),
        "--only", "shape", "--workers", "1",
    )  # fmt: skip
    assert status == 0, err
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    (row,) = document["scorings"]
    assert row["system"] == "sys\\xff"  # the byte 0xff, escaped
    assert row["candidate"] == "sys\\xff/run1/box_a.step" and row["checked"] is True
    for report in ("results.csv", "junit.xml", "report.html"):
        assert "sys\\xff" in (out / report).read_text(encoding="utf-8")
    # (Whether FreeCAD reads a file at such a path is the loader's business, not the report's.)


def test_a_second_run_on_one_folder_is_refused_while_the_first_holds_it(part, tmp_path):
    from cadbench_wb.campaign import batch

    cases, submissions = _campaign(part, str(tmp_path))
    out = tmp_path / "out"
    out.mkdir()
    with batch.campaign_lock(str(out)):  # a first run, as far as the lock can tell
        status, _, err = run_cli(
            "run", "--cases", cases, "--submissions", submissions, "--out", str(out),
            "--only", "shape", "--workers", "1",
        )  # fmt: skip
    assert status == 2 and "campaign_busy" in err and f"pid {os.getpid()}" in err
    assert not (out / "results.json").exists()
    status, _, err = run_cli(
        "run", "--cases", cases, "--submissions", submissions, "--out", str(out),
        "--only", "shape", "--workers", "1",
    )  # fmt: skip
    assert status == 0, err  # the lock went with its holder


def _dask(*args, log):
    return subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "dask"), *args],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip


def test_a_lost_dask_scheduler_ends_the_run_with_exit_6_and_keeps_what_finished(part, tmp_path):
    from cadbench_wb.campaign import store

    cases, submissions = _campaign(part, str(tmp_path))
    # A second case whose candidate hangs at alignment until the scheduler is gone (the
    # fault matches the file name a Dask task receives); box_a's scoring finishes.
    victim = os.path.join(cases, f"box_{TOKEN}")
    os.makedirs(victim)
    part.makeBox(12, 8, 6).exportStep(os.path.join(victim, "reference.step"))
    with open(os.path.join(victim, "case.yaml"), "w") as handle:
        handle.write(f"id: box_{TOKEN}\ntitle: a box\nreference: reference.step\ngroup: boxes\n")
    part.makeBox(12 * 1.5, 8, 6).exportStep(
        os.path.join(submissions, "sysA", "run1", f"box_{TOKEN}.step")
    )
    scheduler_file = tmp_path / "scheduler.json"
    log = open(tmp_path / "dask.log", "wb")  # closed below
    scheduler = _dask("scheduler", "--scheduler-file", str(scheduler_file), "--port", "0",
                      "--no-dashboard", log=log)  # fmt: skip
    worker = None
    try:
        while not scheduler_file.exists():
            assert scheduler.poll() is None, (tmp_path / "dask.log").read_text()
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text())["address"]
        fault = tmp_path / "fault.txt"
        fault.write_text(f"hang:alignment {TOKEN}")
        env = dict(os.environ, CADBENCH_FAULT_FILE=str(fault))
        worker = subprocess.Popen(
            [os.path.join(os.path.dirname(sys.executable), "dask"), "worker", address,
             "--nthreads", "2", "--nworkers", "1", "--no-dashboard"],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )  # fmt: skip
        out = tmp_path / "out"
        campaign = subprocess.Popen(
            [sys.executable, "-m", "cadbench_wb", "run", "--cases", cases, "--submissions",
             submissions, "--out", str(out), "--only", "shape", "--scheduler", address,
             "--timeout", "600"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        stage_seen = False
        while not stage_seen:  # the hanging candidate has reached its alignment
            assert campaign.poll() is None, campaign.communicate()
            for _pid, stage_path in scoring_children():
                stage = outcome.Stage.read(stage_path)
                stage_seen = stage_seen or (stage.name == "alignment" and TOKEN in stage.file)
            time.sleep(0.2)
        scored = os.path.join(out, "campaign.sqlite")
        while not _stored(store, scored):  # box_a's scoring is committed
            assert campaign.poll() is None, campaign.communicate()
            time.sleep(0.2)
        os.killpg(scheduler.pid, signal.SIGKILL)
        stdout, stderr = campaign.communicate(timeout=300)
    finally:
        for process in (worker, scheduler):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()
    assert campaign.returncode == 6, stderr
    assert "Traceback" not in stderr
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    rows = {row["case"]: row for row in document["scorings"]}
    assert rows["box_a"]["shapeIoU"] == pytest.approx(1 / 1.25, abs=2e-3)
    lost = rows[f"box_{TOKEN}"]  # NOT CHECKED, scored by the next run
    assert lost["checked"] is False and lost["notChecked"]["reason"] == "worker_lost"
    assert "scheduler" in lost["notChecked"]["detail"]


def _stored(store_module, path) -> bool:
    if not os.path.exists(path):
        return False
    opened = store_module.Store(path)
    try:
        return bool(opened.keys())
    finally:
        opened.close()
