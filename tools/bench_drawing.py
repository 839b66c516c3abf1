# SPDX-License-Identifier: LGPL-2.1-or-later
"""Speed of drawing generation and read-back, and drawingSelfTest of the bundled cases.

Baseline, measured in the same run on the same part: TechDraw's hidden-line removal of
the same views at the same scale (a page, the views, one recompute) -- the part of a
drawing no planning can avoid; the faster of two runs. The ratio full / baseline shows what
choosing, placing, exporting and reading back the dimensions add (sections included: they
are projections the plain views do not need), in wall and in CPU seconds. A reference
drawing served from the cache is timed against drawing it afresh.
"""

import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
# The repository's copies first; ../shared/realworld beside the clone is optional.
REALWORLD_DIRS = (
    os.path.join(ROOT, "tests", "data", "realworld"),
    os.path.join(os.path.dirname(ROOT), "shared", "realworld"),
)
REAL_PARTS = (
    "fcstd/assembly4/Bielle.fcstd",
    "fcstd/assembly4/Screw_CHC.fcstd",
    "step/nist/nist_ftc_11_asme1_rb.stp",
    "step/nist/nist_ctc_01_asme1_rd.stp",
)
# Public parts of 200+ faces kept in the repository (tests/data/nist/PROVENANCE.md).
PUBLIC_PARTS = ("nist_ftc_07_asme1_rd.stp", "nist_ftc_08_asme1_rc.stp")


def _parts(fc, part):
    from cadbench_wb.app.model import loading
    from cadbench_wb.case_model import cases

    block = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0)))
    found = [("block 40x30x20 with Ø10", block, None)]
    for case in cases.discover_cases(os.path.join(ROOT, "cases")):
        if os.path.isfile(case.reference_path):
            shape = loading.load_model(case.reference_path, "reference").shape
            found.append((f"case {case.id}", shape, case))
    paths = []
    for relative in REAL_PARTS:
        copies = [os.path.join(d, relative) for d in REALWORLD_DIRS]
        paths.append(next((p for p in copies if os.path.isfile(p)), copies[0]))
    paths += [os.path.join(ROOT, "tests", "data", "nist", name) for name in PUBLIC_PARTS]
    for path in paths:
        if os.path.isfile(path):
            found.append((os.path.basename(path), loading.load_model(path).shape, None))
    return found


def _hidden_line_removal(fc, shape, scale: float) -> tuple:
    """(wall, CPU) seconds for TechDraw to project the four views at one scale, nothing
    else."""
    from cadbench_wb.app.drawing import pose as drawing_pose
    from cadbench_wb.app.drawing import techdraw as drawing

    doc = fc.newDocument("bench_hlr")
    try:
        model = doc.addObject("Part::Feature", "Model")
        model.Shape, _squared, _turned = drawing_pose.posed(shape)
        names, coarse = drawing_pose.views_to_draw(model.Shape)
        page = doc.addObject("TechDraw::DrawPage", "Page")
        template = doc.addObject("TechDraw::DrawSVGTemplate", "Template")
        template.Template = drawing.template_file(fc)
        page.Template = template
        with drawing.faces_not_sought(fc):  # as the drawing projects
            start, cpu = time.perf_counter(), time.process_time()
            drawing._views(doc, page, model, "first", scale, names, coarse)
            return time.perf_counter() - start, time.process_time() - cpu
    finally:
        fc.closeDocument(doc.Name)


