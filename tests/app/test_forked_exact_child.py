# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exact-boolean child forked by a scoring child right after FreeCAD's import (issue 33:
no second interpreter and FreeCAD start for a small pair), and never forked from a process
that runs more than one thread (a copy of running thread pools can deadlock)."""

import json
import subprocess
import threading

import pytest

from cadbench_wb.app.shape import time_budget
from cadbench_wb.runtime import forked, runner

# A fresh interpreter as a scoring child is one (single-threaded until numpy's and OCC's
# pools start): the child forks, serves two boxes 10 mm on a side 5 mm apart (common 500,
# union 1500, each 1000: analytic) and says whether it was a fork of this process.
FORKED_JOB = """
import json, os
from cadbench_wb.runtime.freecad_env import import_freecad
import_freecad()
import FreeCAD, Part
from cadbench_wb.app.shape import exact_child, time_budget
forked = time_budget.fork_spare(exact_child.serve)
(child,) = time_budget._SPARE
box = Part.makeBox(10, 10, 10)
other = Part.makeBox(10, 10, 10, FreeCAD.Vector(5, 0, 0))
found = time_budget.exact_booleans_within(box, other, 0.0, True, 300)
with open(f"/proc/{child.process.pid}/stat") as handle:
    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
print(json.dumps({
    "forked": forked,
    "kept_again": time_budget._SPARE == [child],
    "child_of_this_process": parent == os.getpid(),
    "same_program": type(child.process).__name__,
    "name": open(f"/proc/{child.process.pid}/comm").read().strip(),
    "volumes": found["volumes"],
    "common_piece": found["shapes"]["common"].Volume,
}))
time_budget._retire_spare()
print(json.dumps({"ended": child.process.poll()}))
"""


def test_a_scoring_child_forks_its_exact_child_and_it_gives_the_volumes(fc):
    done = subprocess.run(
        [runner.python_for_children(), "-c", FORKED_JOB],
        env=runner.child_environment(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found, ended = (json.loads(line) for line in done.stdout.splitlines()[-2:])
    assert found["forked"] and found["kept_again"] and found["child_of_this_process"]
    assert found["same_program"] == "ForkedChild"
    assert found["name"] == time_budget.EXACT_CHILD_NAME
    volumes = found["volumes"]
    assert volumes["a"] == pytest.approx(1000, rel=1e-12)
    assert volumes["b"] == pytest.approx(1000, rel=1e-12)
    assert volumes["common"] == pytest.approx(500, rel=1e-12)
    assert volumes["union"] == pytest.approx(1500, rel=1e-12)
    assert found["common_piece"] == pytest.approx(500, rel=1e-12)
    assert ended["ended"] == 0  # its job list closed, it ended on its own


def test_no_fork_while_another_thread_runs():
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked.single_threaded()
    finally:
        release.set()
        other.join()
