# SPDX-License-Identifier: LGPL-2.1-or-later
"""PASS / FAIL / NOT CHECKED (seed 004), and passed formal vs reachable (seed 000)."""

from cadbench_wb import standard
from cadbench_wb.metrics import registry

PASS, FAIL, NOT_CHECKED = "PASS", "FAIL", "NOT CHECKED"
# A metric that does not apply to the case (threadMatch on a part without a thread) is
# neither checked nor unchecked: every output (summary, CSV, JUnit, report page, GUI) says
# this one phrase, never NOT CHECKED, which seed 004 keeps for what could not be evaluated.
NOT_APPLICABLE = "not applicable"


def shown_verdict(entry: dict | None, key: str = "verdict") -> str | None:
    """The verdict as outputs print it: NOT_APPLICABLE for a metric that does not apply."""
    if entry is None:
        return None
    if entry.get("applicable") is False:
        return NOT_APPLICABLE
    return entry.get(key, entry.get("verdict"))


def verdict(metric: str, value, reason: str = "", ceiling=None) -> dict:
    """The verdict of one metric's value against its threshold.

    value None means the metric could not be evaluated: NOT CHECKED, never a soft FAIL.
    With a ceiling (referenceCoverage, drawingSelfTest), 'reachable' also passes a value
    that reaches the case's own maximum.
    """
    threshold = registry.threshold_of(metric, standard.THRESHOLDS)
    if value is None:
        return {
            "verdict": NOT_CHECKED,
            "value": None,
            "threshold": threshold,
            "reason": reason or "not evaluated",
            "reachable": NOT_CHECKED,
        }
    formal = PASS if value >= threshold - 1e-12 else FAIL
    reachable = formal
    if formal == FAIL and ceiling is not None and value >= ceiling - 1e-12:
        reachable = PASS
    entry = {"verdict": formal, "value": value, "threshold": threshold, "reachable": reachable}
    if ceiling is not None:
        entry["ceiling"] = ceiling
    entry["reason"] = reason or _default_reason(formal, reachable, value, threshold)
    return entry


def _default_reason(formal, reachable, value, threshold) -> str:
    if formal == PASS:
        return f"{value:.4f} >= {threshold}"
    if reachable == PASS:
        return f"{value:.4f} < {threshold}, but at the case's ceiling"
    return f"{value:.4f} < {threshold}"


def case_verdict(verdicts: dict, key: str = "verdict") -> str:
    """The case passes when every applicable metric passes; NOT CHECKED if any is unchecked
    and none failed (seed 004: nobody looked is a different statement from a soft fail)."""
    values = [v.get(key, v["verdict"]) for v in verdicts.values() if v.get("applicable", True)]
    if any(v == FAIL for v in values):
        return FAIL
    if any(v == NOT_CHECKED for v in values):
        return NOT_CHECKED
    return PASS if values else NOT_CHECKED


def not_applicable(metric: str, reason: str) -> dict:
    """The verdict entry of a metric that does not apply to the case (threadMatch on a part
    without a thread): NOT CHECKED with ``applicable: false``, which the case verdict skips
    and every output shows as NOT_APPLICABLE (shown_verdict)."""
    entry = verdict(metric, None, reason=reason)
    entry["applicable"] = False
    return entry
