# SPDX-License-Identifier: LGPL-2.1-or-later
"""The field's figures (chamferDistance, voxelIoU64) against implementations written here,
on eleven pairs of boxes and cylinders: the surfaces are sampled and the voxels filled from
the primitives' equations, with no mesh and none of cadbench's code."""

import numpy as np
import pytest
from scipy.spatial import cKDTree

from cadbench_wb.app import field_meshes
from cadbench_wb.metrics import field_figures

# (kind, dimensions, offset): a box (x, y, z) from its corner, a cylinder (radius, height)
# on the z axis from its base centre.
PAIRS = [
    (("box", (10, 20, 30), (0, 0, 0)), ("box", (10, 20, 30), (0, 0, 0))),
    (("box", (10, 20, 30), (0, 0, 0)), ("box", (12, 20, 30), (0, 0, 0))),
    (("box", (10, 20, 30), (0, 0, 0)), ("box", (20, 10, 30), (0, 0, 0))),  # turned: not aligned
    (("box", (10, 20, 30), (0, 0, 0)), ("cylinder", (5, 30), (5, 10, 0))),
    (("cylinder", (5, 30), (0, 0, 0)), ("cylinder", (5, 30), (100, 0, 0))),  # moved: centred
    (("cylinder", (5, 30), (0, 0, 0)), ("cylinder", (4, 30), (0, 0, 0))),
    (("cylinder", (10, 5), (0, 0, 0)), ("box", (20, 20, 5), (-10, -10, 0))),
    (("box", (40, 10, 10), (0, 0, 0)), ("box", (40, 10, 5), (0, 0, 0))),
    (("cylinder", (3, 40), (0, 0, 0)), ("box", (6, 6, 40), (-3, -3, 0))),
    (("box", (15, 15, 15), (0, 0, 0)), ("cylinder", (7.5, 15), (0, 0, 0))),
    (("box", (30, 20, 10), (0, 0, 0)), ("box", (30, 20, 10), (50, -20, 7))),
]


def solid(part, fc, spec):
    kind, dims, offset = spec
    at = fc.Vector(*offset)
    return part.makeBox(*dims, at) if kind == "box" else part.makeCylinder(*dims, at)


def bounds(spec):
    kind, dims, offset = spec
    o = np.array(offset, dtype=float)
    if kind == "box":
        return o, o + np.array(dims, dtype=float)
    r, h = dims
    return o - [r, r, 0], o + [r, r, h]


def surface_points(spec, count, rng):
    """Points uniform by area on the primitive's surface."""
    kind, dims, offset = spec
    if kind == "box":
        a, b, c = dims
        faces = [(b * c, 0), (b * c, 0), (a * c, 1), (a * c, 1), (a * b, 2), (a * b, 2)]
        areas = np.array([f[0] for f in faces], dtype=float)
        face = rng.choice(6, size=count, p=areas / areas.sum())
        points = rng.random((count, 3)) * [a, b, c]
        axis = np.array([f[1] for f in faces])[face]
        side = face % 2  # 0: the low face, 1: the high one
        points[np.arange(count), axis] = side * np.array([a, b, c])[axis]
        return points + offset
    r, h = dims
    areas = np.array([2 * np.pi * r * h, np.pi * r * r, np.pi * r * r])
    part = rng.choice(3, size=count, p=areas / areas.sum())
    theta = rng.random(count) * 2 * np.pi
    radius = np.where(part == 0, r, r * np.sqrt(rng.random(count)))
    z = np.where(part == 0, rng.random(count) * h, np.where(part == 1, 0.0, h))
    return np.column_stack([radius * np.cos(theta), radius * np.sin(theta), z]) + offset


def normalized(points, spec):
    lo, hi = bounds(spec)
    return (points - (lo + hi) / 2) / (hi - lo).max()


def chamfer_here(ref, cand, seed):
    rng = np.random.default_rng(seed)
    a = normalized(surface_points(ref, 8192, rng), ref)
    b = normalized(surface_points(cand, 8192, rng), cand)
    d_ab = cKDTree(b).query(a)[0]
    d_ba = cKDTree(a).query(b)[0]
    return 1000 * (np.mean(d_ab**2) + np.mean(d_ba**2))


def occupancy_here(spec):
    """64^3 voxel centres of the unit box, mapped back onto the part, tested by equation."""
    lo, hi = bounds(spec)
    centres = (np.arange(64) + 0.5) / 64
    grid = np.stack(np.meshgrid(centres, centres, centres, indexing="ij"), -1).reshape(-1, 3)
    world = (grid - 0.5) * (hi - lo).max() + (lo + hi) / 2
    kind, dims, offset = spec
    local = world - offset
    if kind == "box":
        return np.all((local >= 0) & (local <= dims), axis=1)
    r, h = dims
    return (local[:, 0] ** 2 + local[:, 1] ** 2 <= r * r) & (local[:, 2] >= 0) & (local[:, 2] <= h)


@pytest.fixture(scope="module")
def measured(fc, part):
    return [
        field_meshes.field_figures_of(solid(part, fc, ref), solid(part, fc, cand))
        for ref, cand in PAIRS
    ]


@pytest.mark.parametrize("index", range(len(PAIRS)))
def test_chamfer_distance_agrees_within_sampling_error(measured, index):
    ref, cand = PAIRS[index]
    estimates = [chamfer_here(ref, cand, seed) for seed in range(5)]
    mean, spread = float(np.mean(estimates)), float(np.std(estimates, ddof=1))
    value = measured[index]["chamferDistance"]["value"]
    # Both are 8,192-point estimates of one expectation: they differ by sampling alone
    # (the tessellation's chords, 1e-3 of the diagonal, move points by about 1e-6 here).
    assert abs(value - mean) <= 5 * spread + 0.01 * mean, (value, estimates)


@pytest.mark.parametrize("index", range(len(PAIRS)))
def test_voxel_iou_agrees_with_the_voxels_of_the_equations(measured, index):
    ref, cand = PAIRS[index]
    a, b = occupancy_here(ref), occupancy_here(cand)
    expected = np.count_nonzero(a & b) / np.count_nonzero(a | b)
    value = measured[index]["voxelIoU64"]["value"]
    cylinders = "cylinder" in (ref[0], cand[0])
    # Boxes tessellate exactly: the same voxels. A cylinder tessellated at 0.05 mm is a
    # polygon inside its circle, short of it by (4/3) x 0.05 / r of its area (<= 2.2 % at
    # r = 3): the voxels there differ, by no more than that share of the IoU.
    assert value == pytest.approx(expected, abs=0.025 if cylinders else 1e-12)


def test_the_field_figures_are_deterministic_and_carry_their_protocol(fc, part, measured):
    ref, cand = PAIRS[3]
    again = field_meshes.field_figures_of(solid(part, fc, ref), solid(part, fc, cand))
    assert again == measured[3]
    for name, figure in again.items():
        assert figure["protocol"] == field_figures.PROTOCOLS[name]
    assert measured[0]["voxelIoU64"]["value"] == 1.0
    # Translation changes nothing (each shape is centred), a quarter turn does (no alignment).
    assert measured[10]["voxelIoU64"]["value"] == 1.0
    assert measured[2]["voxelIoU64"]["value"] < 0.5
