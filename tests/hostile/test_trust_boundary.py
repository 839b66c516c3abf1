# SPDX-License-Identifier: LGPL-2.1-or-later
"""The campaign's trust boundary (issue 31): no delivery reaches the answer, the store keys
what was scored, ids are names, and the scorer's own limits are never the candidate's fault.
Real FreeCAD solids, real scoring children, real rlimits."""

import json
import os
import resource
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

from cadbench_wb import standard
from cadbench_wb.campaign import batch, progress, reports, store
from cadbench_wb.case_model import cases

BOX = (10.0, 8.0, 6.0)
STRETCH = 2.366  # a box stretched so along x holds the reference: shapeIoU = 1 / 2.366


def _case(root, part, case_id="box_a"):
    folder = os.path.join(root, "cases", case_id)
    os.makedirs(folder)
    part.makeBox(*BOX).exportStep(os.path.join(folder, "reference.step"))
    with open(os.path.join(folder, "case.yaml"), "w") as handle:
        handle.write(f"id: {case_id}\ntitle: a box\nreference: reference.step\ngroup: boxes\n")
    return folder


def _run_folder(root, system="sysA", run="run1"):
    folder = os.path.join(root, "submissions", system, run)
    os.makedirs(folder)
    return folder


def _settings(root, out="out"):
    return batch.Settings(
        cases_dir=os.path.join(root, "cases"),
        submissions_dir=os.path.join(root, "submissions"),
        out_dir=os.path.join(root, out),
        workers=1,
        timeout=120,
        options={"only": ["shape"]},
        progress_stream=open(os.devnull, "w"),  # closed with the process
    )


def _rows(document) -> dict:
    return {(r["system"], r["run"]): r for r in document["scorings"]}


# ---- 1. a delivery never reaches the answer -------------------------------------------


def test_a_link_out_of_its_system_is_refused_and_a_copy_is_flagged(part, tmp_path):
    root = str(tmp_path)
    case = _case(root, part)
    reference = os.path.join(case, "reference.step")
    absolute = _run_folder(root, "sysA", "run1")
    os.symlink(reference, os.path.join(absolute, "box_a.step"))
    relative = _run_folder(root, "sysA", "run2")
    os.symlink(os.path.relpath(reference, relative), os.path.join(relative, "box_a.step"))
    copied = _run_folder(root, "sysB", "run1")
    shutil.copyfile(reference, os.path.join(copied, "box_a.step"))
    borrowed = _run_folder(root, "sysC", "run1")  # another system's delivery
    os.symlink(os.path.join(copied, "box_a.step"), os.path.join(borrowed, "box_a.step"))
    own = _run_folder(root, "sysB", "run2")  # a link inside its own system's folder stands
    os.symlink("../run1/box_a.step", os.path.join(own, "box_a.step"))

    document = batch.run_campaign(_settings(root))
    rows = _rows(document)
    for key in (("sysA", "run1"), ("sysA", "run2"), ("sysC", "run1")):
        row = rows[key]
        assert row["delivered"] is False, key
        assert row["failure"]["reason"] == "link_outside_submissions", key
        assert row["shapeIoU"] == 0.0 and row["verdict"]["reachable"] == "FAIL", key
        assert row["candidateSha256"] is None, key  # its target's hash is not the delivery's
        assert not row.get("identicalToReference"), key
    for key in (("sysB", "run1"), ("sysB", "run2")):
        row = rows[key]
        assert row["delivered"] is True and row["shapeIoU"] == 1.0, key
        assert row["identicalToReference"] is True, key  # flagged, whatever it scores
    full = os.path.join(root, "out", "scores", "sysB", "run1", "box_a.json")
    with open(full, encoding="utf-8") as handle:
        assert json.load(handle)["candidate"]["identicalToReference"] is True
    with open(os.path.join(root, "out", "report.html"), encoding="utf-8") as handle:
        assert "link_outside_submissions" in handle.read()


