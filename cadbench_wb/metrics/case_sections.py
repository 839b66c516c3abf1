# SPDX-License-Identifier: LGPL-2.1-or-later
"""Validators of the case.yaml sections that belong to one metric (the registry names them).

Pure, so that ``cadbench case check`` validates every section without FreeCAD, and the
stages take their settings from the same functions: one reading of a section, checked once
when the case is loaded. Each validator takes the section's value and where it is (for the
message) and returns the parsed settings, or raises CaseInvalid.
"""

from cadbench_wb import standard
from cadbench_wb.errors import CaseInvalid

FEATURE_TYPES = (
    "hole",
    "thread",
    "chamfer",
    "fillet",
    "groove",
    "slot",
    "pocket",
    "step",
    "boss",
    "breakthrough",
    "unrecognised",
)
FEATURE_TARGETS = ("recognised", "replace", "supplement")
COSMETIC_RULES = ("accept", "reject")


def features_section(section, where: str) -> tuple[str, list[dict]]:
    """(target rule, expected entries) of a `features:` section (see README, "Features")."""
    if isinstance(section, list):
        section = {"expected": section}
    if not isinstance(section, dict):
        raise CaseInvalid(f"{where}: must be a list of features or a mapping")
    target = section.get("target", "recognised")
    if target not in FEATURE_TARGETS:
        raise CaseInvalid(f"{where}.target: {target!r} is not one of {', '.join(FEATURE_TARGETS)}")
    entries = section.get("expected") or []
    if not isinstance(entries, list):
        raise CaseInvalid(f"{where}.expected: must be a list")
    for index, entry in enumerate(entries):
        field = f"{where}.expected[{index}]"
        if not isinstance(entry, dict) or entry.get("type") not in FEATURE_TYPES:
            raise CaseInvalid(f"{field}: needs a type, one of {', '.join(FEATURE_TYPES)}")
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise CaseInvalid(f"{field}.count: must be a positive whole number")
        for key in ("location", "axis"):
            value = entry.get(key)
            if value is not None and not (
                isinstance(value, list)
                and len(value) == 3
                and all(isinstance(v, (int, float)) for v in value)
            ):
                raise CaseInvalid(f"{field}.{key}: must be [x, y, z]")
        if target != "recognised" and entry.get("location") is None:
            raise CaseInvalid(f"{field}.location: required when target is {target}")
    return target, entries


def threads_section(section, where: str) -> dict:
    """{"cosmetic": accept | reject} of a `threads:` section (default standard.THREADS)."""
    section = section or {}
    if not isinstance(section, dict):
        raise CaseInvalid(f"{where}: must be a mapping (cosmetic: accept)")
    rule = section.get("cosmetic", standard.THREADS["cosmetic_default"])
    if rule not in COSMETIC_RULES:
        raise CaseInvalid(f"{where}.cosmetic: {rule!r} is not one of accept, reject")
    return {"cosmetic": rule}
