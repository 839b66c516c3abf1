# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the threaded-pair speed-up (issue 11) measures once or only when asked for gives
the same figures as measuring it eagerly: thread zone volumes from two cylinders, exact
volumes handed from loading to the shape stage, face areas and edge convexity on demand."""

import math
import os

import numpy as np
import pytest

from cadbench_wb import standard
from cadbench_wb.app.features import brep_graph
from cadbench_wb.app.shape import fidelity as shape_fidelity
from cadbench_wb.app.shape import meshing
from cadbench_wb.app.threads import recognition as threads

HERE = os.path.dirname(os.path.abspath(__file__))
THREADS = os.path.join(os.path.dirname(HERE), "data", "threads")
SEGMENTS = standard.THREADS["zone_segments"]


def _polygon_area(radius: float) -> float:
    """Area of manifold3d's regular polygon standing for a circle of this radius."""
    return SEGMENTS / 2 * radius * radius * math.sin(2 * math.pi / SEGMENTS)


def _zone(minor: float, major: float, length: float, start_z: float):
    return threads.Thread(
        kind="external",
        modeled=True,
        major_diameter=major,
        minor_diameter=minor,
        pitch=1.0,
        lead=1.0,
        starts=1,
        hand="right",
        length=length,
        axis=[0.0, 0.0, 1.0],
        start=[0.0, 0.0, start_z],
        end=[0.0, 0.0, start_z + length],
    )


@pytest.mark.parametrize("radius", [3.6, 4.5])  # between minor and major radius; beyond major
def test_zone_volume_of_a_round_bar_is_the_annulus_it_fills(fc, part, radius):
    """A bar 30 long fills the zone (radii 3.3 to 4.0, z 5 to 25) out to its radius 3.6,
    or all of it at 4.5. Expected from the construction: the bar's mesh is a prism, so its
    section is its volume over 30; the zone's inner polygon (and, for the thick bar, its
    outer polygon) lies inside that section; the material in the zone is the section (or
    the outer polygon) less the inner polygon, times the zone's length 20."""
    bar = part.makeCylinder(radius, 30)
    deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * bar.BoundBox.DiagonalLength
    mesh = meshing.mesh_of(bar, deflection)
    section = meshing.manifold_of(*mesh).volume() / 30
    outer = section if radius < 4.0 else _polygon_area(4.0)
    expected = (outer - _polygon_area(3.3)) * 20.0
    zone = _zone(6.6, 8.0, 20.0, 5.0)
    assert threads.zone_volume(mesh, zone) == pytest.approx(expected, rel=1e-9)


def test_zone_volume_equals_the_material_in_the_tube(fc):
    """On a real thread (bd_warehouse M8 nut, internal), outer cylinder less inner cylinder
    is the tube's own intersection (they differ by rounding only)."""
    import manifold3d
    import Part

    nut = Part.read(os.path.join(THREADS, "bd_m8_nut_rh_chamfer.step")).Solids[0]
    (thread,) = threads.modeled_threads(nut)
    deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * nut.BoundBox.DiagonalLength
    mesh = meshing.mesh_of(nut, deflection)
    height = float(thread.length)
    tube = manifold3d.Manifold.cylinder(
        height, thread.major_diameter / 2, -1.0, SEGMENTS
    ) - manifold3d.Manifold.cylinder(height, thread.minor_diameter / 2, -1.0, SEGMENTS)
    frame = threads._frame(np.array(thread.axis), np.array(thread.start))
    direct = (meshing.manifold_of(*mesh) ^ tube.transform(frame)).volume()
    assert direct > 0
    assert threads.zone_volume(mesh, thread) == pytest.approx(direct, rel=1e-9)


def test_known_volumes_give_the_figures_measured_ones_give(fc, part):
    """Loading's exact volumes handed to the shape stage change no figure."""
    block = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(20, 15, 0)))
    other = part.makeBox(40, 30, 18)
    measured = shape_fidelity.shape_figures(block, other, keep_shapes=False)["figures"]
    known = shape_fidelity.shape_figures(
        block, other, keep_shapes=False, volumes=(block.Volume, other.Volume)
    )["figures"]
    for key in ("iou", "dice", "volumeA", "volumeB", "volumeCommon", "method", "checked"):
        assert known[key] == measured[key]
    # The box is the block's lower 18 mm without its hole: common (1200 - 25 pi) 18,
    # union the block's volume plus the box's 1200 x 18 less the common part.
    section = 1200 - 25 * math.pi
    expected = 18 * section / (20 * section + 1200 * 18 - 18 * section)
    assert measured["iou"] == pytest.approx(expected, rel=1e-6)


def test_areas_and_convexity_on_demand_are_the_eager_ones(fc):
    """Every face's area and every edge's kind, read from the graph of a threaded part,
    are the face's own Area and the convexity of its two faces at the edge."""
    import Part

    stud = Part.read(os.path.join(THREADS, "bd_m6x1_stud_lh_square.step")).Solids[0]
    graph = brep_graph.graph_of(stud)
    for info in graph.faces:
        assert info.area == info.face.Area
    kinds = set()
    for edge in graph.edges:
        eager = (
            "seam"
            if len(edge.faces) < 2
            else brep_graph._convexity(
                graph.faces[edge.faces[0]], graph.faces[edge.faces[1]], edge.edge
            )
        )
        assert edge.kind == eager
        kinds.add(edge.kind)
    assert {"convex", "concave"} <= kinds
