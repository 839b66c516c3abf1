# SPDX-License-Identifier: LGPL-2.1-or-later
"""The score store: keys that change with exactly what decides a score, and no loss on kill."""

import os
import signal
import subprocess
import sys

from cadbench_wb.campaign import store
from cadbench_wb.case_model.cases import load_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_case(folder, reference=b"ISO-10303-21;\n", yaml_extra=""):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "reference.step").write_bytes(reference)
    (folder / "case.yaml").write_text(f"id: k1\ntitle: t\nreference: reference.step\n{yaml_extra}")
    return load_case(str(folder))


def test_case_hash_covers_the_case_file_and_the_reference(tmp_path):
    first = store.case_sha256(make_case(tmp_path / "a"))
    assert store.case_sha256(make_case(tmp_path / "b")) == first  # content, not location
    assert store.case_sha256(make_case(tmp_path / "c", reference=b"ISO-10303-21;\n1")) != first
    assert store.case_sha256(make_case(tmp_path / "d", yaml_extra="group: g\n")) != first


def test_key_changes_with_candidate_options_and_fingerprint_only():
    stamps = {"metricFingerprint": "a" * 16}
    key = store.score_key("c", "x", "step", {"only": ["shape"]}, stamps)
    assert key == store.score_key("c", "x", "step", {"only": ["shape"]}, dict(stamps))
    assert key != store.score_key("c", "y", "step", {"only": ["shape"]}, stamps)
    assert key != store.score_key("c", "x", "step", {}, stamps)
    assert key != store.score_key("c", "x", "step", {"only": ["shape"]}, {"metricFingerprint": "b"})
    assert key != store.score_key("d", "x", "step", {"only": ["shape"]}, stamps)


def test_paths_become_tokens_and_back(tmp_path):
    result = {
        "reference": {"path": "/data/cases/k1/reference.step"},
        "candidate": {"path": "/subs/s/r/k1.step"},
        "failure": {"detail": "/subs/s/r/k1.step: does not start with ISO-10303-21"},
        "list": ["/data/cases/k1", 3],
    }
    tokens = store.tokenized(result, "/data/cases/k1", "/subs/s/r/k1.step")
    assert "/data" not in str(tokens) and "/subs" not in str(tokens)
    back = store.detokenized(tokens, "k1", "s/r/k1.step")
    assert back["reference"]["path"] == "k1/reference.step"
    assert back["failure"]["detail"].startswith("s/r/k1.step: does not start")
    assert back["list"] == ["k1", 3]


def test_store_keeps_what_was_committed_when_the_writer_is_killed(tmp_path):
    path = str(tmp_path / "campaign.sqlite")
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            f"sys.path.insert(0, {ROOT!r})\n"
            "from cadbench_wb.campaign.store import Store\n"
            f"s = Store({path!r})\n"
            "for i in range(40):\n"
            "    r = {'delivered': True, 'metricFingerprint': 'f'}\n"
            "    s.put(f'k{i}', 'c', 'h', 'h', r, 0.1)\n"
            "print('done', flush=True)\n"
            "time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout.readline().strip() == "done"
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    reopened = store.Store(path)
    assert len(reopened.keys()) == 40
    assert reopened.get("k39") == {"delivered": True, "metricFingerprint": "f"}
    assert reopened.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reopened.close()


def test_unchecked_attempts_are_logged_but_not_stored_as_scores(tmp_path):
    s = store.Store(str(tmp_path / "c.sqlite"))
    s.note_unchecked("k", "c", "worker_lost", "killed", 4)
    assert s.keys() == set() and s.get("k") is None
    s.close()


def test_a_code_submissions_planned_hash_matches_its_scripts_sha256():
    # batch.plan keys a script as "<sha256>:<code stamp>"; its result names the script's
    # sha256. Before this was read, every code submission of a campaign was NOT CHECKED
    # (candidate_changed, "sha256 none: not a readable file").
    script, other = "a" * 64, "b" * 64
    scored = {"candidate": {"sha256": script}}
    assert store.candidate_change(f"{script}:0123456789abcdef", scored) is None
    assert store.candidate_change(script, scored) is None
    assert "sha256 " + script in store.candidate_change(f"{other}:0123456789abcdef", scored)
    # Keys that are not a file's digest never match a result.
    for planned in ("missing", f"unreadable:{script}", f"link_outside_submissions:{script}"):
        assert "none: not a readable file" in store.candidate_change(planned, scored)
