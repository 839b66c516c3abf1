# SPDX-License-Identifier: LGPL-2.1-or-later
"""The candidate's bytes as scored: hashed once, and exactly those bytes read.

A file that is replaced while it is scored (between the hash a result reports and the reads
of the kernel) would report one file's sha256 with another's geometry, and a campaign would
store the second file's figures under the first one's key. So the scoring child copies the
candidate into a private folder, hashing while it copies, and scores the copy: the hash is
that of the bytes read. An FCStd may name further documents beside it (its links), so it is
scored in place and hashed before and after instead (candidate_changed when they differ).

Pure standard library: the scoring child calls it before any CAD kernel reads the file.
"""

import contextlib
import hashlib
import os
import tempfile

from cadbench_wb import standard
from cadbench_wb.errors import CandidateChanged
from cadbench_wb.inputs import checks as input_checks
from cadbench_wb.inputs.formats import FORMATS

BLOCK = 1 << 20


def sha256_of(path: str) -> str | None:
    """The file's sha256 read now (never a cached digest), None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with input_checks.open_regular(path) as handle:
            for block in iter(lambda: handle.read(BLOCK), b""):
                digest.update(block)
    except (input_checks.FileProblem, OSError):
        return None
    return digest.hexdigest()


@contextlib.contextmanager
def scored_copy(path: str, scratch: str | None = None):
    """The path to score: a private, read-only copy of a regular candidate file (in a
    folder of its own, under its own name); the path itself for what is scored in place (an
    FCStd), or refused unread (no file, a special file, an empty or oversized one: those
    checks read only its size and first bytes). scratch: the folder to copy into (the
    job's own, which its parent removes even when the child is killed), else the system's
    temporary folder."""
    try:
        handle = input_checks.open_regular(path)
    except input_checks.FileProblem:
        yield path
        return
    with handle:
        size = os.fstat(handle.fileno()).st_size
        in_place = FORMATS.get(os.path.splitext(path)[1].lower()) == "fcstd"
        if in_place or size == 0 or size > standard.CANDIDATE_MAX_BYTES:
            handle.close()
            yield path
            return
        if scratch is not None and not os.access(scratch, os.W_OK | os.X_OK):
            scratch = None
        with tempfile.TemporaryDirectory(prefix="cadbench-candidate-", dir=scratch) as folder:
            copy = os.path.join(folder, os.path.basename(path))
            with open(copy, "xb") as out:
                for block in iter(lambda: handle.read(BLOCK), b""):
                    out.write(block)
            handle.close()
            os.chmod(copy, 0o400)  # private and read-only: its hash is the scored bytes'
            yield copy


def check_unchanged(path: str, before: str | None) -> None:
    """Raise CandidateChanged when the file scored in place no longer has the bytes it had
    when its hash was taken (before)."""
    after = sha256_of(path)
    if before is not None and after != before:
        raise CandidateChanged(
            f"{input_checks.printable(path)} changed while it was scored (sha256 "
            f"{before[:12]}... before, {(after or 'unreadable')[:12]}... after): not scored; "
            "score it again once it stays put"
        )


def renamed(value, old: str, new: str):
    """The result with every occurrence of the scored copy's path replaced by the
    candidate's own, inside longer strings too (a failure detail names the file)."""
    if old == new:
        return value
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, dict):
        return {k: renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    return value
