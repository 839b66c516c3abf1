# SPDX-License-Identifier: LGPL-2.1-or-later
"""The scoring children running on this machine, found the way a test that kills one from
outside must find them: by their command line in /proc."""

import os

MODULES = ("cadbench_wb.runtime.worker", "cadbench_wb.campaign.worker_process")


def scoring_children():
    """(pid, stage file) of every scoring child (single-shot or reused): its last argument."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                args = handle.read().decode(errors="replace").rstrip("\0").split("\0")
        except OSError:
            continue
        if any(module in args for module in MODULES) and args[-1].endswith("stage.txt"):
            if not _forked_exact_child(name):
                yield int(name), args[-1]


def _forked_exact_child(pid: str) -> bool:
    """A scoring child's forked exact-boolean child: its parent's command line, its own name
    (time_budget.EXACT_CHILD_NAME)."""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as handle:
            return handle.read().strip() == "cadbench-exact"
    except OSError:
        return False
