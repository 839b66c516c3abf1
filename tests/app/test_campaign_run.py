# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench run` end to end: one command, kill -9 halfway, rerun, the same results.json."""

import csv
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

import pytest
from conftest import ROOT, run_cli
from test_campaign_support import BROKEN, CASES, MISSING, RUNS, SYSTEMS, build_campaign, stretch


@pytest.fixture(scope="module")
def campaign(part, tmp_path_factory):
    return build_campaign(str(tmp_path_factory.mktemp("campaign")), part)


def run_args(campaign, out, *extra):
    return (
        "run", "--cases", campaign["cases"], "--submissions", campaign["submissions"],
        "--out", str(out), "--only", "shape", *extra,
    )  # fmt: skip


@pytest.fixture(scope="module")
def uninterrupted(campaign, tmp_path_factory):
    out = tmp_path_factory.mktemp("uninterrupted")
    status, stdout, stderr = run_cli(*run_args(campaign, out, "--workers", "2"))
    assert status == 0, stderr
    return {"out": out, "stdout": stdout, "stderr": stderr}


def load(out) -> dict:
    with open(os.path.join(out, "results.json")) as handle:
        return json.load(handle)


def test_every_scoring_has_the_figure_its_construction_gives(uninterrupted):
    document = load(uninterrupted["out"])
    rows = {(r["system"], r["run"], r["case"]): r for r in document["scorings"]}
    assert len(rows) == len(SYSTEMS) * len(RUNS) * len(CASES)
    for key, row in rows.items():
        if key == MISSING:
            assert row["failure"]["reason"] == "missing_candidate"
            assert row["candidate"] is None and row["shapeIoU"] == 0.0
        elif key == BROKEN:
            assert row["failure"]["reason"] == "unreadable_file"
        else:
            assert row["delivered"] is True
            assert row["shapeIoU"] == pytest.approx(1 / stretch(*key), abs=1e-6)
            expected = "PASS" if 1 / stretch(*key) >= 0.9 else "FAIL"
            assert row["verdict"] == {"formal": expected, "reachable": expected}
        assert row["metricFingerprint"] == document["metricFingerprint"]


def test_report_reads_the_figures_as_the_seeds_say(uninterrupted):
    summary = load(uninterrupted["out"])["summary"]
    a, b = summary["sysA"], summary["sysB"]
    assert a["delivery"] == {"count": 5, "of": 6, "rate": pytest.approx(5 / 6)}
    assert a["passedReachable"]["count"] == 5 and a["passedReachable"]["of"] == 6
    assert a["passedFormal"]["count"] == 5
    # The mean is over the five delivered candidates only, the broken one does not lower it.
    delivered = [1 / stretch("sysA", r, c) for r in RUNS for c in CASES if ("sysA", r, c) != BROKEN]
    assert a["means"]["shapeIoU"]["n"] == 5
    assert a["means"]["shapeIoU"]["mean"] == pytest.approx(sum(delivered) / 5, abs=1e-6)
    assert b["passedReachable"] == {"count": 0, "of": 6, "rate": 0.0, "notChecked": 0}
    assert b["failures"] == {"missing_candidate": 1}
    assert a["anchoring"]["scorings"] == 2 and a["independent"]["scorings"] == 4
    assert a["anchoring"]["passedReachable"]["count"] == 1  # box_b broke in run2
    low = 1 / stretch("sysA", "run2", "box_a")
    high = 1 / stretch("sysA", "run1", "box_a")
    case_range = a["cases"]["box_a"]["ranges"]["shapeIoU"]
    assert case_range["min"] == pytest.approx(low) and case_range["max"] == pytest.approx(high)
    assert a["ranges"]["passedReachable"]["min"] == pytest.approx(2 / 3)
    assert a["ranges"]["passedReachable"]["max"] == 1.0
    text = uninterrupted["stdout"]
    for phrase in ("passed (reachable)", "passed (formal)", "NOT CHECKED", "delivery", "5/6"):
        assert phrase in text


