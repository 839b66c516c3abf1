# SPDX-License-Identifier: LGPL-2.1-or-later
"""The same jobs on a Dask distributed cluster (``cadbench run --scheduler tcp://HOST:PORT``).

Workers need FreeCAD and cadbench installed (docs/campaigns.md), but no shared file system:
each case's files are sent to the cluster once (scattered) and each candidate's bytes go
with its task. On a Dask worker, each task thread keeps one reused scoring process
(pool.WorkerProcess), so FreeCAD is imported once per thread and a kernel crash takes down
that process, never the Dask worker. A task that the cluster loses (a worker killed, a
connection gone) is NOT CHECKED and retried, like a lost local worker (seed 004); a lost
scheduler, or a cluster whose every worker was lost, ends the run with everything finished
kept (exit 6).
"""

import dataclasses
import os
import tempfile
import threading
import time

from cadbench_wb.campaign import pool, store
from cadbench_wb.errors import FreeCADUnavailable, UsageError
from cadbench_wb.runtime import outcome

# Case files that are candidates of earlier rounds, not part of what scoring reads.
SKIPPED_CASE_FOLDERS = ("candidates",)
CONNECT_TIMEOUT_S = 20
# A scheduler the client cannot reach for this long is lost: the run ends (exit 6) instead
# of waiting for ever; each poll for finished tasks waits at most POLL_S. So is a cluster
# with no worker left for WORKERS_LOST_S (its last worker died): the scheduler keeps the
# tasks pending for ever, for a worker that may never come.
SCHEDULER_LOST_S = 30
WORKERS_LOST_S = 30
POLL_S = 1.0

_local = threading.local()


def case_bundle(case_dir: str) -> dict:
    """{relative path: bytes} of a case folder (its candidates/ folder left out)."""
    bundle = {}
    for root, dirs, files in os.walk(case_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_CASE_FOLDERS)
        for name in sorted(files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, case_dir).replace(os.sep, "/")
            with open(path, "rb") as handle:
                bundle[rel] = handle.read()
    return bundle


