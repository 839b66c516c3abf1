# SPDX-License-Identifier: LGPL-2.1-or-later
"""Whole scorings of threaded pairs (issue 11: "a threaded pair under 10 s"), every metric
the pair has, against the seed's plain four-boolean IoU of the same pair and against
CADGenBench's published 25-39 s per pair (bench.PEER_SECONDS).

Pairs: the bundled thread cases (PartDesign M8 bolt, M10 nut: five metrics each) and
third-party bd_warehouse fixtures (tests/data/threads: shape, features and threads; no
drawing targets without a case).

Per pair:
1. the whole `cadbench score` as a user runs it (parent and scoring child, start-up and
   imports included): wall seconds and CPU seconds of both processes. CPU seconds are the
   idle-equivalent figure on this shared machine (wall grows with the load, CPU hardly);
2. per-stage CPU seconds of the same scoring run in this process (stage functions wrapped);
3. the baseline, in the same run: seed 002's plain four booleans (common, fuse, two cuts) on
   the same two files in a child process, stopped at BASELINE_CAP_S of wall clock.
The reference drawings and the reference's checked volumes (app/model/reference_facts.py) are
cached in a folder of this bench (step 2 fills it), so step 1 times a scoring as a campaign
sees it: the reference drawn and checked once per case, not per pair (step 2 of a case's
first pair scores with nothing cached).
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
THREADS = os.path.join(ROOT, "tests", "data", "threads")
PEER_SECONDS = (25.0, 39.0)  # as bench.PEER_SECONDS (CADGenBench, all metrics per pair)
TARGET_SECONDS = 10.0  # issue 11: a threaded pair under 10 s
# The scorer's own safety net for exact booleans (standard.CROSS_CHECK exact_safety_net_cpu_s):
# a baseline still running then is reported as at least that long.
BASELINE_CAP_S = 90.0
FIGURES = ("shapeIoU", "dimensionRecall", "semanticMatch", "threadMatch", "drawingMatch")

_BASELINE = """
import sys, time
from cadbench_wb.runtime.freecad_env import import_freecad
import_freecad()
import Part
import json
import FreeCAD
a, b = (Part.read(p).Solids[0] for p in sys.argv[1:3])
import numpy as np
r, t = json.loads(sys.argv[3])
u, _, vt = np.linalg.svd(np.array(r))  # the JSON's rounded rotation, made orthonormal again
r = u @ vt
b.transformShape(FreeCAD.Matrix(*r[0], t[0], *r[1], t[1], *r[2], t[2], 0, 0, 0, 1))
start = time.process_time()
common = a.common(b).Volume
union = a.fuse(b).Volume
a.cut(b), b.cut(a)
print(common / union if union else 0.0, time.process_time() - start)
"""


def _pairs(folder: str) -> list[dict]:
    """(name, case folder or None, reference, candidate) of every benched pair."""
    from cadbench_wb.runtime.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    nut = os.path.join(THREADS, "bd_m8_nut_rh_chamfer.step")
    moved = os.path.join(folder, "bd_m8_nut_rh_chamfer_moved.step")
    solid = Part.read(nut).Solids[0]
    solid.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
    solid.translate(fc.Vector(5, 7, 9))
    solid.exportStep(moved)
    bolt, nut_case = (
        os.path.join(ROOT, "cases", "thread_bolt_m8"),
        os.path.join(ROOT, "cases", "thread_nut_m10"),
    )
    return [
        ("M8 bolt case, moved copy", bolt, "candidates/right_thread_moved.step"),
        ("M8 bolt case, M8x1 pitch", bolt, "candidates/wrong_pitch_m8x1.step"),
        ("M10 nut case, moved copy", nut_case, "candidates/right_thread_moved.step"),
        (
            "bd M6x1 stud rh fade vs lh square",
            None,
            (
                os.path.join(THREADS, "bd_m6x1_stud_rh_fade.step"),
                os.path.join(THREADS, "bd_m6x1_stud_lh_square.step"),
            ),
        ),
        ("bd M8 nut, moved copy", None, (nut, moved)),
    ]


def _files(case_dir, candidate):
    from cadbench_wb.case_model import cases
    from cadbench_wb.case_model.building import ensure_built

    if case_dir is None:
        return None, candidate[0], candidate[1]
    case = cases.load_case(case_dir)
    ensure_built(case)
    return case, case.reference_path, os.path.join(case_dir, candidate)


def _stage_cpu(case, reference: str, candidate: str) -> tuple[dict, dict, float]:
    """The scoring in this process: its result, CPU seconds per stage, CPU in all."""
    from cadbench_wb.app import scoring

    stages = {}
    original = scoring.stage_functions

    def timed(requested=None):
        chosen = original() if requested is None else original(requested)
        return [(metric, _cpu_timed(measure, metric.name, stages)) for metric, measure in chosen]

    load, align = scoring.loading.load_model, scoring.alignment_mod.align
    scoring.stage_functions = timed
    scoring.loading.load_model = _cpu_timed(load, "load", stages)
    scoring.alignment_mod.align = _cpu_timed(align, "alignment", stages)
    try:
        start = time.process_time()
        result = scoring.score_files(reference, candidate, {}, case=case)
        total = time.process_time() - start
    finally:
        scoring.stage_functions = original
        scoring.loading.load_model, scoring.alignment_mod.align = load, align
    return result, stages, total


def _cpu_timed(function, name: str, stages: dict):
    """function, adding the CPU seconds of each call to stages[name]."""

    def run(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            stages[name] = stages.get(name, 0.0) + time.process_time() - start

    return run


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _whole_command(case_dir, reference: str, candidate: str, out: str) -> tuple[float, float]:
    """Wall and CPU seconds of `cadbench score` (parent and child) on the pair."""
    command = [sys.executable, "-m", "cadbench_wb", "score", "--json", out]
    command += ["--case", case_dir, candidate] if case_dir else [reference, candidate]
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
    return time.perf_counter() - start, _children_cpu() - cpu


def _baseline(reference: str, candidate: str, pose: dict) -> dict:
    """Seed 002's plain four booleans on the two files, the candidate in the pose the
    scoring aligned it to (the pair the exact route would be given), in a child stopped at
    the cap."""
    cpu, start = _children_cpu(), time.perf_counter()
    placed = json.dumps([pose["rotation"], pose["translation"]])
    try:
        done = subprocess.run(
            [sys.executable, "-c", _BASELINE, reference, candidate, placed],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=BASELINE_CAP_S,
        )
        iou, booleans_cpu = (float(x) for x in done.stdout.split()[-2:])
        capped = False
    except subprocess.TimeoutExpired:
        iou, booleans_cpu, capped = None, None, True
    except ValueError:  # the booleans raised: no baseline for this pair
        return {"failed": done.stderr.strip().splitlines()[-1:], "capped": False}
    return {
        "wall_s": time.perf_counter() - start,
        "cpu_s": _children_cpu() - cpu,
        "booleans_cpu_s": booleans_cpu,
        "iou": iou,
        "capped": capped,
    }


def run(out_dir: str) -> list[dict]:
    os.makedirs(out_dir, exist_ok=True)
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="cache-", dir=out_dir)
    rows = []
    with tempfile.TemporaryDirectory(prefix="cadbench-bench-") as folder:
        for name, case_dir, candidate in _pairs(folder):
            case, reference, candidate = _files(case_dir, candidate)
            result, stages, in_process = _stage_cpu(case, reference, candidate)
            out = os.path.join(folder, "score.json")
            wall, cpu = _whole_command(case_dir, reference, candidate, out)
            with open(out, encoding="utf-8") as handle:
                command_result = json.load(handle)
            baseline = _baseline(reference, candidate, result["shape"]["alignment"])
            slug = "".join(c if c.isalnum() else "_" for c in name.lower())
            with open(os.path.join(out_dir, f"pair_{slug}.json"), "w", encoding="utf-8") as handle:
                json.dump(command_result, handle, indent=1, sort_keys=True)
            rows.append(_row(name, result, command_result, stages, in_process, (wall, cpu)))
            rows[-1]["baseline_four_booleans"] = baseline
            # Capped: the baseline's CPU is a lower bound, so the ratio an upper bound.
            rows[-1]["ratio_cpu_to_baseline"] = (
                cpu / baseline["cpu_s"] if "cpu_s" in baseline else None
            )
            rows[-1]["ratio_is_upper_bound"] = baseline["capped"]
            _print(rows[-1])
    return rows


def _row(name, result, command_result, stages, in_process, measured) -> dict:
    wall, cpu = measured
    figures = {k: result.get(k) for k in FIGURES}
    return {
        "pair": name,
        "metrics": [k for k in FIGURES if result.get(k) is not None],
        "figures": figures,
        "same_figures_as_command": figures == {k: command_result.get(k) for k in FIGURES},
        "shape_method": result["shape"]["method"],
        "score_wall_s": wall,
        "score_cpu_s": cpu,
        "in_process_cpu_s": in_process,
        "stages_cpu_s": stages,
        "under_target_cpu": cpu < TARGET_SECONDS,
        "ratio_cpu_to_peer": [cpu / PEER_SECONDS[0], cpu / PEER_SECONDS[1]],
    }


def _print(row: dict) -> None:
    base = row["baseline_four_booleans"]
    if "failed" in base:
        base_text = f"failed ({base['failed']})"
    elif base["capped"]:
        base_text = f">= {base['cpu_s']:.1f}s cpu (stopped at {BASELINE_CAP_S:.0f}s wall)"
    else:
        base_text = f"{base['cpu_s']:.2f}s cpu (iou {base['iou']:.4f})"
    bound = "<=" if row["ratio_is_upper_bound"] else "x"
    print(
        f"{row['pair']:36} score cpu {row['score_cpu_s']:5.2f}s wall {row['score_wall_s']:5.2f}s"
        f"  x peer {row['ratio_cpu_to_peer'][0]:.2f}-{row['ratio_cpu_to_peer'][1]:.2f}"
        f"  baseline four booleans {base_text}"
        + (
            ""
            if row["ratio_cpu_to_baseline"] is None
            else f": {bound} {row['ratio_cpu_to_baseline']:.2f}"
        ),
        flush=True,
    )
    figures = " ".join(f"{k} {v:.4f}" for k, v in row["figures"].items() if v is not None)
    stages = " ".join(f"{k} {v:.2f}" for k, v in row["stages_cpu_s"].items())
    print(f"    {row['shape_method']}: {figures}\n    stages cpu: {stages}", flush=True)


if __name__ == "__main__":
    from bench import out_folder

    out = out_folder(__doc__, os.path.join(ROOT, "out", "bench", "threads"))
    print(json.dumps(run(out), indent=2, sort_keys=True, default=str))
