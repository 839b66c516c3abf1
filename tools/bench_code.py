# SPDX-License-Identifier: LGPL-2.1-or-later
"""`make bench` (code): a generated-code campaign on the local pool and on a real Dask
LocalCluster, measured in CPU seconds and pairs per second, beside a peer harness.

--pairs N (default 100) scripts over N / D cases, D the dialects at hand: FreeCAD Python
always, CadQuery too when its environment exists (make setup-code). Each case is a block with
a hole (sizes from the case number); per ten cases one script is 10 % too long, one a
syntax error, one raises, one leaves no result, one builds through document objects, one
is moved off the origin: a mixed sample. `cadbench run --workers 2 --only shape` runs each
script in the bubblewrap sandbox and scores its model, once on the local pool and once with
`--scheduler` on a dask.distributed LocalCluster of 2 single-thread worker processes (the
scripts run where `cadbench run` runs, the cluster scores). CPU: getrusage(RUSAGE_CHILDREN)
of `cadbench run`, plus the scripts' own CPU as each sandboxed harness measured it (bwrap's
PID 1 reaps them, so getrusage misses it), plus, on Dask, the CPU of the cluster's process
tree over the campaign (psutil). Beside them, in the same run, a peer harness as the field
writes them (CADBench's: every script exec'd in one unsandboxed process of its dialect, its
result tessellated and a Chamfer distance taken against the reference's tessellation): the
figures are also given as ratios to it. Skipped, with the reason, without the sandbox.

    python tools/bench_code.py [--pairs N] [--where local,dask] [OUT]
"""

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
PAIRS = 100
WHERE = ("local", "dask")
WORKERS = 2
IDLE_S = 10.0  # the idle cluster's CPU is measured over this long before its campaign

CADQUERY = """import cadquery as cq
{bad}result = cq.Workplane("XY").box({x}, {y}, {z}).faces(">Z").workplane().hole({d})
{moved}"""
CADQUERY_MOVED = "result = result.translate((7, -3, 2))\n"
FREECAD = """import FreeCAD as App
import Part
{bad}box = Part.makeBox({x}, {y}, {z}, App.Vector({ox}, {oy}, {oz}))
result = box.cut(Part.makeCylinder({r}, {z}, App.Vector(0, 0, {oz})))
{moved}"""
FREECAD_MOVED = "result.translate(App.Vector(7, -3, 2))\n"
# Built through document objects, as FreeCAD macros do: no `result`, the document's shapes.
FREECAD_DOCUMENT = """import FreeCAD as App
doc = App.newDocument("part")
box = doc.addObject("Part::Box", "Box")
box.Length, box.Width, box.Height = {x}, {y}, {z}
box.Placement.Base = App.Vector({ox}, {oy}, {oz})
hole = doc.addObject("Part::Cylinder", "Hole")
hole.Radius, hole.Height = {r}, {z}
hole.Placement.Base = App.Vector(0, 0, {oz})
cut = doc.addObject("Part::Cut", "Cut")
cut.Base, cut.Tool = box, hole
doc.recompute()
"""
# Per case number modulo 10: what is wrong with the script (the same for every dialect).
FAULTS = {
    3: "long",  # 10 % too long in x: delivered, scored below 1
    5: "raise ValueError('a generated mistake')\n",
    6: "no result",
    7: "x = (\n",  # a syntax error
    8: "document",  # FreeCAD: document objects instead of `result`
    9: "moved",  # translated off the reference's frame
}
PEER = r"""
import glob, os, resource, sys
import numpy as np
from scipy.spatial import cKDTree
dialect = sys.argv[3]
if dialect == "cadquery":
    import cadquery as cq
else:
    sys.path.append(sys.argv[4])
    import FreeCAD, Part

def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime

def points(vertices, triangles, rng, n=8192):
    t = vertices[triangles]
    area = 0.5 * np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1)
    k = rng.choice(len(t), n, p=area / area.sum())
    r1, r2 = np.sqrt(rng.random(n))[:, None], rng.random(n)[:, None]
    return (1 - r1) * t[k, 0] + r1 * (1 - r2) * t[k, 1] + r1 * r2 * t[k, 2]

def mesh(path):
    data = np.load(path)
    return data["vertices"], data["triangles"]

def shape_of(env):
    if dialect == "cadquery":
        return env["result"].val()
    shape = env.get("result")
    if shape is None and FreeCAD.ActiveDocument is not None:
        objects = [o for o in FreeCAD.ActiveDocument.Objects if not o.InList]
        shape = Part.makeCompound([o.Shape for o in objects])
    return shape

imported = cpu()  # the interpreter's start and the imports above
times, ok = [], 0
for script in sorted(glob.glob(os.path.join(sys.argv[1], "*.py"))):
    t0 = cpu()
    env = {"__name__": "__main__"}
    try:
        exec(open(script).read(), env)
        v, f = shape_of(env).tessellate(0.05)
        cand = (np.array([p.toTuple() if hasattr(p, 'toTuple') else tuple(p) for p in v]),
                np.array(f))
        ref = mesh(os.path.join(sys.argv[2], os.path.basename(script)[:-3] + ".npz"))
        rng = np.random.default_rng(0)
        a, b = points(*ref, rng), points(*cand, rng)
        cd = cKDTree(b).query(a)[0].mean() + cKDTree(a).query(b)[0].mean()
        ok += 1
    except Exception:
        pass
    if dialect == "freecad":
        for name in list(FreeCAD.listDocuments()):
            FreeCAD.closeDocument(name)
    times.append(cpu() - t0)
print({"import": imported, "perPair": sum(times) / max(1, len(times)), "ok": ok,
       "pairs": len(times)})
"""


