# SPDX-License-Identifier: LGPL-2.1-or-later
"""The drawingMatch stage: a TechDraw drawing of each body, read back by what it prints.

Writes ``drawingMatch`` (share of the case's target dimensions the candidate's drawing
displays), ``drawingSelfTest`` (the same for the reference's drawing: seed 000's ceiling),
``drawingFingerprint`` (the drawing chain's own stamp) and ``drawing`` (files, scale, the
per-target detail). Seed 000: this is self-consistency, not proof of shape -- a wrongly
built body can document itself perfectly; shapeIoU says whether the shape is right.

The reference's drawing depends only on the reference file, the case's targets and the
drawing chain, so it is made once and kept in a cache (options["drawing_cache"], else
~/.cache/cadbench/drawings) under a hash of the three.
"""

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time

from cadbench_wb.metrics.measured import Measured
from cadbench_wb.results import fingerprint
from cadbench_wb.results import result as results

METRIC = "drawingMatch"
PROJECTION = "first"  # ISO's default; the projection changes places, not printed values
NOTE = "self-consistency, not proof of shape (seed 000: shape 0.423 scored drawing 1.000)"


def drawing_stage(context) -> Measured:
    """drawingMatch, drawingSelfTest and the `drawing` detail, for a case with targets and a
    B-rep candidate (the registry line's requires, checked by the orchestrator, which also
    writes drawingFingerprint)."""
    with _drawing_folder(context.options) as (folder, keep):
        return _score(context, context.case, folder, keep)


def _ahead_timing(timing: dict, ahead, started: float) -> None:
    """How long this stage waited for the drawing child since started, and how long the
    child drew each body."""
    timing["drawing_wait"] = time.perf_counter() - started
    timing.update({f"drawing_{role}_ahead": s for role, s in ahead.seconds.items()})


def reference_stage(reference, case, options: dict, result: dict) -> None:
    """The case's ceiling (the reference's own drawing), which belongs to the case, not to
    the missing (or mesh) candidate; the orchestrator checked the case has targets. In a
    scoring, the drawing child's work on the reference was settled first (ahead.settled),
    so a reference it drew is read from the cache, not drawn here again."""
    with _drawing_folder(options) as (folder, keep):
        drawn = _reference_drawing(reference, case, options, result, folder)
    ceiling = drawn.get("match")
    result["drawingSelfTest"] = ceiling["value"] if ceiling else None
    if ceiling:
        result["verdicts"][METRIC]["ceiling"] = ceiling["value"]
    result["verdicts"][METRIC]["note"] = NOTE


@contextlib.contextmanager
def _drawing_folder(options: dict):
    """options["drawing_dir"] (kept), else a temporary folder removed afterwards."""
    folder = options.get("drawing_dir")
    if folder:
        yield folder, True
        return
    folder = tempfile.mkdtemp(prefix="cadbench-drawing-")
    try:
        yield folder, False
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _score(context, case, folder: str, keep: bool) -> Measured:
    candidate, reference = _both_drawings(context, case, folder)

    match = candidate.get("match")
    ceiling = reference.get("match")
    # Both shares at the result's precision: a reference drawing from the cache was stored
    # rounded (_store), and 19/24 against its rounded self made a perfect copy of NIST
    # CTC-04 miss its ceiling by 3e-11 (reachable FAIL) on every scoring after the first.
    value = results.rounded(match["value"]) if match else None
    self_test = results.rounded(ceiling["value"]) if ceiling else None
    outputs = {
        "drawingSelfTest": self_test,
        "drawing": {
            "applicable": True,
            "kept": keep,
            "note": NOTE,
            "candidate": _summary(candidate, "candidate"),
            "reference": _summary(reference, "reference"),
            "dimensions": match["dimensions"] if match else [],
        },
    }
    if value is None:
        reason = f"the candidate could not be drawn: {candidate['failure']}"
        return Measured(None, outputs, reason=reason, note=NOTE)
    detail = f" ({match['found']} of {match['of']} targets displayed"
    if self_test is not None:
        detail += f"; the reference's drawing displays {ceiling['found']})"
    else:
        detail += f"; the reference could not be drawn: {reference['failure']})"
    return Measured(value, outputs, reason_detail=detail, ceiling=self_test, note=NOTE)


def _both_drawings(context, case, folder: str) -> tuple:
    """(candidate's, reference's) drawings: those the drawing child made (ahead.py) while
    the other metrics were measured, the others drawn here, the candidate's first."""
    ahead = context.ahead.get(METRIC)
    timing = context.timing
    started = time.perf_counter()
    candidate = ahead.drawn("candidate", folder) if ahead else None
    reference = ahead.drawn("reference", folder) if ahead else None
    if ahead:
        _ahead_timing(timing, ahead, started)
    if candidate is None:
        started = time.perf_counter()
        candidate = _drawn(
            context.aligned,
            os.path.join(folder, "candidate"),
            case,
            "candidate",
            hold=candidate_hold(context.reference.shape),
        )
        timing["drawing_candidate"] = time.perf_counter() - started
    if reference is None:
        started = time.perf_counter()
        reference = _reference_drawing(
            context.reference, case, context.options, context.result, folder
        )
        timing["drawing_reference"] = time.perf_counter() - started
    return candidate, reference


