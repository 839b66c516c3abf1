# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shared fixtures: real FreeCAD solids written to real files (no mocks of FreeCAD)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Third-party files copied into the repository (tests/data/realworld/PROVENANCE.md):
# tests never read outside the clone.
REALWORLD = os.path.join(ROOT, "tests", "data", "realworld")
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


@pytest.fixture(scope="session")
def fc():
    from cadbench_wb.runtime.freecad_env import import_freecad

    return import_freecad()


@pytest.fixture(scope="session")
def part(fc):
    import Part

    return Part


def chiral_block(fc, part):
    """40 x 30 x 20 block, a through hole at (12, 10) and a notch on one top corner:
    no mirror symmetry, so its mirror image is a different part."""
    block = part.makeBox(40, 30, 20)
    block = block.cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0)))
    block = block.cut(part.makeBox(10, 10, 10, fc.Vector(30, 20, 10)))
    return block.Solids[0]


@pytest.fixture(scope="session")
def models(fc, part, tmp_path_factory):
    """Paths of the analytic test models, keyed by name."""
    folder = tmp_path_factory.mktemp("models")
    paths = {}

    def save(name, shape, ext="step"):
        path = str(folder / f"{name}.{ext}")
        if ext == "brep":
            shape.exportBrep(path)
        elif ext == "stl":
            shape.exportStl(path)
        else:
            shape.exportStep(path)
        paths[name] = path

    holed = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 10, 0))).Solids[0]
    save("holed", holed)
    moved = holed.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(1, 1, 0.3), 37)
    moved.translate(fc.Vector(100, -20, 5))
    save("holed_moved", moved)
    bigger = part.makeBox(40, 30, 20).cut(part.makeCylinder(6, 20, fc.Vector(12, 10, 0)))
    save("holed_bigger_hole", bigger.Solids[0], "brep")
    chiral = chiral_block(fc, part)
    save("chiral", chiral)
    save("chiral_mirror", chiral.mirror(fc.Vector(0, 0, 0), fc.Vector(1, 0, 0)))
    spun = chiral.copy()
    spun.rotate(fc.Vector(5, 5, 5), fc.Vector(-0.2, 1, 0.7), 151)
    spun.translate(fc.Vector(-30, 12, 250))
    save("chiral_moved", spun)
    box = part.makeBox(50, 40, 30)
    save("box", box)
    scaled = box.copy()
    scaled.scale(1.02, fc.Vector(0, 0, 0))
    scaled.translate(fc.Vector(3, -7, 11))
    save("box_scaled", scaled)
    save("holed_stl", holed, "stl")
    save("face_only", holed.Faces[0])
    save("open_shell_solid", part.Solid(part.Shell(box.Faces[:5])), "brep")
    save("empty_compound", part.makeCompound([]), "brep")
    two = part.makeCompound([box, part.makeBox(10, 10, 10, fc.Vector(100, 0, 0))])
    save("two_disjoint", two)
    empty = folder / "empty.step"
    empty.write_bytes(b"")
    paths["empty"] = str(empty)
    garbage = folder / "garbage.step"
    garbage.write_text("ISO-10303-21;\nHEADER;\nthis is not STEP\n")
    paths["garbage"] = str(garbage)
    notstep = folder / "picture.step"
    notstep.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    paths["not_step"] = str(notstep)
    text = folder / "notes.txt"
    text.write_text("hello")
    paths["unsupported"] = str(text)
    paths["missing"] = str(folder / "does_not_exist.step")
    return paths


def run_cli(*args, env=None, timeout=600):
    """Run the real `cadbench` command line; returns (exit status, stdout, stderr)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    process = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=full_env,
        timeout=timeout,
    )
    return process.returncode, process.stdout, process.stderr


def score_json(reference, candidate, *extra, env=None, auto=False):
    """`cadbench score --json -`; without --case and unless auto, --no-auto-targets: these
    tests were written for the three figures a reference alone gave before automatic
    targets (tests/app/test_auto_case.py tests those)."""
    if not auto and "--case" not in extra:
        extra = (*extra, "--no-auto-targets")
    status, out, err = run_cli("score", reference, candidate, "--json", "-", *extra, env=env)
    assert status == 0, err
    return json.loads(out)


def own_mesh(shape, angular=0.2, turned=False):
    """MeshPart's tessellation of a shape as a part's own STL is made in these tests
    (linear deflection 0.1 % of its diagonal, the angular deflection given), turned and
    moved by one seeded pose when asked: delivered out of its modelling frame, the STL's
    float32 coordinates then carry rounding off every plane."""
    import FreeCAD
    import MeshPart
    import numpy as np
    from scipy.spatial.transform import Rotation

    mesh = MeshPart.meshFromShape(
        Shape=shape,
        LinearDeflection=0.001 * shape.BoundBox.DiagonalLength,
        AngularDeflection=angular,
        Relative=False,
    )
    if turned:
        x, y, z, w = Rotation.random(random_state=1).as_quat()
        shift = FreeCAD.Vector(*np.random.default_rng(1).uniform(-50, 50, 3))
        mesh.transform(FreeCAD.Placement(shift, FreeCAD.Rotation(x, y, z, w)).toMatrix())
    return mesh


def mesh_arrays(mesh):
    """(vertices (n, 3) float, triangles (m, 3) int64) of a FreeCAD mesh."""
    import numpy as np

    vertices = np.array([tuple(p) for p in mesh.Topology[0]], dtype=float)
    return vertices, np.array(mesh.Topology[1], dtype=np.int64)


def copy_package(target) -> str:
    """cadbench_wb/ and resources/ side by side in target, as a checkout holds them (for
    tests that change the package's own files); returns the package folder."""
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(os.path.join(ROOT, "cadbench_wb"), os.path.join(target, "cadbench_wb"),
                    ignore=ignore)  # fmt: skip
    shutil.copytree(os.path.join(ROOT, "resources"), os.path.join(target, "resources"),
                    ignore=ignore)  # fmt: skip
    return os.path.join(str(target), "cadbench_wb")


def copy_repository(target) -> str:
    """The repository's files as a clone holds them (tracked, and new files not ignored;
    no .venv, no built cases) copied to target: a Mod/ install as the Addon Manager makes."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for relative in filter(None, listed.split("\0")):
        source = os.path.join(ROOT, relative)
        if os.path.isfile(source):
            destination = os.path.join(str(target), relative)
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            shutil.copyfile(source, destination)
    return str(target)