def _dims(i: int) -> tuple:
    return 20 + 3 * (i % 7), 12 + 2 * (i % 5), 4 + (i % 4), 3 + 0.5 * (i % 6)


def _script(dialect: str, i: int) -> str:
    x, y, z, d = _dims(i)
    fault = FAULTS.get(i % 10, "")
    x = x * 1.1 if fault == "long" else x
    bad = fault if fault.endswith("\n") else ""
    if dialect == "cadquery":
        moved = CADQUERY_MOVED if fault == "moved" else ""
        source = CADQUERY.format(bad=bad, x=x, y=y, z=z, d=d, moved=moved)
    elif fault == "document":
        source = FREECAD_DOCUMENT.format(x=x, y=y, z=z, ox=-x / 2, oy=-y / 2, oz=-z / 2, r=d / 2)
    else:
        moved = FREECAD_MOVED if fault == "moved" else ""
        source = FREECAD.format(
            bad=bad, x=x, y=y, z=z, ox=-x / 2, oy=-y / 2, oz=-z / 2, r=d / 2, moved=moved
        )
    return source + ("result = None\n" if fault == "no result" else "")


def _build(root: str, part, fc, cases: int, dialects: tuple) -> tuple[str, str, str]:
    """cases/<case>/ (a block with a hole as STEP), submissions/<dialect>/run1/<case>.py and
    meshes/<case>.npz (the reference's tessellation at 0.05, for the peer harness)."""
    case_root, subs, meshes = (os.path.join(root, n) for n in ("cases", "submissions", "meshes"))
    for folder in (case_root, meshes):
        os.makedirs(folder)
    for i in range(cases):
        case_id = f"block{i:04d}"
        x, y, z, d = _dims(i)
        folder = os.path.join(case_root, case_id)
        os.makedirs(folder)
        solid = part.makeBox(x, y, z, fc.Vector(-x / 2, -y / 2, -z / 2))
        solid = solid.cut(part.makeCylinder(d / 2, z, fc.Vector(0, 0, -z / 2)))
        solid.exportStep(os.path.join(folder, "reference.step"))
        points, facets = solid.tessellate(0.05)
        np.savez(
            os.path.join(meshes, f"{case_id}.npz"),
            vertices=np.array([(p.x, p.y, p.z) for p in points]),
            triangles=np.array(facets),
        )
        with open(os.path.join(folder, "case.yaml"), "w") as handle:
            handle.write(f"id: {case_id}\ntitle: block {i}\nreference: reference.step\n")
            handle.write("group: blocks\nanchoring: false\n")
        for dialect in dialects:
            run = os.path.join(subs, dialect, "run1")
            os.makedirs(run, exist_ok=True)
            with open(os.path.join(run, f"{case_id}.py"), "w") as handle:
                handle.write(_script(dialect, i))
    return case_root, subs, meshes


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _idle_cpu_rate(seconds: float = IDLE_S) -> float:
    """CPU seconds per second an idle cluster spends (heartbeats, memory monitors): its
    share of the campaign's cluster CPU is this times the campaign's wall time."""
    tree0, self0 = _tree_cpu(), _own_cpu()
    time.sleep(seconds)
    return (_tree_cpu() - tree0 + _own_cpu() - self0) / seconds


