# SPDX-License-Identifier: LGPL-2.1-or-later
"""Threaded test parts from two public generators, written as small STEP files.

Run in the generators' own venvs (never the project's .venv), one per library because
build123d and CadQuery pin different OCP builds:

    /work/venvs/threads/bin/python tools/thread_fixtures.py bd       # bd_warehouse
    /work/venvs/threads-cq/bin/python tools/thread_fixtures.py cq    # cq_warehouse

(venvs: `python3 -m venv /work/venvs/threads && /work/venvs/threads/bin/pip install
bd_warehouse`; `python3 -m venv /work/venvs/threads-cq && .../pip install cadquery`, then
`pip install --no-deps` a clone of github.com/gumyr/cq_warehouse, which is not on PyPI.)
Part names after bd|cq rebuild only those parts. `.venv/bin/python tools/thread_fixtures.py
nist FOLDER` (the project's venv, FreeCAD) extracts the blend faces of two NIST test parts
(no thread, yet each face fits a screw) from the public-domain STEP files in FOLDER.

Each run rewrites its own files in tests/data/threads/ and its own entries in
manifest.json there: the construction parameters that tests/app/test_threads_fixtures.py
reads as the expected truth. Lengths are kept to a few pitches so that each file is small.

A part is the generator's IsoThread fused with a core: a cylinder for an external thread
(a stud, 1 mm of plain shank beyond each thread end), a hexagon with a bore for an internal
one (a nut as high as the thread). The core overlaps the thread's root so the fuse never
meets coincident faces: bd_warehouse's thread reaches 0.2 mm into the core by itself
(its `interference`), cq_warehouse's does not, so its stud core is made CORE_OVERLAP larger
(its nut bore is at d/2, where the fuse was found to hold).
"""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "tests", "data", "threads")
MANIFEST = os.path.join(OUT, "manifest.json")
PLAIN = 1.0  # plain shank beyond each end of an external thread
CORE_OVERLAP = 0.05  # cq_warehouse: the core reaches this far past the thread's root

# bd_warehouse 0.4.0 leaves the top of ("fade", "square") unsquared (the thread runs on
# 0.9 pitch past its length): its parts square the bottom instead.
# name, major diameter, pitch, length, external, hand, end finishes (bottom, top)
BD_PARTS = [
    ("bd_m6x1_stud_rh_fade", 6.0, 1.0, 3.0, True, "right", ("fade", "fade")),
    ("bd_m6x1_stud_lh_square", 6.0, 1.0, 3.0, True, "left", ("square", "square")),
    ("bd_m3_stud_lh_chamfer", 3.0, 0.5, 1.5, True, "left", ("chamfer", "fade")),
    ("bd_m12x1.25_stud_rh_square_fade", 12.0, 1.25, 3.0, True, "right", ("square", "fade")),
    ("bd_m8_nut_rh_chamfer", 8.0, 1.25, 3.75, False, "right", ("chamfer", "chamfer")),
]
# cq_warehouse 0.8.0 squares only the top end when both are "square" (its square_off_ends
# keeps the last cut alone), and a chamfered internal thread comes back empty: its parts use
# "square" at the top only and no internal chamfer.
CQ_PARTS = [
    ("cq_m4_stud_rh_fade", 4.0, 0.7, 2.1, True, "right", ("fade", "fade")),
    ("cq_m10x1_stud_lh_fade_square", 10.0, 1.0, 3.0, True, "left", ("fade", "square")),
    ("cq_m5_stud_rh_chamfer", 5.0, 0.8, 2.4, True, "right", ("chamfer", "fade")),
    ("cq_m10_nut_lh_fade_square", 10.0, 1.5, 4.5, False, "left", ("fade", "square")),
]
# Two threads on one axis, faded at both ends: (major, pitch, length, hand, z of the start).
# M8 x 1.25 right-hand from z 0 to 3 and M6 x 1 left-hand from 6 to 8.5; and a stud with the
# same M6 x 1 right-hand thread at both ends (one screw slides both: two records all the same).
BD_MULTI = [
    ("bd_two_threads_m8_m6lh", [(8.0, 1.25, 3.0, "right", 0.0), (6.0, 1.0, 2.5, "left", 6.0)]),
    ("bd_double_end_stud_m6", [(6.0, 1.0, 2.5, "right", 0.0), (6.0, 1.0, 2.5, "right", 5.0)]),
]
# Multi-start threads: (name, major, pitch, starts, length, hand). bd_warehouse's general
# Thread with the ISO profile of the pitch (apex P/8, root 3P/4 wide, as its IsoThread) and a
# lead of starts x pitch, repeated starts times turned by 360/starts degrees about the axis,
# on a core CORE_OVERLAP above the root: neighbouring starts meet at the root, and a core
# exactly there leaves zero-area faces along the seam.
BD_MULTI_START = [
    ("bd_m8_two_start_stud_rh", 8.0, 1.25, 2, 4.0, "right"),
    ("bd_m10_three_start_stud_lh", 10.0, 1.5, 3, 6.0, "left"),
]
NUT_ACROSS_FLATS = {8.0: 13.0, 10.0: 16.0}


