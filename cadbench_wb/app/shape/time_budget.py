# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run the exact booleans in a child process that is stopped when its CPU budget is spent.

OCC's booleans cannot be interrupted from Python (they hold the interpreter for as long as
they run: minutes on some real parts), so a route that may not pay off runs in a child
that is stopped when its budget is spent, instead of being waited for and then discarded.
The budget is CPU seconds of the child's own job (RLIMIT_CPU, enforced by the kernel), not
wall clock: on a loaded machine the same job takes longer but no more CPU, so one pair
takes the same route idle and busy (a wall-clock net sent a pair that took 7.7 s idle to
the mesh route after 101 s on a loaded machine). A wall-clock backstop remains only for a
child that stops computing (a deadlock spends no CPU), far beyond what a job's CPU budget
takes even on a loaded machine.
The child is a fresh interpreter, not a fork: a forked copy of a process whose thread
pools (manifold3d's TBB, OCC's) are running can deadlock on their locks, as seen here.
It reads both shapes as BREP (an exact round trip) and writes back volumes and pieces.
"""

import atexit
import json
import os
import select
import signal
import subprocess
import tempfile
import time

import Part

from cadbench_wb import standard
from cadbench_wb.runtime import forked, memory_use, runner


class BudgetSpent(Exception):
    """The computation did not finish within its budget (or its process died)."""

    def __init__(self, message: str, clock: bool = False, cpu: bool = False):
        super().__init__(message)
        # clock: the wall-clock backstop stopped it (depends on the machine's load).
        # cpu: its CPU budget did (depends on the machine's speed, not on its load).
        # Neither: it died.
        self.clock = clock
        self.cpu = cpu


def cpu_limit_available() -> bool:
    """Whether the child's CPU time can be limited (POSIX RLIMIT_CPU; not on Windows)."""
    try:
        import resource  # noqa: PLC0415, F401
    except ImportError:
        return False
    return hasattr(signal, "SIGXCPU")


# A child kept between the exact jobs of one process (ExactWorker.release) serves at most
# SPARE_JOBS of them, and none once its peak address space passed SPARE_MEMORY_SHARE of its
# memory limit (campaign/pool.py recycles its workers by the same rule).
SPARE_JOBS = 100
SPARE_MEMORY_SHARE = 0.5
_SPARE: list = []


def _retire_spare() -> None:
    """At exit: end the kept child and wait for it (its CPU is then this process's
    children's, as a closed child's is)."""
    while _SPARE:
        worker = _SPARE.pop()
        try:
            worker.process.stdin.close()  # end of its job list: serve() returns
            worker.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        worker.close()


atexit.register(_retire_spare)


