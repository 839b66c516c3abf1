# SPDX-License-Identifier: LGPL-2.1-or-later
"""The whole five-metric job on real parts, as `cadbench score --case` runs it: a fresh
scoring child (start-up, kernel self-test, both files read, every metric), timed from the
parent, per stage and in all, wall and CPU (the child and every process it starts).

Each part is a moved copy of a public NIST part scored against its case: FTC-06's bundled
case, and for FTC-08 and CTC-01 a case made here whose targets are the reference's distinct
diameters and radii (a drafter's set, so the drawing has the work a real case gives).
Four jobs per part, measured in the same run:

- ``ahead, cold``: as shipped, the reference never drawn before (a first scoring);
- ``ahead, warm``: the reference's drawing served from the cache (every later candidate of
  a campaign);
- ``serial, cold``: CADBENCH_SERIAL_STAGES=1, the drawings made in the scoring process
  after the other metrics -- the baseline of drawing ahead in a child;
- ``shape only``: ``--only shape``, the same child with the shape stage alone -- the floor
  of the whole job while shape is its critical path.

Ratios: every job's wall against ``shape only`` and ``serial, cold``, and against
CADGenBench's published 25-39 s per pair (tools/bench.py PEER_SECONDS). The machine may be
shared: the load average at each job is printed beside it, and CPU seconds with it: in all
(the child and every process it started), and on the main path (the scoring process and
the exact-boolean child it waits for, the drawing child left out): the job's wall on an
idle machine with a core for each process.
"""

import os
import resource
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
NIST = os.path.join(ROOT, "tests", "data", "nist")
BUNDLED = (("nist_ftc_06", os.path.join(ROOT, "cases", "nist_ftc_06")),)
GENERATED = (
    ("nist_ftc_08", "nist_ftc_08_asme1_rc.stp"),
    ("nist_ctc_01", "nist_ctc_01_asme1_rd.stp"),
)
MAX_TARGETS = 24


def _moved(fc, solid):
    """As tools/bench.py moves its copies: 23 degrees about a skew axis, then shifted."""
    turned = solid.copy()
    turned.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
    turned.translate(fc.Vector(5, 7, 9))
    return turned


def _case_of(folder: str, case_id: str, source: str) -> str:
    """A case folder for a NIST part: its STEP and targets read off its spectrum."""
    import numpy as np
    import Part

    from cadbench_wb.app.dimensions.spectrum import spectrum_of

    case_dir = os.path.join(folder, case_id)
    os.makedirs(case_dir)
    shutil.copy(source, case_dir)
    spectrum = spectrum_of(Part.read(source).Solids[0])
    targets = []
    for kind in ("diameter", "radius"):
        values = np.unique(np.round(spectrum.values(kind), 3))
        targets += [(kind, float(v)) for v in values]
    keep = np.unique(np.linspace(0, len(targets) - 1, min(MAX_TARGETS, len(targets))).astype(int))
    lines = [
        f"  - {{id: T{n}, kind: {targets[i][0]}, value: {targets[i][1]}}}"
        for n, i in enumerate(keep, 1)
    ]
    with open(os.path.join(case_dir, "case.yaml"), "w", encoding="utf-8") as handle:
        handle.write(
            f"id: {case_id}\ntitle: {case_id} (bench)\nreference: {os.path.basename(source)}\n"
            "dimensions:\n" + "\n".join(lines) + "\n"
        )
    return case_dir


def _job(case_dir: str, candidate: str, only=None, serial=False, cache=None) -> dict:
    """One whole job in a fresh child: wall and CPU seconds, the result."""
    from cadbench_wb.case_model import cases
    from cadbench_wb.runtime import runner
    from cadbench_wb.runtime.outcome import Job, Options, case_data_of

    case = cases.load_case(case_dir)
    job = Job(
        "score",
        case.reference_path,
        candidate,
        Options(only=tuple(only) if only else None),
        case.path,
        case_data=case_data_of(case),
    )
    saved = {k: os.environ.get(k) for k in ("CADBENCH_SERIAL_STAGES", "XDG_CACHE_HOME")}
    os.environ["CADBENCH_SERIAL_STAGES"] = "1" if serial else "0"
    os.environ["XDG_CACHE_HOME"] = cache
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        result = runner.run_job(job).result
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "load": load, "result": result}


