# SPDX-License-Identifier: LGPL-2.1-or-later
"""Spectrum extraction and matching time against face count: 200 to 2,000 faces.

The part is a stepped comb: every tooth has its own height (so plane levels grow with the
part, the case that would go quadratic without pruning) and a hole (cylinders and axes
for the extended mode). Growth is reported as ratios against the smallest part measured
in the same run, and as the exponent k of time ~ faces^k (1 = linear).
"""

import json
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

TEETH = (40, 80, 160, 400)  # 5 faces each (+4): about 200 .. 2,000 faces
TARGETS = 200


def stepped_comb(fc, part, teeth: int):
    vec = fc.Vector
    pitch, width, depth = 6.0, 3.0, 20.0
    points = [vec(0, 0, 0), vec(teeth * pitch, 0, 0)]
    for k in reversed(range(teeth)):
        height = 10 + 0.25 * (k % 97)  # 97 distinct tooth heights
        x0 = k * pitch
        points += [vec(x0 + width, 0, 10), vec(x0 + width, 0, height + 2), vec(x0, 0, height + 2)]
        points += [vec(x0, 0, 10)]
    points.append(vec(0, 0, 0))
    comb = part.Face(part.makePolygon(points)).extrude(vec(0, depth, 0))
    holes = [part.makeCylinder(0.6, 40, vec(k * pitch + 1.5, depth / 2, -1)) for k in range(teeth)]
    return comb.cut(part.makeCompound(holes)).Solids[0]


def _best_of(function, repeats=5):
    best = math.inf
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - started)
    return best, value


def run(out_dir: str) -> dict:
    from cadbench_wb.runtime.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    from cadbench_wb.app.dimensions.spectrum import spectrum_of
    from cadbench_wb.case_model.cases import Dimension
    from cadbench_wb.metrics import dimension_matching as dims

    rows = []
    for teeth in TEETH:
        shape = stepped_comb(fc, Part, teeth)
        default_s, spectrum = _best_of(lambda s=shape: spectrum_of(s, "default"))
        extended_s, extended = _best_of(lambda s=shape: spectrum_of(s, "extended"))
        values = spectrum.values("length")
        targets = [
            Dimension(str(i), "length", float(values[(i * 7919) % len(values)]) + 0.01)
            for i in range(TARGETS)
        ]
        match_s, _ = _best_of(lambda t=targets, s=spectrum: [dims.match(d, s) for d in t])
        chance_s, _ = _best_of(lambda s=extended: dims.random_hit_rate(s, s.diagonal))
        rows.append(
            {
                "faces": len(shape.Faces),
                "edges": len(shape.Edges),
                "default_s": default_s,
                "extended_s": extended_s,
                "match_200_targets_s": match_s,
                "random_hit_rate_s": chance_s,
                "measurements_default": sum(spectrum.counts().values()),
                "measurements_extended": sum(extended.counts().values()),
            }
        )
    base = rows[0]
    for row in rows:
        faces = row["faces"] / base["faces"]
        for key in ("default_s", "extended_s"):
            ratio = row[key] / base[key]
            row[key.replace("_s", "_ratio")] = ratio
            row[key.replace("_s", "_exponent")] = (
                math.log(ratio) / math.log(faces) if faces > 1 else None
            )
        row["faces_ratio"] = faces
    figures = {"rows": rows, "largest": rows[-1]}
    print("spectrum: time against face count (ratios to the smallest part, same run)")
    print(f"{'faces':>6} {'default s':>10} {'x':>6} {'k':>5} {'extended s':>11} {'x':>6} {'k':>5}")
    for row in rows:
        k1 = "-" if row["default_exponent"] is None else f"{row['default_exponent']:.2f}"
        k2 = "-" if row["extended_exponent"] is None else f"{row['extended_exponent']:.2f}"
        print(
            f"{row['faces']:>6} {row['default_s']:>10.4f} {row['default_ratio']:>6.1f} {k1:>5} "
            f"{row['extended_s']:>11.4f} {row['extended_ratio']:>6.1f} {k2:>5}"
        )
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bench_spectrum.json"), "w") as handle:
        json.dump(figures, handle, indent=2)
    return figures


if __name__ == "__main__":
    from bench import out_folder

    run(out_folder(__doc__, os.path.join(ROOT, "out", "bench")))
