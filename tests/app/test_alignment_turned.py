# SPDX-License-Identifier: LGPL-2.1-or-later
"""A turned part fits equally well at every angle about its axis: the alignment turns it
until its B-rep vertices meet the reference's, so the exact booleans see shared faces."""

import os

from conftest import ROOT

RING = os.path.join(ROOT, "cases", "nist_ftc_11", "nist_ftc_11_asme1_rb.stp")


def test_moved_nist_ring_is_turned_onto_its_seams_and_measured_exactly(fc, part):
    from cadbench_wb.app.cases import samples
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
    aligned = shape_fidelity.placed(moved, found.best.rotation, found.best.translation)
    figures = shape_fidelity.shape_figures(ring, aligned, found.aligned_meshes(), False)["figures"]
    # A perfect copy: the exact route holds, inclusion-exclusion to 1e-6.
    assert figures["method"] == "exact"
    assert abs(figures["iou"] - 1.0) <= 1e-6
