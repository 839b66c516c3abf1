# SPDX-License-Identifier: LGPL-2.1-or-later
"""A campaign from folders to figures: plan the scorings, score what the store lacks (here
or on a Dask cluster), then turn every system x run x case into a row of the reports.

The standard is fixed when the campaign is planned: its fingerprints are computed once, key
the store, and stamp the reports. A score that comes back under another fingerprint (the
scoring code changed while the campaign ran) is not mixed in: it is NOT CHECKED until the
campaign is run again under one standard.
"""

import collections
import contextlib
import dataclasses
import datetime
import errno
import os
import socket
import sqlite3
import sys
import time

from cadbench_wb import standard
from cadbench_wb.campaign import distributed, field, figures, layout, manifest, pool, store
from cadbench_wb.campaign import progress as progress_mod
from cadbench_wb.case_model import cases as cases_mod
from cadbench_wb.code import jobs as code_jobs
from cadbench_wb.errors import CampaignBusy, OutputUnwritable, UsageError
from cadbench_wb.results import result as results
from cadbench_wb.results.fingerprint import drawing_fingerprint, metric_fingerprint
from cadbench_wb.runtime import memory_use, outcome

SCHEMA = "cadbench.campaign/1"
STORE_FILE = "campaign.sqlite"
LOCK_FILE = "campaign.lock"


@dataclasses.dataclass
class Settings:
    cases_dir: str
    submissions_dir: str
    out_dir: str
    workers: int = 0  # 0: one per CPU core
    scheduler: str | None = None
    timeout: float = standard.DEFAULT_TIMEOUT_S
    memory_mb: int = standard.DEFAULT_MEMORY_MB
    options: dict = dataclasses.field(default_factory=dict)  # only / spectrum / no_align
    accept_smaller_case_set: bool = False
    progress_stream: object = None
    # Code submissions (code/jobs.py settings_of): dialect, trust_code, timeout, memory_mb.
    code: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Planned:
    """One system x run x case: its submission, case, and store key."""

    submission: layout.Submission
    case: object
    key: str | None  # None when it cannot be scored at all
    unchecked: dict | None = None  # then: why (a missing reference)


@dataclasses.dataclass
class Plan:
    cases: list
    layout: layout.Layout
    scorings: list  # Planned, in report order
    jobs: dict  # key -> pool.Job, one per distinct (case, candidate bytes)
    stamps: dict  # the fingerprints the scores depend on (they key the store)


def stamps_of(options: dict) -> dict:
    """The fingerprints of the code and standard a score depends on: the metric chain's, and
    the drawing chain's where drawings are scored."""
    stamps = {"metricFingerprint": metric_fingerprint(options)}
    if "drawingMatch" in results.requested_metrics(options.get("only")):
        stamps["drawingFingerprint"] = drawing_fingerprint(options)
    return stamps


