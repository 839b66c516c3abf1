# SPDX-License-Identifier: LGPL-2.1-or-later
"""`make bench` (code): a generated-code campaign on the local pool, measured in CPU seconds.

50 cases (blocks with a hole, sizes from the case number) x 2 systems, one of CadQuery
scripts and one of FreeCAD-Python scripts: 100 pairs, some exact, some off by 10 %, some
failing on purpose (a syntax error, an exception, no result). `cadbench run --workers 2
--only shape` runs each script in the bubblewrap sandbox and scores its model; the CPU of
everything it starts is read from getrusage(RUSAGE_CHILDREN). Beside it, in the same run, a
peer harness as the field writes them (CADBench's: every script exec'd in one unsandboxed
CadQuery process, its result tessellated and a Chamfer distance taken against the
reference's STL) on the same CadQuery scripts. Skipped, with the reason, when the CadQuery
environment (make setup-code) or the sandbox is absent.
"""

import json
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
CASES = 50

CADQUERY = """import cadquery as cq
{bad}result = cq.Workplane("XY").box({x}, {y}, {z}).faces(">Z").workplane().hole({d})
"""
FREECAD = """import FreeCAD as App
import Part
{bad}box = Part.makeBox({x}, {y}, {z}, App.Vector({ox}, {oy}, {oz}))
result = box.cut(Part.makeCylinder({r}, {z}, App.Vector(0, 0, {oz})))
"""
PEER = r"""
import glob, os, resource, sys, time
import numpy as np
from scipy.spatial import cKDTree
import cadquery as cq

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

started = cpu()
times, ok = [], 0
for script in sorted(glob.glob(os.path.join(sys.argv[1], "*.py"))):
    t0 = cpu()
    env = {"__name__": "__main__"}
    try:
        exec(open(script).read(), env)
        shape = env["result"].val()
        v, f = shape.tessellate(0.05)
        cand = (np.array([p.toTuple() for p in v]), np.array(f))
        ref = mesh(os.path.join(sys.argv[2], os.path.basename(script)[:-3] + ".npz"))
        rng = np.random.default_rng(0)
        a, b = points(*ref, rng), points(*cand, rng)
        cd = cKDTree(b).query(a)[0].mean() + cKDTree(a).query(b)[0].mean()
        ok += 1
    except Exception:
        pass
    times.append(cpu() - t0)
print({"import": t0 - started if times else 0.0, "perPair": sum(times) / len(times), "ok": ok, "pairs": len(times)})
"""


def _dims(i: int) -> tuple:
    return 20 + 3 * (i % 7), 12 + 2 * (i % 5), 4 + (i % 4), 3 + 0.5 * (i % 6)


def _build(root: str, part, fc) -> tuple[str, str, str]:
    cases, subs, meshes = (os.path.join(root, n) for n in ("cases", "submissions", "meshes"))
    for folder in (cases, meshes):
        os.makedirs(folder)
    for i in range(CASES):
        case_id = f"block{i:02d}"
        x, y, z, d = _dims(i)
        folder = os.path.join(cases, case_id)
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
        scale = 1.1 if i % 10 == 3 else 1.0
        bad = {7: "x = (\n", 5: "raise ValueError('a generated mistake')\n"}.get(i % 10, "")
        run = os.path.join(subs, "cadquery", "run1")
        os.makedirs(run, exist_ok=True)
        with open(os.path.join(run, f"{case_id}.py"), "w") as handle:
            handle.write(CADQUERY.format(bad=bad, x=x * scale, y=y, z=z, d=d))
        run = os.path.join(subs, "freecad", "run1")
        os.makedirs(run, exist_ok=True)
        bad = "result = None\n" if i % 10 == 6 else ""
        source = FREECAD.format(bad="", x=x, y=y, z=z, ox=-x / 2, oy=-y / 2, oz=-z / 2, r=d / 2)
        with open(os.path.join(run, f"{case_id}.py"), "w") as handle:
            handle.write(source + bad)
    return cases, subs, meshes


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def peer(python: str, scripts: str, meshes: str) -> dict:
    """The peer harness on the CadQuery scripts: its CPU per pair (import apart)."""
    started = _children_cpu()
    done = subprocess.run(
        [python, "-c", PEER, scripts, meshes], check=True, capture_output=True, text=True
    )
    figures = eval(done.stdout.strip().splitlines()[-1])  # our own dict
    return dict(figures, cpuSeconds=round(_children_cpu() - started, 1))


