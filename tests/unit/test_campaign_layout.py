# SPDX-License-Identifier: LGPL-2.1-or-later
"""Submission discovery (SUBMISSIONS/<system>/<run>/<case_id>.<ext>) and the case manifest."""

import json

import pytest

from cadbench_wb.campaign import layout, manifest
from cadbench_wb.case_model.cases import Case
from cadbench_wb.errors import UsageError

IDS = ["bracket_01", "flange_02"]


def touch(root, rel, data=b"x"):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_every_system_run_case_is_a_scoring_and_a_missing_file_is_kept(tmp_path):
    touch(tmp_path, "sysA/run1/bracket_01.step")
    touch(tmp_path, "sysA/run1/flange_02.FCStd")
    touch(tmp_path, "sysB/run1/bracket_01.brep")
    found = layout.discover(str(tmp_path), IDS)
    assert found.systems == {"sysA": ["run1"], "sysB": ["run1"]}
    by_key = {(s.system, s.run, s.case_id): s for s in found.submissions}
    assert len(by_key) == 4
    assert by_key["sysB", "run1", "flange_02"].path is None
    assert by_key["sysB", "run1", "flange_02"].name == "sysB/run1/flange_02"
    assert by_key["sysA", "run1", "flange_02"].name == "sysA/run1/flange_02.FCStd"


def test_several_files_for_a_case_the_native_document_wins(tmp_path):
    touch(tmp_path, "s/r/bracket_01.stl")
    touch(tmp_path, "s/r/bracket_01.step")
    touch(tmp_path, "s/r/bracket_01.FCStd")
    found = layout.discover(str(tmp_path), IDS)
    assert found.submissions[0].path.endswith("bracket_01.FCStd")
    assert found.ignored == ["s/r/bracket_01.step", "s/r/bracket_01.stl"]


def test_unknown_format_is_still_the_candidate_and_strays_are_listed(tmp_path):
    touch(tmp_path, "s/r/bracket_01.dwg")
    touch(tmp_path, "s/r/braket_01.step")  # a typo: named after no case
    found = layout.discover(str(tmp_path), IDS)
    assert found.submissions[0].path.endswith("bracket_01.dwg")  # the scorer names the format
    assert found.unmatched == ["s/r/braket_01.step"]


def test_a_candidate_outside_a_run_folder_is_a_usage_error(tmp_path):
    touch(tmp_path, "sysA/bracket_01.step")
    with pytest.raises(UsageError, match="one folder deeper"):
        layout.discover(str(tmp_path), IDS)
    with pytest.raises(UsageError, match="no such submissions folder"):
        layout.discover(str(tmp_path / "nothing"), IDS)


def cases(*spec):
    return [Case(id=i, title=i, path=f"/c/{i}", reference="r.step", group=g) for i, g in spec]


def test_manifest_records_groups_and_a_shrunk_group_aborts(tmp_path):
    before = cases(("a1", "alpha"), ("a2", "alpha"), ("b1", ""))
    first = manifest.checked_manifest(str(tmp_path), before)
    assert first["counts"] == {"(ungrouped)": 1, "alpha": 2}
    grown = before + cases(("a3", "alpha"))
    assert manifest.checked_manifest(str(tmp_path), grown)["counts"]["alpha"] == 3
    with pytest.raises(
        manifest.CaseSetShrank, match=r"'alpha' had 3 case\(s\), now 2 \(missing: a2\)"
    ):
        manifest.checked_manifest(
            str(tmp_path), cases(("a1", "alpha"), ("a3", "alpha"), ("b1", ""))
        )
    moved = cases(("a1", "alpha"), ("a2", "alpha"), ("a3", "beta"), ("b1", ""))
    with pytest.raises(manifest.CaseSetShrank, match="missing: a3"):
        manifest.checked_manifest(str(tmp_path), moved)
    accepted = manifest.checked_manifest(str(tmp_path), moved, accept_smaller=True)
    assert accepted["acceptedShrinkage"] and accepted["counts"]["beta"] == 1
    on_disk = json.loads((tmp_path / "manifest.json").read_text())
    assert on_disk["groups"]["alpha"] == ["a1", "a2"]