def test_report_files_are_complete_and_parse(uninterrupted):
    out = uninterrupted["out"]
    with open(os.path.join(out, "results.csv")) as handle:
        rows = list(csv.DictReader(io.StringIO(handle.read())))
    assert len(rows) == 12 and rows[0]["shapeIoU.verdict"] in ("PASS", "FAIL")
    tree = ElementTree.parse(os.path.join(out, "junit.xml")).getroot()
    assert tree.get("tests") == "12" and len(tree.findall(".//testcase")) == 12
    assert tree.get("failures") == str(1 + 6)  # sysA's broken file, every sysB case
    with open(os.path.join(out, "report.html")) as handle:
        page = handle.read()
    assert page.count("data:image/png;base64,") == 3  # pass rates, distribution, case ranges
    assert "http" not in page.replace("http-equiv", "")  # readable offline: nothing fetched
    for phrase in ("delivery rate", "passed (reachable)", "NOT CHECKED", "Ranges over runs"):
        assert phrase in page
    full = load(out)
    assert "timing" not in json.dumps(full)
    with open(os.path.join(out, "scores", "sysA", "run1", "box_a.json")) as handle:
        assert json.load(handle)["candidate"]["path"] == "sysA/run1/box_a.step"


def _stored(out) -> int:
    path = os.path.join(out, "campaign.sqlite")
    if not os.path.exists(path):
        return 0
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("SELECT count(*) FROM scores").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # the table is not there yet


