# SPDX-License-Identifier: LGPL-2.1-or-later
"""The campaign manifest: which cases each group holds, written on the first run.

Seed 004: a group that quietly lost a case is a smaller set reporting the same percentage,
so a run whose case set shrank aborts rather than report it. Growth is recorded; shrinking
on purpose takes an explicit --accept-smaller-case-set, and the manifest then says so.
"""

import json
import os

from cadbench_wb.errors import UsageError

SCHEMA = "cadbench.campaign-manifest/1"
FILE = "manifest.json"
UNGROUPED = "(ungrouped)"


class CaseSetShrank(UsageError):
    reason = "case_set_shrank"


def group_of(case) -> str:
    return case.group or UNGROUPED


def manifest_of(cases) -> dict:
    groups = {}
    for case in cases:
        groups.setdefault(group_of(case), []).append(case.id)
    groups = {g: sorted(ids) for g, ids in sorted(groups.items())}
    return {
        "schema": SCHEMA,
        "groups": groups,
        "counts": {g: len(ids) for g, ids in groups.items()},
        "cases": sum(len(ids) for ids in groups.values()),
    }


def shrinkage(old: dict, new: dict) -> list[str]:
    """One line per group that has fewer cases than the manifest records, naming the lost."""
    lines = []
    for group, ids in sorted(old.get("groups", {}).items()):
        now = new["groups"].get(group, [])
        lost = sorted(set(ids) - set(now))
        if lost:
            lines.append(
                f"group {group!r} had {len(ids)} case(s), now {len(now)} "
                f"(missing: {', '.join(lost)})"
            )
    return lines


def checked_manifest(out_dir: str, cases, accept_smaller: bool = False) -> dict:
    """The manifest for this run, written to out_dir; CaseSetShrank when a group lost a case
    since the manifest was written (unless accept_smaller)."""
    path = os.path.join(out_dir, FILE)
    new = manifest_of(cases)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            old = json.load(handle)
        lost = shrinkage(old, new)
        if lost and not accept_smaller:
            raise CaseSetShrank(
                "the case set shrank since this campaign began: "
                + "; ".join(lost)
                + ". A smaller set would report the same percentages unnoticed: restore the "
                "case(s), or rerun with --accept-smaller-case-set to record the change"
            )
        if lost:
            new["acceptedShrinkage"] = old.get("acceptedShrinkage", []) + lost
        elif old.get("acceptedShrinkage"):
            new["acceptedShrinkage"] = old["acceptedShrinkage"]
    os.makedirs(out_dir, exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(new, handle, indent=2, sort_keys=True)
        handle.write("\n")
    os.replace(path + ".tmp", path)
    return new
