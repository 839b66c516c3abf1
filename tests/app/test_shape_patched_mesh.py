# SPDX-License-Identifier: LGPL-2.1-or-later
"""The cross-check meshes of a plate with many holes: cut into patches (OpenCASCADE's planar
Delaunay grows faster than a face's boundary nodes), with the plate's analytic volume."""

import math

import pytest

from cadbench_wb import standard

RADIUS, THICKNESS, PITCH = 3.0, 10.0, 12.0


def _plate(fc, part, holes: int):
    """200 x 200 x 10 minus `holes` through holes of radius 3 on a 12 mm grid."""
    cylinders = [
        part.makeCylinder(
            RADIUS, THICKNESS, fc.Vector(10 + PITCH * (i % 16), 10 + PITCH * (i // 16), 0)
        )
        for i in range(holes)
    ]
    return part.makeBox(200, 200, THICKNESS).cut(part.makeCompound(cylinders)).Solids[0]


def _analytic_volume(holes: int) -> float:
    return 200 * 200 * THICKNESS - holes * math.pi * RADIUS**2 * THICKNESS


def _largest_hole_share(holes: int) -> float:
    """The most a mesh can add to the hole volume: each circle a polygon of at least
    2 pi / angular deflection sides inscribed in it."""
    sides = math.ceil(2 * math.pi / standard.CROSS_CHECK["mesh_angular_deflection"])
    polygon = sides / 2 * RADIUS**2 * math.sin(2 * math.pi / sides)
    return holes * THICKNESS * (math.pi * RADIUS**2 - polygon)


def test_the_split_starts_at_mesh_split_holes(fc, part):
    from cadbench_wb.app.model import meshing

    limit = standard.CROSS_CHECK["mesh_split_holes"]
    assert meshing.split_for_meshing(_plate(fc, part, limit - 1)) is None
    shell = meshing.split_for_meshing(_plate(fc, part, limit))
    assert shell is not None and shell.isClosed()


def test_patched_mesh_has_the_plates_volume_and_no_inner_walls(fc, part):
    from cadbench_wb.app.model import meshing

    holes = 60
    plate = _plate(fc, part, holes)
    deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * plate.BoundBox.DiagonalLength
    angular = standard.CROSS_CHECK["mesh_angular_deflection"]
    patched = meshing.manifold_of(*meshing.mesh_of(plate, deflection, angular))
    whole = meshing.manifold_of(*meshing._meshed(plate, deflection, angular))
    exact = _analytic_volume(holes)
    # Inscribed polygons only ever add material; never more than their construction allows.
    assert exact <= patched.volume() <= exact + _largest_hole_share(holes)
    # The cuts add no error: the patches are planar, and a circle a cut crosses only gains
    # a node (its polygon comes closer to the circle, the volume can only drop).
    assert exact <= whole.volume() <= exact + _largest_hole_share(holes)
    assert patched.volume() <= whole.volume() + 1e-9 * exact
    # Inner walls would add twice the area of the cut planes (2 x 10 x 200 per cut).
    assert abs(patched.surface_area() - whole.surface_area()) <= 1e-6 * whole.surface_area()


def test_a_tilted_copy_is_cut_and_meshed_as_the_plate_itself(fc, part):
    # The cuts follow the plate's own longest edge, in the face's own frame, not the world
    # axes: a copy turned 23 degrees about a skew axis gets the same patches, so the same
    # triangles (moved) and the same mesh volume to rounding. (Cut along the world axes, a
    # tilted copy's cuts crossed a hole every few millimetres: 3 x the CPU on 250 holes.)
    from cadbench_wb.app.model import meshing

    plate = _plate(fc, part, 60)
    moved = plate.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
    moved.translate(fc.Vector(5, 7, 9))
    deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * plate.BoundBox.DiagonalLength
    angular = standard.CROSS_CHECK["mesh_angular_deflection"]
    meshes = [meshing.mesh_of(s, deflection, angular) for s in (plate, moved)]
    assert len(meshes[0][1]) == len(meshes[1][1])
    own, tilted = (meshing.manifold_of(*m) for m in meshes)
    assert tilted.volume() == pytest.approx(own.volume(), rel=1e-9)
    assert _analytic_volume(60) <= own.volume() <= _analytic_volume(60) + _largest_hole_share(60)


@pytest.mark.slow
def test_plate_with_250_holes_scores_one_against_its_moved_copy(fc, part):
    from cadbench_wb.app.model import placement
    from cadbench_wb.app.shape import alignment
    from cadbench_wb.app.shape import fidelity as shape_fidelity

    holes = 250
    plate = _plate(fc, part, holes)
    moved = plate.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
    moved.translate(fc.Vector(5, 7, 9))
    pose = alignment.align(plate, moved)
    aligned = placement.placed(moved, pose.best.rotation, pose.best.translation)
    computed = shape_fidelity.shape_figures(plate, aligned, pose.aligned_meshes(), False)
    figures = computed["figures"]
    assert figures["method"] == "exact"
    assert abs(figures["volumeA"] - _analytic_volume(holes)) <= 1e-9 * figures["volumeA"]
    assert abs(figures["iou"] - 1.0) <= standard.CROSS_CHECK["inclusion_exclusion_rel"]


def _volume_error(shape, angular: float) -> float:
    from cadbench_wb.app.model import meshing

    deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * shape.BoundBox.DiagonalLength
    mesh = meshing.manifold_of(*meshing.mesh_of(shape.copy(), deflection, angular))
    return abs(mesh.volume() / shape.Volume - 1)


def test_angular_deflection_keeps_the_cross_check_tolerance_at_its_floor(fc, part):
    """mesh_angular_deflection's reason: the mesh tolerance is max(floor, 3 x the two
    meshes' volume errors); at 0.2 rad it stays at the floor on the real NIST parts and on
    the 250-hole plate, at 0.3 rad the plate's holes already push it past."""
    import os

    from conftest import ROOT

    floor = standard.CROSS_CHECK["mesh_tolerance_floor"]
    angular = standard.CROSS_CHECK["mesh_angular_deflection"]
    plate = _plate(fc, part, 250)
    for name in ("nist_ctc_01_asme1_rd.stp", "nist_ftc_06_asme1_rd.stp"):
        nist = part.read(os.path.join(ROOT, "tests", "data", "nist", name)).Solids[0]
        assert 3 * 2 * _volume_error(nist, angular) <= floor, name
    assert 3 * 2 * _volume_error(plate, angular) <= floor
    assert 3 * 2 * _volume_error(plate, 1.5 * angular) > floor
