# SPDX-License-Identifier: LGPL-2.1-or-later
"""The mesh-rebuild thresholds of standard.MESH_FEATURES that decide when a mesh is cut into
analytic regions and when it is not applicable (geometry/mesh_segments.py), each at its
boundary. The meshes are prisms over a constructed profile, so every figure (how many
facets in a row, how many seeds fit nothing) follows from the profile."""

import math

import numpy as np
import pytest

from cadbench_wb import standard
from cadbench_wb.geometry import mesh_segments

SETTINGS = standard.MESH_FEATURES
TOLERANCE = 3e-5  # mm: fit_rel of a part of 100 mm
DEPTH = 10.0


def _prism(top):
    """(vertices, triangles) of the closed prism under a profile: the polygon between y = 0
    and the points `top` (x strictly increasing, y > 0), extruded by DEPTH along z. Each
    cap is cut in vertical strips, so no triangle joins non-neighbouring profile points."""
    top = np.asarray(top, float)
    count = len(top)
    vertices = []
    for z in (0.0, DEPTH):
        for x, y in top:
            vertices += [(x, 0.0, z), (x, y, z)]
    vertices = np.array(vertices)

    def index(i, upper, far):  # profile point i, on the top (upper) or bottom, at z = DEPTH?
        return (count * 2 if far else 0) + 2 * i + (1 if upper else 0)

    quads = []  # corners in order, counter-clockwise seen from outside
    for i in range(count - 1):
        j = i + 1
        quads.append([index(i, 0, 0), index(i, 1, 0), index(j, 1, 0), index(j, 0, 0)])  # -z
        quads.append([index(i, 0, 1), index(j, 0, 1), index(j, 1, 1), index(i, 1, 1)])  # +z
        quads.append([index(i, 0, 0), index(j, 0, 0), index(j, 0, 1), index(i, 0, 1)])  # -y
        quads.append([index(i, 1, 0), index(i, 1, 1), index(j, 1, 1), index(j, 1, 0)])  # top
    last = count - 1
    quads.append([index(0, 0, 0), index(0, 0, 1), index(0, 1, 1), index(0, 1, 0)])  # -x
    quads.append([index(last, 0, 0), index(last, 1, 0), index(last, 1, 1), index(last, 0, 1)])
    triangles = []
    for a, b, c, d in quads:
        triangles += [(a, b, c), (a, c, d)]
    return vertices, np.array(triangles)


def _profile(directions_deg, start=(0.0, 20.0), lengths=None):
    """Profile points from a start and segment directions (degrees from +x)."""
    points = [start]
    for k, angle in enumerate(directions_deg):
        length = 5.0 if lengths is None else lengths[k]
        x, y = points[-1]
        points.append(
            (x + length * math.cos(math.radians(angle)), y + length * math.sin(math.radians(angle)))
        )
    return points


def _zigzag(facets):
    """A roof of `facets` segments bent alternately by 4 and 7 degrees: each bend is well
    below seed_deg (50) and above flat_deg (0.05), and the points lie on no circle, so no
    cylinder (the only revolution surface a prism's lines lie on) fits them."""
    return _profile([(0.0, 4.0, -3.0)[k % 3] for k in range(facets)])


def _regions(top):
    vertices, triangles = _prism(top)
    return mesh_segments.regions_of(vertices, triangles, TOLERANCE, SETTINGS)


def test_the_prism_is_a_closed_outward_mesh():
    # The helper's own check: a closed mesh (every edge joins two triangles) whose signed
    # volume is the profile's area times the depth (outward orientation).
    top = _zigzag(4)
    vertices, triangles = _prism(top)
    mesh_segments.edge_pairs(triangles)
    corners = vertices[triangles]
    volume = np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6
    xs, ys = np.array(top).T
    area = float(np.sum((xs[1:] - xs[:-1]) * (ys[1:] + ys[:-1]) / 2))
    assert volume == pytest.approx(area * DEPTH, rel=1e-12)


def test_facets_min_planes_in_a_row_are_unfitted_facets_one_fewer_are_planes():
    """facets_min (6): so many planar faces in a row, each bent against the next by less than
    seed_deg, are read as the facets of a curved face no fit took (not applicable, never
    steps); one fewer are the part's own planes (slope_block has 2 side by side)."""
    smallest = SETTINGS["facets_min"]
    regions = _regions(_zigzag(smallest - 1))
    # Every region a plane: the roof's facets, both caps, the bottom and the two ends.
    assert [r.surface.kind for r in regions] == ["plane"] * (smallest - 1 + 5)
    with pytest.raises(mesh_segments.SegmentationFailed, match=f"^{smallest} facets meet"):
        _regions(_zigzag(smallest))


def _bumps(count):
    """A profile of `count` bumps, each a roof of 3 segments (bent by 6 and 11 degrees)
    between steep flanks (bent by 75 and more, beyond seed_deg): each roof's middle facet is
    the one start with two smooth neighbours, and its seed (8 vertices, too few to fit a
    revolution surface) fits nothing, so each bump is exactly one failed seed; three
    facets in a row stay below facets_min."""
    directions, lengths = [], []
    for _ in range(count):
        directions += [80.0, 0.0, 6.0, -5.0, -80.0]
        lengths += [3.0, 5.0, 5.0, 5.0, 3.0]
    return _profile(directions, start=(0.0, 10.0), lengths=lengths)


def test_max_failed_seeds_is_the_last_count_that_still_segments():
    """max_failed_seeds (60): that many seeds that fit nothing are tolerated (the bundled
    cases' own STLs fail at most 10, on planes that meet fillets), one more and the mesh is
    not applicable (each failure costs fits: NIST FTC-06 spent 89 s on 61)."""
    allowed = SETTINGS["max_failed_seeds"]
    regions = _regions(_bumps(allowed))
    assert all(r.surface.kind == "plane" for r in regions)
    assert len(regions) == 5 * allowed + 5  # each bump's 5 faces, caps, bottom, two ends
    with pytest.raises(mesh_segments.SegmentationFailed, match=f"^{allowed + 1} seeds"):
        _regions(_bumps(allowed + 1))


@pytest.mark.parametrize("closed", [False, True])
def test_a_chain_is_cut_where_it_turns_by_more_than_seed_deg_and_not_below(closed):
    # A polyline of unit steps along x that turns by just under, then just over, seed_deg
    # (the widest bend between facets of one curved face, and so between two segments of a
    # tessellated curve): only the second turn is a corner.
    seed = standard.MESH_FEATURES["seed_deg"]
    headings = [0.0, 0.0, seed - 0.5, seed - 0.5, 2 * seed, 2 * seed]
    points = [np.zeros(3)]
    for heading in headings:
        step = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading)), 0])
        points.append(points[-1] + step)
    vertices = np.array(points)
    # Closed, the chain also runs from the last vertex back to the first.
    chain = mesh_segments.Chain((0, 1), list(range(len(vertices))), closed)
    pieces = mesh_segments.split_at_corners(chain, vertices, seed)
    if not closed:
        # Turns: 0, seed - 0.5 at vertex 2 (kept), 0, seed + 0.5 at vertex 4 (cut), 0.
        assert [p.vertices for p in pieces] == [[0, 1, 2, 3, 4], [4, 5, 6]]
    else:
        # Vertex 4 is a corner, vertex 2 is not; each piece starts where another ends.
        starts = [p.vertices[0] for p in pieces]
        assert 4 in starts and 2 not in starts
        assert sorted(starts) == sorted(p.vertices[-1] for p in pieces)
    assert all(not p.closed for p in pieces)
