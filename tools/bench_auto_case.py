# SPDX-License-Identifier: LGPL-2.1-or-later
"""`cadbench case new` on a 500-face part (issue 29: at most 30 s), and its output checked.

The part is NIST CTC-04 (tests/data/nist, 518 faces, PROVENANCE.md). Each command runs
as a user runs it, in a fresh process with empty caches (XDG_CACHE_HOME in a temporary
folder, so no drawing is reused), and is measured in CPU seconds of that process and its
children (user + sys: the machine is shared, wall time says little). Then `cadbench case
check` and `cadbench case verify` on the folder it wrote, with their exit statuses.
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PART = os.path.join(ROOT, "tests", "data", "nist", "nist_ctc_04_asme1_rd.stp")
# The bar for `cadbench case new` on a 500-face part.
BUDGET_S = 30.0


def _cli() -> list:
    return [sys.executable, "-m", "cadbench_wb"]


def _timed(args: list, env: dict) -> dict:
    """Exit status, CPU-s (user + sys of the child and its own children) and wall s."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = [line[:200] for line in (done.stdout + done.stderr).strip().splitlines()[-3:]]
    return {
        "status": done.returncode,
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
        "tail": tail,
    }


def run(out_dir: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="cadbench-bench-auto-") as work:
        env = {**os.environ, "XDG_CACHE_HOME": os.path.join(work, "cache")}
        folder = os.path.join(work, "ctc04")
        new = _timed([*_cli(), "case", "new", PART, "--out", folder, "--id", "ctc04"], env)
        check = _timed([*_cli(), "case", "check", folder], env)
        verify = _timed([*_cli(), "case", "verify", folder], env)
        targets = None
        if new["status"] == 0:
            import yaml

            with open(os.path.join(folder, "case.yaml"), encoding="utf-8") as handle:
                auto = yaml.safe_load(handle)["auto"]
            targets = {k: auto[k] for k in ("targets", "drawingSelfTest", "referenceCoverage")}
    row = {
        "part": os.path.basename(PART),
        "case_new": new,
        "case_check": check,
        "case_verify": verify,
        "auto": targets,
        "budget_cpu_s": BUDGET_S,
        "within_budget": new["status"] == 0 and new["cpu_s"] <= BUDGET_S,
    }
    for name in ("case_new", "case_check", "case_verify"):
        r = row[name]
        print(f"  {name:12s} exit {r['status']}  {r['cpu_s']:7.2f} CPU-s  {r['wall_s']:7.2f} s")
    print(f"  targets {targets}; within {BUDGET_S:g} CPU-s: {row['within_budget']}")
    with open(os.path.join(out_dir, "auto_case.json"), "w", encoding="utf-8") as handle:
        json.dump(row, handle, indent=2, sort_keys=True)
    return row


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench import out_folder

    out = out_folder(__doc__, "out/bench")
    os.makedirs(out, exist_ok=True)
    run(out)
