# SPDX-License-Identifier: LGPL-2.1-or-later
"""Whether this process ran out of the address space its memory limit (RLIMIT_AS) allows.

OpenCASCADE reports a failed allocation while reading a file as a plain read error ("Error
in reading STEP"), so a candidate too big for the limit would be called unreadable. The
kernel's record of the process's peak address space (VmPeak) tells the two apart: a read
that failed after the peak came within standard.MEMORY_EXHAUSTED_SHARE of the limit failed
for memory. Pure standard library; Linux (elsewhere nothing is ever called exhausted).
"""

import resource

from cadbench_wb import standard
from cadbench_wb.errors import UsageError


def limit_mb() -> int | None:
    """This process's address-space limit in MB, None when unlimited."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft // (1024 * 1024)


def peak_mb(pid: int | str = "self") -> float:
    """The peak address space of a process (VmPeak) in MB, 0 when it cannot be read."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


def near_limit(peak: float, limit: float | None) -> bool:
    """True when a peak of `peak` MB came within the exhausted share of a `limit` MB limit."""
    return bool(limit) and peak >= standard.MEMORY_EXHAUSTED_SHARE * limit


def exhausted() -> bool:
    """True when this process's peak address space reached its limit (see module doc)."""
    return near_limit(peak_mb(), limit_mb())


def exhausted_detail(what: str) -> str:
    """One line: what ran out of memory, naming the limit."""
    limit = limit_mb()
    named = f"the {limit} MB memory limit" if limit else "the memory available"
    return f"{what} exhausted {named} (--memory-mb)"


def inherited_hard_mb() -> int | None:
    """The hard address-space limit this process inherited (ulimit -v), in MB; None when
    unlimited. No child can be given more: setrlimit above it fails."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    return None if hard == resource.RLIM_INFINITY else hard // (1024 * 1024)


def fitted_mb(asked_mb: int | None) -> tuple[int | None, str | None]:
    """(the memory limit a scoring child gets, a note when that is less than asked): the
    limit asked for, clamped to the inherited hard limit (batch systems and CI containers
    set one). UsageError naming both figures when even standard.MIN_MEMORY_MB does not fit."""
    hard = inherited_hard_mb()
    if not asked_mb or hard is None or asked_mb <= hard:
        return asked_mb, None
    if hard < standard.MIN_MEMORY_MB:
        raise UsageError(
            f"this process inherited a hard memory limit (ulimit -v) of {hard} MB, below the "
            f"{standard.MIN_MEMORY_MB} MB a scoring process needs (--memory-mb "
            f"{asked_mb} asked): raise the limit"
        )
    return hard, (
        f"--memory-mb {asked_mb} is above the inherited hard memory limit (ulimit -v) of "
        f"{hard} MB: the scoring process runs under {hard} MB"
    )
