# SPDX-License-Identifier: LGPL-2.1-or-later
"""A scoring child sets its own limits (runtime/child_limits.py, applied by
cadbench_wb/__init__.py): never a preexec_fn, which would make Python fork() the whole
parent (FreeCAD's GUI) instead of vfork. Real children, real rlimits, real kills."""

import json
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from cadbench_wb.runtime import child_limits, runner

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="rlimits and prctl: Linux")

REPORT = (
    "import cadbench_wb, json, os, resource; print(json.dumps({"
    "'as': resource.getrlimit(resource.RLIMIT_AS), 'cpu': resource.getrlimit(resource.RLIMIT_CPU),"
    "'sid': os.getsid(0), 'pid': os.getpid(), 'left': os.environ.get('CADBENCH_CHILD_LIMITS')}))"
)


def _child(code: str, env: dict, **popen):
    return subprocess.Popen([runner.python_for_children(), "-c", code], env=env, **popen)


def test_the_child_sets_the_limits_it_is_given_in_its_own_session():
    env = child_limits.environment(runner.child_environment(), 700, 12.5)
    child = _child(REPORT, env, stdout=subprocess.PIPE, start_new_session=True)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0
    seen = json.loads(out)
    assert seen["as"] == [700 * 1024 * 1024] * 2
    # CPU seconds: the wall-clock limit (whole seconds) and the backstop's margin.
    assert seen["cpu"] == [12 + child_limits.CPU_MARGIN_S, 12 + child_limits.CPU_MARGIN_S + 5]
    assert seen["sid"] == seen["pid"]  # its own process group: a cancel kills all of it
    assert seen["left"] is None  # its own children do not take its parent for theirs


def test_no_limits_asked_leave_the_inherited_ones():
    env = child_limits.environment(runner.child_environment(), 0, None)
    child = _child(REPORT, env, stdout=subprocess.PIPE)
    out, _ = child.communicate(timeout=60)
    import resource

    seen = json.loads(out)
    assert seen["as"] == list(resource.getrlimit(resource.RLIMIT_AS))
    assert seen["cpu"] == list(resource.getrlimit(resource.RLIMIT_CPU))


def test_a_child_whose_parent_died_before_it_set_pdeathsig_dies():
    """The race: a parent gone before the child's prctl leaves it to another process; the
    parent's pid it was given then differs from os.getppid()."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    env = dict(runner.child_environment(), CADBENCH_CHILD_LIMITS=f"0 0 {gone.pid}")
    child = _child("import cadbench_wb, time; time.sleep(30)", env)
    assert child.wait(timeout=60) == -signal.SIGKILL


def test_a_killed_parent_kills_its_scoring_child():
    """kill -9 of the process that started the child (as the GUI or CLI would be)."""
    middle_code = textwrap.dedent(
        """
        import subprocess, sys, time
        from cadbench_wb.runtime import child_limits, runner
        env = child_limits.environment(runner.child_environment(), 0, 600)
        code = "import cadbench_wb, time; print('up', flush=True); time.sleep(120)"
        child = subprocess.Popen([runner.python_for_children(), "-c", code], env=env,
                                 stdout=subprocess.PIPE, start_new_session=True)
        child.stdout.readline()
        print(child.pid, flush=True)
        time.sleep(120)
        """
    )
    middle = _child(middle_code, runner.child_environment(), stdout=subprocess.PIPE)
    try:
        pid = int(middle.stdout.readline())
    finally:
        middle.kill()
        middle.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)
    assert not _alive(pid)


def _alive(pid: int) -> bool:
    """pid still runs (a zombie waiting for a reaper has died)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
