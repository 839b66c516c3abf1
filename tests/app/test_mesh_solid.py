# SPDX-License-Identifier: LGPL-2.1-or-later
"""A mesh candidate (STL/OBJ) is checked and measured on its triangles (app/model/mesh_solid.py):
the polyhedral B-rep is made only when something needs a B-rep, bad meshes still get their
named failures, and the figures come from the construction."""

import numpy as np
import pytest

CUBE = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4]]
CUBE += [[1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]]
CORNERS = np.array(
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
    dtype=float,
)


def _stl(path, corners, facets) -> str:
    import Mesh

    Mesh.Mesh([tuple(corners[i]) for facet in facets for i in facet]).write(str(path))
    return str(path)


def _box(size, shift=(0, 0, 0)):
    return CORNERS * np.array(size, dtype=float) + np.array(shift, dtype=float)


def test_a_box_mesh_is_measured_on_its_triangles_without_a_brep(fc, tmp_path):
    from cadbench_wb.app.model import loading, mesh_solid

    # A 10 x 8 x 6 box delivered inside out (every facet reversed): outward once loaded.
    stl = _stl(tmp_path / "box.stl", _box((10, 8, 6), (1, 2, 3)), [f[::-1] for f in CUBE])
    model = loading.load_model(stl)
    shape = model.shape
    assert mesh_solid.is_triangles(shape) and model.from_mesh
    assert model.summary()["volume"] == pytest.approx(480, rel=1e-12)
    assert shape.Area == pytest.approx(2 * (80 + 60 + 48), rel=1e-12)
    assert shape.BoundBox.DiagonalLength == pytest.approx(np.sqrt(100 + 64 + 36), rel=1e-12)
    assert shape.brep_seconds is None  # nothing needed the polyhedron
    # Moved, it is measured where it went; what only a B-rep has is read off its polyhedron,
    # made then, in the same place and of the same volume.
    turn = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    moved = shape.moved(turn, np.array([100.0, 0.0, 0.0]))
    assert moved.BoundBox.XMin == pytest.approx(100 - 10, abs=1e-12)  # y 2..10 -> x 90..98
    assert len(moved.Faces) == 12 and moved.brep_seconds is not None
    assert moved.brep().Volume == pytest.approx(480, rel=1e-12)
    assert moved.brep().BoundBox.XMin == pytest.approx(90, abs=1e-9)


@pytest.mark.parametrize(
    "name, reason, words",
    [
        ("open", "no_solid", "not closed"),
        ("two_boxes", "invalid_solid", "2 separate pieces"),
        ("folded", "invalid_solid", "self-intersecting"),
    ],
)
def test_a_bad_mesh_gets_its_named_failure(fc, tmp_path, name, reason, words):
    from cadbench_wb.app.model import loading
    from cadbench_wb.errors import DeliveryFailure

    corners, facets = _box((10, 10, 10)), CUBE
    if name == "open":
        facets = CUBE[:-1]
    elif name == "two_boxes":  # overlapping, one file: the overlap would count twice
        corners = np.vstack([corners, _box((10, 10, 10), (5, 5, 5))])
        facets = CUBE + [[i + 8 for i in f] for f in CUBE]
    elif name == "folded":  # one corner pushed through the opposite face: still closed
        corners = corners.copy()
        corners[6] = (3, 3, -5)
    with pytest.raises(DeliveryFailure) as failure:
        loading.load_model(_stl(tmp_path / f"{name}.stl", corners, facets))
    assert failure.value.reason == reason
    assert words in failure.value.detail


def test_a_zero_area_facet_is_decided_by_brepcheck_on_the_polyhedron(fc, tmp_path):
    from cadbench_wb.app.model import loading
    from cadbench_wb.errors import DeliveryFailure

    # The cube's bottom edge 0-1 split at its midpoint 8 on the bottom side only, the gap
    # closed by the zero-area facet (0, 8, 1): closed and manifold, but a face of no area.
    corners = np.vstack([_box((10, 10, 10)), [[5, 0, 0]]])
    facets = [[0, 2, 8], [8, 2, 1], [0, 8, 1]] + CUBE[1:]
    with pytest.raises(DeliveryFailure) as failure:
        loading.load_model(_stl(tmp_path / "sliver.stl", corners, facets))
    assert failure.value.reason == "invalid_solid"
    assert "BRepCheck" in failure.value.detail
