# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exact booleans run in a child process that is stopped at its budget of CPU seconds,
so that the route does not depend on the machine's load."""

import math
import subprocess
import sys
import time

import pytest

from cadbench_wb import standard
from cadbench_wb.app.model import placement
from cadbench_wb.app.shape import exact, time_budget
from cadbench_wb.app.shape import fidelity as shape_fidelity


def test_the_child_gives_the_same_volumes_as_this_process(fc, part):
    box = part.makeBox(10, 10, 10)
    other = part.makeBox(10, 10, 10, fc.Vector(5, 0, 0))
    here = exact.exact_booleans(box, other)
    there = time_budget.exact_booleans_within(box, other, 0.0, True, 300)
    assert there["volumes"] == here["volumes"]
    assert there["shapes"]["common"].Volume == pytest.approx(500, rel=1e-12)


def test_a_spent_cpu_budget_stops_the_child(fc, part):
    # NIST FTC-09 against a copy turned 1e-5 rad: its plain General Fuse takes 2.6 CPU-s
    # (measured); a budget of 0.1 CPU-s, rounded up to RLIMIT_CPU's whole seconds, ends it
    # at most 1.1 CPU-s into the job. The CPU limit, not the clock, stops it.
    reference, nearly = _nearly_moved_ftc09(fc, part)
    with pytest.raises(time_budget.BudgetSpent) as spent:
        time_budget.exact_booleans_within(reference, nearly, 0.0, False, 0.1)
    assert spent.value.cpu and not spent.value.clock
    assert "CPU budget" in str(spent.value)


def test_the_wall_clock_backstop_is_told_from_the_cpu_budget(fc, part):
    # The backstop (a child that stops computing) is the one stop that depends on the
    # machine's load: it must be told apart from the CPU budget and from a death. A
    # millisecond is less than any interpreter's start-up: always reached.
    # A fresh child: one kept from an earlier job (ExactWorker.release) is already running.
    box = part.makeBox(10, 10, 10)
    job = time_budget.ExactJob(box, box.copy(), 0.0, False, 90.0, time_budget.ExactWorker())
    with pytest.raises(time_budget.BudgetSpent) as spent:
        job.result(wall_s=0.001)
    assert spent.value.clock and not spent.value.cpu


def test_a_reused_process_keeps_its_exact_child_between_jobs(fc, part):
    # Two boxes 10 mm on a side, 5 mm apart: common 500, union 1500 (analytic), in the same
    # kept child both times; one stopped by its CPU budget is not kept (it is gone).
    box = part.makeBox(10, 10, 10)
    other = part.makeBox(10, 10, 10, fc.Vector(5, 0, 0))
    time_budget.exact_booleans_within(box, other, 0.0, False, 300)
    (kept,) = time_budget._SPARE
    # Its CPU (FreeCAD's import at least) is still counted while it waits, unreaped.
    assert time_budget.kept_children_cpu_s() > 0.01
    again = time_budget.exact_booleans_within(box, other, 0.0, False, 300)
    assert time_budget._SPARE == [kept]
    assert again["volumes"]["common"] == pytest.approx(500, rel=1e-12)
    assert again["volumes"]["union"] == pytest.approx(1500, rel=1e-12)
    reference, nearly = _nearly_moved_ftc09(fc, part)
    with pytest.raises(time_budget.BudgetSpent):
        time_budget.exact_booleans_within(reference, nearly, 0.0, False, 0.1)
    assert time_budget._SPARE == []
    assert kept.process.poll() is not None


def test_the_exact_child_imports_no_cross_check_modules():
    # Its start-up is paid by every scoring on the exact route: FreeCAD, Part and the
    # booleans only (numpy and the mesh modules are the scoring process's).
    code = (
        "import sys; from cadbench_wb.app.shape import time_budget, exact; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'scipy', 'manifold3d', 'trimesh')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")[-2]
    assert found == "[]"


def _plate(fc, part, shift: float = 0.0):
    """A 60 x 40 x 5 plate with 5 x 3 holes r3 on a 10 mm grid, the holes shifted by shift
    along x (21 faces): its General Fuse against a shifted copy takes about 0.4 CPU-s."""
    plate = part.makeBox(60, 40, 5)
    for i in range(5):
        for j in range(3):
            plate = plate.cut(
                part.makeCylinder(3, 5, fc.Vector(10 + 10 * i + shift, 10 + 10 * j, 0))
            )
    return plate.Solids[0]


def _without_times(found: dict) -> dict:
    return {k: v for k, v in found["figures"].items() if k != "timing"}