def test_a_fifo_or_folder_named_like_a_case_is_unreadable_and_a_huge_file_too_large(part, tmp_path):
    # They were missing_candidate in `run` (the README promises unreadable_file), and a
    # sparse file past the size limit was hashed in full before its refusal (9 GiB: 121 s).
    root = str(tmp_path)
    _case(root, part)
    os.mkfifo(os.path.join(_run_folder(root, "sysA", "fifo"), "box_a.step"))
    os.mkdir(os.path.join(_run_folder(root, "sysA", "folder"), "box_a.step"))
    huge = os.path.join(_run_folder(root, "sysA", "huge"), "box_a.step")
    with open(huge, "wb") as handle:
        handle.write(b"ISO-10303-21;\n")
        handle.truncate(4 * standard.CANDIDATE_MAX_BYTES)  # 4 GiB, sparse: no disk used
    started = resource.getrusage(resource.RUSAGE_SELF)
    rows = _rows(batch.run_campaign(_settings(root)))
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    for run, words in (("fifo", "FIFO"), ("folder", "a folder")):
        failure = rows["sysA", run]["failure"]
        assert failure["reason"] == "unreadable_file" and words in failure["detail"], run
    failure = rows["sysA", "huge"]["failure"]
    assert (
        failure["reason"] == "too_large" and str(standard.CANDIDATE_MAX_BYTES) in failure["detail"]
    )
    assert rows["sysA", "huge"]["candidateSha256"] is None  # never hashed
    # The plan hashes in this process: 4 GiB of zeros cost several seconds of CPU to hash.
    assert (cpu.ru_utime + cpu.ru_stime) - (started.ru_utime + started.ru_stime) < 1.5


# ---- 2. the store keys what was scored ------------------------------------------------


def test_a_candidate_replaced_after_the_plan_is_not_stored_under_the_old_key(part, tmp_path):
    root = str(tmp_path)
    _case(root, part)
    candidate = os.path.join(_run_folder(root), "box_a.step")
    part.makeBox(*BOX).exportStep(candidate)  # file A: the reference's shape, IoU 1
    settings = _settings(root)
    os.makedirs(settings.out_dir)
    the_plan = batch.plan(settings)
    (planned,) = the_plan.scorings
    part.makeBox(BOX[0] * STRETCH, *BOX[1:]).exportStep(candidate + ".new")  # file B
    os.replace(candidate + ".new", candidate)

    score_store = store.Store(os.path.join(settings.out_dir, batch.STORE_FILE))
    try:
        counter = progress.Progress(1, 0, 1, settings.progress_stream)
        done = batch.execute(settings, the_plan, list(the_plan.jobs.values()), score_store, counter)
        assert planned.key not in score_store.keys()  # B's figures never filed under A's hash
        assert done["unchecked"][planned.key]["reason"] == "candidate_changed"
    finally:
        score_store.close()
    # The next run plans B under B's own hash and scores it.
    row = batch.run_campaign(settings)["scorings"][0]
    assert row["candidateSha256"] == store.file_sha256(candidate)
    assert row["shapeIoU"] == pytest.approx(1 / STRETCH, abs=1e-6)


def test_the_scored_copy_keeps_the_bytes_that_were_hashed(tmp_path):
    from cadbench_wb.errors import CandidateChanged
    from cadbench_wb.inputs import delivered

    path = tmp_path / "box_a.step"
    path.write_bytes(b"ISO-10303-21; A")
    with delivered.scored_copy(str(path)) as copy:
        assert copy != str(path)
        path.write_bytes(b"ISO-10303-21; B, written while A was scored")
        with open(copy, "rb") as handle:
            assert handle.read() == b"ISO-10303-21; A"
    assert not os.path.exists(copy)
    fcstd = tmp_path / "doc.FCStd"  # scored in place (its links), checked after instead
    fcstd.write_bytes(b"PK A")
    with delivered.scored_copy(str(fcstd)) as same:
        assert same == str(fcstd)
    before = delivered.sha256_of(str(fcstd))
    delivered.check_unchanged(str(fcstd), before)
    fcstd.write_bytes(b"PK B")
    with pytest.raises(CandidateChanged, match="changed while it was scored"):
        delivered.check_unchanged(str(fcstd), before)


# ---- 3. ids are names -----------------------------------------------------------------