def run(out_dir: str) -> dict:
    from cadbench_wb.runtime.freecad_env import import_freecad

    fc = import_freecad()
    import Part

    from cadbench_wb.app.drawing import techdraw as drawing
    from cadbench_wb.drafting import readback as drawing_readback

    rows, self_tests = [], {}
    folder = os.path.join(out_dir, "drawing")
    for name, shape, case in _parts(fc, Part):
        target = os.path.join(folder, name.replace(" ", "_"))
        start, cpu = time.perf_counter(), time.process_time()
        made = drawing.make_drawing(shape, target, case=case, title=name)
        read = drawing_readback.read_back(target, made)
        full, full_cpu = time.perf_counter() - start, time.process_time() - cpu
        # The machine is shared: the removal is timed twice, and the faster run counts
        # (the ratio errs high rather than flatter the drawing). CPU seconds are less
        # disturbed by the others' load than wall seconds: both ratios are reported.
        runs = [_hidden_line_removal(fc, shape, made["scaleValue"]) for _ in range(2)]
        baseline, baseline_cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        row = {
            "part": name,
            "faces": len(shape.Faces),
            "baseline_hlr_s": baseline,
            "full_s": full,
            "ratio": full / baseline if baseline > 0 else None,
            "baseline_hlr_cpu_s": baseline_cpu,
            "full_cpu_s": full_cpu,
            "cpu_ratio": full_cpu / baseline_cpu if baseline_cpu > 0 else None,
            "sections": sum(v.startswith("Section") for v in made["views"]),
            "scale": made["scale"],
            "dimensions": len(read["displayed"]),
            "dropped": len(made["dropped"]),
            "overlaps": len(read["overlappingLabels"]),
            "sheet": made["sheet"],
            "layoutOk": read["layoutChecks"]["ok"],
            "crossCheckAgrees": read["crossCheck"]["agree"],
        }
        if case is not None:
            match = drawing_readback.target_match(case.dimensions, read["displayed"])
            row["drawingSelfTest"] = match["value"]
            self_tests[case.id] = {
                "value": match["value"],
                "found": match["found"],
                "of": match["of"],
                "missing": [d["id"] for d in match["dimensions"] if not d["found"]],
            }
        rows.append(row)
        print(
            f"{name:32} faces {row['faces']:4d}  hlr {baseline:6.3f}s  full {full:6.3f}s  "
            f"ratio {row['ratio']:5.2f}  cpu {full_cpu:6.3f}s/{baseline_cpu:6.3f}s "
            f"= {row['cpu_ratio'] or 0:5.2f}  sections {row['sections']}  "
            f"{row['scale']:>5}  dims {row['dimensions']:3d}  "
            f"dropped {row['dropped']}  overlaps {row['overlaps']}  {row['sheet']}  "
            f"layout {'ok' if row['layoutOk'] else 'FAILS'}"
            + (f"  selfTest {_figure(row.get('drawingSelfTest'))}" if case is not None else ""),
            flush=True,
        )
    result = {"parts": rows, "drawingSelfTest": self_tests, "cache": _cache_bench(out_dir)}
    return result


def _figure(value) -> str:
    return "n/a (no targets)" if value is None else f"{value:.3f}"


def _cache_bench(out_dir: str) -> dict:
    """One case scored twice with a fresh cache: the second reference drawing is a copy."""
    from cadbench_wb.app import scoring
    from cadbench_wb.case_model import cases

    found = [c for c in cases.discover_cases(os.path.join(ROOT, "cases")) if c.dimensions]
    found = [c for c in found if os.path.isfile(c.reference_path)]
    if not found:
        return {}
    case = found[0]
    cache = tempfile.mkdtemp(prefix="bench-drawing-cache-")
    try:
        times = []
        for attempt in range(2):
            options = {
                "only": ["drawing"],
                "drawing_cache": cache,
                "drawing_dir": os.path.join(out_dir, "drawing", f"cache_{attempt}"),
            }
            result = scoring.score_files(case.reference_path, case.reference_path, options, case)
            times.append(result["timing"]["drawing_reference"])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(
        f"reference drawing of {case.id}: fresh {times[0]:.3f}s, cached {times[1]:.3f}s "
        f"(ratio {times[1] / times[0]:.3f})"
    )
    return {
        "case": case.id,
        "fresh_s": times[0],
        "cached_s": times[1],
        "ratio": times[1] / times[0],
    }


if __name__ == "__main__":
    from bench import out_folder

    run(out_folder(__doc__, "out/bench"))
