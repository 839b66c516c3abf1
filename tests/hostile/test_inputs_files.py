# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hostile files at every front door: special files refused by type before any open,
unreadable files named with the OS's reason, names that are not UTF-8 scored like any
other, and symlinks that leave a case folder refused like '../' paths.

Each run goes through the real command line with the scorer's own time limit
(--timeout): a FIFO that were opened would block, and the result would then name a
timeout, not the reason asserted here."""

import os
import shutil

import pytest
from inputs_support import (
    cli,
    home_for,
    json_of,
    public_folder,
    refused,
    runner_user,
    unreadable_copy,
)

LIMIT = ("--timeout", "120")


def _failure(out: bytes) -> dict:
    result = json_of(out)
    assert result["delivered"] is False and result["shapeIoU"] == 0.0
    return result["failure"]


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_special_candidate_is_refused_unopened(models, tmp_path, kind):
    candidate = str(tmp_path / "part.step")
    if kind == "fifo":
        os.mkfifo(candidate)
    elif kind == "device":
        os.symlink("/dev/zero", candidate)  # endless: reading it would never finish
    else:
        os.mkdir(candidate)
    status, out, err = cli(
        "score", models["box"], candidate, "--only", "shape", "--json", "-", *LIMIT
    )
    assert status == 0 and "Traceback" not in err, err
    failure = _failure(out)
    assert failure["reason"] == "unreadable_file"
    words = {"fifo": "FIFO", "device": "character device", "folder": "a folder"}[kind]
    assert words in failure["detail"] and "not a file" in failure["detail"]


def test_fifo_reference_is_the_reference_refused_before_any_work(models, tmp_path):
    reference = str(tmp_path / "reference.step")
    os.mkfifo(reference)
    status, out, err = cli("score", reference, models["box"], "--json", "-", *LIMIT)
    refused(status, err, 4, "reference_invalid", "score")
    assert out == b"" and "FIFO" in err


def test_unreadable_candidate_names_the_os_reason(models):
    user = runner_user()
    with public_folder() as folder:
        reference = shutil.copy(models["box"], os.path.join(folder, "box.step"))
        candidate = unreadable_copy(models["box"], folder, "secret.step")
        status, out, err = cli(
            "score", reference, candidate, "--only", "shape", "--json", "-", *LIMIT,
            user=user, env=home_for(user, folder),
        )  # fmt: skip
        swapped = cli(
            "score", candidate, reference, "--json", "-", *LIMIT,
            user=user, env=home_for(user, folder),
        )  # fmt: skip
    assert status == 0 and "Traceback" not in err, err
    failure = _failure(out)
    assert failure["reason"] == "unreadable_file"
    assert "Permission denied" in failure["detail"]
    status, out, err = swapped  # the same file as the reference: the benchmark's fault
    refused(status, err, 4, "reference_invalid", "score")
    assert "reference unreadable_file" in err and "Permission denied" in err and out == b""


def _plate_dxf(path: str) -> str:
    import ezdxf

    doc = ezdxf.new("R2010")
    doc.modelspace().add_lwpolyline([(0, 0), (80, 0), (80, 40), (0, 40)], close=True)
    doc.saveas(path)
    return path


def test_unreadable_drawings_in_dxf_check_and_drawing_score():
    user = runner_user()
    with public_folder() as folder:
        gold = _plate_dxf(os.path.join(folder, "gold.dxf"))
        secret = unreadable_copy(gold, folder, "secret.dxf")
        env = home_for(user, folder)
        check = cli("dxf-check", secret, "--json", "-", user=user, env=env)
        scored = cli("drawing-score", gold, secret, "--json", "-", user=user, env=env)
    status, out, err = check
    refused(status, err, 2, "unreadable_file", "dxf-check")
    assert "Permission denied" in err and json_of(out)["failure"] == "unreadable_file"
    status, out, err = scored
    assert status == 0 and "Traceback" not in err, err
    result = json_of(out)
    assert result["failure"] == "unreadable_file" and result["score"] == 0.0
    assert "Permission denied" in result["failure_detail"]


def test_fifo_drawings_and_models_are_refused_unopened(tmp_path):
    gold = _plate_dxf(str(tmp_path / "gold.dxf"))
    fifo_dxf, fifo_model = str(tmp_path / "pipe.dxf"), str(tmp_path / "pipe.step")
    os.mkfifo(fifo_dxf)
    os.mkfifo(fifo_model)
    status, out, err = cli("dxf-check", fifo_dxf)
    refused(status, err, 2, "unreadable_file", "dxf-check")
    status, out, err = cli("drawing-score", fifo_dxf, gold, "--json", "-")
    assert status == 4 and "gold unreadable_file" in err and "Traceback" not in err, err
    status, out, err = cli("drawing", fifo_model, "--out", str(tmp_path / "drawn"))
    refused(status, err, 2, "unreadable_file", "drawing")
    assert "FIFO" in err


def test_a_name_that_is_not_utf8_scores_normally_and_writes_utf8(models, tmp_path):
    folder = os.fsencode(str(tmp_path))
    candidate = os.path.join(folder, b"caf\xe9 copy.step")  # Latin-1 'é': not UTF-8
    shutil.copyfile(models["box"], candidate)
    report = tmp_path / "result.json"
    status, out, err = cli(
        "score", models["box"], candidate, "--only", "shape", "--json", "-", *LIMIT
    )
    assert status == 0 and "Traceback" not in err, err
    result = json_of(out)  # valid UTF-8, or this raises
    assert result["delivered"] is True and result["shapeIoU"] == 1.0
    # The documented escaped form: each byte that is not UTF-8 as \xHH.
    assert result["candidate"]["path"].endswith("caf\\xe9 copy.step")
    status, out, err = cli(
        "score", models["box"], candidate, "--only", "shape", "--json", str(report)
    )
    assert status == 0 and "Traceback" not in err, err
    assert json_of(report.read_bytes())["shapeIoU"] == 1.0
    assert b" copy.step" in out  # the summary printed (as the locale writes the name)


def _case(folder, reference_target=None, **files) -> str:
    os.makedirs(folder, exist_ok=True)
    lines = ["id: hostile", "title: a case with a symlink", "reference: ref.step"]
    if "candidate" in files:
        lines += ["candidates:", "  - file: cand.step", "    expect: {}"]
    with open(os.path.join(folder, "case.yaml"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    if reference_target:
        os.symlink(reference_target, os.path.join(folder, "ref.step"))
    if "candidate" in files:
        os.symlink(files["candidate"], os.path.join(folder, "cand.step"))
    return str(folder)


def test_a_symlink_leaving_the_case_folder_is_refused_like_a_literal_path(models, tmp_path):
    outside = models["box"]  # a file outside the case folder
    escaping = _case(tmp_path / "escaping", reference_target=outside)
    status, out, err = cli("case", "check", escaping)
    refused(status, err, 2, "case_invalid", "case")
    assert "reference" in err and "symlinks resolved" in err
    status, out, err = cli("score", "--case", escaping, models["box"], "--json", "-", *LIMIT)
    refused(status, err, 2, "case_invalid", "score")
    assert out == b""
    # The same file copied in, or a symlink that stays inside, is a good case.
    inside = tmp_path / "inside"
    os.makedirs(inside)
    shutil.copyfile(outside, inside / "model.step")
    good = _case(inside, reference_target="model.step")
    status, out, err = cli("case", "check", good)
    assert status == 0, err


def test_a_candidate_symlink_or_case_file_leaving_the_folder_is_refused(models, tmp_path):
    folder = tmp_path / "case"
    os.makedirs(folder)
    shutil.copyfile(models["box"], folder / "ref.step")
    case = _case(folder, candidate=models["box"])
    status, out, err = cli("case", "check", case)
    refused(status, err, 2, "case_invalid", "case")
    assert "candidates[0].file" in err
    elsewhere = tmp_path / "elsewhere"
    os.makedirs(elsewhere)
    os.replace(folder / "case.yaml", elsewhere / "case.yaml")
    os.symlink(elsewhere / "case.yaml", folder / "case.yaml")
    status, out, err = cli("case", "check", case)
    refused(status, err, 2, "case_invalid", "case")
    assert "outside the case folder" in err


def test_run_scores_an_unreadable_submission_as_its_failure(models):
    user = runner_user()
    with public_folder() as folder:
        case = os.path.join(folder, "cases", "hostile")
        os.makedirs(case)
        shutil.copyfile(models["box"], os.path.join(case, "ref.step"))
        with open(os.path.join(case, "case.yaml"), "w", encoding="utf-8") as handle:
            handle.write("id: hostile\ntitle: an unreadable delivery\nreference: ref.step\n")
        run = os.path.join(folder, "submissions", "system", "run1")
        os.makedirs(run)
        unreadable_copy(models["box"], run, "hostile.step")
        out = os.path.join(folder, "out")
        for path in (folder, os.path.join(folder, "cases"), case):
            os.chmod(path, 0o755)
        for path in (os.path.join(folder, "submissions"), os.path.dirname(run), run):
            os.chmod(path, 0o755)
        os.chmod(os.path.join(case, "ref.step"), 0o644)
        os.chmod(os.path.join(case, "case.yaml"), 0o644)
        os.makedirs(out)
        if user is not None:
            os.chown(out, user, user)
        status, stdout, err = cli(
            "run", "--cases", os.path.dirname(case), "--submissions",
            os.path.dirname(os.path.dirname(run)), "--out", out, "--workers", "1",
            "--only", "shape", *LIMIT, user=user, env=home_for(user, folder),
        )  # fmt: skip
        assert status == 0 and "Traceback" not in err, err
        with open(os.path.join(out, "results.json"), encoding="utf-8") as handle:
            text = handle.read()
    assert '"reason": "unreadable_file"' in text and "Permission denied" in text


def test_names_that_are_not_utf8_in_the_drawing_front_doors(models, tmp_path):
    folder = os.fsencode(str(tmp_path))
    drawing = os.path.join(folder, b"plan \xe9.dxf")
    _plate_dxf(os.fsdecode(drawing))
    gold = _plate_dxf(str(tmp_path / "gold.dxf"))
    status, out, err = cli("dxf-check", drawing, "--json", "-")
    assert status == 0 and "Traceback" not in err, err
    assert json_of(out)["path"].endswith("plan \\xe9.dxf")
    status, out, err = cli("drawing-score", gold, drawing, "--json", "-")
    assert status == 0 and "Traceback" not in err, err
    assert json_of(out)["score"] == 1.0  # the same plate
    model = os.path.join(folder, b"bo\xeete.step")
    shutil.copyfile(models["box"], model)
    status, out, err = cli("drawing", model, "--out", str(tmp_path / "drawn"), "--json", "-")
    assert status == 0 and "Traceback" not in err, err
    assert json_of(out)["model"]["path"].endswith("bo\\xeete.step")


def test_the_escaped_form_of_names_that_are_not_utf8():
    from cadbench_wb.inputs.checks import printable

    assert printable(os.fsdecode(b"caf\xe9.step")) == "caf\\xe9.step"  # Latin-1 byte
    assert printable("plain é.step") == "plain é.step"  # valid text is kept as it is
    assert printable("lone \ud800") == "lone \\ud800"  # a surrogate no byte stands for
    assert all(printable(t).encode("utf-8") for t in (os.fsdecode(b"\xff\xfe"), "x"))


@pytest.mark.parametrize("kind", ["fifo", "deep"])
def test_a_hostile_pose_file_is_a_usage_error(models, tmp_path, kind):
    pose = str(tmp_path / "result.json")
    if kind == "fifo":
        os.mkfifo(pose)
    else:  # nests past Python's recursion limit: json.load raises RecursionError
        with open(pose, "w") as handle:
            handle.write("[" * 100_000 + "]" * 100_000)
    args = ("drawing", models["box"], "--out", str(tmp_path / "drawn"), "--pose", pose)
    status, out, err = cli(*args)
    refused(status, err, 2, "usage_error", "drawing")
    assert "--pose" in err
