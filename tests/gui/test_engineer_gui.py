# SPDX-License-Identifier: LGPL-2.1-or-later
"""A bundled case's rotated candidate as an engineer uses it, in the real FreeCAD GUI under
Xvfb: Preferences before the workbench is activated, Score with the progress bar watched,
Generate drawing in the scored pose, each document change undone with Edit > Undo, and a
broken file loaded after a good one.

bearing_block's perfect_moved is its reference turned 37° about (1, 2, 3) and moved
(samples.OTHER_POSE): every drawing of it in the scored pose is the reference's drawing, so
every target its case lists is displayed.
"""

import os
import re
import shutil

import pytest
from conftest import ROOT
from scenario import require_display_programs, scenario_report

from cadbench_wb.case_model import cases

pytestmark = pytest.mark.gui

CASE_ID = "bearing_block"
CANDIDATE = "perfect_moved.step"


@pytest.fixture(scope="module")
def engineer(fc, tmp_path_factory):
    require_display_programs()
    from cadbench_wb.app.cases import build as case_build

    folder = tmp_path_factory.mktemp("engineer")
    shutil.copytree(
        os.path.join(ROOT, "cases", CASE_ID),
        folder / "cases" / CASE_ID,
        ignore=shutil.ignore_patterns("reference.step", "candidates", "__pycache__"),
    )
    case = cases.load_case(str(folder / "cases" / CASE_ID))
    case_build.build_missing(case)
    # The same case with none of its files built: the case browser builds it.
    shutil.copytree(
        os.path.join(ROOT, "cases", CASE_ID),
        folder / "unbuilt" / CASE_ID,
        ignore=shutil.ignore_patterns("*.step", "candidates", "__pycache__"),
    )
    broken = folder / "broken" / "empty.step"
    broken.parent.mkdir()
    broken.write_bytes(b"")
    env = {
        "CADBENCH_GUI_CASES": str(folder / "cases"),
        "CADBENCH_GUI_CASE": CASE_ID,
        "CADBENCH_GUI_CANDIDATE": CANDIDATE,
        "CADBENCH_GUI_BROKEN": str(broken),
        "CADBENCH_GUI_UNBUILT": str(folder / "unbuilt"),
    }
    # The longest scenario (a score, two drawings, two deviations, two case builds): 60-150
    # s at load average 10-15 on two cores.
    return scenario_report(folder, "engineer", env, timeout_s=360), case


def test_the_preferences_page_and_its_icon_are_there_before_the_workbench_is(engineer):
    data, _ = engineer
    assert data["workbench_before_preferences"] != "CadBenchWorkbench"
    groups = {name: has_icon for name, has_icon in data["preference_groups"]}
    assert groups.get("cadbench") is True, data["preference_groups"]


def test_the_progress_bar_only_moves_forward_and_names_its_stages_for_a_reader(engineer):
    data, _ = engineer
    values = data["progress_values"]
    assert values and values == sorted(values), values
    stages = data["stage_texts"]
    assert stages, "no stage shown"
    assert not any(s.startswith("selftest:") for s in stages), stages
    readable = {"reading the reference", "reading the candidate", "aligning the candidate"}
    assert readable & set(stages), stages


def test_generate_drawing_draws_the_rotated_candidate_with_every_target(engineer):
    data, case = engineer
    message = data["drawing_message"]
    assert "Drawing written to" in message and "candidate in the scored pose" in message, message
    total = len(case.dimensions)
    # Drawn in the scored pose the candidate is the reference: the drawing dimensions the
    # targets the reference's drawing does (those a drawing can show).
    assert f"of {total} targets displayed" in message, message
    pages = [n for n, types in data["drawing_documents"].items() if "TechDraw::DrawPage" in types]
    assert pages
    # The page shows the sheet the child wrote, in a window of its own, and its document is
    # listed in the tree as any other.
    assert data["drawing_templates"] == [["Drawing of perfect_moved", "drawing.svg"]], data
    assert "Drawing of perfect_moved" in data["tree_items"], data["tree_items"]
    assert any(t.startswith("Page") for t in data["drawing_windows"]), data["drawing_windows"]


