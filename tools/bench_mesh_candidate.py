# SPDX-License-Identifier: LGPL-2.1-or-later
"""Rebuilding an analytic B-rep from a mesh candidate's triangles (app/mesh_rebuild/mesh_candidate.py,
app/mesh_rebuild/mesh_brep.py), against reading the same STL in the same run.

Each row is a part's own STL (MeshPart, linear deflection 0.1 % of the diagonal, the
angular deflection given): the bundled cases' references and real NIST parts, each as
meshed and turned (a seeded pose: its float32 coordinates carry rounding off every plane,
as any part delivered out of its modelling frame does). The baseline
is the scorer's own load of the STL (loading.load_model: read, check closed, make the
polyhedral solid), so `x load` is how many loads the rebuild costs; also the rebuild's
milliseconds per triangle and its outcome (rebuilt, or the not-applicable reason). CPU
seconds of this process, the best of REPEATS: the machine is shared.

The load itself (app/model/mesh_solid.py: checked and measured on the triangles) is shown against
FreeCAD's Mesh read of the same file (`x read`), and so is what loading did before it
(`old x read`: the same load plus the polyhedral B-rep, one planar face per triangle, and
BRepCheck on it, both measured here). On NIST FTC-06 a whole scoring of its STL against its
STEP is timed against the STEP scored against itself (`x STEP`, CPU s of this process and
its children, one run each).
"""

import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
NIST = os.path.join(ROOT, "tests", "data", "nist")
CASES = (("bearing_block", 0.2), ("bearing_block", 0.1), ("flange_bolt_circle", 0.2))
CASES += (("fillet_block", 0.2), ("turned_shaft", 0.2))
NIST_PARTS = (("nist_ctc_01_asme1_rd.stp", 0.2), ("nist_ftc_06_asme1_rd.stp", 0.2))
NIST_PARTS += (("nist_ftc_08_asme1_rc.stp", 0.2), ("nist_ftc_09_asme1_rd.stp", 0.2))
WHOLE_SCORING = "nist_ftc_06_asme1_rd.stp"  # the part whose whole scoring is timed too
REPEATS = int(os.environ.get("CADBENCH_BENCH_REPEATS", "2"))


def _turn():
    """The seeded pose each STL is also delivered in (the tests' own, tests/app/
    test_mesh_features.py): float32 coordinates then carry rounding off every plane."""
    import FreeCAD
    import numpy as np
    from scipy.spatial.transform import Rotation

    x, y, z, w = Rotation.random(random_state=1).as_quat()
    shift = FreeCAD.Vector(*np.random.default_rng(1).uniform(-50, 50, 3))
    return FreeCAD.Placement(shift, FreeCAD.Rotation(x, y, z, w))


def _best_cpu(function, repeats=REPEATS):
    best, value = float("inf"), None
    for _ in range(repeats):
        started = time.process_time()
        value = function()
        best = min(best, time.process_time() - started)
    return best, value


def _generated(folder, names):
    """A case's generated files (cases/.gitignore), left out of the copy to be built."""
    return {"reference.step", "candidates", "__pycache__"} & set(names)


def _references(folder: str) -> list:
    """(name, reference path) of the bundled cases built afresh and the NIST parts."""
    import shutil

    from cadbench_wb.app.cases import build as case_build
    from cadbench_wb.case_model import cases

    found = []
    for case_id, angular in CASES:
        target = os.path.join(folder, case_id)
        if not os.path.isdir(target):
            shutil.copytree(os.path.join(ROOT, "cases", case_id), target, ignore=_generated)
            case_build.build_missing(cases.load_case(target))
        found.append((case_id, os.path.join(target, "reference.step"), angular))
    found += [(name, os.path.join(NIST, name), angular) for name, angular in NIST_PARTS]
    return found


def _old_load_extra(loaded) -> float:
    """CPU s of what loading a mesh did before app/model/mesh_solid.py: the polyhedral solid from
    the triangles and BRepCheck on it."""
    from cadbench_wb.app.model import mesh_solid

    started = time.process_time()
    mesh_solid.polyhedral_solid(*loaded.mesh).isValid()
    return time.process_time() - started


def _read_s(stl: str) -> float:
    import Mesh

    return _best_cpu(lambda: Mesh.Mesh(stl))[0]


