# SPDX-License-Identifier: LGPL-2.1-or-later
"""Planning a campaign: one job per distinct case x candidate bytes, one standard."""

import os
import shutil

from cadbench_wb.campaign import batch

STEP = b"ISO-10303-21;\nHEADER;\nENDSEC;\n"


def project(tmp_path):
    for case_id in ("bracket_01", "flange_02"):
        folder = tmp_path / "cases" / case_id
        folder.mkdir(parents=True)
        (folder / "reference.step").write_bytes(STEP + case_id.encode())
        (folder / "case.yaml").write_text(f"id: {case_id}\ntitle: t\nreference: reference.step\n")
    for system, run in (("sysA", "r1"), ("sysA", "r2"), ("sysB", "r1")):
        folder = tmp_path / "subs" / system / run
        folder.mkdir(parents=True)
        (folder / "bracket_01.step").write_bytes(STEP + b"same answer")
    return batch.Settings(
        str(tmp_path / "cases"), str(tmp_path / "subs"), str(tmp_path / "out"),
        options={"only": ["shape"]},
    )  # fmt: skip


def test_identical_bytes_are_one_job_and_so_is_a_case_nobody_delivered(tmp_path):
    the_plan = batch.plan(project(tmp_path))
    assert len(the_plan.scorings) == 6
    # Three deliveries of the same bytes are scored once; the three missing deliveries of
    # flange_02 once too (the scorer names them missing_candidate, with the case's ceilings).
    assert len(the_plan.jobs) == 2
    missing = [p for p in the_plan.scorings if p.submission.path is None]
    assert {p.submission.case_id for p in missing} == {"flange_02"} and len(missing) == 3
    assert len({p.key for p in missing}) == 1
    job = the_plan.jobs[missing[0].key]
    assert not os.path.exists(job.payload.candidate)
    assert set(the_plan.stamps) == {"metricFingerprint"}  # no drawings scored: no drawing stamp


def test_a_case_without_its_reference_is_not_checked_not_failed(tmp_path):
    settings = project(tmp_path)
    (tmp_path / "cases" / "bracket_01" / "reference.step").unlink()
    (tmp_path / "cases" / "bracket_01" / "case.yaml").write_text(
        "id: bracket_01\ntitle: t\nreference: reference.step\nbuild: build.py\n"
    )
    (tmp_path / "cases" / "bracket_01" / "build.py").write_text("# builds the reference\n")
    shutil.rmtree(tmp_path / "out", ignore_errors=True)
    the_plan = batch.plan(settings)
    unchecked = [p for p in the_plan.scorings if p.unchecked]
    assert len(unchecked) == 3 and unchecked[0].unchecked["reason"] == "reference_invalid"
    assert [j.case.id for j in the_plan.jobs.values()] == ["flange_02"]  # its missing ones


def test_a_score_under_another_fingerprint_is_not_mixed_in():
    stamps = {"metricFingerprint": "a" * 16}
    assert batch._standard_changed({"metricFingerprint": "a" * 16}, stamps) is None
    assert "changed while the campaign ran" in batch._standard_changed(
        {"metricFingerprint": "b" * 16}, stamps
    )


def test_the_progress_counts_the_scorings_each_job_settles(tmp_path):
    """The plan's two jobs settle its six scorings: three deliveries of one answer, and
    flange_02's three missing deliveries."""
    the_plan = batch.plan(project(tmp_path))
    per_job = batch.scorings_per_job(the_plan)
    assert sorted(per_job[key] for key in the_plan.jobs) == [3, 3]
    assert sum(per_job[key] for key in the_plan.jobs) == len(the_plan.scorings)
