# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run the exact booleans in a child process that is stopped at a wall-clock safety net.

OCC's booleans cannot be interrupted from Python (they hold the interpreter for as long as
they run: minutes on some real parts), so a route that may not pay off runs in a child
that is killed when its budget is spent, instead of being waited for and then discarded.
The child is a fresh interpreter, not a fork: a forked copy of a process whose thread
pools (manifold3d's TBB, OCC's) are running can deadlock on their locks, as seen here.
It reads both shapes as BREP (an exact round trip) and writes back volumes and pieces.
"""

import json
import os
import select
import subprocess
import sys
import tempfile
import time

from cadbench_wb import runner


class BudgetSpent(Exception):
    """The computation did not finish within its budget (or its process died)."""

    def __init__(self, message: str, clock: bool = False):
        super().__init__(message)
        # True when the wall clock stopped it (machine-dependent), False when it died.
        self.clock = clock


class ExactWorker:
    """A child interpreter started ahead of need (it imports FreeCAD while this process
    computes the mesh route), that runs one exact-boolean job and is then closed or killed.
    """

    def __init__(self):
        self.process = runner.child_interpreter(
            "from cadbench_wb.app.shape import time_budget; time_budget.serve()",
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def submit(self, folder: str) -> None:
        """Hand the job in folder to the child (it starts at once)."""
        try:
            self.process.stdin.write((folder + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            raise BudgetSpent("the child process died before its job") from None

    def wait(self, budget_s: float) -> None:
        """Wait at most budget_s for the job handed in."""
        ready = select.select([self.process.stdout], [], [], max(budget_s, 0.0))[0]
        if not ready:
            self.close()
            raise BudgetSpent(f"stopped by the wall clock after {budget_s:.0f} s", clock=True)
        self.process.stdout.readline()

    def run(self, folder: str, budget_s: float) -> None:
        """Hand the job in folder to the child and wait at most budget_s for it."""
        self.submit(folder)
        self.wait(budget_s)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def exact_booleans_within(
    reference, candidate, fuzzy: float, keep_shapes: bool, budget_s: float, worker=None
):
    """shape_fidelity.exact_booleans computed in a child process; raises BudgetSpent.

    worker: an ExactWorker already started (its start-up then costs nothing here); it is
    used for this one job and closed.
    """
    return ExactJob(reference, candidate, fuzzy, keep_shapes, worker).result(budget_s)


class ExactJob:
    """One run of shape_fidelity.exact_booleans in a child process, started at once, so
    that this process computes the mesh route meanwhile (the second core's work), and
    collected with result(). The safety net counts from the start of the job."""

    def __init__(self, reference, candidate, fuzzy: float, keep_shapes: bool, worker=None):
        self.started = time.perf_counter()
        self.worker = worker or ExactWorker()
        self.folder = tempfile.TemporaryDirectory(prefix="cadbench-exact-")
        self.failed = None
        try:
            folder = self.folder.name
            reference.exportBrep(os.path.join(folder, "a.brep"))
            candidate.exportBrep(os.path.join(folder, "b.brep"))
            with open(os.path.join(folder, "job.json"), "w") as handle:
                json.dump({"fuzzy": fuzzy, "keep_shapes": keep_shapes}, handle)
            self.worker.submit(folder)
        except BudgetSpent as spent:
            self.failed = spent

    def result(self, budget_s: float) -> dict:
        """The job's volumes and pieces, waited for until budget_s after its start."""
        import Part  # noqa: PLC0415

        try:
            if self.failed is not None:
                raise self.failed
            self.worker.wait(budget_s - (time.perf_counter() - self.started))
            folder = self.folder.name
            answer = os.path.join(folder, "result.json")
            if not os.path.exists(answer):
                raise BudgetSpent("the child process died without an answer")
            with open(answer) as handle:
                found = json.load(handle)
            shapes = {}
            for key, name in found.pop("shape_files").items():
                shape = None
                if name:
                    shape = Part.Shape()
                    shape.importBrep(os.path.join(folder, name))
                shapes[key] = shape
            found["shapes"] = shapes
            return found
        finally:
            self.close()

    def close(self) -> None:
        self.worker.close()
        self.folder.cleanup()


def serve() -> None:
    """The child's loop: import FreeCAD once, then run each job folder named on stdin."""
    from cadbench_wb.freecad_env import import_freecad  # noqa: PLC0415

    import_freecad()
    for line in sys.stdin:
        folder = line.strip()
        try:
            child(folder)
        except Exception:  # noqa: BLE001 - no result.json tells the parent it failed
            pass
        sys.stdout.write("done\n")
        sys.stdout.flush()


def child(folder: str) -> None:
    """The child's side: read the job, compute, write result.json (last, so a killed child
    leaves no half answer)."""
    from cadbench_wb.freecad_env import import_freecad  # noqa: PLC0415

    import_freecad()
    import Part  # noqa: PLC0415

    from cadbench_wb.app.shape import fidelity as shape_fidelity  # noqa: PLC0415

    with open(os.path.join(folder, "job.json")) as handle:
        job = json.load(handle)
    reference = Part.read(os.path.join(folder, "a.brep"))
    candidate = Part.read(os.path.join(folder, "b.brep"))
    reference = reference.Solids[0] if len(reference.Solids) == 1 else reference
    candidate = candidate.Solids[0] if len(candidate.Solids) == 1 else candidate
    found = shape_fidelity.exact_booleans(reference, candidate, job["fuzzy"], job["keep_shapes"])
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
