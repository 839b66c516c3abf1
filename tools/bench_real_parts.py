# SPDX-License-Identifier: LGPL-2.1-or-later
"""Real-part speed (issue 27): a moved copy of a public NIST part of 200-500 faces scored
against its case by `cadbench score --case` in a subprocess, in CPU seconds of the whole
process tree (RUSAGE_CHILDREN after it ended: the scoring child, its exact-boolean child and
its drawing-ahead child), shape only and all five metrics, each from a cold cache (a first
scoring: the reference never drawn before).

Targets: <= 10 CPU-s for shape, <= 20 CPU-s for all five; the ratios to them and to
CADGenBench's published 25-39 s per pair (tools/bench.py PEER_SECONDS) are printed in the
same run, with the CPU seconds of each stage (the result's cpu_<stage> timings of the
scoring process, the exact-boolean child's jobs, the drawing child, and the rest: start-up,
kernel self-test, hashing and writing the result). The copies are tests/app/
test_nist_copies.py's "moved" pose (tools/bench.py's _moved); the cases are
tools/bench_whole_job.py's (the part's distinct diameters and radii, at most 24). Each
result is kept in OUT/real_parts/ (to compare figures across runs: timing aside, the same).
"""

import json
import os
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
NIST = os.path.join(ROOT, "tests", "data", "nist")
PARTS = (("nist_ctc_04", "nist_ctc_04_asme1_rd.stp"), ("nist_ftc_10", "nist_ftc_10_asme1_rb.stp"))
TARGET_CPU_S = {"shape only": 10.0, "all five": 20.0}
CLI = os.path.join(os.path.dirname(sys.executable), "cadbench")


def _tree_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _job(case_dir: str, candidate: str, folder: str, only: str | None, out: str) -> dict:
    """One `cadbench score --case` in a subprocess, from a cache of its own (in folder):
    CPU of its process tree, the result (kept at out)."""
    env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(dir=folder))
    command = [CLI, "score", "--case", case_dir, candidate, "--json", out]
    before = _tree_cpu()
    done = subprocess.run(
        command + (["--only", only] if only else []), env=env, capture_output=True, cwd=ROOT
    )
    cpu = _tree_cpu() - before
    with open(out, encoding="utf-8") as handle:
        result = json.load(handle)
    return {"cpu_s": cpu, "status": done.returncode, "result": result}


def _stages(run: dict) -> dict:
    """CPU seconds per stage: the scoring process's cpu_<stage>, the exact child's jobs, the
    drawing child, and the rest of the tree (start-up, self-test, result)."""
    timing = run["result"]["timing"]
    stages = {k[4:]: v for k, v in timing.items() if k.startswith("cpu_") and k[4:] not in
              ("scoring", "children")}  # fmt: skip
    stages["exact child"] = timing.get("shape_exact_child_cpu", 0.0)
    stages["drawing child"] = timing.get("drawing_child_cpu", 0.0)
    stages["rest"] = run["cpu_s"] - sum(stages.values())
    return stages


def run(out_dir: str) -> dict:
    from bench import PEER_SECONDS, _moved
    from bench_whole_job import _case_of

    from cadbench_wb.runtime.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    rows = []
    os.makedirs(os.path.join(out_dir, "real_parts"), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cadbench-real-parts-") as folder:
        for case_id, name in PARTS:
            case_dir = _case_of(folder, case_id, os.path.join(NIST, name))
            solid = Part.read(os.path.join(NIST, name)).Solids[0]
            candidate = os.path.join(folder, f"{case_id}_moved.step")
            _moved(fc, solid).exportStep(candidate)
            for label, only in (("shape only", "shape"), ("all five", None)):
                kept = os.path.join(out_dir, "real_parts", f"{case_id}_{only or 'all'}.json")
                job = _job(case_dir, candidate, tempfile.mkdtemp(dir=folder), only, kept)
                stages = _stages(job)
                result = job["result"]
                row = {
                    "part": case_id,
                    "faces": len(solid.Faces),
                    "job": label,
                    "status": job["status"],
                    "cpu_s": job["cpu_s"],
                    "target_cpu_s": TARGET_CPU_S[label],
                    "ratio_target": job["cpu_s"] / TARGET_CPU_S[label],
                    "ratio_peer": [job["cpu_s"] / PEER_SECONDS[0], job["cpu_s"] / PEER_SECONDS[1]],
                    "stages_cpu_s": stages,
                    "figures": {
                        m: result.get(m)
                        for m in ("shapeIoU", "dimensionRecall", "semanticMatch", "drawingMatch")
                    },
                }
                rows.append(row)
                print(
                    f"{case_id:12} {len(solid.Faces):4d} faces  {label:10} cpu "
                    f"{job['cpu_s']:6.2f}s  x target ({TARGET_CPU_S[label]:g} s) "
                    f"{row['ratio_target']:4.2f}  x peer {row['ratio_peer'][0]:4.2f}-"
                    f"{row['ratio_peer'][1]:4.2f}  shapeIoU {result.get('shapeIoU')}  "
                    + " ".join(f"{k} {v:.2f}" for k, v in stages.items() if v >= 0.05),
                    flush=True,
                )
    return {"rows": rows}


if __name__ == "__main__":
    from bench import out_folder

    folder = out_folder(__doc__, "out/bench")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "real_parts.json"), "w", encoding="utf-8") as handle:
        json.dump(run(folder), handle, indent=2, sort_keys=True, default=str)
