# SPDX-License-Identifier: LGPL-2.1-or-later
"""Speed of `cadbench drawing-score` and `cadbench dxf-check` on dense drawings.

Shows (seed 001): a 50,000-entity drawing scores in seconds; time grows near-linearly with
the entity count (time per entity at each size against the smallest size, measured in
the same run); a radically mis-scaled candidate (x1000) does not stall (its time against
the identical pair's). Baseline: reading the same files with ezdxf.

Issue 13: floor plans as drafters draw them (tools/make_drafting_fixtures.py, tiled to
thousands of entities: grid lines, bubbles, dimension chains, room names), drafter b's
against drafter a's: annotation classified, the translation searched; the score time
against reading both files, and the geometry figure (1.0 by construction).
"""

import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

SIZES = (6_250, 12_500, 25_000, 50_000)
# One cell of the drawing: a plate outline of 4 LINEs, a hole, a slot of 2 ARCs and 2 LINEs,
# a chamfer polyline and a label; every 10th cell carries a rendered dimension.
_PER_CELL = 10


def _drawing(path: str, entities: int, scale: float = 1.0) -> int:
    import ezdxf
    from ezdxf.math import Matrix44

    doc = ezdxf.new("R2010", setup=True)
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    cells = entities // _PER_CELL
    columns = int(math.ceil(math.sqrt(cells)))
    for index in range(cells):
        x, y = (index % columns) * 60.0, (index // columns) * 40.0
        for start, end in (
            ((0, 0), (40, 0)),
            ((40, 0), (40, 25)),
            ((40, 25), (0, 25)),
            ((0, 25), (0, 0)),
        ):
            msp.add_line((x + start[0], y + start[1]), (x + end[0], y + end[1]))
        msp.add_circle((x + 10, y + 12.5), 4)
        msp.add_arc((x + 22, y + 12.5), 3, 90, 270)
        msp.add_arc((x + 30, y + 12.5), 3, 270, 90)
        msp.add_line((x + 22, y + 15.5), (x + 30, y + 15.5))
        msp.add_line((x + 22, y + 9.5), (x + 30, y + 9.5))
        msp.add_lwpolyline([(x + 36, y + 25), (x + 40, y + 21)])
        msp.add_text(f"P{index}", dxfattribs={"height": 2.5}).set_placement((x, y + 27))
        if index % 10 == 0:
            msp.add_linear_dim(
                base=(x + 20, y - 6), p1=(x, y), p2=(x + 40, y), override={"dimlfac": 1.0}
            ).render()
    if scale != 1.0:
        matrix = Matrix44.scale(scale, scale, scale)
        for entity in msp:
            entity.transform(matrix)
    doc.saveas(path)
    return len(msp)


def _timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def run(out_dir: str) -> dict:
    import ezdxf

    from cadbench_wb.drafting.checks import check_file
    from cadbench_wb.drafting.reading import quiet_ezdxf
    from cadbench_wb.drafting.score import score_drawings

    quiet_ezdxf()
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    for size in SIZES:
        gold = os.path.join(out_dir, f"drafting_gold_{size}.dxf")
        candidate = os.path.join(out_dir, f"drafting_copy_{size}.dxf")
        count = _drawing(gold, size)
        _drawing(candidate, size)
        _doc, read = _timed(ezdxf.readfile, gold)
        result, scored = _timed(score_drawings, gold, candidate)
        _report, checked = _timed(check_file, gold)
        rows.append(
            {
                "entities": count,
                "read_s": read,
                "score_s": scored,
                "check_s": checked,
                "score": result["score"],
            }
        )
    smallest = rows[0]
    for row in rows:
        row["score_per_entity_vs_smallest"] = (row["score_s"] / row["entities"]) / (
            smallest["score_s"] / smallest["entities"]
        )
        row["score_vs_read"] = row["score_s"] / row["read_s"]
    largest = SIZES[-1]
    gold = os.path.join(out_dir, f"drafting_gold_{largest}.dxf")
    scaled = os.path.join(out_dir, f"drafting_scaled_{largest}.dxf")
    _drawing(scaled, largest, scale=1000.0)
    misscaled, misscaled_s = _timed(score_drawings, gold, scaled)
    plans = _plan_rows(out_dir)
    figures = {
        "rows": rows,
        "plans": plans,
        "misscaled_x1000_s": misscaled_s,
        "misscaled_x1000_score": misscaled["score"],
        "misscaled_vs_identical": misscaled_s / rows[-1]["score_s"],
    }
    print(f"{'entities':>9} {'read s':>8} {'score s':>8} {'check s':>8} {'per-entity x':>13} score")
    for row in rows:
        print(
            f"{row['entities']:>9} {row['read_s']:>8.2f} {row['score_s']:>8.2f} "
            f"{row['check_s']:>8.2f} {row['score_per_entity_vs_smallest']:>13.2f} "
            f"{row['score']:.4f}"
        )
    print(
        f"mis-scaled x1000 candidate: {misscaled_s:.2f} s "
        f"({figures['misscaled_vs_identical']:.2f} x the identical pair), "
        f"score {misscaled['score']:.4f}"
    )
    for row in plans:
        print(
            f"plan x{row['tiles'] ** 2:<3} {row['entities']:>6} entities: read both "
            f"{row['read_s']:.2f} s, score {row['score_s']:.2f} s "
            f"({row['score_vs_read']:.2f} x reading), geometry {row['geometry']:.4f}"
        )
    return figures


PLAN_TILES = (3, 6, 10)


def _plan_rows(out_dir: str) -> list:
    import ezdxf
    import make_drafting_fixtures as fixtures

    from cadbench_wb.drafting.score import score_drawings

    rows = []
    for tiles in PLAN_TILES:
        gold = os.path.join(out_dir, f"plan_a_{tiles}.dxf")
        candidate = os.path.join(out_dir, f"plan_b_{tiles}.dxf")
        count = fixtures.plan(gold, "a", tiles=tiles)
        fixtures.plan(candidate, "b", tiles=tiles)
        start = time.perf_counter()
        ezdxf.readfile(gold)
        ezdxf.readfile(candidate)
        read = time.perf_counter() - start
        result, scored = _timed(score_drawings, gold, candidate)
        rows.append(
            {
                "tiles": tiles,
                "entities": count,
                "read_s": read,
                "score_s": scored,
                "score_vs_read": scored / read,
                "geometry": result["components"]["geometry_similarity"]["value"],
                "translation": result["registration"]["translation"],
            }
        )
    return rows


if __name__ == "__main__":
    from bench import out_folder

    run(out_folder(__doc__, os.path.join("out", "bench")))
