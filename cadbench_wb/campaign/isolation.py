# SPDX-License-Identifier: LGPL-2.1-or-later
"""The isolation protocol (seed 000): a working copy in which the solution is out of reach.

1. A fresh copy of the project without version history (VCS folders are never copied).
2. Truth removal: what DELETION_RULES lists is not copied (this tuple is the one place the
   deletion list lives; docs/campaigns.md repeats it for operators). Extend it with every
   new kind of artifact.
3. The grep proof: a full-text scan of the working copy for every trace of the truth (the
   case id, distinctive file names, the truth files' SHA-256, the distinctive values the case
   lists under ``isolation: distinctive:``). Any hit aborts: the working copy is removed and
   the proof says what was found where. The empty scan is the entry ticket.
4. The rulebook, if given, is copied without its evidence sections (between the lines
   ``<!-- evidence -->`` and ``<!-- /evidence -->``): the rules stay, the concrete dimension
   they were distilled from goes.
The proof (``WORKDIR.isolation.json``) is written next to the working copy, never inside it:
it names the truth it looked for.
"""

import fnmatch
import json
import os
import shutil
import subprocess
import time
import zipfile

from cadbench_wb.campaign.store import file_sha256
from cadbench_wb.case_model import cases as cases_mod
from cadbench_wb.errors import CadbenchError, UsageError