def _written(bundle: dict, folder: str) -> str:
    for rel, data in bundle.items():
        path = os.path.join(folder, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    return folder


def _thread_worker(memory_mb: int) -> pool.WorkerProcess:
    worker = getattr(_local, "worker", None)
    if worker is None or worker.process.poll() is not None or worker.memory_mb != memory_mb:
        if worker is not None:
            worker.close()
        worker = _local.worker = pool.WorkerProcess(memory_mb)
    return worker


def score_shipped(
    bundle: dict,
    case_name: str,
    candidate_name: str,
    candidate: bytes | None,
    payload: dict,
    reference_in_case: str,
    timeout: float,
    memory_mb: int,
) -> dict:
    """Runs on a Dask worker: write the case and the candidate to a scratch folder, score
    them in this thread's reused scoring process, and return the campaign outcome with the
    scratch paths replaced by the store's tokens."""
    with tempfile.TemporaryDirectory(prefix="cadbench-dask-") as scratch:
        case_dir = _written(bundle, os.path.join(scratch, case_name))
        candidate_path = os.path.join(scratch, "candidate", candidate_name)
        os.makedirs(os.path.dirname(candidate_path))
        if candidate is not None:  # None: nothing was delivered (missing_candidate)
            with open(candidate_path, "wb") as handle:
                handle.write(candidate)
        code = payload.get("code") or {}
        if code.get("model_bytes") is not None:
            model = os.path.join(scratch, "model", os.path.basename(code["model"]))
            os.makedirs(os.path.dirname(model))
            with open(model, "wb") as handle:
                handle.write(code["model_bytes"])
            code = {k: v for k, v in code.items() if k != "model_bytes"}
            payload = dict(payload, code=dict(code, model=model))
        job = dataclasses.replace(
            outcome.Job.of(payload),
            reference=os.path.join(case_dir, reference_in_case),
            candidate=candidate_path,
            case=case_dir,
        )
        worker = _thread_worker(memory_mb)
        started = time.monotonic()
        answer, replace = worker.score(job, timeout)
        answer["seconds"] = time.monotonic() - started
        if replace:
            worker.close()
            _local.worker = None
        if "result" in answer:
            answer["result"] = store.tokenized(answer["result"], case_dir, candidate_path)
        return answer


def client_of(address: str, timeout: float = CONNECT_TIMEOUT_S):
    """A Dask client of the scheduler at address; UsageError when it cannot be reached."""
    try:
        from distributed import Client  # noqa: PLC0415 - optional: its absence is handled here
    except ImportError as exc:  # optional: not on FreeCAD's Addon Manager allow-list
        raise UsageError(
            f"--scheduler needs dask[distributed] ({exc}): pip install 'dask[distributed]>=2024.1'"
            ", or leave out --scheduler to run on the local process pool"
        ) from None

    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def run_on_cluster(address: str, jobs: list, timeout: float, memory_mb: int, on_done, on_tick):
    """Score every job on the cluster; on_done(job, outcome) once per job, like LocalPool."""
    client = client_of(address)  # first: it says what to install when dask is missing
    bundles, futures = {}, {}

    def submit(job):
        case = job.case
        if case.path not in bundles:
            # In a list: a dict given to scatter becomes one future per *key*, and every
            # case has a "case.yaml" - the cases would overwrite one another on the cluster.
            bundles[case.path] = client.scatter([case_bundle(case.path)], hash=False)[0]
        data = None
        if os.path.exists(job.payload.candidate):
            with open(job.payload.candidate, "rb") as handle:
                data = handle.read()
        payload = job.payload.as_dict()
        model = (payload.get("code") or {}).get("model")
        if model:  # a code submission: the model its script made travels with it
            with open(model, "rb") as handle:
                payload["code"] = dict(payload["code"], model_bytes=handle.read())
        future = client.submit(
            score_shipped,
            bundles[case.path],
            os.path.basename(case.path),
            os.path.basename(job.payload.candidate),
            data,
            payload,
            os.path.relpath(job.payload.reference, case.path),
            timeout,
            memory_mb,
            pure=False,
            retries=0,
            key=f"cadbench-score-{job.key[:20]}-{job.attempts}",
        )
        futures[future] = job
        return future

    try:
        for job in jobs:
            submit(job)
        lost_since = workers_gone_since = None
        while futures:
            done = _finished(list(futures))
            if client.status == "running":
                lost_since = None
            else:
                lost_since = lost_since or time.monotonic()
                if time.monotonic() - lost_since > SCHEDULER_LOST_S:
                    _give_up(futures, on_done, _scheduler_lost(address))
                    break
            if done or _workers(client) != 0:
                workers_gone_since = None
            else:
                workers_gone_since = workers_gone_since or time.monotonic()
                if time.monotonic() - workers_gone_since > WORKERS_LOST_S:
                    _give_up(futures, on_done, _workers_lost(address))
                    break
            for future in done:
                job = futures.pop(future)
                job.started = 0.0
                try:
                    outcome = future.result()
                except FreeCADUnavailable as exc:
                    raise FreeCADUnavailable(
                        f"on a Dask worker ({exc}): every worker needs FreeCAD and cadbench "
                        "installed"
                    ) from None
                except Exception as exc:  # what the cluster lost is not the candidate's
                    outcome = pool.not_checked(
                        "worker_lost",
                        f"the cluster lost the task: {type(exc).__name__}: {exc}",
                        status=pool.LOST,
                    )
                job.attempts += 1
                if outcome["status"] == pool.LOST and job.attempts <= pool.RETRIES:
                    try:
                        submit(job)
                    except Exception as exc:  # the scheduler is going away
                        on_done(job, pool.not_checked("worker_lost", str(exc), pool.LOST))
                else:
                    on_done(job, outcome)
                on_tick()
            on_tick()
    finally:
        client.close(timeout=CONNECT_TIMEOUT_S)


def _finished(futures: list) -> list:
    """The futures that finished within one poll (none when the scheduler cannot answer)."""
    from distributed import wait  # noqa: PLC0415 - heavy: loaded on first use

    try:
        return list(wait(futures, timeout=POLL_S, return_when="FIRST_COMPLETED").done)
    except Exception:  # a timeout, or a scheduler gone: polled again
        return []


def _workers(client) -> int | None:
    """How many workers the scheduler has now; None when it cannot say (then the lost
    scheduler's own timer decides)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # a scheduler going away answers nothing
        return None


def _scheduler_lost(address: str) -> str:
    return (
        f"the Dask scheduler at {address} was lost mid-run (unreachable for more than "
        f"{SCHEDULER_LOST_S} s); finished scorings are kept: run the same command again"
    )


def _workers_lost(address: str) -> str:
    return (
        f"the Dask scheduler at {address} has had no worker for more than {WORKERS_LOST_S} s "
        "(every worker of the run was lost); finished scorings are kept: start workers and "
        "run the same command again"
    )


def _give_up(futures: dict, on_done, detail: str) -> None:
    """The cluster cannot score (its scheduler unreachable past SCHEDULER_LOST_S, or no
    worker left past WORKERS_LOST_S): every job still out is NOT CHECKED (lost; what
    finished is in the store already) and the run ends, exit 6."""
    for job in futures.values():
        job.attempts = max(job.attempts, pool.RETRIES) + 1
        on_done(job, pool.not_checked("worker_lost", detail, status=pool.LOST))
    futures.clear()