def test_the_route_and_json_are_the_same_under_cpu_load(fc, part, monkeypatch):
    # A plate against the same plate with its holes 0.5 mm over: IoU by construction, by
    # the exact route. The budget is set to 3 CPU-s, several times what the child spends
    # (its start-up not counted): a wall-clock net of 3 s counted from the job's start is
    # passed when the child, starting up meanwhile, gets well under a core, which four busy
    # loops on two cores give it (measured: with the wall-clock backstop set to the same
    # 3 s, the loaded run went to the mesh route); CPU seconds do not grow with the load.
    monkeypatch.setitem(standard.CROSS_CHECK, "exact_safety_net_cpu_s", 3.0)
    reference, candidate = _plate(fc, part), _plate(fc, part, 0.5)
    idle = shape_fidelity.shape_figures(reference, candidate, keep_shapes=False)
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
    try:
        time.sleep(0.5)  # the loops are running before the scoring starts
        busy = shape_fidelity.shape_figures(reference, candidate, keep_shapes=False)
    finally:
        for process in load:
            process.kill()
            process.wait()
    assert idle["figures"]["method"] == "exact", idle["figures"]["reason"]
    assert idle["figures"]["crossCheck"]["exactSafetyNet"] is False
    assert _without_times(busy) == _without_times(idle)
    # The figure itself, from the construction: each hole r3 shifted 0.5 mm overlaps its
    # twin in a lens of area 2 r^2 acos(d / 2r) - (d / 2) sqrt(4 r^2 - d^2).
    r, d, n = 3.0, 0.5, 15
    lens = 2 * r * r * math.acos(d / (2 * r)) - d / 2 * math.sqrt(4 * r * r - d * d)
    solid = 60 * 40 - n * math.pi * r * r
    common = solid - n * (math.pi * r * r - lens)
    assert idle["figures"]["iou"] == pytest.approx(common / (2 * solid - common), abs=1e-9)


