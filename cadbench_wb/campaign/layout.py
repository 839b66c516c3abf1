# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where a campaign's candidates are: ``SUBMISSIONS/<system>/<run>/<case_id>.<ext>``.

Every system x run x case is one scoring. A case with no file in a run is a delivery failure
(missing_candidate), never a skipped job. A file named after a case is that case's candidate
whatever its extension (an unreadable format is the candidate's failure, unsupported_format);
when a run holds several files for one case, the first in MODEL_PREFERENCE is scored and the
others are listed as ignored. Files named after no case are listed too (a typo in a name
would otherwise pass unnoticed as a missing delivery). Anything named after a case is its
candidate, a FIFO or a folder too (the scorer refuses it unopened: unreadable_file).

A delivery is what a system wrote into its own folder: a candidate whose real path (every
symlink resolved) leaves SUBMISSIONS/<system>/ - a link to a case's reference, or to another
system's file - is refused unread (link_outside_submissions), so that a system that may
write its output but not read the cases never gets the truth scored as its delivery.
"""

import dataclasses
import os

from cadbench_wb.errors import UsageError
from cadbench_wb.inputs.formats import FORMATS

# The native document first, then exchange formats by how much they keep of the model.
MODEL_PREFERENCE = ("fcstd", "step", "brep", "iges", "stl", "obj")


@dataclasses.dataclass(frozen=True)
class Submission:
    system: str  # as reports show it (layout.shown: escaped where it is not UTF-8)
    run: str
    case_id: str
    path: str | None  # absolute, or None when nothing was delivered
    refused: dict | None = None  # {reason, detail}: a delivery failure found before reading

    @property
    def name(self) -> str:
        """The candidate as reports show it: relative to the submissions folder."""
        if self.path is None:
            return f"{self.system}/{self.run}/{self.case_id}"
        return f"{self.system}/{self.run}/{os.path.basename(self.path)}"


@dataclasses.dataclass
class Layout:
    root: str  # the submissions folder, absolute
    submissions: list[Submission]
    systems: dict  # system -> [runs]
    unmatched: list[str]  # files named after no case
    ignored: list[str]  # further files for a case that already has a preferred candidate


def shown(name: str) -> str:
    r"""A file or folder name as reports carry it: the name itself when it is UTF-8, else
    its bytes with the undecodable ones written as backslash escapes (the byte 0xff as the
    four characters \xff), so that a name the file system allows never stops a campaign
    from writing its JSON. (Two names differing only so would be shown alike.)"""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "backslashreplace")


def _visible_folders(folder: str) -> list[str]:
    return sorted(
        n for n in os.listdir(folder) if not n.startswith(".") and os.path.isdir(f"{folder}/{n}")
    )


LINK_OUTSIDE = "link_outside_submissions"


def link_refusal(path: str, system_dir: str, shown_name: str) -> dict | None:
    """{reason, detail} when path, once every symlink is resolved, is not inside its system's
    own folder (a dangling link inside it is left to the scorer: missing_candidate)."""
    root = os.path.realpath(system_dir)
    target = os.path.realpath(path)
    if os.path.commonpath([root, target]) == root:
        return None
    detail = (
        f"{shown_name} is a symlink that resolves outside its system's folder in the "
        "submissions folder: refused unread (a delivery is a file the system wrote itself)"
    )
    return {"reason": LINK_OUTSIDE, "detail": detail}


def _rank(path: str) -> tuple:
    fmt = FORMATS.get(os.path.splitext(path)[1].lower())
    order = MODEL_PREFERENCE.index(fmt) if fmt in MODEL_PREFERENCE else len(MODEL_PREFERENCE)
    return (order, os.path.basename(path))


def discover(root: str, case_ids: list[str]) -> Layout:
    """Every system x run x case under the submissions folder, sorted."""
    if not os.path.isdir(root):
        raise UsageError(f"{root}: no such submissions folder")
    root = os.path.abspath(root)
    systems, submissions, unmatched, ignored = {}, [], [], []
    for system in _visible_folders(root):
        system_dir = os.path.join(root, system)
        stray = sorted(
            n
            for n in os.listdir(system_dir)
            if not n.startswith(".") and os.path.isfile(os.path.join(system_dir, n))
        )
        if stray:
            raise UsageError(
                f"{shown(system)}/{shown(stray[0])}: candidates go one folder deeper, into a run folder: "
                f"SUBMISSIONS/<system>/<run>/<case_id>.<ext>"
            )
        runs = _visible_folders(system_dir)
        if not runs:
            continue
        systems[shown(system)] = [shown(run) for run in runs]
        for run in runs:
            run_dir = os.path.join(system_dir, run)
            by_case = {}
            for name in sorted(os.listdir(run_dir)):
                path = os.path.join(run_dir, name)
                if name.startswith("."):
                    continue
                stem = os.path.splitext(name)[0]
                if stem in case_ids:
                    by_case.setdefault(stem, []).append(path)
                elif os.path.isfile(path):
                    unmatched.append(shown(f"{system}/{run}/{name}"))
            for case_id in case_ids:
                files = sorted(by_case.get(case_id, []), key=_rank)
                chosen = files[0] if files else None
                refused = None
                if chosen is not None:
                    shown_name = shown(f"{system}/{run}/{os.path.basename(chosen)}")
                    refused = link_refusal(chosen, system_dir, shown_name)
                submission = Submission(shown(system), shown(run), case_id, chosen, refused)
                submissions.append(submission)
                ignored += [shown(f"{system}/{run}/{os.path.basename(f)}") for f in files[1:]]
    if not systems:
        raise UsageError(
            f"{root}: no run folders found; lay candidates out as "
            "SUBMISSIONS/<system>/<run>/<case_id>.<ext>"
        )
    return Layout(root, submissions, systems, unmatched, ignored)
