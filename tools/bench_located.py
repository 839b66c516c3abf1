# SPDX-License-Identifier: LGPL-2.1-or-later
"""Located dimension matching against the spectrum it sits beside: 200 to 2,000 faces.

The part is bench_spectrum's stepped comb (every tooth a height of its own and a hole), a
perfect copy as the candidate, and targets that make every tooth a member: the holes'
diameter (a pattern of as many holes as teeth), the tooth width and a few tooth heights.
Reported per size: the time of located matching (both bodies' geometry, correspondence,
every target's members) as a ratio to the default spectrum of the same part measured in
the same run, and the exponent k of located time ~ faces^k (1 = linear).
"""

import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_spectrum import TEETH, _best_of, stepped_comb  # noqa: E402


def run(out_dir: str) -> dict:
    from cadbench_wb.runtime.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    from cadbench_wb.app.dimensions import location
    from cadbench_wb.app.dimensions.measured_geometry import geometry_of
    from cadbench_wb.app.dimensions.spectrum import spectrum_of
    from cadbench_wb.case_model.cases import Case, Dimension
    from cadbench_wb.metrics import dimension_matching as dims

    targets = [Dimension("hole", "diameter", 1.2), Dimension("tooth", "length", 3.0)]
    targets += [Dimension(f"h{k}", "length", 10 + 0.25 * k + 2) for k in range(0, 40, 8)]
    case = Case("bench", "bench", ROOT, "none.step", dimensions=targets)
    rows = []
    for teeth in TEETH:
        shape = stepped_comb(fc, Part, teeth)
        spectrum_s, spectrum = _best_of(lambda s=shape: spectrum_of(s, "default"))

        def located(s=shape, spectrum=spectrum):
            outcomes = dims.outcomes(targets, spectrum, spectrum)
            bindings = location.bindings_of(case, s)
            reference = geometry_of(s, spectrum.diagonal)
            candidate = geometry_of(s, spectrum.diagonal)
            return location.locate(outcomes, spectrum, reference, candidate, bindings)

        located_s, figures = _best_of(located, repeats=3)
        rows.append(
            {
                "faces": len(shape.Faces),
                "spectrum_s": spectrum_s,
                "located_s": located_s,
                "located_to_spectrum": located_s / spectrum_s,
                "members": figures["membersTotal"],
                "members_found": figures["membersFound"],
            }
        )
    base = rows[0]
    for row in rows:
        faces = row["faces"] / base["faces"]
        ratio = row["located_s"] / base["located_s"]
        row["located_exponent"] = math.log(ratio) / math.log(faces) if faces > 1 else None
    print("located matching: time beside the default spectrum (same part, same run)")
    print(f"{'faces':>6} {'spectrum s':>11} {'located s':>10} {'ratio':>6} {'k':>5} {'members':>8}")
    for row in rows:
        k = "-" if row["located_exponent"] is None else f"{row['located_exponent']:.2f}"
        print(
            f"{row['faces']:>6} {row['spectrum_s']:>11.4f} {row['located_s']:>10.4f} "
            f"{row['located_to_spectrum']:>6.2f} {k:>5} {row['members']:>8}"
        )
    figures = {"rows": rows, "largest": rows[-1]}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bench_located.json"), "w") as handle:
        json.dump(figures, handle, indent=2)
    return figures


if __name__ == "__main__":
    from bench import out_folder

    run(out_folder(__doc__, os.path.join(ROOT, "out", "bench")))
