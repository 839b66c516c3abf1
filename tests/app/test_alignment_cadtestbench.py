# SPDX-License-Identifier: LGPL-2.1-or-later
"""Real AI-generated models (CADTestBench's GPT-5.2 and Claude-4.6-Sonnet CadQuery
predictions for four CADPrompt parts, their STEP exports in tests/data/cadtestbench/step,
made by tools/cadtestbench_steps.py) delivered in seeded random poses: every figure the
automatic case gives must be the same in every pose, and the shapeIoU never below the best
any rigid pose can give by more than 0.002.

What "the best any pose can give" is, is decided without cadbench's code: for a pair whose
volumes differ, no pose can give more than the smaller volume over the larger (exact
volumes; the common is at most the smaller solid, the union at least the larger), so a
figure within 0.002 of that bound cannot be beaten by more; otherwise the brute-force search
of tests/app/test_alignment_global.py (24 axis-aligned frames x 28 placements and 240
uniform rotations, exact Part booleans) is run. The pose is a FreeCAD Placement (a rotation
about a seeded axis and a seeded shift) put on the candidate, which is exported to STEP and
scored by `cadbench score REF CAND.step --json -` (an automatic case: every metric).

The references are built from the dimensions the prompts state (test_code_cadtestbench.py:
CADPrompt's own ground truth carries no licence). Two cross pairs, a prediction against the
reference of another part (a tube against a bored disc, a box against the disc), are
partial matches of real AI-generated geometry."""

import json
import os

import numpy as np
import pytest
from conftest import ROOT, run_cli
from test_alignment_global import _brute_force_iou
from test_code_cadtestbench import reference_of

STEPS = os.path.join(ROOT, "tests", "data", "cadtestbench", "step")
MODELS = ("GPT-5.2", "Claude-4.6-Sonnet")
PARTS = ("00000633", "00001490", "00004154", "00004495")
SAME_WITHIN = 1e-6  # one figure: JSON figures are rounded far finer than this
BELOW_BEST = 0.002  # the tolerance against the best pose
# The cross pairs' shapeIoU in every pose: one figure to the exact booleans' rounding. A
# delivered STEP carries the moved part's coordinates to about 1e-11 of its size (measured:
# the fine meshes of the 8 poses, moved back, agree to 1.8e-11), which the same pose's
# exact figure follows in its 11th digit; 1e-9 leaves a hundred times that, and a figure
# that depends on the pose (a different pose picked) moves by far more (0.009 and 2e-4
# before the search was made canonical).
CROSS_SAME_WITHIN = 1e-9
ABOVE_BOUND = 1e-9  # the bound's own rounding: exact volumes
CROSS_POSES = 8
# Every figure the automatic case gives that does not depend on the pose by definition. The
# fieldFigures are left out: their published protocols (CAD-Recode's chamfer distance,
# BenchCAD's voxel IoU) centre the bounding box and do not align, so a turned copy changes
# them by their own definition.
FIGURES = ("shapeIoU", "dimensionRecall", "semanticMatch", "threadMatch", "drawingMatch")


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """Caches of automatic cases and drawings under tmp_path (never the user's)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _solid(shape):
    return shape.Solids[0] if len(shape.Solids) == 1 else shape


def _posed(fc, candidate, seed: int):
    """The candidate under one seeded Placement: a turn about a random axis, a random shift
    of up to 80 units (the parts are about 1 unit across)."""
    rng = np.random.default_rng(2700 + seed)
    turn = fc.Rotation(fc.Vector(*rng.normal(size=3)), float(rng.uniform(0, 360)))
    copy = candidate.copy()
    copy.Placement = fc.Placement(fc.Vector(*rng.uniform(-80, 80, size=3)), turn).multiply(
        copy.Placement
    )
    return copy


def _figures(reference: str, candidate: str, *extra) -> dict:
    status, out, err = run_cli("score", reference, candidate, "--json", "-", *extra)
    assert status == 0, err
    result = json.loads(out)
    assert result["delivered"] is True, result["failure"]
    return {name: result.get(name) for name in FIGURES}  # --only: the others absent


def _best_possible(fc, reference, candidate, figure: float) -> float:
    """At least the best IoU any pose gives, to within BELOW_BEST above figure: the volume
    bound when figure reaches it, else the brute-force search's best."""
    bound = min(reference.Volume, candidate.Volume) / max(reference.Volume, candidate.Volume)
    if figure >= bound - BELOW_BEST:
        return bound
    return _brute_force_iou(fc, reference, candidate)


