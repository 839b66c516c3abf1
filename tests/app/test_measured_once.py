# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the threaded-pair speed-up (issue 11) measures once or only when asked for gives
the same figures as measuring it eagerly: thread zone volumes (columns in the thread's frame,
against manifold3d's tube), exact volumes handed from loading to the shape stage, face areas
and edge convexity on demand."""

import math
import os

import numpy as np
import pytest

from cadbench_wb import standard
from cadbench_wb.app.model import meshing
from cadbench_wb.app.recognition import brep_graph, threads
from cadbench_wb.app.shape import fidelity as shape_fidelity
from cadbench_wb.app.threads import zone as thread_zone

HERE = os.path.dirname(os.path.abspath(__file__))
THREADS = os.path.join(os.path.dirname(HERE), "data", "threads")
RINGS = standard.THREADS["zone_rings"]


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


def _bar_mesh(part, radius: float, length: float = 30.0):
    """A round bar's mesh within 1e-3 mm of its surface (a quarter of a ring's width)."""
    return meshing.mesh_of(part.makeCylinder(radius, length), 1e-3)


@pytest.mark.parametrize("rings", [14, RINGS])  # out to a ring boundary inside; all of it
def test_zone_volume_of_a_round_bar_is_the_annulus_it_fills(fc, part, rings):
    """A bar 30 long fills the zone (radii 3.3 to 4.0, z 5 to 25) out to its radius, a
    ring boundary of the zone's columns (or beyond the zone: radius 4.5). Expected from the
    construction: every column inside the bar is 20 long (the zone's length) and every
    other one 0, the mesh is within 1e-3 mm of the bar (each ring's middle is 0.011 mm from
    its edges), and midpoint rings add up to their annulus exactly: the material is the
    annulus from 3.3 to the bar, times 20."""
    inner, outer = 3.3, 4.0
    reach = inner + rings * (outer - inner) / RINGS
    radius = reach if rings < RINGS else 4.5
    expected = math.pi * (reach**2 - inner**2) * 20.0
    zone = _zone(2 * inner, 2 * outer, 20.0, 5.0)
    assert thread_zone.zone_volume(_bar_mesh(part, radius), zone) == pytest.approx(
        expected, rel=1e-9
    )


def test_zone_volume_needs_no_manifold(fc, part):
    """A bar's mesh less one triangle of its top (a hole as a crack leaves one, refused by
    manifold3d) still gives the annulus: the few columns through the hole take their
    ring's; less its whole top face (most columns open) it gives no volume at all."""
    vertices, triangles = _bar_mesh(part, 4.5, 20.0)
    zone = _zone(6.6, 8.0, 20.0, 0.0)
    top = np.flatnonzero(np.all(np.isclose(vertices[triangles][:, :, 2], 20.0), axis=1))
    holed = np.delete(triangles, top[len(top) // 2], axis=0)
    assert meshing.manifold_of(vertices, holed) is None
    expected = math.pi * (4.0**2 - 3.3**2) * 20.0
    assert thread_zone.zone_volume((vertices, holed), zone) == pytest.approx(expected, rel=1e-9)
    assert thread_zone.zone_volume((vertices, np.delete(triangles, top, axis=0)), zone) is None


@pytest.mark.parametrize(
    "name", ["bd_m8_nut_rh_chamfer.step", "bd_m6x1_stud_lh_square.step", "cq_m4_stud_rh_fade.step"]
)
def test_zone_volume_is_the_material_in_the_tube(fc, name):
    """On real threads the columns agree with manifold3d's intersection of the mesh with a
    polygonal tube (an independent route). Tolerance from the construction: a regular
    256-gon inscribed in a circle misses (2 pi / 256)^2 / 6 = 1.0e-4 of the disc, and the
    tube's two walls miss at most that of their discs' material, pi (R^2 + r^2) L."""
    import manifold3d
    import Part

    shape = Part.read(os.path.join(THREADS, name))
    deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * shape.BoundBox.DiagonalLength
    mesh = meshing.mesh_of(shape, deflection)
    solid = meshing.manifold_of(*mesh)
    for thread in threads.modeled_threads(shape):
        height, segments = float(thread.length), 256
        outer, inner = thread.major_diameter / 2, thread.minor_diameter / 2
        tube = manifold3d.Manifold.cylinder(
            height, outer, -1.0, segments
        ) - manifold3d.Manifold.cylinder(height, inner, -1.0, segments)
        frame = thread_zone.thread_frame(thread.axis, thread.start)
        direct = (solid ^ tube.transform(frame)).volume()
        missed = (2 * math.pi / segments) ** 2 / 6 * math.pi * (outer**2 + inner**2) * height
        assert direct > 0
        assert abs(thread_zone.zone_volume(mesh, thread) - direct) <= missed


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
