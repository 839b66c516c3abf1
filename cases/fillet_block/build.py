# SPDX-License-Identifier: LGPL-2.1-or-later
"""Block with fillets of three radii: R10 outer corners, R5 pocket corners and an R2
fillet at the foot of a round boss.

Built from primitives (corner rounds as box minus cylinder, the boss fillet as a ring
minus a torus) so every volume is analytic (Pappus for the torus fillet).
"""

import math

from cadbench_wb.app.cases import samples
from cadbench_wb.runtime.freecad_env import import_freecad

FreeCAD = import_freecad()
import Part  # noqa: E402  (FreeCAD must be imported first)

V = FreeCAD.Vector

LENGTH, WIDTH, HEIGHT, CORNER = 80.0, 60.0, 25.0, 10.0
POCKET_X, POCKET_L, POCKET_W, POCKET_DEPTH, POCKET_R = 8.0, 40.0, 24.0, 8.0, 5.0
BOSS_D, BOSS_H, BOSS_FROM_END, BOSS_FILLET = 20.0, 12.0, 19.0, 2.0


def _rounded_rectangle(x0, y0, length, width, radius, z0, height):
    """A box with its four vertical edges rounded."""
    solid = Part.makeBox(length, width, height, V(x0, y0, z0))
    corners = ((x0, y0, 1, 1), (x0 + length, y0, -1, 1), (x0, y0 + width, 1, -1))
    corners += ((x0 + length, y0 + width, -1, -1),)
    for cx, cy, sx, sy in corners:
        corner = Part.makeBox(
            radius, radius, height, V(min(cx, cx + sx * radius), min(cy, cy + sy * radius), z0)
        )
        keep = Part.makeCylinder(radius, height, V(cx + sx * radius, cy + sy * radius, z0))
        solid = solid.cut(corner.cut(keep))
    return solid


def fillet_block(pocket_radius=POCKET_R, boss_fillet=True):
    solid = _rounded_rectangle(0, 0, LENGTH, WIDTH, CORNER, 0, HEIGHT)
    pocket_y = (WIDTH - POCKET_W) / 2
    pocket = _rounded_rectangle(
        POCKET_X, pocket_y, POCKET_L, POCKET_W, pocket_radius, HEIGHT - POCKET_DEPTH, POCKET_DEPTH
    )
    solid = solid.cut(pocket)
    centre = V(LENGTH - BOSS_FROM_END, WIDTH / 2, HEIGHT)
    solid = solid.fuse(Part.makeCylinder(BOSS_D / 2, BOSS_H, centre))
    if boss_fillet:
        r, f = BOSS_D / 2, BOSS_FILLET
        ring = Part.makeCylinder(r + f, f, centre).cut(Part.makeCylinder(r, f, centre))
        torus = Part.makeTorus(r + f, f, centre + V(0, 0, f))
        solid = solid.fuse(ring.cut(torus))
    return solid.removeSplitter().Solids[0]


def volume(pocket_radius=POCKET_R, boss_fillet=True):
    """The analytic volume (case.yaml's expectations are written from it)."""
    spandrel = 1 - math.pi / 4  # square minus quarter circle, per R^2
    body = (LENGTH * WIDTH - 4 * spandrel * CORNER**2) * HEIGHT
    body -= (POCKET_L * POCKET_W - 4 * spandrel * pocket_radius**2) * POCKET_DEPTH
    body += math.pi * (BOSS_D / 2) ** 2 * BOSS_H
    if boss_fillet:
        centroid = BOSS_D / 2 + BOSS_FILLET * (10 - 3 * math.pi) / (3 * (4 - math.pi))
        body += 2 * math.pi * centroid * spandrel * BOSS_FILLET**2
    return body


def build(out_dir, case_dir):
    reference = fillet_block()
    samples.write_step(reference, out_dir, "reference.step")
    samples.write_standard_samples(reference, out_dir, mirror_normal=(0, 1, 0))
    samples.write_step(
        fillet_block(pocket_radius=6.0), out_dir, "candidates/wrong_pocket_radius.step"
    )
    samples.write_step(
        fillet_block(boss_fillet=False), out_dir, "candidates/missing_boss_fillet.step"
    )