SCHEMA = "cadbench.isolation-proof/1"
VERSION_HISTORY = (".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".fossil")
# Derived data of tools: it can hold anything (pytest's cache lists test ids naming cases).
TOOL_CACHES = ("__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", ".ipynb_checkpoints")
# Result and analysis files: removed when their content names the case (rule 4).
RESULT_EXTENSIONS = (
    ".json",
    ".jsonl",
    ".csv",
    ".tsv",
    ".xml",
    ".html",
    ".htm",
    ".sqlite",
    ".sqlite3",
    ".sqlite-wal",
    ".sqlite-shm",
    ".db",
    ".db-wal",
    ".db-shm",
    ".log",
    ".txt",
    ".md",
    ".dxf",
    ".svg",
    ".pdf",
    ".png",
    ".glb",
    ".step",
    ".stp",
    ".brep",
    ".brp",
    ".fcstd",
    ".stl",
    ".obj",
    ".iges",
    ".igs",
)
DELETION_RULES = (
    ("version_history", "version-control folders and files (.git, .hg, .svn, ...): no history"),
    ("tool_cache", "tool caches (" + " ".join(TOOL_CACHES) + ")"),
    ("operator_listed", "paths matching a --remove pattern given for this run"),
    ("case_folder", "the case's folder: case.yaml, reference model, drawing, earlier candidates"),
    ("named_after_case", "files and folders whose name contains the case id"),
    ("copy_of_truth", "files byte-identical to a file of the case folder (a renamed reference)"),
    (
        "result_naming_case",
        "result and analysis files (" + " ".join(RESULT_EXTENSIONS) + ") whose content names "
        "the case id, a distinctive truth file name or a truth file's SHA-256",
    ),
    ("symbolic_link", "symbolic links (they could reach the truth outside the working copy)"),
)
EVIDENCE_START = "<!-- evidence -->"
EVIDENCE_END = "<!-- /evidence -->"


class IsolationBreach(CadbenchError):
    """The working copy still holds a trace of the truth: the run must not start."""

    reason = "isolation_breach"
    exit_status = 7


def evidence_free(text: str, source: str = "rulebook") -> tuple[str, int]:
    """(the rulebook without its evidence sections, how many were removed)."""
    kept, inside, removed = [], None, 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        marker = line.strip()
        if marker == EVIDENCE_START:
            if inside is not None:
                raise UsageError(
                    f"{source}:{number}: evidence section opened again (the one from line "
                    f"{inside} is not closed with {EVIDENCE_END})"
                )
            inside = number
        elif marker == EVIDENCE_END:
            if inside is None:
                raise UsageError(f"{source}:{number}: {EVIDENCE_END} without {EVIDENCE_START}")
            inside, removed = None, removed + 1
        elif inside is None:
            kept.append(line)
    if inside is not None:
        raise UsageError(f"{source}:{inside}: evidence section is never closed ({EVIDENCE_END})")
    return "".join(kept), removed


def _files_of(folder: str) -> list[str]:
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        found += [os.path.join(root, f) for f in sorted(files)]
    return found


def truth_of(case, all_cases) -> dict:
    """What the scan looks for: terms (case-insensitive) and values (exact).

    Only what is particular to this case is truth: an empty file, or a file that another
    case holds too (a shared broken sample, a generic name such as reference.step), says
    nothing about it and would only flood the scan."""
    other_files = [p for other in all_cases if other.id != case.id for p in _files_of(other.path)]
    other_hashes = {file_sha256(p) for p in other_files if not os.path.islink(p)}
    hashes = sorted(
        {
            file_sha256(p)
            for p in _files_of(case.path)
            if not os.path.islink(p) and os.path.getsize(p) > 0
        }
        - other_hashes
    )
    others = {os.path.basename(p).lower() for p in other_files}
    names, shared = [], []
    for field in ("reference", "drawing"):
        name = case.raw.get(field)
        if isinstance(name, str):
            base = os.path.basename(name)
            (shared if base.lower() in others else names).append(base)
    section = case.raw.get("isolation") or {}
    values = section.get("distinctive", []) if isinstance(section, dict) else []
    if not isinstance(values, list):
        raise UsageError(f"{case.case_file}: isolation.distinctive must be a list of values")
    return {
        "terms": [case.id] + sorted(set(names)) + hashes,
        "values": [format(v, "g") if isinstance(v, float) else str(v) for v in values],
        "hashes": hashes,
        # A generic name such as reference.step, used by other cases, names no case.
        "sharedNamesNotScanned": sorted(set(shared)),
    }


def _removal_rule(path: str, rel: str, case, truth: dict, patterns) -> str | None:
    """The deletion rule that removes a file or folder, or None to copy it."""
    name, folder = os.path.basename(path), os.path.isdir(path) and not os.path.islink(path)
    posix = rel.replace(os.sep, "/")
    if name in VERSION_HISTORY:
        return "version_history"
    if name in TOOL_CACHES:
        return "tool_cache"
    if os.path.islink(path):
        return "symbolic_link"
    if any(fnmatch.fnmatchcase(posix, p) for p in patterns):
        return "operator_listed"
    if folder and os.path.realpath(path) == os.path.realpath(case.path):
        return "case_folder"
    if case.id.lower() in name.lower():
        return "named_after_case"
    if folder:
        return None
    if file_sha256(path) in truth["hashes"]:
        return "copy_of_truth"
    if os.path.splitext(name)[1].lower() in RESULT_EXTENSIONS and _hits(path, truth):
        return "result_naming_case"
    return None


def _contents(path: str):
    """The bytes of a file and, for zip archives (FCStd is one), of every member."""
    with open(path, "rb") as handle:
        data = handle.read()
    yield "", data
    if data[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(path) as archive:
                for member in archive.namelist():
                    yield f"!{member}", archive.read(member)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError):
            pass


def _hits(path: str, truth: dict) -> list[dict]:
    found = []
    for member, data in _contents(path):
        lowered = data.lower()
        for term in truth["terms"]:
            if term.lower().encode() in lowered:
                found.append({"member": member, "term": term})
        for value in truth["values"]:
            if value.encode() in data:
                found.append({"member": member, "value": value})
    return found


def find_case(project: str, case_id: str, cases_dir: str = "cases"):
    root = os.path.join(project, cases_dir)
    all_cases = cases_mod.discover_cases(root)
    for case in all_cases:
        if case.id == case_id:
            return case, all_cases
    known = ", ".join(c.id for c in all_cases) or "none"
    raise UsageError(f"no case {case_id!r} in {root} (cases: {known})")


def _check_folders(project: str, workdir: str) -> None:
    if not os.path.isdir(project):
        raise UsageError(f"{project}: no such project folder")
    if os.path.exists(workdir) and (not os.path.isdir(workdir) or os.listdir(workdir)):
        raise UsageError(f"{workdir}: exists and is not empty; a working copy must be fresh")
    real_project, real_work = os.path.realpath(project), os.path.realpath(workdir)
    if os.path.commonpath([real_project, real_work]) in (real_project, real_work):
        raise UsageError("the working copy and the project must not contain one another")


def _copy_without_truth(project: str, workdir: str, case, truth: dict, patterns) -> list[dict]:
    removed = []
    for root, dirs, files in os.walk(project):
        rel_root = os.path.relpath(root, project)
        kept = []
        for name in sorted(dirs):
            rel = os.path.normpath(os.path.join(rel_root, name))
            rule = _removal_rule(os.path.join(root, name), rel, case, truth, patterns)
            if rule:
                removed.append({"path": rel, "rule": rule})
            else:
                kept.append(name)
        dirs[:] = kept
        os.makedirs(os.path.join(workdir, rel_root), exist_ok=True)
        for name in sorted(files):
            path, rel = os.path.join(root, name), os.path.normpath(os.path.join(rel_root, name))
            rule = _removal_rule(path, rel, case, truth, patterns)
            if rule:
                removed.append({"path": rel, "rule": rule})
            else:
                shutil.copy2(path, os.path.join(workdir, rel))
    return removed


def _grep(workdir: str, truth: dict, scratch: str) -> dict:
    """The same scan by GNU grep, when there is one: its empty answer is the proof a reader
    can repeat (`grep -r -F -i -l -f TERMS WORKDIR`, exit status 1 = nothing found)."""
    grep = shutil.which("grep")
    if not grep:
        return {"available": False}
    terms_file = os.path.join(scratch, "terms.txt")
    with open(terms_file, "w") as handle:
        handle.write("\n".join(truth["terms"]) + "\n")
    runs = [[grep, "-r", "-F", "-i", "-l", "-f", terms_file, workdir]]
    if truth["values"]:
        values_file = os.path.join(scratch, "values.txt")
        with open(values_file, "w") as handle:
            handle.write("\n".join(truth["values"]) + "\n")
        runs.append([grep, "-r", "-F", "-l", "-f", values_file, workdir])
    result = {"available": True, "runs": []}
    for command in runs:
        done = subprocess.run(command, capture_output=True, text=True)
        result["runs"].append(
            {
                "command": " ".join(
                    os.path.basename(c) if c.startswith(scratch) else c for c in command
                ),
                "exitStatus": done.returncode,
                "files": done.stdout.splitlines(),
            }
        )
    return result


def isolate(
    case_id: str,
    project: str,
    workdir: str,
    rulebook: str | None = None,
    cases_dir: str = "cases",
    remove: tuple = (),
) -> dict:
    """Make the working copy, prove it clean, write the proof; IsolationBreach on any trace."""
    project, workdir = os.path.abspath(project), os.path.abspath(workdir)
    _check_folders(project, workdir)
    case, all_cases = find_case(project, case_id, cases_dir)
    truth = truth_of(case, all_cases)
    # A pointer back to the project is a way back to the truth (an editable install, a log).
    truth["terms"] += sorted({project, os.path.realpath(project)})
    rulebook_text = None
    if rulebook:
        with open(rulebook, encoding="utf-8") as handle:
            rulebook_text, sections = evidence_free(handle.read(), rulebook)
    removed = _copy_without_truth(project, workdir, case, truth, tuple(remove))
    proof = {
        "schema": SCHEMA,
        "case": case.id,
        "project": project,
        "workingCopy": workdir,
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "deletionRules": [{"rule": r, "what": w} for r, w in DELETION_RULES],
        "removePatterns": list(remove),
        "removed": removed,
    }
    if rulebook_text is not None:
        real = os.path.realpath(rulebook)
        inside = os.path.commonpath([real, os.path.realpath(project)]) == os.path.realpath(project)
        rel = os.path.relpath(real, os.path.realpath(project)) if inside else os.path.basename(real)
        with open(os.path.join(workdir, rel), "w", encoding="utf-8") as handle:
            handle.write(rulebook_text)
        proof["rulebook"] = {
            "source": rulebook,
            "copiedTo": rel,
            "evidenceSectionsRemoved": sections,
        }
    files = _files_of(workdir)
    hits = [
        dict(hit, path=os.path.relpath(path, workdir))
        for path in files
        for hit in _hits(path, truth)
    ]
    proof_path = workdir.rstrip(os.sep) + ".isolation.json"
    scratch = proof_path + ".d"
    os.makedirs(scratch, exist_ok=True)
    try:
        grep = _grep(workdir, truth, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    grep_hits = [f for run in grep.get("runs", []) for f in run["files"]]
    # Exit status 1 is grep's "nothing found"; 2 is an error, which proves nothing.
    grep_failed = [r["command"] for r in grep.get("runs", []) if r["exitStatus"] not in (0, 1)]
    proof["scan"] = {
        "files": len(files),
        "bytes": sum(os.path.getsize(p) for p in files),
        "terms": truth["terms"],
        "values": truth["values"],
        "sharedNamesNotScanned": truth["sharedNamesNotScanned"],
        "zipMembersScanned": True,
        "hits": hits,
        "grep": grep,
    }
    clean = not hits and not grep_hits and not grep_failed
    proof["status"] = "clean" if clean else "aborted"
    if not clean:
        shutil.rmtree(workdir, ignore_errors=True)
        proof["workingCopyRemoved"] = True
    with open(proof_path, "w", encoding="utf-8") as handle:
        json.dump(proof, handle, indent=2, sort_keys=True)
        handle.write("\n")
    proof["proofPath"] = proof_path
    if grep_failed:
        raise IsolationBreach(
            f"the grep proof failed ({grep_failed[0]}); the working copy was removed; "
            f"see {proof_path}"
        )
    if not clean:
        where = sorted({h["path"] for h in hits} | {os.path.relpath(f, workdir) for f in grep_hits})
        raise IsolationBreach(
            f"traces of case {case.id} remain in {len(where)} file(s) ({', '.join(where[:5])}"
            f"{', ...' if len(where) > 5 else ''}); the working copy was removed; see {proof_path}"
        )
    return proof
