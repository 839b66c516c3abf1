# SPDX-License-Identifier: LGPL-2.1-or-later
"""The score result as plain data: assembly, failure results, rounding, JSON.

Everything outside ``timing`` is byte-identical when the same inputs are scored twice:
floats are rounded to standard.SIGNIFICANT_DIGITS and keys are sorted on output.
"""

import hashlib
import json
import math
import os
import stat

from cadbench_wb import __version__, standard
from cadbench_wb.errors import UsageError
from cadbench_wb.inputs.checks import FileProblem, open_regular, printable
from cadbench_wb.metrics import registry, verdicts
from cadbench_wb.results.fingerprint import metric_fingerprint

# /2: a not-applicable metric stores its own status (metrics/verdicts.py); /1 results (stored
# campaigns, saved JSON) are read through ``upgraded``.
SCHEMA = "cadbench.score/2"
SCHEMAS_READ = ("cadbench.score/1", SCHEMA)

# Every metric the scorer knows (the registry's order), with the top-level key it reports
# under, and the --only names of the metrics they compute.
METRICS = registry.NAMES
METRIC_GROUPS = registry.GROUPS


# sha256 by (path, device, inode, size, mtime): the scoring child reads each file once under
# the stage that names it (worker.py) and the result reuses the digest.
_DIGESTS: dict = {}
_DIGESTS_KEPT = 64


def file_digest(path: str) -> str | None:
    """The file's sha256, read in blocks (a multi-GB file costs no more memory than a small
    one), or None when it cannot be read or is no regular file: a FIFO or a device is never
    opened (an open would block or never end)."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(found.st_mode) or found.st_size > standard.CANDIDATE_MAX_BYTES:
        return None  # (a file refused by its size is never read: formats.checked_format)
    key = (os.path.abspath(path), found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)
    if key not in _DIGESTS:
        digest = hashlib.sha256()
        try:
            with open_regular(path) as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
        except (FileProblem, OSError):
            return None
        if len(_DIGESTS) >= _DIGESTS_KEPT:
            _DIGESTS.clear()
        _DIGESTS[key] = digest.hexdigest()
    return _DIGESTS[key]


def text_digest(text: str) -> str:
    """The sha256 of a text (a file name, surrogates kept as their bytes)."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def rounded(value, digits: int = standard.SIGNIFICANT_DIGITS):
    """Floats to a fixed number of significant digits, recursively; -0.0 becomes 0.0."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if value == 0:
            return 0.0
        return float(f"{value:.{digits}g}") + 0.0
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, digits) for v in value]
    return value


def base_result(reference: str, candidate: str, options: dict) -> dict:
    """The fields every result starts with. candidate.identicalToReference: the candidate's
    bytes are the reference's own (a copy of the answer, flagged whatever it scores)."""
    reference_sha, candidate_sha = file_digest(reference), file_digest(candidate)
    identical = candidate_sha is not None and candidate_sha == reference_sha
    return {
        "schema": SCHEMA,
        "cadbenchVersion": __version__,
        "reference": {"path": reference, "sha256": reference_sha},
        "candidate": {
            "path": candidate,
            "sha256": candidate_sha,
            "identicalToReference": identical,
        },
        "options": options,
        "metricFingerprint": metric_fingerprint(options),
        "delivered": True,
        "failure": None,
        "verdicts": {},
        "timing": {},
    }


def failure_result(
    reference: str, candidate: str, options: dict, reason: str, detail: str, requested: tuple
) -> dict:
    """A failed delivery: every requested metric is 0 and FAIL, with the reason (seed 001)."""
    result = base_result(reference, candidate, options)
    result["delivered"] = False
    result["failure"] = {"reason": reason, "detail": detail}
    from cadbench_wb.metrics.field_figures import not_delivered  # noqa: PLC0415 - heavy: loaded on first use

    result["fieldFigures"] = not_delivered()  # no figure; counted in invalidRate
    for metric in requested:
        result[metric] = 0.0
        result["verdicts"][metric] = verdicts.verdict(
            metric, 0.0, reason=f"not delivered: {reason}"
        )
    return result


# Whose failure a stage's failure on a candidate is, is decided on this (runner.settled).
CONTROL = "the reference moved by the candidate's pose (the perfect-copy control)"