def _named(names):
    """The newest undo step's name (FreeCAD 0.20's GUI lists a step still open as "-> name";
    Std_Undo closes and undoes it as one step)."""
    return [names[0].removeprefix("-> ")] if names else []


def test_apply_alignment_and_show_diff_are_each_one_undo_step(engineer):
    data, _ = engineer
    alignment = data["undo_alignment"]
    assert alignment["moved"] and alignment["back"], alignment
    assert _named(alignment["undo_names"]) == ["Apply alignment"], alignment
    assert alignment["applied_after_undo"] is False
    diff = data["undo_diff"]
    assert diff["made"] and diff["left"] == [], diff
    assert _named(diff["undo_names"]) == ["Show diff"], diff
    assert alignment["undone_by"] == diff["undone_by"] == "Std_Undo", (alignment, diff)


def test_opening_the_case_and_choosing_the_candidate_are_each_one_undo_step(engineer):
    """Ctrl+Z of the candidate's load, then of the case's: each is the newest step, its
    object goes, and the panel says the model is not loaded instead of acting on the
    deleted object (nothing starts, nothing raises); Redo brings both back."""
    data, _ = engineer
    loads = data["undo_loads"]
    assert loads["scored"] and loads["result_kept"], loads  # the result is of the files
    for role, step_name, gone in (
        ("candidate", "Load candidate", "Candidate"),
        ("reference", "Open case", "Reference"),
    ):
        step = loads[role]
        assert _named(step["undo_names"]) == [step_name], step
        assert step["undone_by"] == "Std_Undo", step
        assert gone not in step["objects"], step
        assert role in step["undone_roles"], step
        actions = step["actions"]
        assert actions["contents"], actions
        assert "no longer in the document" in actions["apply"], actions
        assert actions["deviation"][0] and "no longer in the document" in actions["deviation"][1]
        busy, said = actions["score"]
        assert not busy and "no longer in the document" in said, actions
    assert loads["candidate"]["objects"].count("Reference") == 1
    assert "Reference" not in loads["reference"]["objects"]
    for role in ("reference", "candidate"):
        step = loads[f"redo_{role}"]
        assert step["redone_by"] == "Std_Redo", step
        assert role.capitalize() in step["objects"], step
    assert loads["redo_candidate"]["undone_roles"] == [], loads
    # perfect_moved is the reference moved rigidly: the same volume, both shapes back.
    shapes = loads["redo_shapes"]
    assert set(shapes) == {"reference", "candidate"}, shapes
    assert shapes["candidate"] == pytest.approx(shapes["reference"], rel=1e-9), shapes


def test_a_failed_load_takes_the_last_candidate_away_and_names_the_file_only(engineer):
    data, _ = engineer
    assert "Candidate" not in data["objects_after_broken_load"]
    header = data["broken"]["header"]
    assert "empty.step" in header and "/broken/empty.step" not in header, header


def test_lengths_follow_the_users_unit_schema(engineer):
    """Imperial decimal: the bearing block's 120 mm length reads 4.72 in (120 / 25.4); the
    alignment's shift is in inches too. Nothing is printed as bare millimetres."""
    data, case = engineer
    rows = {r["cells"][0]: r for r in data["imperial_dimensions"]}
    lengths = [d for d in case.dimensions if d.kind == "length"]
    assert lengths
    for dimension in lengths:
        target = rows[dimension.id]["cells"][2]
        assert target.endswith(" in") and " mm" not in target, target
        assert float(target.split()[0]) == pytest.approx(dimension.value / 25.4, abs=0.006)
    assert " in" in data["imperial_alignment"] and " mm" not in data["imperial_alignment"]