def plan(settings: Settings) -> Plan:
    """What the campaign scores; raises on a shrunk case set or a broken layout."""
    cases = cases_mod.discover_cases(settings.cases_dir)
    if not cases:
        raise UsageError(f"{settings.cases_dir}: no cases (cases/<id>/case.yaml) found")
    found = layout.discover(settings.submissions_dir, [c.id for c in cases])
    manifest.checked_manifest(settings.out_dir, cases, settings.accept_smaller_case_set)
    options = settings.options
    stamps = stamps_of(options)
    by_id = {c.id: c for c in cases}
    case_hashes = {c.id: store.case_sha256(c) for c in cases}
    case_data = {c.id: outcome.case_data_of(c) for c in cases}  # validated once, here
    scorings, jobs = [], {}
    for submission in found.submissions:
        case = by_id[submission.case_id]
        if not os.path.isfile(case.reference_path):
            detail = f"reference {case.reference} of case {case.id} does not exist (build it)"
            unchecked = {"reason": "reference_invalid", "detail": detail}
            scorings.append(Planned(submission, case, None, unchecked))
            continue
        if submission.path is None:
            # Scored like any delivery (the scorer names it missing_candidate), so that it
            # carries the case's ceilings and applicability as every other failure does.
            path = os.path.join(found.root, submission.system, submission.run, case.id)
            fmt, candidate_hash = "none", "missing"
        elif submission.refused:
            # Refused unread (a link out of the system's folder): keyed by the refusal and
            # the path it names, never by the bytes it points at.
            path = submission.path
            refusal = submission.refused["reason"] + ":" + results.text_digest(path)
            fmt, candidate_hash = store.candidate_format(path), refusal
        else:
            path = submission.path
            # A file the scorer may not read is scored (unreadable_file with the OS's reason
            # from the worker), keyed by its path: input_checks never opens a FIFO here.
            digest = results.file_digest(path) or "unreadable:" + results.text_digest(path)
            fmt, candidate_hash = store.candidate_format(path), digest
            if code_jobs.dialects.is_code(path):  # its score depends on how it was run too
                fmt, candidate_hash = "code", f"{digest}:{code_jobs.code_stamp(settings.code)}"
        key = store.score_key(case_hashes[case.id], candidate_hash, fmt, options, stamps)
        scorings.append(Planned(submission, case, key))
        if key not in jobs:
            params = {"refused": submission.refused} if submission.refused else {}
            payload = outcome.Job(
                "score", case.reference_path, path, outcome.Options.from_dict(options), case.path,
                case_data=case_data[case.id], params=params,
            )  # fmt: skip
            jobs[key] = pool.Job(
                key, payload, case=case, case_hash=case_hashes[case.id],
                candidate_hash=candidate_hash,
            )  # fmt: skip
    return Plan(cases, found, scorings, jobs, stamps)


def longest_first(jobs: list) -> list:
    """Big candidates first (they take longest), so that two workers never end with one
    long job running alone while the other idles; the order never changes a figure."""

    def size(job):
        path = job.payload.candidate
        return os.path.getsize(path) if os.path.exists(path) else 0

    return sorted(jobs, key=lambda j: (-size(j), j.key))


def _standard_changed(result: dict, stamps: dict) -> str | None:
    got, expected = result.get("metricFingerprint"), stamps["metricFingerprint"]
    if got is not None and got != expected:
        return (
            f"scored under metricFingerprint {got}, but the campaign runs under {expected}: "
            "the scoring code or standard changed while the campaign ran; run it again"
        )
    return None


def scorings_per_job(the_plan: Plan) -> collections.Counter:
    """{job key: how many scorings its answer settles} (deliveries of the same bytes, and a
    case's missing deliveries, share one job)."""
    return collections.Counter(p.key for p in the_plan.scorings if p.key)


def execute(settings: Settings, the_plan: Plan, jobs: list, score_store, progress) -> dict:
    """Score the jobs; every finished score is committed as it arrives. Returns the
    NOT CHECKED outcomes of this run by key, and seconds per job."""
    unchecked, seconds = {}, {}
    # The scorings each job settles (deliveries of the same bytes share one job): the
    # progress counts those, as the summary does.
    scorings = scorings_per_job(the_plan)

    def on_done(job, outcome):
        elapsed = outcome.get("seconds")
        if elapsed is None and job.started:
            elapsed = time.monotonic() - job.started
        if outcome["status"] == pool.SCORED:
            changed = _standard_changed(outcome["result"], the_plan.stamps)
            if changed:
                outcome = pool.not_checked("standard_changed", changed)
            else:
                changed = store.candidate_change(job.candidate_hash, outcome["result"])
                if changed:
                    outcome = pool.not_checked("candidate_changed", changed)
        if outcome["status"] == pool.SCORED:
            result = dict(outcome["result"])
            result.pop("timing", None)
            result = store.tokenized(result, job.case.path, job.payload.candidate)
            score_store.put(
                job.key, job.case.id, job.case_hash, job.candidate_hash, result, elapsed,
                job.attempts,
            )  # fmt: skip
            seconds[job.key] = elapsed
            progress.done(result["delivered"], scorings[job.key] or 1)
            return
        info = {"reason": outcome["reason"], "detail": outcome["detail"]}
        unchecked[job.key] = info
        score_store.note_unchecked(
            job.key, job.case.id, info["reason"], info["detail"], job.attempts
        )
        progress.done(None, scorings[job.key] or 1)

    jobs = longest_first(jobs)
    if not settings.scheduler:
        _memory_mb, clamped = memory_use.fitted_mb(settings.memory_mb)  # a UsageError first
        if clamped:
            print(f"cadbench run: {clamped}", file=settings.progress_stream or sys.stderr)
    if settings.scheduler:
        distributed.run_on_cluster(
            settings.scheduler, jobs, settings.timeout, settings.memory_mb, on_done, progress.show
        )
    else:
        workers = settings.workers or os.cpu_count() or 1
        pool.LocalPool(workers, settings.timeout, settings.memory_mb).run(
            jobs, on_done, progress.show
        )
    if stamps_of(settings.options) != the_plan.stamps:
        # The code changed under the running campaign: what was scored now may be either
        # standard, so none of it is kept (the next run plans under the new one).
        detail = "the scoring code or standard changed while the campaign ran; run it again"
        score_store.delete(list(seconds))
        for key in seconds:
            unchecked[key] = {"reason": "standard_changed", "detail": detail}
        seconds = {}
    return {"unchecked": unchecked, "seconds": seconds}