def test_kill_halfway_and_rerun_gives_the_same_results(campaign, uninterrupted, tmp_path):
    out = tmp_path / "killed"
    process = subprocess.Popen(
        [sys.executable, "-m", "cadbench_wb", *run_args(campaign, out, "--workers", "1")],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while _stored(out) < 3 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    at_kill = _stored(out)
    assert 3 <= at_kill < 12, "the kill must land halfway through the 12 jobs"
    assert not os.path.exists(out / "results.json")
    status, stdout, stderr = run_cli(*run_args(campaign, out))
    assert status == 0, stderr
    timings = json.loads((out / "timings.json").read_text())
    assert timings["fromStore"] == at_kill and timings["scoredNow"] == 12 - at_kill
    assert (out / "results.json").read_bytes() == (
        uninterrupted["out"] / "results.json"
    ).read_bytes()


def test_changed_candidate_rescores_exactly_that_one(part, campaign, uninterrupted, tmp_path):
    submissions = tmp_path / "submissions"
    shutil.copytree(campaign["submissions"], submissions)
    out = tmp_path / "out"
    shutil.copytree(uninterrupted["out"], out)
    x, y, z, _, _ = CASES["box_a"]
    part.makeBox(x * 1.5, y, z).exportStep(str(submissions / "sysB" / "run1" / "box_a.step"))
    status, _, stderr = run_cli(
        "run", "--cases", campaign["cases"], "--submissions", str(submissions), "--out", str(out),
        "--only", "shape",
    )  # fmt: skip
    assert status == 0, stderr
    timings = json.loads((out / "timings.json").read_text())
    assert timings["scoredNow"] == 1 and timings["fromStore"] == 11
    rows = {(r["system"], r["run"], r["case"]): r for r in load(out)["scorings"]}
    assert rows["sysB", "run1", "box_a"]["shapeIoU"] == pytest.approx(1 / 1.5, abs=1e-6)


def test_a_group_that_lost_a_case_aborts_the_run(part, campaign, uninterrupted, tmp_path):
    cases = tmp_path / "cases"
    shutil.copytree(campaign["cases"], cases)
    shutil.rmtree(cases / "box_b")
    out = tmp_path / "out"
    shutil.copytree(uninterrupted["out"], out)
    args = ("run", "--cases", str(cases), "--submissions", campaign["submissions"])
    status, stdout, stderr = run_cli(*args, "--out", str(out), "--only", "shape")
    assert status == 2
    assert "group 'boxes' had 2 case(s), now 1 (missing: box_b)" in stderr
    assert "Traceback" not in stderr and stderr.count("\n") == 1
    status, _, stderr = run_cli(
        *args, "--out", str(out), "--only", "shape", "--accept-smaller-case-set"
    )
    assert status == 0, stderr
    document = load(out)
    assert document["campaign"]["groups"] == {"boxes": 1, "plates": 1}
    assert json.loads((out / "manifest.json").read_text())["acceptedShrinkage"]


def test_compare_puts_campaigns_side_by_side_and_refuses_mixed_fingerprints(
    uninterrupted, tmp_path
):
    out = uninterrupted["out"]
    status, stdout, stderr = run_cli("compare", str(out), str(out / "results.json"))
    assert status == 0, stderr
    assert "passed (reachable)" in stdout and "+0.0 pts" in stdout
    other = load(out)
    other["metricFingerprint"] = "0000000000000000"
    (tmp_path / "other.json").write_text(json.dumps(other))
    status, _, stderr = run_cli("compare", str(out), str(tmp_path / "other.json"))
    assert status == 2 and "fingerprint_mismatch" in stderr and "Traceback" not in stderr


def test_not_checked_leaves_the_denominator_and_a_rerun_completes(
    campaign, uninterrupted, tmp_path
):
    fault = tmp_path / "fault.txt"
    fault.write_text("crash:reference plate_c")  # the scorer dies reading plate_c's reference
    out = tmp_path / "out"
    status, stdout, stderr = run_cli(
        *run_args(campaign, out), env={"CADBENCH_FAULT_FILE": str(fault)}
    )
    assert status == 6, stderr
    assert "NOT CHECKED: run the same command again" in stdout
    document = load(out)
    a = document["summary"]["sysA"]
    assert a["notScored"] == 2 and a["passedReachable"]["notChecked"] == 2
    assert a["passedReachable"]["of"] == 4 and a["delivery"]["of"] == 4
    rows = [r for r in document["scorings"] if r["case"] == "plate_c" and r["checked"] is False]
    # Every plate_c scoring, the missing delivery included: nobody could read the reference.
    assert len(rows) == 4 and {r["notChecked"]["reason"] for r in rows} == {"reference_invalid"}
    junit = ElementTree.parse(out / "junit.xml").getroot()
    assert junit.get("skipped") == "4"
    status, _, stderr = run_cli(*run_args(campaign, out))
    assert status == 0, stderr
    assert (out / "results.json").read_bytes() == (
        uninterrupted["out"] / "results.json"
    ).read_bytes()


def test_terminal_ends_with_a_closing_line_and_junit_has_real_times(uninterrupted):
    lines = uninterrupted["stdout"].splitlines()
    # sysA: five pass, its broken file fails; sysB: all six fail (see test_campaign_support).
    assert any(line.startswith("== 5 passed, 7 failed in ") for line in lines)
    # Every line fits a 120-column terminal, but the one that names the output folder.
    assert max(len(line) for line in lines if str(uninterrupted["out"]) not in line) <= 120
    tree = ElementTree.parse(os.path.join(uninterrupted["out"], "junit.xml")).getroot()
    suite = tree.find("testsuite")
    assert suite.get("hostname") and suite.get("timestamp")
    times = [float(c.get("time")) for c in tree.iter("testcase")]
    assert len(times) == 12 and all(t > 0 for t in times)


def test_fail_under_exits_1_below_the_rate_and_unmatched_files_are_named(
    campaign, uninterrupted, tmp_path
):
    submissions = tmp_path / "submissions"
    shutil.copytree(campaign["submissions"], submissions)
    (submissions / "sysA" / "run1" / "box_z.step").write_text("not a case")
    out = tmp_path / "out"
    shutil.copytree(uninterrupted["out"], out)
    args = ("run", "--cases", campaign["cases"], "--submissions", str(submissions))
    status, stdout, stderr = run_cli(*args, "--out", str(out), "--only", "shape")
    assert status == 0, stderr
    assert "1 file(s) named after no case" in stdout and "  sysA/run1/box_z.step" in stdout
    # sysA passed 5 of 6 (0.833), sysB 0 of 6: 80% fails sysB only, 0% fails nobody.
    status, stdout, _ = run_cli(*args, "--out", str(out), "--only", "shape", "--fail-under", "80%")
    assert status == 1
    assert "sysB: passed (reachable) 0.0%, under --fail-under 80.0%" in stdout
    assert "sysA: passed" not in stdout
    status, _, _ = run_cli(*args, "--out", str(out), "--only", "shape", "--fail-under", "0")
    assert status == 0
    status, _, stderr = run_cli(*args, "--out", str(out), "--fail-under", "1.5")
    assert status == 2 and "give a pass rate from 0 to 1" in stderr and "Traceback" not in stderr