def test_every_figure_of_the_panel_follows_the_users_unit_schema(engineer):
    """Imperial decimal: no cell of the Dimensions, Features, Drawing and Shape tabs prints a
    figure in millimetres (the features' counterbore depth and diameter printed bare
    before), and the Features and Drawing tabs print inches."""
    data, _ = engineer
    panel = data["imperial_panel"]
    in_mm = re.compile(r"\d\s?mm")
    for tab in ("dimensions", "features", "drawing", "shape"):
        cells = [c for row in panel[tab] for c in row["cells"]]
        assert not [c for c in cells if in_mm.search(c)], (tab, cells)
    for tab in ("features", "drawing"):
        assert any(" in" in c for row in panel[tab] for c in row["cells"]), panel[tab]
    features = " ".join(c for row in panel["features"] for c in row["cells"])
    depth = re.search(r"counterbore depth ([0-9.]+) in", features)  # bearing_block: 2 mm
    assert depth and float(depth.group(1)) == pytest.approx(2 / 25.4, abs=0.006), features


def test_show_deviation_is_sized_for_a_look_and_is_one_undo_step(engineer):
    """bearing_block's mesh cut to 5 % of the diagonal would have 40,000 points; the look
    keeps about deviation_child.POINTS (5,000) of them. Undone, nothing of it stays."""
    data, _ = engineer
    shown = data["deviation_undone"]
    assert 500 < shown["points"] == shown["distances"] <= 5000 * 1.1, shown
    assert "mm" in shown["message"]
    assert shown["undo_names"][0].removeprefix("-> ") == "Show deviation", shown
    assert shown["undone_by"] == "Std_Undo", shown
    assert all(not n.startswith(("CadBenchAligned", "CadBenchNominal", "CadBenchDeviation"))
               for n in shown["left"]), shown  # fmt: skip


# The window may not stop answering for longer than this (issue 32's "Done when"): a
# 20 ms heartbeat timer in the GUI thread measures the longest gap between its ticks.
FREEZE_LIMIT_S = 0.5


def assert_responsive(watched: dict, what: str) -> None:
    """The longest gap between heartbeat ticks, less the time the GUI thread stood runnable
    waiting for a CPU, stays under the limit (it counts the thread's work and its waits
    for a child: the old code's 12 s of Show deviation and its blocking wait for the
    loading child). The raw wall-clock gap is held to the limit too unless the machine has
    more runnable processes than cores (load average above os.cpu_count(), as when test
    suites share two cores): the scheduler alone then stretches 0.1 s of work past 0.5 s."""
    assert watched["longest_own_s"] < FREEZE_LIMIT_S, (what, watched)
    if watched["load_average"] <= (os.cpu_count() or 1):
        assert watched["longest_freeze_s"] < FREEZE_LIMIT_S, (what, watched)


def test_show_deviation_never_freezes_the_window_and_its_bar_only_moves_forward(engineer):
    """The meshing and Inspection's distances (about 4 CPU-s on bearing_block, 12 s of a
    frozen window before) run in a child: the GUI thread only makes the objects."""
    data, _ = engineer
    shown = data["deviation_undone"]
    assert_responsive(shown, "Show deviation")
    assert shown["while_running"] == {"bar": True, "cancel": True}, shown
    values = shown["progress_values"]
    assert values and values == sorted(values) and max(values) >= 90, values
    assert not shown["running_after"]


def test_cancel_ends_show_deviation_and_adds_nothing(engineer):
    data, _ = engineer
    cancelled = data["cancelled_deviation"]
    assert cancelled["was_running"], cancelled
    assert cancelled["message"] == "Show deviation cancelled.", cancelled
    assert cancelled["added"] == [] and not cancelled["bar"], cancelled


def test_generate_drawing_shows_a_bar_and_cancel_and_cancel_ends_it(engineer):
    data, _ = engineer
    assert data["drawing_progress"]["bar"] and data["drawing_progress"]["cancel"]
    assert data["drawing_progress"]["stage"] == "starting"
    cancelled = data["cancelled_drawing"]
    assert cancelled["message"] == "Drawing cancelled." and not cancelled["bar"], cancelled
    assert cancelled["documents"] == data["documents_before_cancel"]


def test_opening_a_case_and_choosing_a_candidate_never_freeze_the_window(engineer):
    """Both models are read and checked in a child while a thread waits for it; the GUI
    thread only reads the checked BREP the child wrote. The document is made first by
    FreeCAD's own File > New (its first 3D view is FreeCAD's work, not the workbench's:
    data["std_new_freeze_s"], about 1 s on a loaded 2-core machine under Xvfb)."""
    data, _ = engineer
    for key in ("open_case_load", "candidate_load", "broken_load"):
        assert data[key]["busy"] and data[key]["bar"], (key, data[key])
        assert_responsive(data[key], key)
    assert "Candidate perfect_moved.step loaded" in data["candidate_load"]["message"]


