# SPDX-License-Identifier: LGPL-2.1-or-later
"""The face-direction merge of the alignment's proposals (alignment._merged_directions) finds
what comparing every direction with every earlier entry finds, on clustered directions that
straddle its grid's cells, and stays linear on an STL candidate's thousands of triangles."""

import numpy as np

from cadbench_wb.app.shape import alignment


def _every_entry_compared(weights, cos_min):
    """The plain greedy merge, each direction against all entries so far (the definition)."""
    merged = []
    for direction, area in weights:
        direction = direction / np.linalg.norm(direction)
        for entry in merged:
            if np.dot(entry[0], direction) > cos_min:
                entry[1] += area
                break
        else:
            merged.append([direction, area])
    return merged


def _clustered_directions(seed: int, clusters: int, per_cluster: int, spread: float):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(clusters, 3))
    centres /= np.linalg.norm(centres, axis=1)[:, None]
    # The three axes too: their cell boundaries at 0 and at +-1 are where a grid could err.
    centres = np.vstack([centres, np.eye(3), -np.eye(3)])
    weights = []
    for centre in centres:
        for _ in range(per_cluster):
            direction = centre + rng.normal(scale=spread, size=3)
            weights.append((direction * rng.uniform(0.5, 2.0), float(rng.uniform(0.1, 10.0))))
    order = rng.permutation(len(weights))
    return [weights[i] for i in order]


def test_the_grid_merge_is_the_every_entry_merge():
    cos_min = 0.9999
    for seed, spread in ((1, 0.003), (2, 0.01), (3, 0.02), (4, 1e-7)):
        weights = _clustered_directions(seed, 40, 12, spread)
        found = alignment._merged_directions(weights, cos_min)
        expected = _every_entry_compared(weights, cos_min)
        assert len(found) == len(expected)
        for (d1, a1), (d2, a2) in zip(found, expected, strict=True):
            assert np.array_equal(d1, d2) and a1 == a2


def test_thousands_of_distinct_directions_are_merged_one_by_one():
    """A fine sphere's triangle normals: every one its own entry (none within 0.8 degrees of
    another), as an STL candidate's curved faces give; the every-entry merge would make
    about 4.5e7 comparisons here."""
    golden = np.pi * (3 - np.sqrt(5))
    n = 3000
    z = 1 - 2 * (np.arange(n) + 0.5) / n
    r = np.sqrt(1 - z * z)
    points = np.column_stack(
        [r * np.cos(golden * np.arange(n)), r * np.sin(golden * np.arange(n)), z]
    )
    weights = [(p, 1.0) for p in points]
    merged = alignment._merged_directions(weights, 0.9999)
    assert len(merged) == n