def test_the_exact_route_is_chosen_by_face_count_at_its_boundary():
    # standard.CROSS_CHECK exact_max_faces: the pair's face count decides, not a clock.
    limit = standard.CROSS_CHECK["exact_max_faces"]
    assert shape_fidelity.exact_work_refusal(limit // 2, limit - limit // 2) is None
    refusal = shape_fidelity.exact_work_refusal(limit // 2, limit - limit // 2 + 1)
    assert refusal is not None and f"{limit + 1} faces" in refusal and "exact_max_faces" in refusal


def test_the_route_and_figures_of_a_pair_are_the_same_twice(fc, part):
    # Two boxes 10^3 overlapping by half: IoU 500 / 1500 by construction, by the exact
    # route (no clock involved in choosing it), and the same JSON twice.
    box = part.makeBox(10, 10, 10)
    other = part.makeBox(10, 10, 10, fc.Vector(5, 0, 0))
    runs = [shape_fidelity.shape_figures(box, other, keep_shapes=False) for _ in "ab"]
    first = runs[0]["figures"]
    assert first["method"] == "exact" and first["iou"] == pytest.approx(1 / 3, rel=1e-9)
    assert first["crossCheck"]["exactSafetyNet"] is False
    assert [a["outcome"] for a in first["crossCheck"]["exactAttempts"]] == ["confirmed"]
    assert runs[1]["figures"] == first
    assert "exact_budget" not in runs[0]["timing"]


def test_a_fuzzy_retry_follows_a_plain_failure_only_on_a_pose_not_snapped():
    # A snapped pose's shared faces coincide to rounding error: a fuzzy value has nothing to
    # join there, and the retry would cost as much again as the plain attempt (decided from
    # the pose, never from a clock).
    assert shape_fidelity.fuzzy_retry_refusal(False) is None
    refusal = shape_fidelity.fuzzy_retry_refusal(True)
    assert refusal.startswith("not started") and "vertex-snapped" in refusal


def test_a_moved_copy_is_snapped_and_confirmed_by_its_plain_attempt(fc, part):
    # A 40 x 30 x 20 block with a 5-radius through hole, turned 23 degrees and shifted: its
    # vertices land on the reference's (snapped), and the plain General Fuse is exact there:
    # IoU 1 by the exact route, with one attempt.
    from cadbench_wb.app.shape import alignment

    block = part.makeBox(40, 30, 20).cut(part.makeCylinder(5, 20, fc.Vector(12, 15, 0)))
    moved = block.copy()
    moved.rotate(fc.Vector(0, 0, 0), fc.Vector(0.3, 1, 0.2), 23)
    moved.translate(fc.Vector(5, 7, 9))
    found = alignment.align(block, moved)
    assert found.snapped
    aligned = placement.placed(moved, found.best.rotation, found.best.translation)
    figures = shape_fidelity.shape_figures(
        block, aligned, found.aligned_meshes(), False, snapped=found.snapped
    )["figures"]
    assert figures["method"] == "exact" and figures["iou"] == pytest.approx(1.0, abs=1e-9)
    assert [a["outcome"] for a in figures["crossCheck"]["exactAttempts"]] == ["confirmed"]


def _nearly_moved_ftc09(fc, part):
    """NIST FTC-09 (public domain, tests/data/nist) and a copy turned 1e-5 rad about its
    centre and shifted a micron: near-coincident faces everywhere, no vertex on its twin."""
    import os

    from conftest import ROOT

    path = os.path.join(ROOT, "tests", "data", "nist", "nist_ftc_09_asme1_rd.stp")
    reference = part.read(path).Solids[0]
    nearly = reference.copy()
    nearly.rotate(reference.BoundBox.Center, fc.Vector(0.3, 1, 0.2), math.degrees(1e-5))
    nearly.translate(fc.Vector(0.001, 0, 0))
    return reference, nearly


@pytest.mark.slow
def test_a_pose_not_snapped_gets_the_fuzzy_retry_and_it_holds(fc, part):
    # Plain General Fuse on near-coincident faces: inconsistent (its pieces do not add up);
    # at 1e-5 x the diagonal (3.4 microns) the faces are joined. By construction the IoU is
    # above 1 - 1e-3: a 1e-5 rad turn about the centre moves no point of this 338 mm
    # diagonal, 3 mm thick plate by more than 1.7 microns, plus the 1 micron shift (twice
    # the mean normal displacement over the thickness: about 6e-4 at most).
    reference, nearly = _nearly_moved_ftc09(fc, part)
    figures = shape_fidelity.shape_figures(reference, nearly, keep_shapes=False)["figures"]
    attempts = figures["crossCheck"]["exactAttempts"]
    assert [a["fuzzy"] > 0 for a in attempts] == [False, True]
    assert attempts[0]["outcome"] != "confirmed" and attempts[1]["outcome"] == "confirmed"
    assert figures["method"] == "exact" and 1 - 1e-3 <= figures["iou"] <= 1.0


def test_a_snapped_pose_gets_no_fuzzy_retry_and_says_so(fc, part):
    # The same pair declared snapped: the plain attempt decides alone (it is inconsistent,
    # so the mesh boolean and point sampling decide), and the retry is listed, not run.
    reference, nearly = _nearly_moved_ftc09(fc, part)
    figures = shape_fidelity.shape_figures(reference, nearly, keep_shapes=False, snapped=True)
    figures = figures["figures"]
    attempts = figures["crossCheck"]["exactAttempts"]
    assert len(attempts) == 2 and "route" not in attempts[1]
    assert attempts[1]["outcome"].startswith("not started")
    assert figures["method"] == "mesh" and 1 - 1e-3 <= figures["iou"] <= 1.0


def _children_of_a_scoring(fc, part, tmp_path, monkeypatch, only):
    """The interpreters (their code) one in-process scoring of a box against a moved copy
    starts, no child being kept from an earlier job."""
    from cadbench_wb.app import scoring
    from cadbench_wb.runtime import runner

    time_budget._retire_spare()
    started = []
    real = runner.child_interpreter

    def recorded(code, **popen):
        started.append(code)
        return real(code, **popen)

    monkeypatch.setattr(runner, "child_interpreter", recorded)
    reference, candidate = str(tmp_path / "a.step"), str(tmp_path / "b.step")
    part.makeBox(30, 20, 10).exportStep(reference)
    moved = part.makeBox(30, 20, 10)
    moved.translate(fc.Vector(7, 3, 1))
    moved.exportStep(candidate)
    result = scoring.score_files(reference, candidate, {"only": only})
    return started, result


def test_a_shape_only_job_starts_the_exact_child_alone(fc, part, tmp_path, monkeypatch):
    # Issue 33: a shape-only job pays for no drawing; on the exact route, one child: the
    # exact booleans' (a box and its translated copy: IoU 1 by construction).
    started, result = _children_of_a_scoring(fc, part, tmp_path, monkeypatch, ["shape"])
    assert result["shape"]["method"] == "exact"
    assert result["shapeIoU"] == pytest.approx(1.0, abs=1e-9)
    assert started == [time_budget.CHILD_CODE]


def test_no_exact_child_where_the_exact_route_is_not_taken(fc, part, tmp_path, monkeypatch):
    # A face limit of 0 refuses the exact booleans before they start (exact_work_refusal):
    # then no child at all.
    monkeypatch.setitem(standard.CROSS_CHECK, "exact_max_faces", 0)
    started, result = _children_of_a_scoring(fc, part, tmp_path, monkeypatch, ["shape"])
    assert result["shape"]["crossCheck"]["exactSkipped"].startswith("exact booleans not")
    assert started == []
