# SPDX-License-Identifier: LGPL-2.1-or-later
"""Whole scorings of threaded pairs (issue 11: "a threaded pair under 10 s"), every metric
the pair has, against the seed's plain four-boolean IoU of the same pair and against
CADGenBench's published 25-39 s per pair (bench.PEER_SECONDS).

Pairs: the bundled thread cases (PartDesign M8 bolt, M10 nut: five metrics each) and
third-party bd_warehouse fixtures (tests/data/threads: shape, features and threads; no
drawing targets without a case).

Pairs also: the M8 x 30 bolt pitch pair of tools/bench_threads.py (modeled threads, M8x1.25
against M8x1) scored without a case (its automatic targets, made once and kept).

Per pair:
1. the whole `cadbench score` as a user runs it (parent, scoring child and drawing child,
   after a first scoring that made a no-case pair's automatic case, whose CPU is shown too,
   start-up and imports included): wall seconds and CPU seconds of the process tree, split
   into the scoring child's own, its children's (the drawing child) and the rest (the
   parent); over TARGET_SECONDS (issue 27: a threaded pair in <= 10 CPU-s) as a ratio.
   CPU seconds are the idle-equivalent figure on this shared machine (wall grows with the
   load, CPU hardly);
2. per-stage CPU seconds of the same scoring run in this process (stage functions wrapped);
3. the baseline, in the same run: seed 002's plain four booleans (common, fuse, two cuts) on
   the same two files in a child process, stopped at BASELINE_CAP_S of wall clock.
Then the thread zone volumes of every modeled thread of the pairs' files (the threadMatch
stage's columns), by the polar culling threads/zone.py uses against the xy grid of
geometry/sampling.crossing_heights it replaced, in the same run: the CPU ratio, and whether
every column's crossings are the same.
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
TARGET_SECONDS = 10.0  # issues 11 and 27: a threaded pair in 10 CPU-s at most
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
    from cadbench_wb.app.cases import thread_models

    pitch_pair = []
    for pitch in (1.25, 1.0):
        pitch_pair.append(os.path.join(folder, f"bolt_m8x{pitch:g}.step"))
        thread_models.bolt(pitch=pitch).exportStep(pitch_pair[-1])
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
        ("M8x1.25 vs M8x1 bolt, no case", None, tuple(pitch_pair)),
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


def run(out_dir: str) -> dict:
    os.makedirs(out_dir, exist_ok=True)
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="cache-", dir=out_dir)
    rows, files = [], set()
    with tempfile.TemporaryDirectory(prefix="cadbench-bench-") as folder:
        for name, case_dir, candidate in _pairs(folder):
            case, reference, candidate = _files(case_dir, candidate)
            result, stages, in_process = _stage_cpu(case, reference, candidate)
            out = os.path.join(folder, "score.json")
            # Without a case, the first scoring of a reference makes its automatic case
            # (kept, as a campaign keeps it): timed apart, then a scoring as every later one.
            first = None if case_dir else _whole_command(None, reference, candidate, out)[1]
            wall, cpu = _whole_command(case_dir, reference, candidate, out)
            with open(out, encoding="utf-8") as handle:
                command_result = json.load(handle)
            baseline = _baseline(reference, candidate, result["shape"]["alignment"])
            slug = "".join(c if c.isalnum() else "_" for c in name.lower())
            with open(os.path.join(out_dir, f"pair_{slug}.json"), "w", encoding="utf-8") as handle:
                json.dump(command_result, handle, indent=1, sort_keys=True)
            rows.append(_row(name, result, command_result, stages, in_process, (wall, cpu)))
            files.update((reference, candidate))
            rows[-1]["baseline_four_booleans"] = baseline
            rows[-1]["first_score_cpu_s"] = first  # automatic case made: no-case pairs only
            # Capped: the baseline's CPU is a lower bound, so the ratio an upper bound.
            rows[-1]["ratio_cpu_to_baseline"] = (
                cpu / baseline["cpu_s"] if "cpu_s" in baseline else None
            )
            rows[-1]["ratio_is_upper_bound"] = baseline["capped"]
            _print(rows[-1])
        zones = zone_rows(sorted(files))
    return {"pairs": rows, "zone_volumes": zones}


def _row(name, result, command_result, stages, in_process, measured) -> dict:
    wall, cpu = measured
    figures = {k: result.get(k) for k in FIGURES}
    timing = command_result.get("timing", {})
    scoring_cpu, children_cpu = timing.get("cpu_scoring", 0.0), timing.get("cpu_children", 0.0)
    return {
        "score_cpu_split_s": {
            "scoring_child": scoring_cpu,
            "its_children": children_cpu,
            "parent_and_rest": cpu - scoring_cpu - children_cpu,
        },
        "ratio_cpu_to_target": cpu / TARGET_SECONDS,
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
    split = row["score_cpu_split_s"]
    first = row["first_score_cpu_s"]
    print(
        f"{row['pair']:36} score cpu {row['score_cpu_s']:5.2f}s"
        f" (x target {row['ratio_cpu_to_target']:.2f}: scoring {split['scoring_child']:.2f},"
        f" drawing {split['its_children']:.2f}, parent {split['parent_and_rest']:.2f})"
        f" wall {row['score_wall_s']:5.2f}s"
        f"{'' if first is None else f' (first, automatic case made: {first:.2f}s cpu)'}"
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


def zone_rows(paths: list[str]) -> list[dict]:
    """The zone volume of every modeled thread of the files, on the scoring's fine mesh, by
    zone.py's polar culling and by the xy grid it replaced (the same columns): CPU of each
    (the best of three) and whether the crossings are the same, column by column."""
    import numpy as np

    from cadbench_wb.runtime.freecad_env import import_freecad

    import_freecad()
    import Part

    from cadbench_wb import standard
    from cadbench_wb.app.model import meshing
    from cadbench_wb.app.recognition import threads
    from cadbench_wb.app.threads import zone
    from cadbench_wb.geometry import sampling

    rows = []
    for path in paths:
        shape = Part.read(path)
        deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * shape.BoundBox.DiagonalLength
        vertices, triangles = meshing.mesh_of(shape, deflection)
        for thread in threads.modeled_threads(shape):
            frame = zone.thread_frame(thread.axis, thread.start)
            local = (vertices - frame[:, 3]) @ frame[:, :3]
            inner, outer = thread.minor_diameter / 2, thread.major_diameter / 2
            rays, _areas = zone.zone_rays(inner, outer)
            flat = local[triangles][:, :, :2]
            over = triangles[
                np.all(flat.min(axis=1) <= outer, axis=1)
                & np.all(flat.max(axis=1) >= -outer, axis=1)
            ]
            corners = sampling._projectable(local[over])
            polar, polar_s = _best_cpu(zone._column_heights, rays, corners, inner, outer)
            grid, grid_s = _best_cpu(sampling.crossing_heights, rays, local, over)
            rows.append(
                {
                    "file": os.path.basename(path),
                    "triangles": len(over),
                    "polar_cpu_s": polar_s,
                    "xy_grid_cpu_s": grid_s,
                    "ratio_polar_to_grid": polar_s / grid_s if grid_s else None,
                    "same_crossings": bool(np.array_equal(polar, grid)),
                }
            )
            row = rows[-1]
            print(
                f"zone of {row['file']:34} {row['triangles']:6d} triangles: polar"
                f" {polar_s:.3f}s cpu, xy grid {grid_s:.3f}s: x {row['ratio_polar_to_grid']:.2f}"
                f"{'' if row['same_crossings'] else '  CROSSINGS DIFFER'}",
                flush=True,
            )
    return rows


def _best_cpu(function, *args, repeats: int = 3):
    """function(*args) and its least CPU seconds over repeats calls."""
    best = None
    for _ in range(repeats):
        start = time.process_time()
        result = function(*args)
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return result, best


if __name__ == "__main__":
    from bench import out_folder

    out = out_folder(__doc__, os.path.join(ROOT, "out", "bench", "threads"))
    print(json.dumps(run(out), indent=2, sort_keys=True, default=str))