def rows_of(the_plan: Plan, score_store, unchecked, settings) -> tuple[list, list]:
    """(rows, full results) in report order; a full result is None where nothing was scored."""
    cases_root = os.path.abspath(settings.cases_dir)
    rows, full = [], []
    for item in the_plan.scorings:
        case, submission = item.case, item.submission
        case_name = os.path.relpath(case.path, cases_root).replace(os.sep, "/")
        result = score_store.get(item.key) if item.key else None
        if result is not None:
            result = store.detokenized(result, case_name, submission.name)
        info = item.unchecked or unchecked.get(item.key)
        rows.append(figures.row_of(submission, case, result, info))
        full.append(result)
    return rows, full


def document_of(settings: Settings, the_plan: Plan, rows: list) -> dict:
    """results.json: everything but timings, in a fixed order, so that the same inputs give
    the same bytes however often the campaign was interrupted."""
    cases, found = the_plan.cases, the_plan.layout
    counts = manifest.manifest_of(cases)
    # The drawing chain stamps its results itself; report that stamp when they carry one.
    drawn = sorted({r["drawingFingerprint"] for r in rows if r.get("drawingFingerprint")})
    return {
        "schema": SCHEMA,
        "metricFingerprint": the_plan.stamps["metricFingerprint"],
        "drawingFingerprint": drawn[0]
        if len(drawn) == 1
        else drawing_fingerprint(settings.options),
        "options": settings.options,
        "thresholds": dict(sorted(standard.THRESHOLDS.items())),
        "metrics": figures.rows_metrics(rows),
        "campaign": {
            "cases": counts["cases"],
            "groups": counts["counts"],
            "anchoringCases": sorted(c.id for c in cases if c.anchoring),
            "systems": found.systems,
            "scorings": len(rows),
            "unmatchedFiles": found.unmatched,
            "ignoredFiles": found.ignored,
        },
        "cases": [
            {
                "id": c.id,
                "title": c.title,
                "group": manifest.group_of(c),
                "anchoring": c.anchoring,
                "sha256": store.case_sha256(c),
            }
            for c in cases
        ],
        "summary": figures.campaign_summary(rows),
        "fieldFigures": field.campaign_field_figures(
            rows, settings.timeout, code_jobs.limits_of(settings.code).timeout
        ),
        "scorings": rows,
    }


def run_campaign(settings: Settings) -> dict:
    """Plan, score what is missing, write the reports; returns the results document plus
    'stats' (this run's counts and timings, which results.json leaves out). One run at a
    time per campaign folder (campaign_lock)."""
    try:
        os.makedirs(settings.out_dir, exist_ok=True)
        with campaign_lock(settings.out_dir):
            return _run_locked(settings)
    except (sqlite3.OperationalError, OSError) as exc:
        why = unwritable_reason(exc)
        if why is None:
            raise
        raise OutputUnwritable(
            f"{settings.out_dir}: the campaign folder cannot be written ({why}); every score "
            "finished before is kept in its store: make room and run the same command again"
        ) from None


# What a write into the campaign folder fails with when the folder cannot take it: a full
# disk, a quota, a file-size limit (ulimit -f), a read-only file system.
_UNWRITABLE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}