def run(out_dir: str) -> dict:
    from cadbench_wb.code import dialects, sandbox
    from cadbench_wb.runtime.freecad_env import import_freecad

    why = sandbox.availability()
    python = os.path.join(dialects.code_venv(), "bin", "python")
    if why or not os.path.exists(python):
        reason = why or f"no CadQuery environment at {dialects.code_venv()} (make setup-code)"
        print(f"code: skipped: {reason}")
        return {"skipped": reason}
    import_freecad()
    import FreeCAD
    import Part

    root = os.path.join(out_dir, "code")
    shutil.rmtree(root, ignore_errors=True)
    cases, subs, meshes = _build(root, Part, FreeCAD)
    campaign = os.path.join(root, "campaign")
    cpu0, wall0 = _children_cpu(), time.monotonic()
    args = ["run", "--cases", cases, "--submissions", subs, "--out", campaign]
    subprocess.run(
        [sys.executable, "-m", "cadbench_wb", *args, "--only", "shape", "--workers", "2"],
        check=True, cwd=ROOT, capture_output=True,
    )  # fmt: skip
    cpu, wall = _children_cpu() - cpu0, time.monotonic() - wall0
    with open(os.path.join(campaign, "results.json")) as handle:
        document = json.load(handle)
    with open(os.path.join(campaign, "timings.json")) as handle:
        stats = json.load(handle)
    pairs = len(document["scorings"])
    # The sandboxed processes are not waited for by cadbench's own children (bwrap's PID 1
    # reaps them), so getrusage does not see them: their CPU is what each harness measured
    # of itself, added here.
    executed = [
        json.load(open(os.path.join(campaign, "executed", n)))
        for n in sorted(os.listdir(os.path.join(campaign, "executed")))
        if n.endswith(".json")
    ]
    code_cpu = {
        d: sum(r.get("codeCpuSeconds") or 0 for r in executed if r["dialect"] == d)
        for d in ("cadquery", "freecad")
    }
    peer_figures = peer(python, os.path.join(subs, "cadquery", "run1"), meshes)
    scoring_cpu = cpu
    cpu = scoring_cpu + sum(code_cpu.values())
    per_pair = cpu / pairs
    figures = {
        "pairs": pairs,
        "scriptsExecuted": stats["codeExecutedNow"],
        "cpuSeconds": round(cpu, 1),
        "scorerCpuSeconds": round(scoring_cpu, 1),
        "wallSeconds": round(wall, 1),
        "cpuSecondsPerPair": round(per_pair, 3),
        "pairsPerCpuHour": round(3600 / per_pair),
        "codeCpuSecondsByDialect": {k: round(v, 1) for k, v in code_cpu.items()},
        "invalidRate": {s: e["invalidRate"]["rate"] for s, e in document["fieldFigures"].items()},
        "peer": peer_figures,
        "projection1000PairsOn2WorkersHours": round(1000 * per_pair / 2 / 3600, 2),
        "projection18000PairsPerWorkerCpuHours": round(18000 * per_pair / 3600, 1),
    }
    print(
        f"code: {pairs} pairs ({figures['scriptsExecuted']} scripts run in the sandbox) in "
        f"{cpu:.0f} CPU s (scorer {scoring_cpu:.0f}, scripts the rest; {wall:.0f} s wall): "
        f"{per_pair:.2f} CPU s per pair, "
        f"{figures['pairsPerCpuHour']} pairs per CPU-hour; script CPU by dialect "
        f"{figures['codeCpuSecondsByDialect']}; invalid rates {figures['invalidRate']}"
    )
    print(
        f"  peer harness (one unsandboxed CadQuery process, exec + tessellate + CD): "
        f"{peer_figures['perPair']:.3f} CPU s per pair after a {peer_figures['import']:.1f} s "
        f"import, {peer_figures['ok']}/{peer_figures['pairs']} scored"
    )
    print(
        f"  projected: 1,000 pairs on 2 workers {figures['projection1000PairsOn2WorkersHours']} h;"
        f" CADBench's 18,000 pairs {figures['projection18000PairsPerWorkerCpuHours']} CPU-hours"
        " (divide by N Dask workers)"
    )
    return figures


if __name__ == "__main__":
    from bench import out_folder

    out = out_folder(__doc__, "out/bench")
    os.makedirs(out, exist_ok=True)
    json.dump(run(out), sys.stdout, indent=2)
