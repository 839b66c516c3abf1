# SPDX-License-Identifier: LGPL-2.1-or-later
"""`make bench`: per-stage times of shape scoring and its ratio to seed 002's plain
four-boolean IoU on the same pair, then every tools/bench_<topic>.py found beside this file.

Speed is shown as ratios against a baseline measured in the same run, never as absolute
limits (the machine is shared and noisy).
"""

import argparse
import importlib.util
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
# The repository's copies (tests/data/realworld); a bigger corpus beside the clone
# (../shared/realworld) is used for what the repository does not hold.
REALWORLD_DIRS = (
    os.path.join(ROOT, "tests", "data", "realworld", "step", "nist"),
    os.path.join(os.path.dirname(ROOT), "shared", "realworld", "step", "nist"),
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
    moved = block.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(1, 2, 3), 41)
    moved.translate(fc.Vector(30, -20, 10))
    pairs.append(("block, moved copy", block, moved))
    for name in (
        "nist_ctc_01_asme1_rd.stp",
        "nist_ftc_09_asme1_rd.stp",
        "nist_ftc_11_asme1_rb.stp",
    ):
        found = [os.path.join(d, name) for d in REALWORLD_DIRS]
        path = next((p for p in found if os.path.exists(p)), None)
        if path:
            solid = part.read(path).Solids[0]
            pairs.append((f"{name}, same frame", solid, solid.copy()))
            turned = solid.copy()
            turned.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
            turned.translate(fc.Vector(5, 7, 9))
            pairs.append((f"{name}, moved copy", solid, turned))
    return pairs


def shape_bench(out_dir: str) -> dict:
    from cadbench_wb.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    from cadbench_wb.app import alignment, shape_fidelity

    rows = []
    for name, reference, candidate in _pairs(fc, Part):
        start = time.perf_counter()
        for operation in (reference.common, reference.fuse, reference.cut):
            operation(candidate)
        candidate.cut(reference)
        plain = time.perf_counter() - start
        start = time.perf_counter()
        aligned_pose = alignment.align(reference, candidate)
        align_time = time.perf_counter() - start
        aligned = shape_fidelity.placed(
            candidate, aligned_pose.best.rotation, aligned_pose.best.translation
        )
        meshes = aligned_pose.aligned_meshes()
        computed = shape_fidelity.shape_figures(reference, aligned, meshes)
        full = time.perf_counter() - start
        stages = {"alignment": align_time, **computed["timing"]}
        rows.append(
            {
                "pair": name,
                "faces": len(reference.Faces),
                "plain_four_booleans_s": plain,
                "full_aligned_s": full,
                "ratio": full / plain,
                "stages_s": stages,
                "iou": computed["figures"]["iou"],
                "method": computed["figures"]["method"],
            }
        )
        print(
            f"{name:42} faces {len(reference.Faces):4d}  plain {plain:6.3f}s  full {full:6.3f}s  "
            f"ratio {full / plain:5.2f}  iou {computed['figures']['iou']:.6f}  "
            + " ".join(f"{k} {v:.3f}" for k, v in stages.items()),
            flush=True,
        )
    return {"shape": rows}


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
        results[topic] = module.run(args.out)
    with open(os.path.join(args.out, "bench.json"), "w") as handle:
        json.dump(results, handle, indent=2, sort_keys=True, default=str)
    print(f"wrote {os.path.join(args.out, 'bench.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
