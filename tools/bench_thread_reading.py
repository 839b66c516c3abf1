# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reading modeled threads on third-party parts (issue 11): time per part of the cheap
thread test (`has_modeled_thread`, run on every scoring) and of the full reading
(`modeled_threads`), each as a ratio to reading the STEP file itself, measured in the same
run on the same part; and whether the records are the ones the manifest says were built.
"""

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
DATA = os.path.join(ROOT, "tests", "data", "threads")


def _timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def run(out_dir: str) -> dict:
    from cadbench_wb.runtime.freecad_env import import_freecad

    import_freecad()
    import Part

    from cadbench_wb.app.model import thread_flanks
    from cadbench_wb.app.recognition import threads

    with open(os.path.join(DATA, "manifest.json"), encoding="utf-8") as handle:
        expected = {}
        for record in json.load(handle)["threads"]:
            expected.setdefault(record["file"], []).append(record)
    rows = []
    print(f"  {'part':<40}{'faces':>6}{'read s':>8}{'test s':>8}{'read-all s':>11}"
          f"{'x read':>8}  records")  # fmt: skip
    for name in sorted(expected):
        path = os.path.join(DATA, name)
        shape, read_time = _timed(Part.read, path)
        flag, test_time = _timed(thread_flanks.has_modeled_thread, shape)
        found, thread_time = _timed(threads.modeled_threads, shape)
        truth = sorted(expected[name], key=lambda r: r["start_z"])
        got = sorted(found, key=lambda t: t.start[2])
        right = len(got) == len(truth) and all(
            (t.designation, t.hand, t.kind) == (r["designation"], r["hand"], r["kind"])
            for t, r in zip(got, truth, strict=True)
        )
        row = {
            "part": name,
            "faces": len(shape.Faces),
            "readSeconds": read_time,
            "testSeconds": test_time,
            "threadSeconds": thread_time,
            "threadOverRead": thread_time / read_time if read_time > 0 else None,
            "hasThread": flag,
            "records": [f"{t.designation} {t.hand} {t.kind} {t.length:.2f}" for t in got],
            "asBuilt": right,
        }
        rows.append(row)
        print(f"  {name:<40}{row['faces']:>6}{read_time:>8.2f}{test_time:>8.3f}"
              f"{thread_time:>11.2f}{row['threadOverRead']:>8.2f}  "
              f"{'; '.join(row['records'])}{'' if right else '  NOT AS BUILT'}")  # fmt: skip
    total = sum(r["threadSeconds"] for r in rows)
    print(f"  {len(rows)} parts, {sum(r['asBuilt'] for r in rows)} read as built; "
          f"reading threads {total:.1f} s in all, "
          f"{total / sum(r['readSeconds'] for r in rows):.2f} x reading the files")  # fmt: skip
    return {"parts": rows}


if __name__ == "__main__":
    from bench import out_folder

    out = out_folder(__doc__, os.path.join(ROOT, "out", "bench"))
    run(out)
