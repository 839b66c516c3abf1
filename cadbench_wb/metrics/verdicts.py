# SPDX-License-Identifier: LGPL-2.1-or-later
"""Verdicts: PASS / FAIL / NOT CHECKED (seed 004), not applicable and not run; passed formal
vs reachable (seed 000). ``status_of`` is the one reader of a stored verdict.

Schema cadbench.score/2 stores a not-applicable metric's own status in its ``verdict`` (and
``reachable``) field; cadbench.score/1 wrote ``verdict: "NOT CHECKED"`` beside
``applicable: false``, which ``upgraded_entries`` turns into the /2 entry (result.upgraded
reads a whole /1 result), so stored campaigns load and display as they did.
"""

import enum

from cadbench_wb import standard
from cadbench_wb.metrics import registry


class Status(enum.StrEnum):
    """The status of one metric or one item, spelled as every output prints it.

    The values are what the JSON holds: seed 004's three in capitals, and the two phrases
    that are neither a pass nor a failure nor an unchecked measurement: a metric that does
    not apply to the case (threadMatch on a part without a thread) and one not run at all
    (left out by --only; never stored, it is the absence of a verdict)."""

    PASS = "PASS"
    FAIL = "FAIL"
    NOT_CHECKED = "NOT CHECKED"
    NOT_APPLICABLE = "not applicable"
    NOT_RUN = "not run"


PASS, FAIL, NOT_CHECKED = Status.PASS, Status.FAIL, Status.NOT_CHECKED
NOT_APPLICABLE, NOT_RUN = Status.NOT_APPLICABLE, Status.NOT_RUN


def status_of(entry: dict | None, key: str = "verdict") -> Status:
    """The status of one stored verdict entry (key "verdict": formal, "reachable"): NOT_RUN
    without an entry; an entry of schema /1 (``applicable: false``) reads as /2."""
    if entry is None:
        return NOT_RUN
    if entry.get("applicable") is False:  # schema /1
        return NOT_APPLICABLE
    word = entry.get(key, entry.get("verdict"))
    return NOT_CHECKED if word is None else status_named(word)


def status_named(text) -> Status:
    """The status a stored word names (a case verdict's "formal"): NOT_RUN for None, and
    NOT_CHECKED for a word no status has (nothing unreadable ever shows as a pass)."""
    if text is None:
        return NOT_RUN
    try:
        return Status(text)
    except ValueError:
        return NOT_CHECKED


def shown_verdict(entry: dict | None, key: str = "verdict") -> str | None:
    """The verdict as outputs print it (None without an entry)."""
    return None if entry is None else status_of(entry, key).value


def verdict(metric: str, value, reason: str = "", ceiling=None) -> dict:
    """The verdict of one metric's value against its threshold.

    value None means the metric could not be evaluated: NOT CHECKED, never a soft FAIL.
    With a ceiling (referenceCoverage, drawingSelfTest), 'reachable' also passes a value
    that reaches the case's own maximum.
    """
    threshold = registry.threshold_of(metric, standard.THRESHOLDS)
    if value is None:
        return {
            "verdict": NOT_CHECKED.value,
            "value": None,
            "threshold": threshold,
            "reason": reason or "not evaluated",
            "reachable": NOT_CHECKED.value,
        }
    formal = PASS if value >= threshold - 1e-12 else FAIL
    reachable = formal
    if formal == FAIL and ceiling is not None and value >= ceiling - 1e-12:
        reachable = PASS
    entry = {
        "verdict": formal.value,
        "value": value,
        "threshold": threshold,
        "reachable": reachable.value,
    }
    if ceiling is not None:
        entry["ceiling"] = ceiling
    entry["reason"] = reason or _default_reason(formal, reachable, value, threshold)
    return entry


def not_applicable(metric: str, reason: str) -> dict:
    """The standard entry of a metric that does not apply to the case: no value, its own
    status in both verdicts, and why (the case verdict leaves it out)."""
    return {
        "verdict": NOT_APPLICABLE.value,
        "value": None,
        "threshold": registry.threshold_of(metric, standard.THRESHOLDS),
        "reason": reason,
        "reachable": NOT_APPLICABLE.value,
    }


def _default_reason(formal, reachable, value, threshold) -> str:
    if formal == PASS:
        return f"{value:.4f} >= {threshold}"
    if reachable == PASS:
        return f"{value:.4f} < {threshold}, but at the case's ceiling"
    return f"{value:.4f} < {threshold}"


def case_verdict(verdicts: dict, key: str = "verdict") -> str:
    """The case passes when every applicable metric passes; NOT CHECKED if any is unchecked
    and none failed (seed 004: nobody looked is a different statement from a soft fail)."""
    values = [status_of(v, key) for v in verdicts.values()]
    values = [v for v in values if v != NOT_APPLICABLE]
    if any(v == FAIL for v in values):
        return FAIL.value
    if any(v == NOT_CHECKED for v in values):
        return NOT_CHECKED.value
    return PASS.value if values else NOT_CHECKED.value


def upgraded_entries(entries: dict) -> dict:
    """Verdict entries by metric in the /2 form, in place: a /1 not-applicable entry
    (``verdict: NOT CHECKED`` + ``applicable: false``) stores its own status."""
    for metric, entry in entries.items():
        if isinstance(entry, dict) and entry.get("applicable") is False:
            rest = {k: v for k, v in entry.items() if k != "applicable"}
            entries[metric] = {**rest, "verdict": NOT_APPLICABLE.value}
            entries[metric]["reachable"] = NOT_APPLICABLE.value
    return entries
