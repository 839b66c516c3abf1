# SPDX-License-Identifier: LGPL-2.1-or-later
"""The automatic case of a reference, made once and kept (`cadbench score REF CAND`
without `--case`, `cadbench run --references`).

Pure standard library: the scoring parent never imports FreeCAD. The case is written by
`cadbench case new` (app/cases/auto.py) in a child process, into a cache folder keyed by
the reference's sha256 and the stamp of the code that authors it, as the reference's
drawing is kept (~/.cache/cadbench/auto-cases). A reference that cannot be dimensioned
gives no case and a named reason; the metrics that need no targets still apply.
"""

import hashlib
import os
import shutil
import subprocess
import tempfile

import yaml

from cadbench_wb import __version__, standard
from cadbench_wb.errors import UsageError
from cadbench_wb.inputs import formats
from cadbench_wb.results import fingerprint
from cadbench_wb.results import result as results
from cadbench_wb.runtime import child_limits, freecad_env, runner

# The module that authors the targets: its import closure is the stamp of the cache key.
AUTHOR_MODULE = "cadbench_wb.app.cases.auto"
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cache_root() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cadbench", "auto-cases")


def authoring_stamp() -> str:
    """16 hex digits over the code that authors automatic targets (and the standard)."""
    return fingerprint.module_fingerprint(
        [AUTHOR_MODULE], {"standard": fingerprint.sealed_standard(), "version": __version__}
    )


def _kernel_stamp() -> str:
    """Which FreeCAD build authors the case, without importing it: face numbers (the
    targets' bindings) may differ between versions, so each keeps its own cases."""
    for folder in freecad_env.candidate_lib_dirs():
        for name in ("FreeCAD.so", "FreeCAD.pyd", "FreeCAD.dll"):
            path = os.path.join(folder, name)
            if os.path.exists(path):
                info = os.stat(path)
                return f"{os.path.realpath(path)}:{info.st_size}:{int(info.st_mtime)}"
    return "no FreeCAD found"


def case_fingerprint(case_file: str) -> str:
    """16 hex digits over case.yaml's bytes: which automatic targets a result was scored
    against."""
    with open(case_file, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:16]


def auto_case(
    reference: str, digest: str, timeout: float | None = None, memory_mb: int | None = None
) -> dict:
    """{"folder", "caseFile", "fingerprint", "cached"} of the reference's automatic case,
    made now when it is not kept yet; or {"failure": {reason, detail}} when it cannot be
    made (the scoring then has no targets, as with --no-auto-targets)."""
    timeout = timeout or standard.DEFAULT_TIMEOUT_S
    stamp = f"{digest}\0{authoring_stamp()}\0{_kernel_stamp()}"
    key = hashlib.sha256(stamp.encode()).hexdigest()[:24]
    folder = os.path.join(cache_root(), key)
    case_file = os.path.join(folder, "case.yaml")
    cached = os.path.isfile(case_file)
    if not cached:
        failure = _make(reference, folder, timeout, memory_mb or standard.DEFAULT_MEMORY_MB)
        if failure is not None:
            return {"failure": failure}
    return {
        "folder": folder,
        "caseFile": case_file,
        "fingerprint": case_fingerprint(case_file),
        "cached": cached,
    }


def _make(reference: str, folder: str, timeout: float, memory_mb: int) -> dict | None:
    """Run `cadbench case new` in a child into a staging folder and rename it in (two
    scorings of one reference at once leave one complete entry). None, or the failure.
    The child runs under the scoring's limits and dies with its parent, as a scoring
    child does (runtime/child_limits.py)."""
    parent = os.path.dirname(folder)
    try:
        os.makedirs(parent, exist_ok=True)
        staging = tempfile.mkdtemp(prefix=".staging-", dir=parent)
    except OSError as exc:
        return {"reason": "auto_case_unavailable", "detail": f"no writable cache: {exc}"}
    stem = os.path.splitext(os.path.basename(reference))[0]
    command = [runner.python_for_children(), "-m", "cadbench_wb", "case", "new", reference]
    command += ["--out", staging, "--id", stem, "--title", f"{stem} (automatic targets)"]
    try:
        process = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=child_limits.environment(runner.child_environment(), memory_mb, timeout),
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired:
        shutil.rmtree(staging, ignore_errors=True)
        return {"reason": "auto_case_unavailable", "detail": f"no case within {timeout:g} s"}
    try:
        if process.returncode != 0:
            lines = [ln for ln in (process.stderr or "").splitlines() if "cadbench case" in ln]
            detail = lines[-1].split(": ", 1)[-1] if lines else f"exit {process.returncode}"
            reason, _, rest = detail.partition(": ")
            if reason.replace("_", "").isalpha() and rest:
                return {"reason": reason, "detail": rest}
            return {"reason": "reference_not_dimensionable", "detail": detail}
        try:
            os.replace(staging, folder)
        except OSError:
            pass  # another scoring stored the same case first
        return None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


# The group automatic cases carry in a campaign (`cadbench run --references`): reports
# group cases by it, so they are shown apart from hand-written ones, as automatic.
CAMPAIGN_GROUP = "auto"


def campaign_cases(references: str, folder: str, timeout=None, memory_mb=None) -> list[str]:
    """`cadbench run --references DIR`: each DIR/<id>.<ext> a reference, its automatic
    case made once (kept as for `score`) and written to FOLDER/<id>/ (case.yaml in group
    `auto`, a copy of the reference). A reference that cannot be dimensioned gets a case
    without targets (the metrics that need none are scored) whose `auto.failure` says why.
    Returns one line per reference for the operator."""
    if not os.path.isdir(references):
        raise UsageError(f"--references {references}: no such folder")
    lines = []
    os.makedirs(folder, exist_ok=True)
    for name in sorted(os.listdir(references)):
        path = os.path.join(references, name)
        case_id, ext = os.path.splitext(name)
        if not os.path.isfile(path) or ext.lower() not in formats.FORMATS:
            continue
        info = auto_case(path, results.file_digest(path), timeout, memory_mb)
        target = os.path.join(folder, case_id)
        os.makedirs(target, exist_ok=True)
        shutil.copyfile(path, os.path.join(target, name))
        if "failure" in info:
            text = _targetless_case(case_id, name, info["failure"])
            lines.append(f"{case_id}: no automatic targets: {info['failure']['reason']}")
        else:
            with open(info["caseFile"], encoding="utf-8") as handle:
                text = handle.read()
            text = text.replace(f"\nreference: {name}\n", f"\nreference: {name}\ngroup: auto\n", 1)
            lines.append(f"{case_id}: automatic case {info['fingerprint']}")
        with open(os.path.join(target, "case.yaml"), "w", encoding="utf-8") as handle:
            handle.write(text)
    return lines


def _targetless_case(case_id: str, name: str, failure: dict) -> str:
    data = {
        "id": case_id,
        "title": f"{case_id} (no automatic targets)",
        "reference": name,
        "group": CAMPAIGN_GROUP,
        "auto": {"failure": failure},
    }
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