def unwritable_reason(exc: Exception) -> str | None:
    """The OS's or SQLite's words when exc says the output cannot be written, else None."""
    if isinstance(exc, sqlite3.OperationalError):
        text = str(exc)
        return None if "locked" in text else f"SQLite: {text}"
    if isinstance(exc, OSError) and exc.errno in _UNWRITABLE_ERRNOS:
        return exc.strerror or os.strerror(exc.errno)
    return None


@contextlib.contextmanager
def campaign_lock(out_dir: str):
    """Hold the campaign folder's lock (flock on LOCK_FILE) for the run; a second run on the
    same --out is refused at once with CampaignBusy naming the holder, rather than waiting
    (it would then only redo the first run's work). The kernel drops the lock when its
    holder dies, so a kill -9 never leaves the folder locked."""
    import fcntl  # noqa: PLC0415 - Unix-only

    path = os.path.join(out_dir, LOCK_FILE)
    handle = open(path, "a+", encoding="utf-8")  # held for the whole run
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise CampaignBusy(
                f"{out_dir}: another `cadbench run` ({holder}) is scoring into this folder; "
                "wait for it to end, or give another --out"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()} on {socket.gethostname()}\n")
        handle.flush()
        yield
    finally:
        handle.close()


EXECUTED_DIR = "executed"


def _executed(settings: Settings, pending: list) -> int:
    """Run the pending code submissions' scripts in the sandbox (those the campaign folder
    has not kept the model of) and give their jobs the model to score; how many ran now."""
    payloads, executed_now = code_jobs.prepared_all(
        [job.payload for job in pending],
        settings.code,
        os.path.join(settings.out_dir, EXECUTED_DIR),
        settings.workers or os.cpu_count() or 1,
    )
    for job, payload in zip(pending, payloads, strict=True):
        job.payload = payload
    return executed_now


def _run_locked(settings: Settings) -> dict:
    from cadbench_wb.campaign import reports  # noqa: PLC0415 - heavy: loaded on first use

    started = time.monotonic()
    run_timestamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    the_plan = plan(settings)
    score_store = store.Store(os.path.join(settings.out_dir, STORE_FILE))
    try:
        stored = score_store.keys()
        pending = [job for key, job in the_plan.jobs.items() if key not in stored]
        from_store = sum(1 for p in the_plan.scorings if p.key in stored)
        # Scorings, not jobs: the counter and the summary count the same rows.
        per_job = scorings_per_job(the_plan)
        to_score = sum(per_job[job.key] for job in pending)
        progress = progress_mod.Progress(
            len(the_plan.scorings), from_store, to_score, settings.progress_stream or sys.stderr
        )
        scoring_started = time.monotonic()
        executed_now = _executed(settings, pending)
        outcome = execute(settings, the_plan, pending, score_store, progress) if pending else {}
        scoring_seconds = time.monotonic() - scoring_started
        progress.finish()
        rows, full = rows_of(the_plan, score_store, outcome.get("unchecked", {}), settings)
        document = document_of(settings, the_plan, rows)
        run_info = {
            "timestamp": run_timestamp,
            "hostname": socket.gethostname(),
            # Each scoring's own seconds as stored when it was scored (this run or an
            # earlier one): the same figure whichever run wrote the report.
            "seconds": [score_store.seconds(p.key) if p.key else None for p in the_plan.scorings],
        }
        stats = {
            "scoredNow": len(pending),
            "fromStore": from_store,
            "jobs": len(the_plan.jobs),
            "wallSeconds": round(time.monotonic() - started, 3),
            "scoringSeconds": round(scoring_seconds, 3),
            "workers": settings.workers or os.cpu_count() or 1,
            "scheduler": settings.scheduler,
            "codeExecutedNow": executed_now,
            # The scripts' own seconds in the sandbox (kept with the model: the same on a rerun).
            "codeSecondsPerJob": {
                job.key: job.payload.code["codeSeconds"]
                for job in pending
                if job.payload.code and job.payload.code.get("codeSeconds") is not None
            },
            "secondsPerJob": {
                k: round(v, 4) for k, v in sorted(outcome.get("seconds", {}).items()) if v
            },
        }
        reports.write_reports(settings.out_dir, document, stats, full, run_info)
    finally:
        score_store.close()
    document["stats"] = stats
    return document
