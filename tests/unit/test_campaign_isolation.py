# SPDX-License-Identifier: LGPL-2.1-or-later
"""The isolation protocol: no history, truth removed, an empty scan (and grep) as the ticket."""

import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from cadbench_wb.campaign import isolation
from cadbench_wb.errors import UsageError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = b"ISO-10303-21;\nHEADER;\n/* the truth: a bracket 47.25 long */\nENDSEC;\n"
RULEBOOK = (
    "# Rules\n"
    "1. When in doubt, air not material.\n"
    "<!-- evidence -->\n"
    "Distilled from bracket_017, whose slot is 47.25 wide.\n"
    "<!-- /evidence -->\n"
    "2. Chamfers before fillets.\n"
)


def write(root, rel, data):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as handle:
        handle.write(data)
    return path


@pytest.fixture
def project(tmp_path):
    """A project with history, two cases, and traces of bracket_017 of every kind."""
    root = str(tmp_path / "project")
    write(root, "cases/bracket_017/case.yaml",
          "id: bracket_017\ntitle: Bracket\nreference: reference.step\n"
          "drawing: bracket_drawing.pdf\nisolation:\n  distinctive: [47.25]\n")  # fmt: skip
    write(root, "cases/bracket_017/reference.step", REFERENCE)
    write(root, "cases/bracket_017/bracket_drawing.pdf", b"%PDF-1.4 drawing")
    write(
        root, "cases/flange_002/case.yaml", "id: flange_002\ntitle: F\nreference: reference.step\n"
    )
    write(root, "cases/flange_002/reference.step", b"ISO-10303-21;\n/* flange */\n")
    write(root, "submissions/sysA/run1/bracket_017.step", b"ISO-10303-21;\n/* an answer */\n")
    write(root, "submissions/sysA/run1/flange_002.step", b"ISO-10303-21;\n/* another */\n")
    write(root, "old/model_v1.step", REFERENCE)  # a renamed copy of the reference
    write(root, "out/results.json", json.dumps({"case": "bracket_017", "shapeIoU": 0.97}))
    write(root, "out/other.json", json.dumps({"case": "flange_002"}))
    write(root, "tools/score.py", "print('generic tool')\n")
    write(root, "tools/__pycache__/notes.cpython-311.pyc", b"bracket_017")  # a tool cache
    write(root, "cases/bracket_017/candidates/broken_empty.step", b"")
    write(root, "cases/flange_002/candidates/broken_garbage.step", b"garbage")
    write(root, "cases/bracket_017/candidates/broken_garbage.step", b"garbage")
    write(root, "tools/__init__.py", b"")  # empty like the case's broken sample: no truth
    write(root, "samples/garbage.step", b"garbage")  # shared by two cases: no truth

    write(root, "RULES.md", RULEBOOK)
    subprocess.run(["git", "init", "-q", root], check=True)
    subprocess.run(["git", "-C", root, "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "all"],
        check=True,
    )
    return root


def test_clean_working_copy_with_a_proof(project, tmp_path):
    write(project, "scratch/debug.py", "SLOT = 47.25  # code: only the operator may drop it\n")
    work = str(tmp_path / "work")
    proof = isolation.isolate(
        "bracket_017", project, work, rulebook=os.path.join(project, "RULES.md"),
        remove=("scratch",),
    )  # fmt: skip
    assert proof["status"] == "clean" and proof["scan"]["hits"] == []
    removed = {entry["path"]: entry["rule"] for entry in proof["removed"]}
    assert removed[".git"] == "version_history"
    assert removed["cases/bracket_017"] == "case_folder"
    assert removed[os.path.join("submissions", "sysA", "run1", "bracket_017.step")] == (
        "named_after_case"
    )
    assert removed[os.path.join("old", "model_v1.step")] == "copy_of_truth"
    assert removed[os.path.join("out", "results.json")] == "result_naming_case"
    assert removed[os.path.join("tools", "__pycache__")] == "tool_cache"
    assert removed["scratch"] == "operator_listed" and proof["removePatterns"] == ["scratch"]
    assert not os.path.exists(os.path.join(work, ".git"))
    for kept in (
        "cases/flange_002/reference.step", "out/other.json", "tools/score.py",
        "tools/__init__.py", "samples/garbage.step",
    ):  # fmt: skip
        assert os.path.exists(os.path.join(work, kept))
    with open(os.path.join(work, "RULES.md")) as handle:
        rules = handle.read()
    assert "air not material" in rules and "Chamfers" in rules and "47.25" not in rules
    assert proof["rulebook"]["evidenceSectionsRemoved"] == 1
    # The generic name reference.step is shared with flange_002: it names no case.
    assert proof["scan"]["sharedNamesNotScanned"] == ["reference.step"]
    assert "bracket_drawing.pdf" in proof["scan"]["terms"] and proof["scan"]["values"] == ["47.25"]
    grep = proof["scan"]["grep"]
    assert grep["available"] and all(r["exitStatus"] == 1 and not r["files"] for r in grep["runs"])
    with open(work + ".isolation.json") as handle:
        assert json.load(handle)["status"] == "clean"  # the proof sits next to the copy


def test_a_trace_the_deletion_list_misses_aborts(project, tmp_path):
    write(project, "tools/notes.py", "# slot width 47.25, seen in the reference\n")
    work = str(tmp_path / "work")
    with pytest.raises(isolation.IsolationBreach, match="tools/notes.py"):
        isolation.isolate("bracket_017", project, work)
    assert not os.path.exists(work)  # nothing can run on a contaminated copy
    with open(work + ".isolation.json") as handle:
        proof = json.load(handle)
    assert proof["status"] == "aborted"
    assert {"path": "tools/notes.py", "member": "", "value": "47.25"} in proof["scan"]["hits"]


def test_a_trace_inside_an_archive_is_found(project, tmp_path):
    with zipfile.ZipFile(os.path.join(project, "tools", "bundle.zip"), "w",
                         zipfile.ZIP_DEFLATED) as archive:  # fmt: skip
        archive.writestr("notes.txt", "bracket_017 " * 50)  # deflated: invisible to grep
    with pytest.raises(isolation.IsolationBreach, match="bundle.zip"):
        isolation.isolate("bracket_017", project, str(tmp_path / "work"))


def test_cli_prints_the_proof_and_exits_7_on_a_breach(project, tmp_path):
    def cli(*args):
        done = subprocess.run(
            [sys.executable, "-m", "cadbench_wb", "isolate", *args],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        return done.returncode, done.stdout, done.stderr

    status, out, err = cli("--case", "bracket_017", "--from", project, "--to", str(tmp_path / "w1"))
    assert status == 0, err
    assert "0 hits" in out and "exit 1, no file" in out
    write(project, "tools/cases.py", "HARD = ['bracket_017']\n")  # code is never deleted
    shutil.rmtree(os.path.join(project, ".git"))
    status, out, err = cli("--case", "bracket_017", "--from", project, "--to", str(tmp_path / "w2"))
    assert status == 7 and "isolation_breach" in err and "tools/cases.py" in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_evidence_markers_must_pair():
    text, removed = isolation.evidence_free(RULEBOOK)
    assert removed == 1 and "bracket_017" not in text
    with pytest.raises(UsageError, match=r"book.md:2: evidence section is never closed"):
        isolation.evidence_free("a\n<!-- evidence -->\nb\n", "book.md")
    with pytest.raises(UsageError, match=r":1: <!-- /evidence --> without"):
        isolation.evidence_free("<!-- /evidence -->\n")


def test_refuses_a_non_empty_target_or_an_unknown_case(project, tmp_path):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x")
    with pytest.raises(UsageError, match="must be fresh"):
        isolation.isolate("bracket_017", project, str(busy))
    with pytest.raises(UsageError, match="no case 'nope'"):
        isolation.isolate("nope", project, str(tmp_path / "w"))
    with pytest.raises(UsageError, match="contain one another"):
        isolation.isolate("bracket_017", project, os.path.join(project, "inside"))


def test_cli_reads_cases_relative_to_the_current_folder(project, tmp_path):
    """--cases is a path the operator typed: read from the current folder, as --from and
    --to are, not from inside the project."""
    cwd = os.path.dirname(project)
    relative = os.path.relpath(os.path.join(project, "cases"), cwd)
    assert not os.path.isdir(os.path.join(project, relative))  # inside --from it is no folder
    done = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "isolate", "--case", "bracket_017",
         "--from", project, "--to", str(tmp_path / "w"), "--cases", relative],
        capture_output=True, text=True, cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "0 hits" in done.stdout
