# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exact-boolean child's side (time_budget.ExactWorker starts it): import FreeCAD once,
then for each job folder named on stdin read both BREP shapes, compute the exact booleans
(exact.exact_booleans) under the job's CPU limit, and write back volumes and pieces.
A module of its own so that fidelity (which starts the child) and the child's code import
each other in one direction only."""

import json
import math
import os
import sys

from cadbench_wb.app.shape import time_budget
from cadbench_wb.runtime.freecad_env import import_freecad


def serve() -> None:
    """The child's loop: import FreeCAD once, then run each job folder named on stdin."""
    import_freecad()
    for line in sys.stdin:
        folder = line.strip()
        before = _cpu_seconds()
        try:
            _limit_cpu(folder, before)
            child(folder)
        except Exception:  # no result.json tells the parent it failed
            pass
        sys.stdout.write(f"done {_cpu_seconds() - before:.3f}\n")
        sys.stdout.flush()


def _cpu_seconds() -> float:
    """CPU seconds (user + system, all threads) this process has spent."""
    times = os.times()
    return times.user + times.system


def _limit_cpu(folder: str, spent: float) -> None:
    """Let this process spend at most the job's cpu_budget_s more CPU seconds: past them
    the kernel sends SIGXCPU, whose default action ends the process (OCC holds the
    interpreter, so a Python handler could not run). RLIMIT_CPU counts whole seconds: the
    limit is rounded up. No core file is written."""
    if not time_budget.cpu_limit_available():
        return
    import resource  # noqa: PLC0415 - Unix-only

    with open(os.path.join(folder, "job.json")) as handle:
        budget = json.load(handle).get("cpu_budget_s")
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if budget is None:  # no budget: none left over from this child's last job either
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
        return
    soft = math.ceil(spent + max(budget, 0.0))
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (max(soft, 1), hard))
    resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))


def child(folder: str) -> None:
    """The child's side: read the job, compute, write result.json (last, so a killed child
    leaves no half answer)."""
    import_freecad()
    import Part  # noqa: PLC0415 - only after import_freecad

    # The exact booleans alone (issue 33): not fidelity, whose mesh modules cost 0.25 CPU-s
    # of the child's start-up.
    from cadbench_wb.app.shape import exact  # noqa: PLC0415 - only after import_freecad

    with open(os.path.join(folder, "job.json")) as handle:
        job = json.load(handle)
    reference = Part.read(os.path.join(folder, "a.brep"))
    candidate = Part.read(os.path.join(folder, "b.brep"))
    reference = reference.Solids[0] if len(reference.Solids) == 1 else reference
    candidate = candidate.Solids[0] if len(candidate.Solids) == 1 else candidate
    found = exact.exact_booleans(reference, candidate, job["fuzzy"], job["keep_shapes"])
    files = {}
    for key, shape in found.pop("shapes").items():
        files[key] = None
        if shape is not None:
            files[key] = f"piece_{key}.brep"
            shape.exportBrep(os.path.join(folder, files[key]))
    found["shape_files"] = files
    partial = os.path.join(folder, "result.part")
    with open(partial, "w") as handle:
        json.dump(found, handle)
    os.replace(partial, os.path.join(folder, "result.json"))