def test_a_case_build_shows_a_bar_and_cancel_and_cancel_builds_nothing(engineer):
    data, _ = engineer
    cancelled = data["cancelled_build"]
    assert cancelled["building"] and cancelled["bar"] and cancelled["cancel"], cancelled
    assert cancelled["stage"].startswith(f"building {CASE_ID}"), cancelled
    assert cancelled["message"] == f"Building {CASE_ID} cancelled.", cancelled
    assert cancelled["files"] == [] and not cancelled["bar_after"], cancelled


def test_a_case_build_moves_its_bar_forward_without_freezing_and_opens_the_case(engineer):
    data, case = engineer
    built = data["built_case"]
    values = built["progress_values"]
    assert values and values == sorted(values) and values[-1] == 100, built
    # The bar counts the files the build script wrote: reference + candidates.
    total = 1 + len(case.candidates)
    assert any(s.endswith(f" of {total} files") for s in built["stages"]), built
    assert_responsive(built, "case build")
    assert len(built["files"]) == total, built
    assert built["case"] and built["case"].endswith(os.path.join("unbuilt", CASE_ID)), built


def test_generate_drawing_moves_its_bar_forward_through_named_stages_without_freezing(engineer):
    """The drawing child (the views' hidden-line removal, about 7 s of 8 on bearing_block)
    reports its stages; the bar only moves forward, each stage named for a reader (no
    internal id such as "drawing:dimensions"), and the GUI thread only opens the page."""
    data, _ = engineer
    shown = data["drawing_progress"]
    values = shown["progress_values"]
    assert values and values == sorted(values) and max(values) >= 80, shown
    stages = shown["stages"]
    assert "projecting the views (hidden-line removal)" in stages, stages
    assert "placing the dimensions and writing the files" in stages, stages
    assert not any(":" in s and not s.startswith("checking") for s in stages), stages
    # The label never goes back to an earlier stage (FreeCAD 1.0 once read the child's stage
    # file while it was rewritten, and the label said "starting" again).
    order = ("starting", "checking the FreeCAD kernel", "reading the model", "projecting",
             "placing", "reading the drawing back")  # fmt: skip
    positions = [next(i for i, o in enumerate(order) if s.startswith(o)) for s in stages]
    assert positions == sorted(positions), stages
    assert_responsive(shown, "Generate drawing")


def test_apply_alignment_and_show_diff_never_freeze_the_window(engineer):
    """Both run in the GUI thread (a placement; three STEP pieces read and tessellated):
    measured with the heartbeat until the 3D view has drawn their result."""
    data, _ = engineer
    assert_responsive(data["undo_alignment"], "Apply alignment")
    assert_responsive(data["undo_diff"], "Show diff")


def test_scoring_never_freezes_the_window(engineer):
    """The scoring runs in a child a thread waits for; the GUI thread polls its stage and
    fills the panel at the end. Starting the child costs the GUI thread next to nothing
    since the child sets its own limits (runtime/child_limits.py): with a preexec_fn,
    Python forked FreeCAD's whole process, 0.13-0.57 s of the GUI thread at load 15-18."""
    data, _ = engineer
    assert_responsive(data["score_watch"], "Score")


def test_no_undo_freezes_the_window(engineer):
    """Ctrl+Z of Apply alignment, Show diff and Show deviation: each undo's own time (the
    heartbeat's measure: wall time less the GUI thread's wait for a CPU) under the limit."""
    data, _ = engineer
    for key in ("undo_alignment", "undo_diff", "deviation_undone"):
        entry = data[key]
        assert entry["undo_own_s"] < FREEZE_LIMIT_S, (key, entry)
        if entry["load_average"] <= (os.cpu_count() or 1):
            assert entry["undo_wall_s"] < FREEZE_LIMIT_S, (key, entry)
