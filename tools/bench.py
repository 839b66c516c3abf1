# SPDX-License-Identifier: LGPL-2.1-or-later
"""`make bench`: per-stage times of shape scoring and its ratio to seed 002's plain
four-boolean IoU on the same pair, then every tools/bench_<topic>.py found beside this file.

Speed is shown as ratios against a baseline measured in the same run, never as absolute
limits (the machine is shared and noisy).
"""

import argparse
import importlib.util
import inspect
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
NIST = os.path.join(ROOT, "tests", "data", "nist")
# CADGenBench (the closest whole-job peer) publishes 25-39 s per scored pair, all metrics.
PEER_SECONDS = (25.0, 39.0)
NIST_PARTS = (
    "nist_ctc_01_asme1_rd.stp",
    "nist_ftc_06_asme1_rd.stp",
    "nist_ftc_09_asme1_rd.stp",
    "nist_ftc_08_asme1_rc.stp",
    "nist_ftc_07_asme1_rd.stp",
)


def _pairs(fc, part):
    """(name, reference, candidate as delivered) pairs: generated parts and real NIST parts."""
    pairs = []
    block = part.makeBox(80, 60, 30)
    for i in range(4):
        block = block.cut(part.makeCylinder(4, 30, fc.Vector(12 + 18 * i, 15, 0)))
    block = block.cut(part.makeBox(20, 20, 10, fc.Vector(60, 40, 20))).Solids[0]
    wider = part.makeBox(80, 60, 30)
    for i in range(4):
        wider = wider.cut(part.makeCylinder(4.5, 30, fc.Vector(12 + 18 * i, 15, 0)))
    wider = wider.cut(part.makeBox(20, 20, 10, fc.Vector(60, 40, 20))).Solids[0]
    pairs.append(("block, wider holes, same frame", block, wider))
    pairs.append(("block, moved copy", block, _moved(fc, block)))
    for name in NIST_PARTS:
        solid = part.read(os.path.join(NIST, name)).Solids[0]
        pairs.append((f"{name}, moved copy", solid, _moved(fc, solid)))
    plate = _holed_plate(fc, part, 250)
    pairs.append(("plate, 250 holes, moved copy", plate, _moved(fc, plate)))
    return pairs