def _tree_cpu() -> float:
    """CPU of this process's live descendants and of every child they reaped (a Dask
    cluster's nannies, workers and the scoring processes the workers keep)."""
    import psutil

    total = 0.0
    for process in psutil.Process().children(recursive=True):
        try:
            t = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def peer(dialect: str, scripts: str, meshes: str) -> dict:
    """The peer harness on one dialect's scripts: its CPU per pair (import apart), its
    wall time and the pairs per second that gives."""
    from cadbench_wb.code import dialects as code_dialects

    python = code_dialects.interpreter_of(dialect)[0]
    started, wall = _children_cpu(), time.monotonic()
    done = subprocess.run(
        [python, "-c", PEER, scripts, meshes, dialect, code_dialects.freecad_lib()],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    wall = time.monotonic() - wall
    figures = eval(done.stdout.strip().splitlines()[-1])  # our own dict
    figures.update(
        cpuSeconds=round(_children_cpu() - started, 2),
        wallSeconds=round(wall, 2),
        pairsPerSecond=round(figures["pairs"] / wall, 3),
    )
    return figures


def _campaign(where: str, cases: str, subs: str, out: str, scheduler: str | None) -> dict:
    """One `cadbench run` of every script: wall, CPU (see the module's docstring), counts."""
    args = ["run", "--cases", cases, "--submissions", subs, "--out", out, "--only", "shape"]
    args += ["--workers", str(WORKERS)] + (["--scheduler", scheduler] if scheduler else [])
    tree0, cpu0, self0, wall0 = _tree_cpu(), _children_cpu(), _own_cpu(), time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", *args], cwd=ROOT, capture_output=True, text=True
    )
    wall = time.monotonic() - wall0
    client_cpu = _children_cpu() - cpu0
    # The cluster's processes outlive the run (the tree then is only the cluster's); its
    # scheduler runs in this process, which does nothing else meanwhile.
    cluster_cpu = _tree_cpu() - tree0 + _own_cpu() - self0 if scheduler else 0.0
    if done.returncode not in (0, 1):
        raise RuntimeError(f"cadbench run ({where}) ended {done.returncode}: {done.stderr[-2000:]}")
    with open(os.path.join(out, "results.json")) as handle:
        document = json.load(handle)
    with open(os.path.join(out, "timings.json")) as handle:
        stats = json.load(handle)
    executed = []
    for name in sorted(os.listdir(os.path.join(out, "executed"))):
        if name.endswith(".json"):
            with open(os.path.join(out, "executed", name)) as handle:
                executed.append(json.load(handle))
    code_cpu = sum(r.get("codeCpuSeconds") or 0 for r in executed)
    pairs = len(document["scorings"])
    cpu = client_cpu + cluster_cpu + code_cpu
    return {
        "where": where,
        "pairs": pairs,
        "scriptsExecuted": stats["codeExecutedNow"],
        "wallSeconds": round(wall, 1),
        "pairsPerSecond": round(pairs / wall, 3),
        "cpuSeconds": round(cpu, 1),
        "clientCpuSeconds": round(client_cpu, 1),
        "clusterCpuSeconds": round(cluster_cpu, 1),
        "scriptCpuSeconds": round(code_cpu, 1),
        "scriptWallSecondsSum": round(sum(r.get("codeSeconds") or 0 for r in executed), 1),
        "cpuSecondsPerPair": round(cpu / pairs, 3),
        "pairsPerCpuHour": round(3600 * pairs / cpu),
        "loadAverageAfter": round(os.getloadavg()[0], 1),
        "invalidRate": {s: e["invalidRate"]["rate"] for s, e in document["fieldFigures"].items()},
        "chamferDistanceMedian": {
            s: (e["chamferDistance"]["over"] or {}).get("median")
            for s, e in document["fieldFigures"].items()
        },
        "failures": {s: v["failures"] for s, v in document["summary"].items()},
    }


def _cluster(folder: str):
    from distributed import LocalCluster

    os.makedirs(folder, exist_ok=True)
    # Processes, not threads: the scheduler is reached over TCP as a remote one would be.
    return LocalCluster(
        n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None,
        local_directory=folder,
    )  # fmt: skip


def _ratios(figures: dict, peers: dict) -> dict:
    """cadbench's figures over the peer harness's on the same scripts (the peer's pairs
    per second in one process, cadbench's with 2 workers)."""
    pairs = sum(p["pairs"] for p in peers.values())
    peer_cpu = sum(p["cpuSeconds"] for p in peers.values())
    peer_wall = sum(p["wallSeconds"] for p in peers.values())
    return {
        "cpuPerPairOverPeer": round(figures["cpuSecondsPerPair"] / (peer_cpu / pairs), 1),
        "pairsPerSecondOverPeer": round(figures["pairsPerSecond"] / (pairs / peer_wall), 3),
    }