def min_radius(major: float, pitch: float) -> float:
    """Both warehouses' thread root (external) or crest (internal) radius: d/2 - 5H/8."""
    return (major - 2 * 5 / 8 * (pitch / 2) / math.tan(math.radians(30))) / 2


# ISO 261 coarse pitches of the sizes used: a designation names the pitch only when fine.
COARSE = {3.0: 0.5, 4.0: 0.7, 5.0: 0.8, 6.0: 1.0, 8.0: 1.25, 10.0: 1.5, 12.0: 1.75}


def _record(name, generator, major, pitch, length, external, hand, finishes, z0=0.0):
    fine = COARSE[major] != pitch
    return {
        "file": f"{name}.step",
        "generator": generator,
        "designation": f"M{major:g}x{pitch:g}" if fine else f"M{major:g}",
        "kind": "external" if external else "internal",
        "major_diameter": major,
        "pitch": pitch,
        "hand": hand,
        "starts": 1,
        "length": length,
        "start_z": z0,
        "end_finishes": list(finishes),
        "axis": [0.0, 0.0, 1.0],
    }


def build_bd(names) -> list[dict]:
    import build123d as bd
    from bd_warehouse.thread import IsoThread

    def core_cylinder(radius, z0, height):
        return bd.Solid.make_cylinder(radius, height, bd.Plane.XY.offset(z0))

    def thread(major, pitch, length, external, hand, finishes, z0=0.0):
        made = IsoThread(major, pitch, length, external=external, hand=hand, end_finishes=finishes)
        return [s.moved(bd.Location((0, 0, z0))) for s in made.solids()]

    records = []
    for name, major, pitch, length, external, hand, finishes in BD_PARTS:
        if names and name not in names:
            continue
        pieces = thread(major, pitch, length, external, hand, finishes)
        if external:
            body = core_cylinder(min_radius(major, pitch), -PLAIN, length + 2 * PLAIN)
        else:
            body = _bd_nut(bd, NUT_ACROSS_FLATS[major], major / 2, length)
        _write_bd(bd, body, pieces, name)
        records.append(
            _record(name, "bd_warehouse", major, pitch, length, external, hand, finishes)
        )
    fade = ("fade", "fade")
    for name, threads in BD_MULTI:
        if names and name not in names:
            continue
        # Each thread on a core of its own root radius, running from 1 mm below its start
        # to its neighbour's core (the last one 1 mm past its end).
        body, pieces = None, []
        for number, (major, pitch, length, hand, z0) in enumerate(threads):
            top = threads[number + 1][4] if number + 1 < len(threads) else z0 + length + PLAIN
            low = z0 - PLAIN if number == 0 else z0 - 1.0
            core = core_cylinder(min_radius(major, pitch), low, top - low)
            body = core if body is None else body.fuse(core)
            pieces += thread(major, pitch, length, True, hand, fade, z0)
            records.append(
                _record(name, "bd_warehouse", major, pitch, length, True, hand, fade, z0)
            )
        _write_bd(bd, body, pieces, name)
    records += _build_bd_multi_start(bd, names)
    return records


def _build_bd_multi_start(bd, names) -> list[dict]:
    from bd_warehouse.thread import Thread

    records = []
    fade = ("fade", "fade")
    for name, major, pitch, starts, length, hand in BD_MULTI_START:
        if names and name not in names:
            continue
        pieces = []
        for start in range(starts):
            made = Thread(
                apex_radius=major / 2,
                apex_width=pitch / 8,
                root_radius=min_radius(major, pitch),
                root_width=3 * pitch / 4,
                pitch=starts * pitch,
                length=length,
                hand=hand,
                end_finishes=fade,
            )
            turn = bd.Rotation(0, 0, 360.0 * start / starts)
            pieces += [turn * s for s in made.solids()]
        body = bd.Solid.make_cylinder(
            min_radius(major, pitch) + CORE_OVERLAP, length + 2 * PLAIN, bd.Plane.XY.offset(-PLAIN)
        )
        _write_bd(bd, body, pieces, name)
        record = _record(name, "bd_warehouse", major, pitch, length, True, hand, fade)
        record["starts"] = starts
        records.append(record)
    return records