def stage_failed(result: dict, metric: str, detail: str, pose) -> None:
    """A metric stage that raised on the candidate: NOT CHECKED, and listed under
    stageFailures with the candidate's pose (12 floats written as text, exact) until its
    control says whose failure it is (runner.settled removes the list)."""
    result[metric] = None
    reason = f"stage '{metric}' failed on the candidate ({detail}); its control is not run yet"
    result["verdicts"][metric] = verdicts.verdict(metric, None, reason=reason)
    failures = result.setdefault("stageFailures", {"pose": list(pose), "stages": {}})
    failures["stages"][metric] = detail


def unchecked_by_control(result: dict, metric: str, candidate: str, control: str) -> None:
    """metric NOT CHECKED, the scorer's own failure: its stage failed on the candidate and
    on the perfect-copy control too; the verdict names the control and both failures."""
    result[metric] = None
    reason = (
        f"the scorer fails in stage '{metric}': on the candidate ({candidate}) and on "
        f"{CONTROL} too ({control})"
    )
    entry = verdicts.verdict(metric, None, reason=reason)
    entry["control"] = {"of": CONTROL, "stage": metric, "candidate": candidate, "failed": control}
    result["verdicts"][metric] = entry


def upgraded(result: dict) -> dict:
    """A stored score result (or a campaign's row) of an older schema read as the current
    one, in place: a /1 not-applicable verdict (NOT CHECKED + applicable: false) stores its
    own status. Figures are untouched; a result of the current schema comes back as it is."""
    if isinstance(result, dict) and isinstance(result.get("verdicts"), dict):
        verdicts.upgraded_entries(result["verdicts"])
        if result.get("schema") in SCHEMAS_READ:
            result["schema"] = SCHEMA
    return result


def with_case_verdict(result: dict) -> dict:
    """The result with its case verdict made again from its metric verdicts (each in the
    current schema's form)."""
    verdicts.upgraded_entries(result["verdicts"])
    result["verdict"] = {
        "formal": verdicts.case_verdict(result["verdicts"], "verdict"),
        "reachable": verdicts.case_verdict(result["verdicts"], "reachable"),
    }
    return result


def finish(result: dict) -> dict:
    """Rounded result with the case verdicts filled in."""
    with_case_verdict(result)
    timing = result.pop("timing", {})
    out = rounded(result)
    _keep_pose_digits(result, out)
    out["timing"] = {k: round(v, 4) for k, v in sorted(timing.items())}
    return out


def _keep_pose_digits(result: dict, out: dict) -> None:
    """The alignment's rotation and translation at full precision: they are read back to
    move the candidate (drawing --pose, the workbench), and ten digits leave R^T R - I at
    1e-10, which OCC refuses as a scaling. The pose comes from seeded numpy arithmetic on
    the kernel's meshes, so it is as repeatable as the figures rounded above."""
    shape = result.get("shape")
    full = shape.get("alignment") if isinstance(shape, dict) else None
    if not isinstance(full, dict) or not isinstance(out["shape"].get("alignment"), dict):
        return
    for key in ("rotation", "translation"):
        if key in full:
            out["shape"]["alignment"][key] = _exact(full[key])


def _exact(value):
    """Nested lists of floats as they are (-0.0 written 0.0)."""
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    return float(value) + 0.0 if isinstance(value, float) else value


def without_negative_zero(value):
    r"""The same data with every -0.0 written 0.0: a coordinate's sign of zero is an
    accident of the arithmetic, and must not make a shape and its copy print differently.
    Text is made valid UTF-8 too: a file-name byte that is not UTF-8 (carried by Python as
    a lone surrogate) is written ``\xHH`` (input_checks.printable)."""
    if isinstance(value, float):
        return value + 0.0  # -0.0 + 0.0 is 0.0 (IEEE 754, round to nearest)
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable(k): without_negative_zero(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [without_negative_zero(v) for v in value]
    return value


def dumps(value, **options) -> str:
    """json.dumps of the value without negative zeros: every JSON cadbench writes."""
    return json.dumps(without_negative_zero(value), **options)


def to_json(result: dict) -> str:
    return dumps(result, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def requested_metrics(only: list[str] | None) -> tuple:
    """The metrics a --only list asks for (all known ones when None)."""
    if not only:
        return METRICS
    chosen = []
    for name in only:
        if name in METRIC_GROUPS:
            chosen += METRIC_GROUPS[name]
        elif name in METRICS:
            chosen.append(name)
        else:
            known = ", ".join(list(METRIC_GROUPS) + list(METRICS))
            raise UsageError(f"--only: unknown metric {name!r} (known: {known})")
    return tuple(m for m in METRICS if m in chosen)