@pytest.mark.parametrize("bad", ["../../../../../../tmp/escape", "a/b", "..", ".hidden", "a b"])
def test_a_case_id_that_is_not_a_name_is_refused_naming_the_field(tmp_path, bad):
    folder = tmp_path / "case"
    folder.mkdir()
    (folder / "reference.step").write_text("ISO-10303-21;\n")
    (folder / "case.yaml").write_text(f'id: "{bad}"\ntitle: t\nreference: reference.step\n')
    with pytest.raises(cases.CaseInvalid, match=r"case.yaml:1: id: .* is not a name"):
        cases.load_case(str(folder))
    status = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "case", "check", str(folder)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert status.returncode == 2 and "id:" in status.stderr and "Traceback" not in status.stderr


def test_ids_at_their_boundaries_and_no_report_path_leaves_the_campaign_folder(tmp_path):
    for good in ("a", "0", "bracket_01", "nist.ftc-06", "x" * 100):
        assert cases.CASE_ID_PATTERN.fullmatch(good)
    for bad in ("", "x" * 101, "-a", "_a", "é", "a\n"):
        assert not cases.CASE_ID_PATTERN.fullmatch(bad)
    out = str(tmp_path)
    assert reports.inside_out(out, "scores", "s", "r", "a.json").startswith(out)
    for parts in (("scores", "..", "..", "x.json"), ("scores", "s", "r", "../../../x.json")):
        with pytest.raises(reports.UsageError, match="leaves the campaign folder"):
            reports.inside_out(out, *parts)


# ---- 4. and 5. the scorer's own limits ------------------------------------------------


def _hard_limit(mb):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))

    return apply


def _score(args, limit_mb=None):
    return subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "score", *args, "--json", "-"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        preexec_fn=_hard_limit(limit_mb) if limit_mb else None,
    )  # fmt: skip


@pytest.fixture(scope="module")
def box_step(part, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("limits") / "box.step")
    part.makeBox(*BOX).exportStep(path)
    return path


def test_under_an_inherited_memory_limit_the_child_gets_that_limit_and_says_so(box_step):
    # ulimit -v 4 GiB, as batch systems and CI containers set: the default 8192 MB was
    # asked of the child above the hard limit, and preexec_fn failed (exit 3).
    done = _score([box_step, box_step, "--only", "shape"], limit_mb=4096)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["shapeIoU"] == 1.0 and result["failure"] is None
    assert result["memoryLimit"]["memoryMb"] == 4096
    assert result["memoryLimit"]["askedMemoryMb"] == standard.DEFAULT_MEMORY_MB
    assert "ulimit -v" in result["memoryLimit"]["note"]
    plain = json.loads(_score([box_step, box_step, "--only", "shape"]).stdout)
    assert "memoryLimit" not in plain  # nothing clamped: nothing said


def test_an_inherited_limit_below_the_minimum_is_a_usage_error_naming_both(box_step):
    below = standard.MIN_MEMORY_MB - 24
    done = _score([box_step, box_step, "--only", "shape"], limit_mb=below)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"{below} MB" in done.stderr and f"{standard.MIN_MEMORY_MB} MB" in done.stderr


def test_at_the_minimum_memory_a_perfect_candidate_passes(fc, tmp_path):
    # At the old minimum (512 MB) OpenBLAS retried a 128 MB allocation for ever inside
    # numpy's eigh, and the reference scored against itself FAILed with `timeout`; at
    # 768 MB the bearing block's own reference failed for memory (standard.py).
    from cadbench_wb.app.cases import build as case_build

    source = os.path.join(ROOT, "cases", "bearing_block")
    case = str(tmp_path / "bearing_block")
    generated = {"reference.step", "candidates", "__pycache__"}
    shutil.copytree(source, case, ignore=lambda _f, names: [n for n in names if n in generated])
    case_build.build_missing(cases.load_case(case))
    reference = os.path.join(case, "reference.step")
    limits = ["--memory-mb", str(standard.MIN_MEMORY_MB), "--timeout", "240"]
    done = _score(["--case", case, reference, *limits])
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["failure"] is None and result["verdict"]["reachable"] == "PASS"