def candidate_hold(reference_shape):
    """How the aligned candidate is held for its drawing: as the reference is (pose.hold_of),
    so that a perfect copy in any pose is drawn in the reference's views."""
    from cadbench_wb.app.drawing import pose  # noqa: PLC0415 - heavy: loaded on first use

    return pose.hold_of(reference_shape)


def _drawn(shape, folder: str, case, title: str, session=None, hold=None) -> dict:
    """Make and read back one drawing; a failure is reported, never raised: the other
    metrics stand whatever TechDraw does with an odd shape. session: a
    techdraw.drawing_session of this shape, which draws it without projecting again.
    hold: how to hold the shape (candidate_hold), else by its own box."""
    from cadbench_wb.app.drawing import techdraw as drawing  # noqa: PLC0415 - heavy: loaded on first use
    from cadbench_wb.drafting import readback as drawing_readback  # noqa: PLC0415 - heavy: loaded on first use

    try:
        if session is not None:
            made = session.draw(folder, case)
        else:
            made = drawing.make_drawing(shape, folder, case=case, title=title, hold=hold)
        read = drawing_readback.read_back(folder, made)
    except Exception as exc:  # TechDraw and OCC raise anything; the reason is reported
        return {"failure": f"{type(exc).__name__}: {exc}", "match": None}
    match = drawing_readback.target_match(case.dimensions, read["displayed"])
    return {"failure": None, "made": made, "read": read, "match": match}


def _reference_drawing(
    reference, case, options: dict, result: dict, folder: str, session=None
) -> dict:
    """The reference's drawing, from the cache when this reference, these targets and
    this drawing chain were drawn before (its files are copied in, so the result is the
    same whether or not it came from the cache). session: see _drawn (title reference)."""
    folder = os.path.join(folder, "reference")
    cache_dir = reference_cache_dir(reference, case, options, result)
    record = os.path.join(cache_dir, "drawing.json")
    if os.path.isfile(record):
        try:
            with open(record, encoding="utf-8") as handle:
                cached = json.load(handle)
            shutil.copytree(cache_dir, folder, dirs_exist_ok=True)
            os.remove(os.path.join(folder, "drawing.json"))
            return cached
        except (OSError, ValueError):
            pass  # a damaged entry is drawn again
    drawn = _drawn(reference.shape, folder, case, "reference", session)
    if drawn["failure"] is None:
        _store(folder, cache_dir, drawn)
    return drawn


def reference_cache_dir(reference, case, options: dict, result: dict) -> str:
    """Where the drawing of this reference, these targets and this drawing chain is kept."""
    return os.path.join(_cache_root(options), _cache_key(reference, case, result))


def _store(folder: str, cache_dir: str, drawn: dict) -> None:
    """Write the cache entry beside its final place and rename it in: two scorings of one
    reference at once leave one complete entry."""
    parent = os.path.dirname(cache_dir)
    try:
        os.makedirs(parent, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".staging-", dir=parent)
    except OSError:
        return  # no writable cache: the next scoring draws the reference again
    try:
        shutil.copytree(folder, staging, dirs_exist_ok=True)
        with open(os.path.join(staging, "drawing.json"), "w", encoding="utf-8") as handle:
            json.dump(results.rounded(drawn), handle, sort_keys=True)
        os.replace(staging, cache_dir)
    except OSError:
        pass  # another process stored the same entry first
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _cache_root(options: dict) -> str:
    if options.get("drawing_cache"):
        return options["drawing_cache"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cadbench", "drawings")


def _cache_key(reference, case, result: dict) -> str:
    digest = result.get("reference", {}).get("sha256") or results.file_digest(reference.path)
    targets = [[d.id, d.kind, d.value, d.tolerance] for d in case.dimensions]
    payload = json.dumps(
        [digest, targets, PROJECTION, fingerprint.drawing_fingerprint({"projection": PROJECTION})]
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def _summary(drawn: dict, folder: str) -> dict:
    if drawn.get("failure"):
        return {"failure": drawn["failure"]}
    made, read, match = drawn["made"], drawn["read"], drawn["match"]
    return {
        "failure": None,
        "files": {k: f"{folder}/{v}" for k, v in sorted(made["files"].items())},
        "exports": made["exports"],
        "scale": made["scale"],
        "projection": made["projection"],
        "sheet": made["sheet"],
        "fitsSheet": made["fitsSheet"],
        "displayed": [
            {k: d[k] for k in ("name", "view", "printed", "family", "value", "target")}
            for d in read["displayed"]
        ],
        "dropped": made["dropped"],
        "crossCheck": read["crossCheck"],
        "overlappingLabels": read["overlappingLabels"],
        "layoutChecks": read["layoutChecks"],
        "found": match["found"],
        "of": match["of"],
    }