def _row(name: str, faces: int, runs: dict) -> dict:
    from bench import PEER_SECONDS

    shape_only = runs["shape only"]["wall_s"]
    serial = runs["serial, cold"]["wall_s"]
    row = {"part": name, "faces": faces, "jobs": {}}
    for label, run in runs.items():
        result = run["result"]
        timing = {k: v for k, v in result["timing"].items() if k != "total"}
        row["jobs"][label] = {
            "wall_s": run["wall_s"],
            "cpu_s": run["cpu_s"],
            "load": run["load"],
            "in_child_s": result["timing"].get("total"),
            "stages_s": timing,
            "ratio_shape_only": run["wall_s"] / shape_only,
            "ratio_serial_cold": run["wall_s"] / serial,
            "ratio_peer": [run["wall_s"] / PEER_SECONDS[0], run["wall_s"] / PEER_SECONDS[1]],
            "figures": {
                m: result.get(m)
                for m in ("shapeIoU", "dimensionRecall", "semanticMatch", "drawingMatch")
            },
        }
        # Every CPU second of the job but the drawing child's: its critical path (start-up,
        # the scoring process and the exact-boolean child it waits for; the drawing child
        # runs beside them) -- the job's wall on an idle machine.
        main_path = run["cpu_s"] - timing.get("drawing_child_cpu", 0.0)
        row["jobs"][label]["cpu_main_path_s"] = main_path
        stages = {k: v for k, v in timing.items() if not k.startswith("cpu_") and k != "process"}
        slowest = sorted(stages.items(), key=lambda kv: -kv[1])[:6]
        print(
            f"{name:12} {faces:4d} faces  {label:13} wall {run['wall_s']:6.2f}s "
            f"cpu {run['cpu_s']:6.2f}s main path {main_path:6.2f}s (load {run['load']:4.1f})  "
            f"x shape-only "
            f"{run['wall_s'] / shape_only:4.2f}  x serial {run['wall_s'] / serial:4.2f}  x peer "
            f"{run['wall_s'] / PEER_SECONDS[0]:4.2f}-{run['wall_s'] / PEER_SECONDS[1]:4.2f}  "
            + " ".join(f"{k} {v:.2f}" for k, v in slowest),
            flush=True,
        )
    figures = {label: job["figures"] for label, job in row["jobs"].items() if label != "shape only"}
    row["same_figures"] = len({repr(f) for f in figures.values()}) == 1
    print(f"{name:12} same figures in every full job: {row['same_figures']}", flush=True)
    return row


def run(out_dir: str) -> dict:
    from cadbench_wb.case_model import cases
    from cadbench_wb.runtime.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    rows = []
    with tempfile.TemporaryDirectory(prefix="cadbench-whole-job-") as folder:
        parts = list(BUNDLED)
        for case_id, name in GENERATED:
            parts.append((case_id, _case_of(folder, case_id, os.path.join(NIST, name))))
        for case_id, case_dir in parts:
            case = cases.load_case(case_dir)
            solid = Part.read(case.reference_path).Solids[0]
            candidate = os.path.join(folder, f"{case_id}_moved.step")
            _moved(fc, solid).exportStep(candidate)
            caches = {k: tempfile.mkdtemp(dir=folder) for k in ("ahead", "serial", "shape")}
            runs = {
                "ahead, cold": _job(case_dir, candidate, cache=caches["ahead"]),
                "ahead, warm": _job(case_dir, candidate, cache=caches["ahead"]),
                "serial, cold": _job(case_dir, candidate, serial=True, cache=caches["serial"]),
                "shape only": _job(case_dir, candidate, only=["shape"], cache=caches["shape"]),
            }
            rows.append(_row(case_id, len(solid.Faces), runs))
    return {"rows": rows}