def _check(fc, part, tmp_path, model, case_id, poses, reference_id=None, *extra, same=SAME_WITHIN):
    reference_shape = _solid(reference_of(fc, part, reference_id or case_id))
    reference = str(tmp_path / "reference.step")
    reference_shape.exportStep(reference)
    candidate = _solid(part.read(os.path.join(STEPS, model, f"{case_id}.step")))
    scored = []
    for seed in range(poses):
        path = str(tmp_path / f"posed{seed}.step")
        _posed(fc, candidate, seed).exportStep(path)
        scored.append(_figures(reference, path, *extra))
    for name in FIGURES:
        values = [s[name] for s in scored]
        if values[0] is None:
            assert all(v is None for v in values), (name, values)
        else:
            within = same if name == "shapeIoU" else SAME_WITHIN
            assert max(values) - min(values) <= within, (name, values)
    figure = scored[0]["shapeIoU"]
    bound = min(reference_shape.Volume, candidate.Volume) / max(
        reference_shape.Volume, candidate.Volume
    )
    best = _best_possible(fc, reference_shape, candidate, figure)
    print(f"{model} {case_id} on {reference_id or case_id}: {[s['shapeIoU'] for s in scored]}")
    print(f"  best possible {best:.6f}, volume bound {bound:.6f}")
    assert figure >= best - BELOW_BEST, (model, case_id, reference_id, figure, best)
    # No pose gives more than the volume bound: a figure above it is not an IoU.
    assert max(s["shapeIoU"] for s in scored) <= bound + ABOVE_BOUND, (figure, bound)
    return scored


def test_a_real_prediction_scores_one_figure_in_two_poses(fc, part, tmp_path, own_cache):
    scored = _check(fc, part, tmp_path, "GPT-5.2", "00004154", 2)
    # The filleted box GPT-5.2 delivered is the prompt's part (its figure from the prompt's
    # dimensions: a perfect copy).
    assert scored[0]["shapeIoU"] == pytest.approx(1.0, abs=BELOW_BEST)


@pytest.mark.slow
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("case_id", PARTS)
def test_every_prediction_scores_one_figure_in_three_poses(
    fc, part, tmp_path, own_cache, model, case_id
):
    _check(fc, part, tmp_path, model, case_id, 3)


CROSS = {  # (model, its prediction) against the reference of another part of its kind
    "tube against bored disc": ("GPT-5.2", "00004495", "00001490"),
    # The box fits whole in the disc's material beside its bore (0.71 x 0.41 x 0.22 in
    # r 0.75, bore r 0.12, h 0.49): the volume bound is reached, centroids matched are not.
    "box against bored disc": ("GPT-5.2", "00004154", "00001490"),
}


# Where the brute force finds its best: the box upright, shifted 0.397 off the disc's axis
# (its bounding box flush with the disc's, the bore outside it; centroids matched put the
# bore through the box, and shifts keep the IoU flat until the bore leaves it); the tube
# centred, its axis tilted 23.7 degrees (a slanted tube has more of its length in the
# disc's slab, which no coaxial start climbs to). Measured 2026-12-02 before the search
# was made canonical, 3 poses each: box on disc 0.06146, 0.07051, 0.06146 against brute
# force 0.070355 (bound 0.074462); tube on disc 0.18405, 0.18389, 0.18386 against brute
# force 0.197030.
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CROSS))
def test_a_real_partial_match_scores_one_figure_not_below_brute_force(
    fc, part, tmp_path, own_cache, name
):
    model, case_id, reference_id = CROSS[name]
    _check(
        fc,
        part,
        tmp_path,
        model,
        case_id,
        CROSS_POSES,
        reference_id,
        "--only",
        "shape",
        same=CROSS_SAME_WITHIN,
    )
