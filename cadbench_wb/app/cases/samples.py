# SPDX-License-Identifier: LGPL-2.1-or-later
"""Building blocks for the cases' build scripts: sample candidates and broken deliveries.

Every bundled case ships the same kinds of samples (seed 000's cases need them to show
what each figure sees): the reference in another pose, uniformly scaled, mirrored, and
deliveries that are no model at all. The case's own build.py adds the samples that need
its construction (a wrong diameter, a missing feature).
"""

import os

from cadbench_wb.runtime.freecad_env import import_freecad

# A pose far from the reference's: a rotation about a skew axis plus a shift, so a scorer
# that forgot to align could not pass by accident.
OTHER_POSE = {"axis": (1.0, 2.0, 3.0), "angle_deg": 37.0, "shift": (120.0, -45.0, 30.0)}
SCALE = 1.02


def write_step(shape, folder: str, relative: str) -> str:
    """Write a shape as STEP at folder/relative (folders made as needed); the path."""
    path = os.path.join(folder, relative)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    shape.exportStep(path)
    return path


def moved(shape, pose: dict | None = None):
    """A copy in another pose (rotation about pose['axis'] through the origin, then shift)."""
    fc = import_freecad()
    pose = pose or OTHER_POSE
    copy = shape.copy()
    copy.rotate(fc.Vector(0, 0, 0), fc.Vector(*pose["axis"]), pose["angle_deg"])
    copy.translate(fc.Vector(*pose["shift"]))
    return copy


def scaled(shape, factor: float = SCALE):
    """A copy scaled uniformly about its centre of mass (every length x factor)."""
    fc = import_freecad()
    copy = shape.copy()
    centre = shape.CenterOfMass if hasattr(shape, "CenterOfMass") else fc.Vector()
    copy.scale(factor, centre)
    return copy


def mirrored(shape, normal=(1.0, 0.0, 0.0)):
    """The mirror image through the plane with that normal through the bounding box's
    centre (a symmetry plane of the outline, so the expected overlap is easy to state)."""
    fc = import_freecad()
    image = shape.mirror(shape.BoundBox.Center, fc.Vector(*normal))
    return image.Solids[0] if len(image.Solids) == 1 else image


def write_standard_samples(reference, folder: str, mirror_normal=(1.0, 0.0, 0.0)) -> dict:
    """The samples every case has, under folder/candidates/; returns {name: path}."""
    paths = {
        "perfect_moved": write_step(moved(reference), folder, "candidates/perfect_moved.step"),
        "scaled_102": write_step(moved(scaled(reference)), folder, "candidates/scaled_102.step"),
        "mirrored": write_step(
            mirrored(reference, mirror_normal), folder, "candidates/mirrored.step"
        ),
    }
    paths.update(write_broken_deliveries(reference, folder))
    return paths


def write_broken_deliveries(reference, folder: str) -> dict:
    """An empty file, a file that only claims to be STEP, and a STEP of one face."""
    target = os.path.join(folder, "candidates")
    os.makedirs(target, exist_ok=True)
    empty = os.path.join(target, "broken_empty.step")
    open(empty, "wb").close()
    garbage = os.path.join(target, "broken_garbage.step")
    with open(garbage, "w", encoding="ascii") as handle:
        handle.write("ISO-10303-21;\nHEADER;\n/* a truncated upload: no DATA section */\n")
    largest = max(reference.Faces, key=lambda f: f.Area)
    face_only = write_step(largest, folder, "candidates/broken_face_only.step")
    return {"broken_empty": empty, "broken_garbage": garbage, "broken_face_only": face_only}