def run(out_dir: str, pairs: int = PAIRS, where: tuple = WHERE) -> dict:
    from cadbench_wb.code import dialects, sandbox
    from cadbench_wb.runtime.freecad_env import import_freecad

    why = sandbox.availability()
    if why:
        print(f"code: skipped: {why}")
        return {"skipped": why}
    chosen = ("freecad",)
    if os.path.exists(os.path.join(dialects.code_venv(), "bin", "python")):
        chosen = ("cadquery", "freecad")
    else:
        print(f"code: no CadQuery environment at {dialects.code_venv()}: FreeCAD Python only")
    import_freecad()
    import FreeCAD
    import Part

    root = os.path.join(out_dir, "code")
    shutil.rmtree(root, ignore_errors=True)
    cases = math.ceil(pairs / len(chosen))
    case_root, subs, meshes = _build(root, Part, FreeCAD, cases, chosen)
    peers = {d: peer(d, os.path.join(subs, d, "run1"), meshes) for d in chosen}
    figures = {"dialects": list(chosen), "cases": cases, "peer": peers, "campaigns": {}}
    for place in where:
        out = os.path.join(root, f"campaign_{place}")
        if place == "dask":
            cluster = _cluster(os.path.join(root, "dask-tmp"))
            try:
                idle = _idle_cpu_rate()
                measured = _campaign(place, case_root, subs, out, cluster.scheduler_address)
            finally:
                cluster.close()
            measured["clusterIdleCpuPerSecond"] = round(idle, 3)
            measured["clusterIdleCpuSecondsOfWall"] = round(idle * measured["wallSeconds"], 1)
        else:
            measured = _campaign(place, case_root, subs, out, None)
        measured.update(_ratios(measured, peers))
        measured["wall1000PairsSeconds"] = round(1000 * measured["wallSeconds"] / pairs)
        figures["campaigns"][place] = measured
        _print(measured)
    if len(figures["campaigns"]) == 2:
        local, dask = (os.path.join(root, f"campaign_{p}", "results.json") for p in where)
        with open(local, "rb") as a, open(dask, "rb") as b:
            figures["identicalResults"] = a.read() == b.read()
    for dialect, p in peers.items():
        print(
            f"  peer harness ({dialect}, one unsandboxed process: exec + tessellate + CD): "
            f"{p['perPair']:.3f} CPU s per pair after a {p['import']:.2f} s start, "
            f"{p['pairsPerSecond']:.2f} pairs/s, {p['ok']}/{p['pairs']} scored"
        )
    if "identicalResults" in figures:
        print(f"  local and Dask results.json identical: {figures['identicalResults']}")
    return figures


def _print(m: dict) -> None:
    print(
        f"code on {m['where']}: {m['pairs']} pairs ({m['scriptsExecuted']} scripts run in the "
        f"sandbox) in {m['wallSeconds']:.0f} s wall, {m['pairsPerSecond']:.2f} pairs/s "
        f"(x peer {m['pairsPerSecondOverPeer']:.2f}); {m['cpuSeconds']:.0f} CPU s (client "
        f"{m['clientCpuSeconds']:.0f}, cluster {m['clusterCpuSeconds']:.0f}, scripts "
        f"{m['scriptCpuSeconds']:.0f}): {m['cpuSecondsPerPair']:.2f} CPU s per pair "
        f"(x peer {m['cpuPerPairOverPeer']:.1f}), {m['pairsPerCpuHour']} pairs per CPU-hour; "
        f"1,000 pairs at this rate {m['wall1000PairsSeconds']} s wall; invalid rates "
        f"{m['invalidRate']}; load average {m['loadAverageAfter']}"
        + (
            f"; the idle cluster's share {m['clusterIdleCpuSecondsOfWall']:.0f} CPU s"
            if "clusterIdleCpuSecondsOfWall" in m
            else ""
        ),
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", nargs="?", default="out/bench", help="output folder")
    parser.add_argument("--pairs", type=int, default=PAIRS, help=f"scripts ({PAIRS})")
    parser.add_argument("--where", default=",".join(WHERE), help="local, dask or both")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    where = tuple(w for w in args.where.split(",") if w)
    figures = run(args.out, args.pairs, where)
    json.dump(figures, sys.stdout, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