def _holed_plate(fc, part, holes: int):
    """200 x 200 x 10 minus `holes` through holes of radius 3 on a 12 mm grid (its volume
    is 400000 - holes x 90 pi, tests/app/test_shape_patched_mesh.py)."""
    cylinders = [
        part.makeCylinder(3, 10, fc.Vector(10 + 12 * (i % 16), 10 + 12 * (i // 16), 0))
        for i in range(holes)
    ]
    return part.makeBox(200, 200, 10).cut(part.makeCompound(cylinders)).Solids[0]


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the exact-boolean child):
    the idle-machine equivalent of a wall time measured under load."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _moved(fc, solid):
    turned = solid.copy()
    turned.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
    turned.translate(fc.Vector(5, 7, 9))
    return turned


def shape_bench(out_dir: str) -> dict:
    from cadbench_wb.runtime.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    from cadbench_wb.app.model import placement
    from cadbench_wb.app.shape import alignment
    from cadbench_wb.app.shape import fidelity as shape_fidelity

    rows = []
    for name, reference, candidate in _pairs(fc, Part):
        start = time.perf_counter()
        for operation in (reference.common, reference.fuse, reference.cut):
            operation(candidate)
        candidate.cut(reference)
        plain = time.perf_counter() - start
        start, cpu = time.perf_counter(), _cpu_seconds()
        aligned_pose = alignment.align(reference, candidate)
        align_time = time.perf_counter() - start
        aligned = placement.placed(
            candidate, aligned_pose.best.rotation, aligned_pose.best.translation
        )
        meshes = aligned_pose.aligned_meshes()
        computed = shape_fidelity.shape_figures(
            reference, aligned, meshes, keep_shapes=False, snapped=aligned_pose.snapped
        )
        full = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu
        stages = {"alignment": align_time, **computed["timing"]}
        # The mesh route alone (mesh boolean + sampling) is the baseline the exact route's
        # budget is set from: full / mesh says what the exact figure costs on top of it.
        mesh_route = stages["mesh_boolean"] + stages["sampling"]
        rows.append(
            {
                "pair": name,
                "faces": len(reference.Faces),
                "plain_four_booleans_s": plain,
                "mesh_route_s": mesh_route,
                "full_aligned_s": full,
                "full_aligned_cpu_s": cpu,
                "peak_rss_mb_so_far": _peak_mb(),
                "ratio_plain": full / plain,
                "ratio_mesh_route": full / mesh_route if mesh_route else None,
                "ratio_peer_fastest": full / PEER_SECONDS[0],
                "stages_s": stages,
                "iou": computed["figures"]["iou"],
                "method": computed["figures"]["method"],
                "origin": aligned_pose.best.origin,
            }
        )
        iou = computed["figures"]["iou"]
        print(
            f"{name:38} faces {len(reference.Faces):4d}  full {full:6.2f}s cpu {cpu:6.2f}s  "
            f"x plain {full / plain:5.2f}  x mesh route {full / max(mesh_route, 1e-9):5.2f}  "
            f"x peer {full / PEER_SECONDS[0]:4.2f}-{full / PEER_SECONDS[1]:4.2f}  "
            f"{computed['figures']['method']} iou {'-' if iou is None else f'{iou:.6f}'}  "
            + " ".join(f"{k} {v:.2f}" for k, v in stages.items()),
            flush=True,
        )
    rows += multi_solid_rows(fc, Part)
    rows += whole_scoring_rows(fc, Part)
    return {"shape": rows}


def whole_scoring_rows(fc, part) -> list[dict]:
    """Every metric of a moved copy of two NIST parts (in this process, as the scoring
    child runs it), against CADGenBench's published 25-39 s per pair."""
    import tempfile

    from cadbench_wb.app.scoring import score_files

    rows = []
    with tempfile.TemporaryDirectory(prefix="cadbench-bench-") as folder:
        for name in (NIST_PARTS[0], NIST_PARTS[3]):
            reference = os.path.join(NIST, name)
            moved = os.path.join(folder, "moved_" + name.replace(".stp", ".step"))
            _moved(fc, part.read(reference).Solids[0]).exportStep(moved)
            start, cpu = time.perf_counter(), _cpu_seconds()
            result = score_files(reference, moved, {})
            total, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
            stages = {k: v for k, v in result["timing"].items() if k != "total"}
            rows.append(
                {
                    "pair": f"{name}, moved copy, every metric",
                    "total_s": total,
                    "total_cpu_s": cpu,
                    "ratio_peer_fastest": total / PEER_SECONDS[0],
                    "stages_s": stages,
                    "shapeIoU": result["shapeIoU"],
                    "method": result["shape"]["method"],
                }
            )
            slowest = sorted(stages.items(), key=lambda kv: -kv[1])[:5]
            print(
                f"{name:38} every metric {total:6.2f}s cpu {cpu:6.2f}s  x peer {total / PEER_SECONDS[0]:4.2f}-"
                f"{total / PEER_SECONDS[1]:4.2f}  {result['shape']['method']} iou "
                f"{result['shapeIoU']}  " + " ".join(f"{k} {v:.2f}" for k, v in slowest),
                flush=True,
            )
    return rows


def multi_solid_rows(fc, part) -> list[dict]:
    """Files of 30+ solids loaded and scored against themselves; the baseline is the mesh
    union of the same solids (manifold3d), measured in the same run."""
    import tempfile

    import manifold3d

    from cadbench_wb import standard
    from cadbench_wb.app.model import loading, meshing
    from cadbench_wb.app.scoring import score_files

    grid = [
        part.makeBox(10.3, 7.7, 5.1, fc.Vector(10.3 * i, 7.7 * j, 0))
        for i in range(6)
        for j in range(6)
    ]
    plate = part.makeBox(100, 60, 8)
    pins = [
        part.makeCylinder(2.0, 14, fc.Vector(8 + 12 * i, 8 + 11 * j, -3))
        for i in range(8)
        for j in range(5)
    ]
    rows = []
    with tempfile.TemporaryDirectory(prefix="cadbench-bench-") as folder:
        for name, solids in (
            ("36 touching blocks", grid),
            ("plate + 40 overlapping pins", [plate, *pins]),
        ):
            path = os.path.join(folder, name.replace(" ", "_") + ".step")
            part.makeCompound(solids).exportStep(path)
            start = time.perf_counter()
            deflection = standard.MULTI_SOLID["mesh_deflection_rel"] * max(
                s.BoundBox.DiagonalLength for s in solids
            )
            manifolds = [meshing.manifold_of(*meshing.mesh_of(s, deflection)) for s in solids]
            manifold3d.Manifold.batch_boolean(manifolds, manifold3d.OpType.Add)
            mesh_union = time.perf_counter() - start
            start = time.perf_counter()
            loaded = loading.load_model(path)
            load = time.perf_counter() - start
            start, cpu = time.perf_counter(), _cpu_seconds()
            result = score_files(path, path, {"only": ["shape"]})
            scored, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
            rows.append(
                {
                    "pair": f"{name} ({len(solids)} solids), against itself",
                    "load_s": load,
                    "mesh_union_s": mesh_union,
                    "ratio_load_mesh_union": load / mesh_union,
                    "self_score_s": scored,
                    "self_score_cpu_s": cpu,
                    "iou": result["shapeIoU"],
                    "method": result["shape"]["method"],
                    "notes": loaded.notes,
                }
            )
            print(
                f"{name:38} solids {len(solids):3d}  load {load:5.2f}s (x mesh union "
                f"{load / mesh_union:4.1f})  self-score {scored:5.2f}s cpu {cpu:5.2f}s  "
                f"{result['shape']['method']} iou {result['shapeIoU']}",
                flush=True,
            )
    return rows


def out_folder(doc: str, default: str) -> str:
    """The output folder of a bench run on its own (`python tools/bench_<topic>.py [OUT]`);
    --help prints what the bench measures (its docstring) instead of becoming a folder."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", nargs="?", default=default, help=f"output folder ({default})")
    return parser.parse_args().out


def _topic_benches():
    for name in sorted(os.listdir(HERE)):
        if name.startswith("bench_") and name.endswith(".py"):
            spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(HERE, name))
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            yield name[6:-3], module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="out/bench")
    parser.add_argument("--only", help="comma-separated topics (shape, and bench_<topic>.py)")
    parser.add_argument(
        "--pairs", type=int, help="pairs of the benches that take a size (code: default 100)"
    )
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    chosen = set(args.only.split(",")) if args.only else None
    results = {}
    if chosen is None or "shape" in chosen:
        print("== shape: full aligned shapeIoU vs plain four-boolean IoU (seed 002)")
        results.update(shape_bench(args.out))
    for topic, module in _topic_benches():
        if chosen is not None and topic not in chosen:
            continue
        print(f"== {topic}")
        sized = args.pairs and "pairs" in inspect.signature(module.run).parameters
        results[topic] = module.run(args.out, pairs=args.pairs) if sized else module.run(args.out)
    with open(os.path.join(args.out, "bench.json"), "w") as handle:
        json.dump(results, handle, indent=2, sort_keys=True, default=str)
    print(f"wrote {os.path.join(args.out, 'bench.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