def _bd_nut(bd, across_flats, bore, height):
    hexagon = bd.Face(bd.RegularPolygon(across_flats / 2, 6, major_radius=False).wire())
    prism = bd.Solid.extrude(hexagon, (0, 0, height))
    return prism.cut(bd.Solid.make_cylinder(bore, height))


def _write_bd(bd, body, pieces, name):
    shape = body
    for piece in pieces:
        shape = shape.fuse(piece)
    shape = shape.clean()
    solids = shape.solids()
    assert len(solids) == 1 and solids[0].is_valid, f"{name}: {len(solids)} solids"
    bd.export_step(solids[0], os.path.join(OUT, f"{name}.step"))


def build_cq(names) -> list[dict]:
    import cadquery as cq
    from cq_warehouse.thread import IsoThread

    records = []
    for name, major, pitch, length, external, hand, finishes in CQ_PARTS:
        if names and name not in names:
            continue
        made = IsoThread(major, pitch, length, external=external, hand=hand, end_finishes=finishes)
        if external:
            radius = min_radius(major, pitch) + CORE_OVERLAP
            body = cq.Solid.makeCylinder(
                radius, length + 2 * PLAIN, cq.Vector(0, 0, -PLAIN), cq.Vector(0, 0, 1)
            )
        else:
            circum = NUT_ACROSS_FLATS[major] / math.cos(math.pi / 6)
            body = (
                cq.Workplane("XY")
                .polygon(6, circum)
                .extrude(length)
                .cut(cq.Workplane("XY").circle(major / 2).extrude(length))
                .val()
            )
        shape = body.fuse(made).clean()
        solids = shape.Solids()
        assert len(solids) == 1 and solids[0].isValid(), f"{name}: {len(solids)} solids"
        cq.exporters.export(solids[0], os.path.join(OUT, f"{name}.step"))
        records.append(
            _record(name, "cq_warehouse", major, pitch, length, external, hand, finishes)
        )
    return records


NIST_BLENDS = ("nist_ctc_02_asme1_ap242-e2.stp", "nist_ftc_07_asme1_rd.stp")


def extract_nist_blends(folder: str) -> None:
    """The blend faces of two NIST test parts that fit a screw on their own (to 3e-3,
    over a fraction of a turn), as small BREP compounds: the parts have no thread. Runs
    with the project's own venv (FreeCAD), on the public-domain NIST STEP files in folder.
    (Which faces to keep is cadbench's own per-face fit; what they must read as, no
    thread, is NIST's.)"""
    sys.path.insert(0, os.path.dirname(HERE))
    from cadbench_wb.runtime.freecad_env import import_freecad

    import_freecad()
    import Part

    from cadbench_wb.app.model import thread_flanks

    for name in NIST_BLENDS:
        shape = Part.read(os.path.join(folder, name))
        faces = []
        for samples in thread_flanks.free_form_samples(shape, 5):
            if thread_flanks.own_fit(samples) is not None:
                faces.append(samples.face)
        target = os.path.join(OUT, name.split("_asme1")[0] + "_blends.brep")
        Part.Compound(faces).exportBrep(target)
        print(
            f"{os.path.basename(target)}: {len(faces)} faces, {os.path.getsize(target) / 1024:.0f} KB"
        )


def versions(generator: str) -> dict:
    from importlib.metadata import version

    names = ("bd_warehouse", "build123d") if generator == "bd" else ("cq_warehouse", "cadquery")
    return {name: version(name) for name in names + ("cadquery-ocp-proxy",)}


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "nist":
        extract_nist_blends(argv[1])
        return 0
    if not argv or argv[0] not in ("bd", "cq"):
        print(
            "usage: thread_fixtures.py bd|cq [part name ...] | nist NIST_STEP_FOLDER",
            file=sys.stderr,
        )
        return 2
    generator, names = argv[0], set(argv[1:])
    os.makedirs(OUT, exist_ok=True)
    records = build_bd(names) if generator == "bd" else build_cq(names)
    library = "bd_warehouse" if generator == "bd" else "cq_warehouse"
    made = {r["file"] for r in records}
    manifest = {"generators": {}, "threads": []}
    if os.path.exists(MANIFEST):
        with open(MANIFEST, encoding="utf-8") as handle:
            manifest = json.load(handle)
    manifest["generators"][library] = versions(generator)
    kept = [
        r
        for r in manifest["threads"]
        if r["generator"] != library or (names and r["file"] not in made)
    ]
    manifest["threads"] = sorted(kept + records, key=lambda r: (r["file"], r["start_z"]))
    with open(MANIFEST, "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=1, sort_keys=True)
        handle.write("\n")
    for record in records:
        size = os.path.getsize(os.path.join(OUT, record["file"]))
        print(f"{record['file']}: {size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
