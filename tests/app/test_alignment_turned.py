# SPDX-License-Identifier: LGPL-2.1-or-later
"""A turned part fits equally well at every angle about its axis: the alignment turns it
until its B-rep vertices meet the reference's, so the exact booleans see shared faces."""

import os

from conftest import ROOT, own_mesh

RING = os.path.join(ROOT, "cases", "nist_ftc_11", "nist_ftc_11_asme1_rb.stp")


def test_moved_nist_ring_is_turned_onto_its_seams_and_measured_exactly(fc, part):
    from cadbench_wb.app.cases import samples
    from cadbench_wb.app.model import placement
    from cadbench_wb.app.shape import alignment
    from cadbench_wb.app.shape import fidelity as shape_fidelity

    ring = part.read(RING).Solids[0]
    moved = samples.moved(ring)
    found = alignment.align(ring, moved)
    assert found.degeneracy.startswith("axial")
    # The sweep's pick is turned (by whatever the proxy's noise left) and then snapped:
    # every one of the ring's 8 seam vertices meets its twin.
    assert " + turned " in found.best.origin
    assert found.best.origin.endswith(f"vertex snap ({len(ring.Vertexes)} vertices)")
    aligned = placement.placed(moved, found.best.rotation, found.best.translation)
    figures = shape_fidelity.shape_figures(ring, aligned, found.aligned_meshes(), False)["figures"]
    # A perfect copy: the exact route holds, inclusion-exclusion to 1e-6.
    assert figures["method"] == "exact"
    assert abs(figures["iou"] - 1.0) <= 1e-6


def _ring_stl_alignment(tmp_path, part):
    from cadbench_wb.app.model import loading
    from cadbench_wb.app.shape import alignment

    ring = part.read(RING).Solids[0]
    stl = str(tmp_path / "ring.stl")
    own_mesh(ring).write(stl)
    return ring, alignment.align(ring, loading.load_model(stl).shape)


def test_the_rings_own_stl_is_turned_onto_its_seams_whatever_its_vertex_order(fc, part, tmp_path):
    """The STL's ring vertices on the seam circles each propose a stray turn; the ring's own
    turn, proposed by every seam vertex's twin, is tried first and snaps: its 8 seam
    vertices meet their twins (they are the STL's vertices there, to float32 rounding)."""
    ring, found = _ring_stl_alignment(tmp_path, part)
    assert found.degeneracy.startswith("axial")
    assert found.best.origin.endswith(f"vertex snap ({len(ring.Vertexes)} vertices)")


def test_phase_votes_pooled_at_the_snap_tolerance_miss_the_rings_own_turn(
    fc, part, tmp_path, monkeypatch
):
    """The boundary of standard.ALIGNMENT phase_vote_rel: pooled as wide as the first snap
    tolerance (5e-3 of the diagonal), the stray turns of different seam circles outvote
    the ring's own and none of the 12 tried snaps."""
    from cadbench_wb import standard

    wide = standard.ALIGNMENT["snap_tolerances_rel"][0]
    monkeypatch.setitem(standard.ALIGNMENT, "phase_vote_rel", wide)
    _, found = _ring_stl_alignment(tmp_path, part)
    assert "vertex snap" not in found.best.origin
