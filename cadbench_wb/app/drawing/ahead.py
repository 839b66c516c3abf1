# SPDX-License-Identifier: LGPL-2.1-or-later
"""The two drawings made in a child process while this one scores shape and features.

A drawing needs nothing the other metrics compute: the reference's only the reference and
the case, the candidate's only the aligned candidate. On a machine with a second core,
a child interpreter (started as soon as the reference is read, importing FreeCAD and
TechDraw meanwhile) draws the reference while the candidate is read and aligned here, reads
the candidate too, then places and draws it once aligned, while shapeIoU, semanticMatch and
dimensionRecall are measured here. The drawing stage then only collects them.

Same inputs, same drawing: the child reads each model as this process did (loading.
scored_shape: the reading of loading.load_model without its checks, made here already), and places the candidate with the alignment's rotation and translation (exact
floats, pickled) by placement.placed, as scoring did: the same shape, bit for bit. A
BREP round trip of the placed shape is not: its location comes back a few 1e-16 off, enough
to print R3.175 as R3.18 instead of R3.17. Then it runs the very functions the stage would
run (stage._drawn, stage._store).

Whatever goes wrong in the child (it dies, it cannot start, an answer is missing) costs
nothing but time: the stage draws that body here, as it did before this module, so a
kernel crash in TechDraw still happens in the scoring process under the stage
'drawingMatch' and is named as before (outcome.py). The child is a fresh interpreter, not
a fork (time_budget.py says why), in the scoring process's group and under its limits
(each process has the memory limit of its own); its standard output goes to /dev/null
(FreeCAD's progress bars) and it answers on a pipe of its own.
"""

import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time

from cadbench_wb.runtime import child_limits, runner
from cadbench_wb.runtime.freecad_env import import_freecad

# CADBENCH_SERIAL_STAGES=1 draws in the scoring process (the baseline of tools/bench_whole_job.py,
# the test that both ways give the same result, campaigns that keep every core busy).
SERIAL_VARIABLE = runner.SERIAL_STAGES
# A test hook, as worker.py's CADBENCH_FAULT: the child aborts before its first drawing.
FAULT = "crash:drawing_ahead"


def wanted(case) -> bool:
    """Whether drawing ahead can pay: a case with targets, a second core, not switched off."""
    if case is None or not case.dimensions or os.environ.get(SERIAL_VARIABLE) == "1":
        return False
    return runner.cores() >= 2


def started(reference, case, options: dict, result: dict):
    """A DrawingsAhead already drawing the reference (unless its drawing is cached), or None
    when drawing ahead does not pay (wanted) or the child cannot start."""
    if not wanted(case):
        return None
    try:
        ahead = DrawingsAhead(case)
    except OSError:
        return None
    from cadbench_wb.app.drawing import stage  # noqa: PLC0415 - heavy: loaded on first use

    cache_dir = stage.reference_cache_dir(reference, case, options, result)
    if not os.path.isfile(os.path.join(cache_dir, "drawing.json")):
        ahead.submit("reference", reference.path, cache_dir=cache_dir)
    ahead.reference_shape = reference.shape
    return ahead


