# SPDX-License-Identifier: LGPL-2.1-or-later
"""Helpers of the hostile-input tests (tests/hostile/test_inputs_*.py): the real command
line in a subprocess, with bytes kept as bytes, and the promises every refusal keeps."""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOBODY = 65534  # the unprivileged user: root reads every file whatever its mode


def cli(*args, user=None, env=None, timeout=600):
    """(exit status, stdout bytes, stderr text) of `python -m cadbench_wb ARGS`. Arguments
    may be bytes (file names that are not UTF-8). ``user``: run as that uid (and gid)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    extra = {}
    if user is not None:
        extra = {"user": user, "group": user, "extra_groups": []}
    process = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", *args],
        capture_output=True,
        cwd=ROOT,
        env=full_env,
        timeout=timeout,
        **extra,
    )
    return process.returncode, process.stdout, process.stderr.decode("utf-8", "replace")


def refused(status, err, expected_status, reason, command):
    """The one-line refusal every front door promises: the status, the reason, no
    traceback."""
    assert "Traceback" not in err, err
    assert status == expected_status, err
    assert f"cadbench {command}: {reason}" in err, err


def json_of(out: bytes) -> dict:
    """The JSON on stdout, which must be valid UTF-8 whatever the file names were."""
    return json.loads(out.decode("utf-8"))


@contextlib.contextmanager
def public_folder():
    """A folder every user may enter (pytest's own are 0700), for runs as NOBODY."""
    folder = tempfile.mkdtemp(prefix="cadbench-hostile-")
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def unreadable_copy(source: str, folder: str, name: str) -> str:
    """A copy of source that the test's unprivileged runner may not read (mode 000)."""
    target = os.path.join(folder, name)
    shutil.copyfile(source, target)
    os.chmod(target, 0)
    return target


def runner_user():
    """Who to run as for a permission-denied test: NOBODY when the tests run as root
    (root's CAP_DAC_OVERRIDE reads a mode-000 file), else the test's own user. Skipped
    when NOBODY cannot run this checkout's interpreter (a clone in root's private home, as
    in the FreeCAD 1.0 chroot): the test would then prove nothing about cadbench."""
    if os.geteuid() != 0:
        return None
    import pytest

    try:
        probe = subprocess.run(
            [sys.executable, "-c", "import cadbench_wb"],
            capture_output=True,
            cwd="/",
            env=dict(os.environ, PYTHONPATH=ROOT),
            user=NOBODY,
            group=NOBODY,
            extra_groups=[],
        ).returncode
    except OSError:  # the interpreter itself is out of its reach
        probe = None
    if probe != 0:
        pytest.skip("the unprivileged user cannot run this checkout's Python (private folder)")
    return NOBODY


def home_for(user, folder: str) -> dict:
    """HOME for a run as another user (FreeCAD writes its settings under HOME)."""
    if user is None:
        return {}
    home = os.path.join(folder, "home")
    os.makedirs(home, exist_ok=True)
    os.chown(home, user, user)
    return {"HOME": home, "XDG_CACHE_HOME": os.path.join(home, ".cache")}
