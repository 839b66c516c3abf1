# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reused scoring processes with a time limit per job and a memory limit per process.

Starting Python and importing FreeCAD costs far more than scoring a small part, so each
worker process (worker_process.py) scores many jobs. Isolation is kept per job: a job that
crashes, hangs or exhausts memory while its candidate is handled becomes that candidate's
delivery failure (timeout, evaluator_error: a file must not escape a FAIL by breaking the
scorer) and the worker is replaced; a worker ended from outside (killed by someone else)
leaves the job NOT CHECKED and it is retried (seed 004: up to three times). The verdict on
every ending is runner.settled's (outcome.py), the same as for `cadbench score`.
"""

import collections
import dataclasses
import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
import weakref

from cadbench_wb import standard
from cadbench_wb.errors import FreeCADUnavailable, WorkerLost
from cadbench_wb.runtime import memory_use, outcome, runner

# Seed 004: a case whose scorer was lost is retried up to three times, then NOT CHECKED.
RETRIES = 3
# A reused worker is recycled after this many jobs, or when it holds more than this share
# of its memory limit, so that what the kernel leaks never turns into a candidate's failure.
JOBS_PER_WORKER = 200
RECYCLE_MEMORY_SHARE = 0.5
# A worker must import FreeCAD and be ready within this many seconds.
START_TIMEOUT_S = 120
# Consecutive workers that die before becoming ready: the scorer cannot start at all.
START_FAILURES = 3
# Outcome statuses.
SCORED, LOST, NOT_CHECKED = "scored", "lost", "not_checked"


@dataclasses.dataclass
class Job:
    """One scoring to do: key (store key), payload (the outcome.Job the child runs; a job
    dict is read into one), attempts so far, and what the campaign needs to file its result
    (the case, content hashes)."""

    key: str
    payload: outcome.Job
    attempts: int = 0
    started: float = 0.0
    case: object = None
    case_hash: str = ""
    candidate_hash: str = ""

    def __post_init__(self):
        self.payload = outcome.Job.of(self.payload)


def scored(result: dict) -> dict:
    return {"status": SCORED, "result": result}


def not_checked(reason: str, detail: str, status: str = NOT_CHECKED) -> dict:
    return {"status": status, "reason": reason, "detail": detail}


def campaign_outcome(settled: outcome.Outcome) -> dict:
    """A campaign's record of an outcome (runner.settled's, as every front door reads it):
    a result is scored (the candidate's own failures included); a named failure is NOT
    CHECKED, and a lost worker is retried (LOST). A scorer that cannot start at all stops
    the campaign (FreeCADUnavailable is raised)."""
    error = settled.error
    if error is None:
        return scored(settled.value)
    if isinstance(error, FreeCADUnavailable):
        raise error
    status = LOST if isinstance(error, WorkerLost) else NOT_CHECKED
    return not_checked(error.reason, error.detail, status)


class WorkerProcess:
    """One long-lived scoring child and the state of the job it is handling."""

    def __init__(self, memory_mb: int = standard.DEFAULT_MEMORY_MB, env: dict | None = None):
        # Never above the hard limit this process inherited (memory_use.fitted_mb): a
        # prlimit above it fails, and the worker would run unlimited-looking at that limit.
        self.memory_mb = memory_use.fitted_mb(memory_mb)[0]
        self.folder = tempfile.mkdtemp(prefix="cadbench-worker-")
        # The folder goes with the worker even when close() is never called: a Dask task
        # thread's worker lives in thread-local storage and is dropped when the Dask worker
        # ends its threads; at interpreter exit at the latest.
        self._remove_folder = weakref.finalize(self, shutil.rmtree, self.folder, True)
        self.stage_path = os.path.join(self.folder, "stage.txt")
        self.log_path = os.path.join(self.folder, "log.txt")
        self.ready = False
        self.job = None  # the Job in hand, or None when idle
        self.deadline = None
        self.timeout = None
        self.jobs_done = 0
        self._buffer = b""
        self._log_offset = 0
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [
                    runner.python_for_children(),
                    "-m",
                    "cadbench_wb.campaign.worker_process",
                    self.stage_path,
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                env=env or runner.child_environment(),
                start_new_session=True,  # a kill of its group takes no one else with it
            )
        self._limit_memory()
        os.set_blocking(self.process.stdout.fileno(), False)
        self.started = time.monotonic()

    @property
    def pid(self) -> int:
        return self.process.pid

    def fileno(self) -> int:
        return self.process.stdout.fileno()

    def _limit_memory(self) -> None:
        if not self.memory_mb:
            return
        try:
            import resource  # noqa: PLC0415 - optional: its absence is handled here

            limit = self.memory_mb * 1024 * 1024
            resource.prlimit(self.process.pid, resource.RLIMIT_AS, (limit, limit))
        except (ImportError, AttributeError, ProcessLookupError, OSError):
            pass  # not Linux, or already gone: the death is handled like any other

    def dispatch(self, job: Job, timeout: float) -> None:
        """Hand a job over; the stage reads 'start' until the child writes its own."""
        outcome.Stage().write(self.stage_path)
        self._log_offset = os.path.getsize(self.log_path)
        self.job, self.timeout = job, timeout
        job.started = time.monotonic()
        self.deadline = job.started + timeout
        try:
            self.process.stdin.write((json.dumps(job.payload.as_dict()) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # it died already: the next read sees end of file

    def messages(self) -> list[dict] | None:
        """The complete messages waiting on the channel; None at end of file (it died)."""
        try:
            chunk = os.read(self.fileno(), 1 << 20)
        except BlockingIOError:
            return []
        if not chunk:
            return None
        self._buffer += chunk
        lines = self._buffer.split(b"\n")
        self._buffer = lines.pop()
        return [json.loads(line) for line in lines if line.strip()]

    def limits(self) -> outcome.Limits:
        return outcome.Limits(self.timeout, self.memory_mb)

    def outcome_of(self, answer: dict) -> tuple[Job, dict, bool]:
        """(job, campaign outcome, replace this worker?) of a job the worker answered."""
        job = self.job
        self.job, self.deadline = None, None
        self.jobs_done += 1
        ending = outcome.Ending(outcome.Stage.read(self.stage_path), answer)
        exhausted = (answer.get("error") or {}).get("reason") == "memory"
        settled = runner.settled(job.payload, self.limits(), ending)
        # A worker that ran out of memory is replaced: what it holds is not to be trusted.
        return job, campaign_outcome(settled), exhausted or self._worn_out()

    def death(self, timed_out: bool) -> tuple[Job, dict]:
        """(job, outcome) of the job in hand when the worker died or was stopped for time."""
        job = self.job
        self.kill()
        log = runner.read_text(self.log_path)[self._log_offset :]
        log_tail = log[-400:].strip().replace("\n", " | ")
        self.job, self.deadline = None, None
        ending = outcome.Ending(
            outcome.Stage.read(self.stage_path), None, self.process.returncode, timed_out,
            log_tail, outcome.last_words(log),
        )  # fmt: skip
        return job, campaign_outcome(runner.settled(job.payload, self.limits(), ending))

    def _worn_out(self) -> bool:
        if self.jobs_done >= JOBS_PER_WORKER:
            return True
        if not self.memory_mb:
            return False
        # A worker whose peak address space neared its limit is replaced too: the next job's
        # read failure would otherwise be taken for memory exhaustion (memory_use.py).
        return _resident_mb(self.pid) > RECYCLE_MEMORY_SHARE * self.memory_mb or (
            memory_use.near_limit(memory_use.peak_mb(self.pid), self.memory_mb)
        )

    def cannot_start(self, why: str) -> str:
        limit = f" under a {self.memory_mb} MB memory limit" if self.memory_mb else ""
        return f"the scoring worker could not start{limit}: {why}"

    def startup_problem(self) -> str:
        log_tail = runner.read_text(self.log_path)[-400:].strip().replace("\n", " | ")
        return log_tail or f"exit status {self.process.returncode}"

    def kill(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        self.process.wait()

    def close(self) -> None:
        """End the worker (a polite end of input first, then a kill) and remove its folder."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
        self.process.stdout.close()
        self._remove_folder()

    def score(self, payload, timeout: float) -> tuple[dict, bool]:
        """One job, blocking (the Dask task's way in): (outcome, replace this worker?).
        Waits for the worker to be ready; raises FreeCADUnavailable if it cannot start."""
        self.wait_ready()
        self.dispatch(Job("", payload), timeout)
        with selectors.DefaultSelector() as selector:
            selector.register(self.fileno(), selectors.EVENT_READ)
            while True:
                remaining = self.deadline - time.monotonic()
                if remaining <= 0:
                    return self.death(timed_out=True)[1], True
                selector.select(remaining)
                messages = self.messages()
                if messages is None:
                    return self.death(timed_out=False)[1], True
                for message in messages:
                    if "outcome" in message:
                        _job, answered, replace = self.outcome_of(message["outcome"])
                        return answered, replace

    def wait_ready(self) -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(self.fileno(), selectors.EVENT_READ)
            while not self.ready:
                remaining = self.started + START_TIMEOUT_S - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    raise FreeCADUnavailable(
                        f"the scoring worker did not start within {START_TIMEOUT_S} s"
                    )
                selector.select(remaining)
                messages = self.messages()
                if messages is None:
                    self.process.wait()
                    raise FreeCADUnavailable(self.cannot_start(self.startup_problem()))
                for message in messages:
                    self.note_startup(message)

    def note_startup(self, message: dict) -> None:
        if "fatal" in message:
            self.kill()
            raise FreeCADUnavailable(self.cannot_start(message["fatal"]))
        if "ready" in message:
            self.ready = True


class LocalPool:
    """N reused worker processes on this machine, fed from a queue of jobs."""

    def __init__(
        self,
        workers: int,
        timeout: float = standard.DEFAULT_TIMEOUT_S,
        memory_mb: int = standard.DEFAULT_MEMORY_MB,
        env: dict | None = None,
    ):
        self.size = max(1, workers)
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.env = env
        self.workers: list[WorkerProcess] = []
        self.started_workers = 0
        self._selector = None
        self._failed_starts = 0

    def run(self, jobs: list[Job], on_done, on_tick=lambda: None) -> None:
        """Score every job; on_done(job, outcome) once per job with its final outcome (a lost
        job is retried RETRIES times before its NOT CHECKED outcome is reported)."""
        queue = collections.deque(jobs)
        self._selector = selectors.DefaultSelector()
        try:
            while queue or self._busy():
                while len(self.workers) < min(self.size, len(queue) + self._busy()):
                    self._spawn()
                for worker in self.workers:
                    if worker.ready and worker.job is None and queue:
                        worker.dispatch(queue.popleft(), self.timeout)
                for worker, job, outcome, replace in self._events():
                    if job is not None:
                        job.attempts += 1
                        if outcome["status"] == LOST and job.attempts <= RETRIES:
                            queue.append(job)
                        else:
                            on_done(job, outcome)
                    if replace:
                        self._retire(worker)
                on_tick()
        finally:
            self.close()

    def _events(self) -> list[tuple]:
        """(worker, job or None, outcome or None, replace?) for what happened in one wait."""
        deadlines = [w.deadline for w in self.workers if w.deadline]
        wait = min([0.5] + [d - time.monotonic() for d in deadlines])
        happened = []
        for key, _ in self._selector.select(max(0.0, wait)):
            worker = key.data
            messages = worker.messages()
            if messages is None:  # end of file: the worker died
                worker.process.wait()
                if worker.job is not None:
                    happened.append((worker, *worker.death(timed_out=False), True))
                else:
                    self._count_failed_start(worker)
                    happened.append((worker, None, None, True))
                continue
            for message in messages:
                worker.note_startup(message)
                if "ready" in message:
                    self._failed_starts = 0
                if "outcome" in message:
                    happened.append((worker, *worker.outcome_of(message["outcome"])))
        now = time.monotonic()
        for worker in self.workers:
            if worker.deadline and now > worker.deadline and worker.job is not None:
                happened.append((worker, *worker.death(timed_out=True), True))
            elif not worker.ready and now - worker.started > START_TIMEOUT_S:
                raise FreeCADUnavailable(
                    f"the scoring worker did not start within {START_TIMEOUT_S} s"
                )
        return happened

    def _busy(self) -> int:
        return sum(1 for w in self.workers if w.job is not None)

    def _spawn(self) -> None:
        env = runner.stages_serial_when_saturated(self.env or runner.child_environment(), self.size)
        worker = WorkerProcess(self.memory_mb, env)
        self.workers.append(worker)
        self._selector.register(worker.fileno(), selectors.EVENT_READ, worker)
        self.started_workers += 1

    def _retire(self, worker: WorkerProcess) -> None:
        if worker in self.workers:
            self._selector.unregister(worker.fileno())
            self.workers.remove(worker)
            worker.close()

    def _count_failed_start(self, worker: WorkerProcess) -> None:
        if worker.ready:
            return  # lost while idle: nothing in hand, it is simply replaced
        self._failed_starts += 1
        if self._failed_starts >= START_FAILURES:
            raise FreeCADUnavailable(worker.cannot_start(worker.startup_problem()))

    def close(self) -> None:
        for worker in self.workers:
            worker.close()
        self.workers = []
        if self._selector is not None:
            self._selector.close()


def _resident_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            pages = int(handle.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    except (OSError, ValueError, IndexError):
        return 0.0