class DrawingsAhead:
    """The child and its jobs: submit() hands one body over, drawn() waits for its answer."""

    def __init__(self, case):
        self.case = case
        self.scratch = tempfile.mkdtemp(prefix="cadbench-ahead-")
        self.submitted, self.answers, self.seconds = [], {}, {}
        self.closed = False
        self.mesh_candidate = False
        self.reference_shape = None  # held as (stage.candidate_hold) the candidate is drawn
        read_end, write_end = os.pipe()
        try:
            self.process = runner.child_interpreter(
                f"from cadbench_wb.app.drawing import ahead; ahead.serve({write_end})",
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(write_end,),
            )
        finally:
            os.close(write_end)
        self.replies = os.fdopen(read_end, "rb")

    def delivered(self, path: str, model=None) -> None:
        """The candidate was read here (model: as loading read it): the child reads it too
        (after drawing the reference), so that it only places and draws it once aligned.
        A mesh candidate is not handed over: drawingMatch does not apply to one
        (its registry line requires a B-rep), and reading and projecting its thousands
        of triangle faces cost the child 33 s of CPU on a 26786-triangle STL."""
        self.mesh_candidate = bool(getattr(model, "from_mesh", False))
        if not self.mesh_candidate:
            self._send("candidate-read", {"role": "candidate", "path": path, "read_only": True})

    def aligned(self, path: str, pose) -> None:
        """Hand the candidate over with its alignment (an alignment.Pose): drawn after the
        reference, placed as scoring placed it."""
        if not self.mesh_candidate:
            from cadbench_wb.app.drawing import stage  # noqa: PLC0415 - heavy: loaded on first use

            hold = (
                None if self.reference_shape is None else stage.candidate_hold(self.reference_shape)
            )
            self.submit("candidate", path, (pose.rotation, pose.translation), hold=hold)

    def submit(
        self, role: str, path: str, placement=None, cache_dir: str | None = None, hold=None
    ) -> None:
        """Hand a model over; the child draws in submission order. hold: how to hold it
        (stage.candidate_hold), else by its own box."""
        order = {
            "role": role,
            "path": path,
            "placement": placement,
            "cache_dir": cache_dir,
            "hold": hold,
        }
        if self._send(role, dict(order, case=self.case)):
            self.submitted.append(role)

    def _send(self, name: str, order: dict) -> bool:
        """Write a job and name it to the child; False when the child is gone (the stage
        then draws this body itself)."""
        job = os.path.join(self.scratch, name)
        os.makedirs(job, exist_ok=True)
        with open(os.path.join(job, "job.pickle"), "wb") as handle:
            pickle.dump(order, handle)
        try:
            self.process.stdin.write((job + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            return False
        return True

    def settled(self) -> dict:
        """Wait for the child's drawing of the reference, if it was handed one: the child
        puts it in the cache, where the stage's reference_stage reads the case's ceiling, so
        that a candidate drawingMatch does not apply to (a mesh: no drawing of its own)
        does not have the reference drawn here again. {timing key: seconds}."""
        started = time.perf_counter()
        while "reference" in self.submitted and "reference" not in self.answers and self._reply():
            pass
        waited = {"drawing_wait": time.perf_counter() - started}
        return waited | {f"drawing_{role}_ahead": s for role, s in self.seconds.items()}

    def drawn(self, role: str, folder: str):
        """The child's drawing of role, its files copied into folder/role, or None (not
        submitted, or the child died first): the caller then draws it itself."""
        while role in self.submitted and role not in self.answers and self._reply():
            pass
        found = self.answers.get(role)
        if found is None:
            return None
        shutil.copytree(
            os.path.join(self.scratch, role, "drawing"),
            os.path.join(folder, role),
            dirs_exist_ok=True,
        )
        return found

    def _reply(self) -> bool:
        """Read the child's next answer; False once it has ended."""
        line = self.replies.readline().decode().strip()
        if not line:
            return False
        job = os.path.join(self.scratch, line)
        try:
            with open(os.path.join(job, "answer.pickle"), "rb") as handle:
                answer = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError):
            answer = None
        if answer is not None:
            self.seconds[line] = answer.pop("seconds")
            self.answers[line] = answer["drawn"]
        else:
            self.answers[line] = None
        return True

    def close(self) -> dict:
        """End the child (once); {timing key: seconds}: the CPU it used in all."""
        if self.closed:
            return {}
        self.closed = True
        self.process.kill()
        try:
            usage = os.wait4(self.process.pid, 0)[2]
            self.process.returncode = -9
            used = {"drawing_child_cpu": usage.ru_utime + usage.ru_stime}
        except ChildProcessError:  # already reaped
            self.process.wait()
            used = {}
        for stream in (self.process.stdin, self.replies):
            try:
                stream.close()
            except OSError:  # a job line still buffered for a child that has died
                pass
        shutil.rmtree(self.scratch, ignore_errors=True)
        return used


def serve(reply_fd: int) -> None:
    """The child's loop: import FreeCAD and TechDraw once, then draw each job named on stdin
    and name it on reply_fd when its answer is written."""
    child_limits.die_with_parent()
    replies = os.fdopen(reply_fd, "w")

    import_freecad()
    import TechDraw  # noqa: F401, PLC0415 - FreeCAD-only

    from cadbench_wb.app.drawing import stage  # noqa: PLC0415 - heavy: loaded on first use

    read = {}  # (role, path): the shape read ahead of its drawing
    for line in sys.stdin:
        job = line.strip()
        if os.environ.get("CADBENCH_FAULT", "").strip() == FAULT:
            os.abort()
        try:
            answered = _draw_job(job, stage, read)
        except Exception:  # no answer file: the stage draws it itself
            answered = True
        if answered:
            replies.write(os.path.basename(job) + "\n")
            replies.flush()


def _draw_job(job: str, stage, read: dict) -> bool:
    """Do one job; False for a read-only one (nobody waits for it)."""
    from cadbench_wb.app.model import loading, placement  # noqa: PLC0415 - at the first job

    with open(os.path.join(job, "job.pickle"), "rb") as handle:
        order = pickle.load(handle)
    key = (order["role"], order["path"])
    shape = read.pop(key, None)
    if shape is None:
        # The scoring process read and checked this file first: only the reading is done
        # again here (loading.scored_shape), to the same shape.
        shape = loading.scored_shape(order["path"], order["role"])
    if order.get("read_only"):
        read[key] = shape
        return False
    if order["placement"] is not None:
        shape = placement.placed(shape, *order["placement"])
    folder = os.path.join(job, "drawing")
    started = time.perf_counter()
    drawn = stage._drawn(shape, folder, order["case"], order["role"], hold=order.get("hold"))
    if order["cache_dir"] and drawn["failure"] is None:
        stage._store(folder, order["cache_dir"], drawn)
    seconds = time.perf_counter() - started
    partial = os.path.join(job, "answer.part")
    with open(partial, "wb") as handle:
        pickle.dump({"drawn": drawn, "seconds": seconds}, handle)
    os.replace(partial, os.path.join(job, "answer.pickle"))
    return True