def test_an_output_folder_that_cannot_take_the_store_is_named(part, tmp_path):
    # A full disk was exit 3 (internal_error: OperationalError). A file-size limit
    # (ulimit -f, SIGXFSZ ignored) fails the writes the way a full disk does.
    import signal

    root = str(tmp_path)
    _case(root, part)
    part.makeBox(10.5, 8, 6).exportStep(os.path.join(_run_folder(root), "box_a.step"))

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (24 << 10, 24 << 10))

    out = os.path.join(root, "out")
    done = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "run", "--cases", os.path.join(root, "cases"),
         "--submissions", os.path.join(root, "submissions"), "--out", out, "--only", "shape",
         "--workers", "1"],
        capture_output=True, text=True, cwd=ROOT, timeout=600, preexec_fn=small_files,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"cadbench run: output_unwritable: {out}: " in done.stderr


@pytest.fixture(scope="module")
def big_dxf(tmp_path_factory):
    """80,000 lines and 4,000 rendered dimensions (16 MB): dxf-check takes some 11 s of CPU
    on it here, drawing-score against itself some 40 s."""
    import ezdxf

    doc = ezdxf.new("R2010", setup=True)
    space = doc.modelspace()
    for i in range(80_000):
        space.add_line((i, 0), (i, 10))
    for i in range(4_000):
        space.add_linear_dim(base=(i * 20, 20), p1=(i * 20, 0), p2=(i * 20 + 10, 0)).render()
    path = str(tmp_path_factory.mktemp("dxf") / "big.dxf")
    doc.saveas(path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("command", ["dxf-check", "drawing-score"])
def test_the_dxf_commands_stop_at_their_time_limit(big_dxf, command):
    # They had no limit of their own (103 s and 118 s on a 200,000-entity DXF).
    import time

    files = [big_dxf] if command == "dxf-check" else [big_dxf, big_dxf]
    limit = standard.MIN_TIMEOUT_S
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", command, *files, "--timeout", str(limit),
         "--json", "-"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert time.monotonic() - started < limit + 30  # the interpreter's start and the JSON
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert report["failure"] == "timeout" and f"{limit} s (--timeout)" in report["failure_detail"]
    # dxf-check: a file given to it that cannot be checked is exit 2; drawing-score: the
    # candidate's scored failure, score 0, exit 0.
    assert done.returncode == (2 if command == "dxf-check" else 0), done.stderr
    if command == "drawing-score":
        assert report["score"] == 0.0


def test_a_killed_scoring_leaves_no_copy_of_the_candidate_behind(box_step, tmp_path):
    # The copy scored goes into the job's own folder, which the parent removes even when it
    # kills the child for time (a copy in the system's temporary folder would stay).
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = dict(os.environ, TMPDIR=str(temporary), CADBENCH_FAULT="hang:alignment")
    done = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "score", box_step, box_step, "--only", "shape",
         "--timeout", str(standard.MIN_TIMEOUT_S), "--json", "-"],
        capture_output=True, text=True, cwd=ROOT, timeout=600, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["failure"]["reason"] == "timeout"
    assert sorted(p.name for p in temporary.iterdir()) == []


# ---- a delivered package never shadows the scorer's own ---------------------------------

HIJACK = "open({marker!r}, 'w').write('ran')\n"


def test_a_delivered_package_in_the_working_folder_is_never_imported(fc, part, tmp_path):
    # An operator scoring from inside a folder of deliveries: `python -m` and `-c` put the
    # working folder first on sys.path, so a delivered cadbench_wb/ or numpy/ would have run
    # in the scoring children (found in issue 33's A/B runs, where a child imported the
    # checkout it was started in). Both would write a marker file when imported.
    marker = tmp_path / "marker.txt"
    for package in ("cadbench_wb", "numpy", "yaml"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(HIJACK.format(marker=str(marker)))
    part.makeBox(*BOX).exportStep(str(tmp_path / "ref.step"))
    box = part.makeBox(*BOX)
    box.translate(fc.Vector(3, 0, 0))
    box.exportStep(str(tmp_path / "cand.step"))
    cadbench = os.path.join(os.path.dirname(sys.executable), "cadbench")
    process = subprocess.run(
        [cadbench, "score", "ref.step", "cand.step", "--only", "shape", "--json", "out.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert not marker.exists(), process.stderr
    assert process.returncode == 0, process.stderr
    assert json.loads((tmp_path / "out.json").read_text())["shapeIoU"] == pytest.approx(1.0)