def _scoring_cpu(reference: str, candidate: str) -> float:
    import resource

    from cadbench_wb.app.scoring import score_files

    def cpu():
        own, children = (
            resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        )
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    started = cpu()
    score_files(reference, candidate, {})
    return cpu() - started


def _whole_scoring(path: str, stl: str) -> dict:
    """CPU s of scoring the STL against its STEP, and of the STEP against itself."""
    mesh_s = _scoring_cpu(path, stl)
    step_s = _scoring_cpu(path, path)
    return {"scoring_stl_s": mesh_s, "scoring_step_s": step_s, "x_step": mesh_s / step_s}


def _rebuild(loaded):
    from cadbench_wb.app.mesh_rebuild import mesh_brep

    vertices, triangles = loaded.mesh
    try:
        solid, summary = mesh_brep.rebuilt_solid(vertices, triangles, loaded.shape.Volume)
        return f"rebuilt: {summary['faces']} faces"
    except mesh_brep.RebuildFailed as failure:
        return f"not applicable: {failure}"


def run(out_dir: str) -> dict:
    from cadbench_wb.runtime.freecad_env import import_freecad

    import_freecad()
    import MeshPart
    import Part

    from cadbench_wb.app.model import loading

    turn = _turn()
    rows = []
    with tempfile.TemporaryDirectory(prefix="cadbench-bench-mesh-") as folder:
        for name, path, angular in _references(folder):
            shape = Part.read(path).Solids[0]
            mesh = MeshPart.meshFromShape(
                Shape=shape,
                LinearDeflection=0.001 * shape.BoundBox.DiagonalLength,
                AngularDeflection=angular,
                Relative=False,
            )
            for turned in (False, True):
                if turned:
                    mesh.transform(turn.toMatrix())
                stl = os.path.join(folder, f"{name}-{angular}-{int(turned)}.stl")
                mesh.write(stl)
                load_s, loaded = _best_cpu(lambda s=stl: loading.load_model(s, "candidate"))
                rebuild_s, outcome = _best_cpu(lambda m=loaded: _rebuild(m))
                read_s = _read_s(stl)
                old_s = load_s + _old_load_extra(loaded)
                whole = name == WHOLE_SCORING and not turned
                scoring = _whole_scoring(path, stl) if whole else {}
                rows.append(
                    {
                        "read_s": read_s,
                        "x_read": load_s / read_s,
                        "old_load_s": old_s,
                        "old_x_read": old_s / read_s,
                        **scoring,
                        "part": name + (" turned" if turned else ""),
                        "angular": angular,
                        "triangles": mesh.CountFacets,
                        "load_s": load_s,
                        "rebuild_s": rebuild_s,
                        "x_load": rebuild_s / load_s,
                        "ms_per_triangle": 1000 * rebuild_s / mesh.CountFacets,
                        "outcome": outcome,
                    }
                )
    print("mesh load: CPU s against FreeCAD's Mesh read of the same STL (same run)")
    print(
        f"{'part':<26} {'ang':>4} {'tri':>6} {'read s':>7} {'load s':>7} {'x read':>7} old x read"
    )
    for row in rows:
        print(
            f"{row['part'][:26]:<26} {row['angular']:>4} {row['triangles']:>6} "
            f"{row['read_s']:>7.3f} {row['load_s']:>7.3f} {row['x_read']:>7.1f} "
            f"{row['old_x_read']:>7.1f}"
        )
        if "x_step" in row:
            print(
                f"  whole scoring: STL {row['scoring_stl_s']:.1f} CPU s, its STEP against itself "
                f"{row['scoring_step_s']:.1f} CPU s: x STEP {row['x_step']:.2f}"
            )
    print("mesh rebuild: CPU s against the STL's own load (same run)")
    print(f"{'part':<26} {'ang':>4} {'tri':>6} {'load s':>7} {'rebuild s':>9} {'x load':>7} ms/tri")
    for row in rows:
        print(
            f"{row['part'][:26]:<26} {row['angular']:>4} {row['triangles']:>6} "
            f"{row['load_s']:>7.3f} {row['rebuild_s']:>9.2f} {row['x_load']:>7.1f} "
            f"{row['ms_per_triangle']:>6.3f}  {row['outcome'][:70]}"
        )
    figures = {"rows": rows}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bench_mesh_candidate.json"), "w") as handle:
        json.dump(figures, handle, indent=2)
    return figures


if __name__ == "__main__":
    from bench import out_folder

    run(out_folder(__doc__, os.path.join(ROOT, "out", "bench")))