def kept_children_cpu_s() -> float:
    """CPU seconds spent so far by the children kept for later jobs (ExactWorker.release),
    which getrusage's RUSAGE_CHILDREN counts only once they are waited for: read from /proc
    (0 where there is none), so that a scoring's cpu_children still holds its exact child."""
    total = 0.0
    for worker in _SPARE:
        try:
            with open(f"/proc/{worker.process.pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError, AttributeError):
            pass
    return total


# What a forked exact-boolean child is called in ps and /proc/PID/comm (its command line
# is its parent's).
EXACT_CHILD_NAME = "cadbench-exact"


def fork_spare(serve) -> bool:
    """Fork this process's exact-boolean child now, if it runs a single thread (a scoring
    child right after importing FreeCAD: runtime/forked.py says why only then), and keep it
    for the first exact job (ExactWorker.reused); whether it did. serve: the child's loop
    (exact_child.serve, passed in: that module imports this one). The child serves the
    same jobs as a fresh interpreter's, reading its shapes from BREP, without a second
    interpreter and FreeCAD start (0.13 CPU-s); unused (no exact route), it costs a fork."""
    if _SPARE or not hasattr(os, "fork") or not forked.single_threaded():
        return False
    _SPARE.append(ExactWorker(forked.ForkedChild(serve, EXACT_CHILD_NAME)))
    return True


# The child's program: serve jobs until stdin closes, then end without the interpreter's
# teardown (console.exit_now: its FreeCAD and shapes freed one by one cost more CPU than a
# small pair's booleans).
CHILD_CODE = (
    "from cadbench_wb.app.shape import exact_child; exact_child.serve(); "
    "from cadbench_wb.runtime import console; console.exit_now(0)"
)


class ExactWorker:
    """A child interpreter started ahead of need (it imports FreeCAD while this process
    computes the mesh route), that runs one exact-boolean job and is then closed or killed.
    """

    def __init__(self, process=None):
        self.process = process or runner.child_interpreter(
            CHILD_CODE,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

        self.cpu_budget_s = None
        self.cpu_used_s = 0.0  # CPU seconds of the last job, as the child measured them
        self.idle = True  # no job handed in, or the last one answered "done"
        self.jobs = 0

    @classmethod
    def reused(cls) -> "ExactWorker":
        """The child this process kept from its last exact job (release), else a new one."""
        while _SPARE:
            worker = _SPARE.pop()
            if worker.process.poll() is None:
                return worker
            worker.close()
        return cls()

    def release(self) -> None:
        """Done with this child: kept for this process's next exact job when its last job
        answered and it is fit for more (a reused scoring process, a campaign worker, then
        starts the child's interpreter and FreeCAD once, not once per job: 0.2 CPU-s of a
        small pair); closed otherwise. The answers are the same: each job reads its two
        shapes afresh from BREP in a process that keeps nothing from the last one but its
        imports."""
        if self.idle and self.jobs < SPARE_JOBS and self.process.poll() is None and self._slim():
            _SPARE.append(self)
            return
        self.close()

    def _slim(self) -> bool:
        """Whether the child's peak address space stays under SPARE_MEMORY_SHARE of the
        limit it inherited (this process's): what OpenCASCADE keeps from a job must never
        make a later job die of memory, which would change that job's route."""
        limit = memory_use.limit_mb()
        return not limit or memory_use.peak_mb(self.process.pid) < SPARE_MEMORY_SHARE * limit

    def submit(self, folder: str) -> None:
        """Hand the job in folder to the child (it starts at once)."""
        try:
            with open(os.path.join(folder, "job.json")) as handle:
                self.cpu_budget_s = json.load(handle).get("cpu_budget_s")
            self.idle = False
            self.jobs += 1
            self.process.stdin.write((folder + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            raise BudgetSpent("the child process died before its job") from None

    def wait(self, wall_s: float, backstop_s: float | None = None) -> None:
        """Wait for the job handed in: until it ends, its CPU budget stops it, or wall_s
        (what is left of the backstop_s for a child that stopped computing) has passed."""
        ready = select.select([self.process.stdout], [], [], max(wall_s, 0.0))[0]
        if not ready:
            self.close()
            backstop_s = wall_s if backstop_s is None else backstop_s
            raise BudgetSpent(
                f"stopped by the wall-clock backstop after {backstop_s:g} s", clock=True
            )
        line = self.process.stdout.readline().decode(errors="replace").split()
        if line[:1] == ["done"]:
            self.cpu_used_s = float(line[1]) if len(line) > 1 else 0.0
            self.idle = True
            return
        status = self.process.wait()
        if cpu_limit_available() and status == -signal.SIGXCPU:
            self.cpu_used_s = float(self.cpu_budget_s or 0.0)
            raise BudgetSpent(
                f"stopped by its CPU budget after {self.cpu_budget_s:g} CPU-s", cpu=True
            )
        raise BudgetSpent(f"the child process died (exit status {status})")

    def run(self, folder: str, wall_s: float) -> None:
        """Hand the job in folder to the child and wait for it (wait)."""
        self.submit(folder)
        self.wait(wall_s)

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
    reference, candidate, fuzzy: float, keep_shapes: bool, cpu_budget_s: float, worker=None
):
    """exact.exact_booleans computed in a child process; raises BudgetSpent.

    cpu_budget_s: CPU seconds the child may spend on the job. worker: an ExactWorker already
    started (its start-up then costs nothing here); it is used for this one job and closed.
    """
    job = ExactJob(reference, candidate, fuzzy, keep_shapes, cpu_budget_s, worker)
    return job.result()


class ExactJob:
    """One run of exact.exact_booleans in a child process, started at once, so
    that this process computes the mesh route meanwhile (the second core's work), and
    collected with result(). The child may spend cpu_budget_s CPU seconds on it (its
    interpreter's start-up not counted); the wall-clock backstop counts from the start."""

    def __init__(self, reference, candidate, fuzzy, keep_shapes, cpu_budget_s, worker=None):
        self.started = time.perf_counter()
        self.cpu_budget_s = cpu_budget_s
        self.worker = worker or ExactWorker.reused()
        self._cpu_used_s = 0.0
        self.folder = tempfile.TemporaryDirectory(prefix="cadbench-exact-")
        self.failed = None
        try:
            folder = self.folder.name
            reference.exportBrep(os.path.join(folder, "a.brep"))
            candidate.exportBrep(os.path.join(folder, "b.brep"))
            job = {"fuzzy": fuzzy, "keep_shapes": keep_shapes, "cpu_budget_s": cpu_budget_s}
            with open(os.path.join(folder, "job.json"), "w") as handle:
                json.dump(job, handle)
            self.worker.submit(folder)
        except BudgetSpent as spent:
            self.failed = spent

    @property
    def cpu_used_s(self) -> float:
        """CPU seconds the child spent on the job (once result() has returned or raised)."""
        return self.worker.cpu_used_s if self.worker is not None else self._cpu_used_s

    def result(self, wall_s: float | None = None) -> dict:
        """The job's volumes and pieces; raises BudgetSpent. wall_s: the backstop, counted
        from the job's start (standard.CROSS_CHECK exact_backstop_wall_s unless given)."""
        if wall_s is None:
            wall_s = standard.CROSS_CHECK["exact_backstop_wall_s"]
            if not cpu_limit_available():  # no CPU limit: the budget falls back to the clock
                wall_s = min(wall_s, self.cpu_budget_s)
        try:
            if self.failed is not None:
                raise self.failed
            self.worker.wait(wall_s - (time.perf_counter() - self.started), wall_s)
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
        """Release the child (ExactWorker.release) and remove the job's folder; again: nothing."""
        if self.worker is not None:
            worker, self.worker = self.worker, None
            self._cpu_used_s = worker.cpu_used_s
            worker.release()
        self.folder.cleanup()
