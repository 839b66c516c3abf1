# SPDX-License-Identifier: LGPL-2.1-or-later
"""The panel's view-model: what the dock shows for a result dict, without a window."""

import pytest
import yaml

from cadbench_wb.case_model import cases
from cadbench_wb.gui import authoring_model, detail_rows, panel_model
from cadbench_wb.gui.panel_model import COLOURS, FAIL, NOT_APPLICABLE, NOT_CHECKED, NOT_RUN, PASS


def _result(**extra):
    result = {
        "reference": {"path": "/cases/a/reference.step"},
        "candidate": {"path": "/tmp/cand.step"},
        "delivered": True,
        "failure": None,
        "metricFingerprint": "0123456789abcdef",
        "verdict": {"formal": FAIL, "reachable": PASS},
        "verdicts": {
            "shapeIoU": {"verdict": PASS, "value": 0.97, "threshold": 0.9, "reachable": PASS,
                         "reason": "0.9700 >= 0.9"},
            "dimensionRecall": {"verdict": FAIL, "value": 0.8235, "threshold": 0.95,
                                "reachable": PASS, "ceiling": 0.8235, "reason": "at the ceiling"},
            "threadMatch": {"verdict": NOT_CHECKED, "value": None, "threshold": 1.0,
                            "applicable": False, "reason": "the reference has no thread"},
            "drawingMatch": {"verdict": NOT_CHECKED, "value": None, "threshold": 0.9,
                             "reachable": NOT_CHECKED, "reason": "TechDraw failed",
                             "note": "self-consistency"},
        },
    }  # fmt: skip
    result.update(extra)
    return result


def test_metric_rows_cover_the_five_metrics_in_order_with_their_states():
    rows = panel_model.metric_rows(_result())
    assert [r.key for r in rows] == [
        "shapeIoU",
        "dimensionRecall",
        "semanticMatch",
        "threadMatch",
        "drawingMatch",
    ]
    states = {r.key: r.state for r in rows}
    assert states == {
        "shapeIoU": PASS,
        "dimensionRecall": FAIL,
        "semanticMatch": NOT_RUN,
        "threadMatch": NOT_APPLICABLE,
        "drawingMatch": NOT_CHECKED,
    }
    shape, recall, semantic, thread, drawing = rows
    assert shape.cells == ["Shape fidelity (shapeIoU)", "0.9700", "0.90", PASS, PASS, "-"]
    assert recall.cells[3:] == [FAIL, PASS, "0.8235"]
    assert recall.colour == COLOURS[FAIL] and shape.colour == COLOURS[PASS]
    assert thread.tooltip == "the reference has no thread"
    assert drawing.cells[1] == "-" and "note: self-consistency" in drawing.tooltip
    assert "not computed" in semantic.tooltip
    assert len({COLOURS[s] for s in (PASS, FAIL, NOT_CHECKED)}) == 3


def test_unknown_metrics_in_the_result_are_shown_after_the_five():
    result = _result()
    result["verdicts"]["futureMetric"] = {"verdict": PASS, "value": 1.0, "threshold": 0.5}
    assert panel_model.metric_rows(result)[-1].key == "futureMetric"


def test_ceilings_are_na_until_the_core_reports_them():
    rows = panel_model.ceiling_rows(_result())
    assert [r.cells for r in rows] == [
        ["referenceCoverage", NOT_APPLICABLE],
        ["drawingSelfTest", NOT_APPLICABLE],
        ["randomHitRate", NOT_APPLICABLE],
    ]
    rows = panel_model.ceiling_rows(
        _result(referenceCoverage=14 / 17, randomHitRate={"length": 0.0369, "angle": 0.0028})
    )
    assert rows[0].cells[1] == "0.8235"
    assert rows[2].cells[1] == "length 0.0369 / angle 0.0028"


def test_dimension_rows_colour_by_status_and_point_at_geometry():
    dimensions = [
        {"id": "D1", "kind": "length", "target": 40.0, "found": 40.0, "status": "found",
         "tolerance": 0.2, "candidateGeometry": ["Face1", "Face6"],
         "referenceGeometry": ["Edge5"]},
        {"id": "D2", "kind": "diameter", "target": 11.0, "found": None, "status": "not_found",
         "tolerance": 0.055, "candidateGeometry": [], "referenceGeometry": ["Edge41"]},
        {"id": "D3", "kind": "length", "target": 45.0, "status": "not_measurable",
         "referenceGeometry": []},
        {"id": "D4", "kind": "angle", "target": 63.43, "found": 63.43, "status": "found",
         "candidateGeometry": "Face2+Face7"},
    ]  # fmt: skip
    rows = detail_rows.dimension_rows(_result(dimensions=dimensions))
    assert [r.state for r in rows] == [PASS, FAIL, NOT_CHECKED, PASS]
    assert rows[0].cells == [
        "D1",
        "length",
        "40.000 mm ±0.200 mm",
        "40.000 mm",
        "found",
        "cand. Face1+Face6; ref. Edge5",
        "-",  # a result without located matching: its columns say so
        "-",
        "",
    ]
    assert rows[1].cells[2:5] == ["Ø11.000 mm ±0.055 mm", "-", "not found"]
    assert rows[1].targets == [("reference", "Edge41")]
    assert rows[3].cells[2] == "63.430°"
    assert rows[3].targets == [("candidate", "Face2"), ("candidate", "Face7")]
    assert rows[2].targets == []


def _member(status, reference, candidate=None, value=None):
    geometry = [{"element": reference, "type": "cylinder", "centre": [95.0, 30.0, 5.0]}]
    member = {"status": status, "reference": {"geometry": geometry, "value": 12.0}}
    member["candidate"] = (
        None
        if candidate is None
        else {"geometry": [{"element": candidate, "type": "cylinder"}], "value": value}
    )
    return member


def _located_result():
    """A value found on an unrelated boss (HOLE) and a 4-hole pattern with one member off
    (PATTERN): value match 2/2, located (0 + 3/4) / 2."""
    hole = {
        "id": "HOLE",
        "kind": "diameter",
        "target": 12.0,
        "found": 12.0,
        "status": "found",
        "candidateGeometry": ["Edge12"],
        "referenceGeometry": ["Face9"],
        "located": {
            "binding": "inferred",
            "status": "not_found",
            "found": 0,
            "total": 1,
            "credit": 0.0,
            "members": [_member("wrong_value", "Face9", "Face9", 10.0)],
            "rejectedSeedHit": "value found, but elsewhere: circle Edge12 measures "
            "12, 25.5 mm from the reference geometry",
        },
    }
    members = [_member("found", f"Face{i}", f"Face{i}", 6.0) for i in (1, 2, 3)]
    members.append(_member("no_geometry_here", "Face4"))
    pattern = {
        "id": "PATTERN",
        "kind": "diameter",
        "target": 6.0,
        "found": 6.0,
        "status": "found",
        "candidateGeometry": ["Face1"],
        "referenceGeometry": ["Face1"],
        "located": {
            "binding": "inferred",
            "status": "partial",
            "found": 3,
            "total": 4,
            "credit": 0.75,
            "members": members,
        },
    }
    return _result(
        dimensions=[hole, pattern], dimensionRecall=1.0, dimensionRecallLocated=0.375,
        referenceCoverageLocated=1.0,
        dimensionLocated={"differs": True, "membersFound": 3, "membersTotal": 5},
    )  # fmt: skip


def test_located_recall_is_a_row_under_dimension_recall_that_flags_a_difference():
    rows = panel_model.metric_rows(_located_result())
    keys = [r.key for r in rows]
    assert keys.index("dimensionRecallLocated") == keys.index("dimensionRecall") + 1
    located = rows[keys.index("dimensionRecallLocated")]
    assert located.cells[1:] == ["0.3750", "-", panel_model.DIFFERS, "-", "1.0000"]
    assert located.colour == COLOURS[panel_model.DIFFERS]
    agreeing = _located_result()
    agreeing["dimensionLocated"]["differs"] = False
    row = next(r for r in panel_model.metric_rows(agreeing) if r.key == "dimensionRecallLocated")
    assert row.cells[3] == panel_model.AGREES and row.colour is None
    # Without located figures (an older result, a scoring without a case) there is no row.
    assert "dimensionRecallLocated" not in [r.key for r in panel_model.metric_rows(_result())]


def test_located_cells_name_the_geometry_and_why_a_value_match_is_rejected():
    hole, pattern = detail_rows.dimension_rows(_located_result())
    assert hole.state == PASS  # the row is the value match's
    assert hole.cells[6:] == [
        "not found: 0 of 1 at its place",
        "Face9 → Face9 (10.000)",
        "value found, but elsewhere: circle Edge12 measures 12, 25.5 mm from the reference "
        "geometry",
    ]
    assert hole.cell_states == dict.fromkeys(detail_rows.LOCATED_COLUMNS, panel_model.DIFFERS)
    assert hole.colour_of(0) == COLOURS[PASS]
    assert hole.colour_of(6) == COLOURS[panel_model.DIFFERS]
    # Clicked: the reference's hole, the candidate's face there, and the boss's edge.
    assert hole.targets == [("reference", "Face9"), ("candidate", "Face9"), ("candidate", "Edge12")]
    assert hole.detail.startswith("HOLE: located not found: 0 of 1 at its place; value found")
    # The member off its place first, then those found.
    assert pattern.cells[6] == "partial: 3 of 4 at their place"
    assert pattern.cells[7] == "Face4 → none; Face1 → Face1; Face2 → Face2; +1 more"
    assert "Face3 → Face3" in pattern.tooltip  # every member is in the tooltip


def test_a_row_where_both_matchings_agree_keeps_its_colour_and_targets():
    result = _located_result()
    hole = result["dimensions"][0]
    hole.update(status="not_found", found=None)
    hole["located"].pop("rejectedSeedHit")
    (row, _) = detail_rows.dimension_rows(result)
    assert row.cell_states == {} and row.state == FAIL and row.detail == ""
    assert row.targets == [("candidate", "Edge12"), ("reference", "Face9")]


def test_the_batch_row_flags_a_differing_located_recall():
    result = _located_result()
    result["verdicts"]["dimensionRecall"]["value"] = 1.0
    result["verdicts"]["dimensionRecall"]["verdict"] = PASS
    row = panel_model.batch_row("c.step", {"result": result})
    assert row.cells[2] == f"1.0000 PASS (located 0.3750 {panel_model.DIFFERS})"
    result["dimensionLocated"]["differs"] = False
    assert panel_model.batch_row("c.step", {"result": result}).cells[2] == "1.0000 PASS"


def test_entries_in_either_shape_become_rows():
    grouped = {"matched": [{"id": "hole1", "kind": "hole", "diameter": 8.0}],
               "missing": [{"id": "chamfer2", "geometry": "Edge4"}], "extra": ["boss"]}  # fmt: skip
    rows = detail_rows.entry_rows(grouped)
    assert [(r.cells[0], r.cells[1], r.state) for r in rows] == [
        ("hole1", "matched", PASS),
        ("chamfer2", "missing", FAIL),
        ("boss", "extra", FAIL),
    ]
    assert rows[0].cells[2] == "diameter 8.000 mm, kind hole"
    assert rows[1].targets == [("candidate", "Edge4")]
    listed = detail_rows.entry_rows({"items": [{"name": "M8", "status": "pitch_wrong"}]})
    assert listed[0].cells[:2] == ["M8", "pitch wrong"]
    assert detail_rows.entry_rows(None) == []


def test_failed_delivery_is_named_in_the_header():
    result = _result(delivered=False, failure={"reason": "empty_file", "detail": "0 bytes"})
    lines = dict(panel_model.header_lines(result))
    assert lines["Delivery"] == "NOT DELIVERED: empty_file - 0 bytes"
    assert lines["Case verdict"] == "FAIL (formal), PASS (reachable)"
    assert lines["Candidate"] == "cand.step"


def test_diff_files_alignment_and_drawing_files():
    result = _result(
        diffFiles={"missing": {"step": "/d/diff_missing.step", "glb": "/d/m.glb"}, "extra": None,
                   "common": {"step": "/d/diff_common.step"}},
        shape={"alignment": {"rotation": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                             "translation": [1.0, -2.0, 0.5], "rotationAngleDeg": 30.0,
                             "ambiguous": True, "alternatives": [{}, {}]}},
        drawing={"files": {"svg": "/d/page.svg", "fcstd": "/d/page.FCStd"}},
    )  # fmt: skip
    assert panel_model.diff_files(result) == {
        "common": "/d/diff_common.step",
        "missing": "/d/diff_missing.step",
    }
    assert panel_model.alignment_text(result) == (
        "rotated 30.00°, moved (1.000 mm, -2.000 mm, 0.500 mm); ambiguous: 2 other pose(s) fit as well"
    )
    assert panel_model.drawing_files(result) == {"svg": "/d/page.svg"}
    assert panel_model.alignment_of(_result()) is None


def test_batch_rows_for_results_and_errors():
    row = panel_model.batch_row("a.step", {"result": _result()})
    assert row.cells[:3] == ["a.step", "0.9700 PASS", "0.8235 FAIL"]
    assert row.cells[4] == NOT_APPLICABLE and row.cells[-2:] == [FAIL, PASS]
    assert row.state == FAIL and "dimensionRecall: at the ceiling" in row.tooltip
    lost = panel_model.batch_row("b.step", {"error": {"reason": "worker_lost", "detail": "x"}})
    assert lost.state == NOT_CHECKED and lost.tooltip == "worker_lost: x"
    assert panel_model.batch_row("c.step", {"cancelled": True}).tooltip == "cancelled"


def test_draft_case_is_written_as_a_case_the_scorer_loads(tmp_path):
    reference = tmp_path / "model.step"
    reference.write_text("ISO-10303-21;")
    draft = authoring_model.CaseDraft("my_part", "My part", "gui", True, str(reference))
    draft.add("diameter", 10.0, "Edge10", spectrum="default")
    draft.add("length", 45.0, "Face1+Face4", "axis height", spectrum="extended")
    draft.dimensions[0].tol = 0.02
    case = authoring_model.save_case(draft, str(tmp_path / "case"))
    assert case.id == "my_part" and case.anchoring is True and case.group == "gui"
    assert [(d.id, d.kind, d.value, d.spectrum) for d in case.dimensions] == [
        ("D1", "diameter", 10.0, "default"),
        ("D2", "length", 45.0, "extended"),
    ]
    assert case.dimensions[0].tolerance == 0.02
    assert (tmp_path / "case" / "reference.step").read_text() == "ISO-10303-21;"
    data = yaml.safe_load((tmp_path / "case" / "case.yaml").read_text())
    assert data["dimensions"][0] == {
        "id": "D1",
        "kind": "diameter",
        "value": 10,
        "tol": 0.02,
        "source": "Edge10",
    }


def test_a_drafts_bindings_are_written_and_read_back_as_the_scorer_reads_them(tmp_path):
    """A pick's place binding, and an edited case's face binding (0-based inside, FaceN's
    numbers in case.yaml), survive save and reopen."""
    reference = tmp_path / "model.step"
    reference.write_text("ISO-10303-21;")
    draft = authoring_model.CaseDraft("my_part", "My part", reference_source=str(reference))
    place = {"at": [[26.0, 20.0, 10.0]], "axis": [0.0, 0.0, 1.0]}
    draft.add("diameter", 12.0, "Face7", geometry=place)
    draft.add("length", 8.0, "Face1+Face12", geometry={"faces": [0, 11]})
    case = authoring_model.save_case(draft, str(tmp_path / "case"))
    assert [d.geometry for d in case.dimensions] == [place, {"faces": [0, 11]}]
    data = yaml.safe_load((tmp_path / "case" / "case.yaml").read_text())
    assert data["dimensions"][0]["geometry"] == {"at": [[26, 20, 10]], "axis": [0, 0, 1]}
    assert data["dimensions"][1]["geometry"] == {"faces": [1, 12]}
    reopened = authoring_model.draft_from_case(case)
    assert [d.geometry for d in reopened.dimensions] == [place, {"faces": [0, 11]}]


def test_invalid_draft_gets_the_loaders_reason_and_writes_nothing(tmp_path):
    reference = tmp_path / "model.step"
    reference.write_text("x")
    draft = authoring_model.CaseDraft("", "t", reference_source=str(reference))
    draft.add("length", 5.0)
    with pytest.raises(cases.CaseInvalid, match="id: required text field"):
        authoring_model.save_case(draft, str(tmp_path / "case"))
    assert not (tmp_path / "case").exists()
    draft.id = "ok"
    draft.dimensions[0].value = -1
    with pytest.raises(cases.CaseInvalid, match=r"dimensions\[0\].value: must be positive"):
        authoring_model.save_case(draft, str(tmp_path / "case"))


def test_draft_ids_stay_unique_after_removal():
    draft = authoring_model.CaseDraft()
    for value in (1, 2, 3):
        draft.add("length", value)
    del draft.dimensions[0]
    assert draft.add("length", 4).id == "D4"
    assert authoring_model.folder_name(" my case/2 ") == "my_case_2"


def test_live_figures_say_na_until_the_core_reports_them():
    assert authoring_model.live_figures(None, 3) == {
        "coverage": NOT_RUN,
        "self_test": NOT_RUN,
        "random": NOT_RUN,
        "warning": "",
    }
    result = {
        "referenceCoverage": 2 / 3,
        "drawingSelfTest": 1.0,
        "randomHitRate": {"length": 0.0137, "angle": 0.0028},
        "dimensions": [
            {"id": "D1", "status": "found"},
            {"id": "D2", "status": "found"},
            {"id": "D3", "status": "not_measurable"},
        ],
    }
    figures = authoring_model.live_figures(result, 3)
    assert figures["coverage"] == "0.6667 (2 of 3)"
    assert figures["self_test"] == "1.0000"
    assert figures["random"] == "length 0.0137 / angle 0.0028"
    assert figures["warning"] == "Not measurable on the reference: D3"


def test_declaration_warning_names_extended_and_unmeasurable_dimensions():
    draft = authoring_model.CaseDraft()
    draft.add("length", 10, spectrum="default")
    draft.add("length", 45, spectrum="extended")
    draft.add("length", 60.83, spectrum="none")
    assert authoring_model.declaration_warning(draft.dimensions) == (
        "Not measurable on the reference: D3; Measurable only with --spectrum extended: D2"
    )
    assert authoring_model.ON_REFERENCE["none"][1] == FAIL


def test_feature_thread_and_drawing_sections_in_the_stages_shapes():
    features = {
        "reference": [{"id": "F1", "type": "hole", "faces": ["Face7"], "kind": "through",
                       "params": {"diameter": 10.0}},
                      {"id": "F3", "type": "chamfer", "faces": ["Face2"]}],
        "candidate": [{"id": "F1", "type": "hole", "faces": ["Face9"]}],
        "matched": [{"reference": "F1", "candidate": "F1", "credit": 0.5, "type": "hole",
                     "differences": ["diameter 12 instead of 10 (tolerance 0.05)"]}],
        "missing": [{"id": "F3", "type": "chamfer", "faces": ["Face2"]}],
        "extra": [{"id": "F2", "type": "boss", "faces": ["Face8", "Face9"],
                   "kind": "prismatic", "params": {"height": 5.0}}],
        "unrecognised": {"candidate": [], "reference": []},
    }  # fmt: skip
    rows = detail_rows.feature_rows(features)
    assert [(r.cells[0], r.cells[1], r.state) for r in rows] == [
        ("hole F1→F1", "differs (credit 0.5)", FAIL),
        ("chamfer F3", "missing", FAIL),
        ("boss F2", "extra", FAIL),
    ]
    assert rows[0].targets == [("candidate", "Face9"), ("reference", "Face7")]
    assert rows[1].targets == [("reference", "Face2")]
    assert rows[2].cells[2] == "prismatic height 5.000 mm"
    threads = {
        "applicable": True,
        "reference": [{"designation": "M8", "kind": "external", "pitch": 1.25, "faces": ["Face3"]}],
        "candidate": [{"designation": "M8", "kind": "external", "pitch": 1.0, "faces": ["Face4"]},
                      {"designation": "M6", "kind": "internal", "faces": []}],
        "pairs": [{"reference": 0, "candidate": 0, "matched": False,
                   "checks": {"major": {"ok": True}, "pitch": {"ok": False}}}],
    }  # fmt: skip
    rows = detail_rows.thread_rows(threads)
    assert [(r.cells[0], r.cells[1], r.state) for r in rows] == [
        ("M8", "differs: pitch", FAIL),
        ("M6", "extra", FAIL),
    ]
    assert rows[0].targets == [("candidate", "Face4"), ("reference", "Face3")]
    # The differing field shows both sides, never only the reference's value.
    assert rows[0].cells[2] == "kind external; pitch 1.250 mm, candidate 1.000 mm"
    drawing = {"dimensions": [{"id": "D1", "found": True, "target": 40.0, "displayed": "40",
                               "view": "Top"}, {"id": "D2", "found": False, "target": 11.0}]}  # fmt: skip
    rows = detail_rows.drawing_rows(drawing)
    assert [(r.cells[1], r.state) for r in rows] == [("found", PASS), ("not found", FAIL)]
    assert rows[0].cells[2] == "target 40.000 mm, prints '40' in view Top"


def test_a_missed_dimension_shows_the_nearest_candidate_value_and_how_far_off():
    result = {"dimensions": [{"id": "HOLE", "kind": "diameter", "target": 10.0, "tolerance": 0.05,
                              "status": "not_found", "found": None, "nearestValue": 12.0,
                              "nearestGeometry": ["Face9"], "referenceGeometry": ["Face7"]}]}  # fmt: skip
    (row,) = detail_rows.dimension_rows(result)
    assert row.cells[3] == "-"
    assert row.cells[4] == "not found (nearest 12.000 mm, off by +2.000 mm)"
    assert row.state == FAIL


def test_verdict_message_leads_with_reachable_and_is_coloured_by_it():
    at_ceiling = {"delivered": True, "verdict": {"formal": FAIL, "reachable": PASS}}
    (template, *values), kind = panel_model.verdict_message(at_ceiling)
    assert template.format(*values) == "Scored: case verdict PASS (reachable), FAIL (formal)"
    assert kind == PASS
    agreed = {"delivered": True, "verdict": {"formal": FAIL, "reachable": FAIL}}
    (template, *values), kind = panel_model.verdict_message(agreed)
    assert template.format(*values) == "Scored: case verdict FAIL" and kind == FAIL
    failed = {"delivered": False, "failure": {"reason": "empty_file"},
              "verdict": {"formal": FAIL, "reachable": FAIL}}  # fmt: skip
    (template, *values), kind = panel_model.verdict_message(failed)
    assert template.format(*values) == "Not delivered (empty_file): case verdict FAIL"


def test_short_reason_names_the_file_not_its_folder():
    line = "empty_file: /home/u/runs/7/broken/empty.step: the file is empty"
    assert panel_model.short_reason(line, "/home/u/runs/7/broken/empty.step") == (
        "empty_file: empty.step: the file is empty"
    )


def test_a_shift_that_rounds_to_zero_prints_no_sign():
    result = {"shape": {"alignment": {"rotation": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                      "translation": [0.0, -0.0001, -0.0], "rotationAngleDeg": 0.0}}}  # fmt: skip
    assert panel_model.alignment_text(result) == (
        "rotated 0.00°, moved (0.000 mm, 0.000 mm, 0.000 mm)"
    )


def test_the_ceilings_read_not_run_before_any_scoring():
    rows = panel_model.ceiling_rows({})
    assert [r.cells for r in rows] == [
        [name, panel_model.NOT_RUN]
        for name in ("referenceCoverage", "drawingSelfTest", "randomHitRate")
    ]


def test_the_delivery_row_names_the_file_not_its_folders():
    result = {
        "delivered": False,
        "candidate": {"path": "/home/u/work/run1/empty.step"},
        "failure": {"reason": "empty_file", "detail": "/home/u/work/run1/empty.step: 0 bytes"},
    }
    assert panel_model.delivery_text(result) == "NOT DELIVERED: empty_file - empty.step: 0 bytes"


def test_a_draft_from_the_automatic_case_keeps_its_bindings_on_the_authors_reference(tmp_path):
    folder = tmp_path / "auto"
    folder.mkdir()
    (folder / "plate.step").write_text("not read here")
    bound = {"at": [[0.0, 5.0, 2.5], [40.0, 5.0, 2.5]]}
    data = {
        "id": "plate",
        "title": "plate (automatic targets)",
        "reference": "plate.step",
        "auto": {"generator": "cadbench case new"},
        "dimensions": [
            {"id": "D1", "kind": "length", "value": 40.0, "source": "drawing Front: 40",
             "geometry": bound},
            {"id": "D2", "kind": "diameter", "value": 6.0, "geometry": {"faces": ["Face7"]}},
        ],
    }  # fmt: skip
    (folder / "case.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    draft = authoring_model.draft_from_auto_case(str(folder / "case.yaml"), "/parts/plate.step")
    assert draft.reference_source == "/parts/plate.step"
    assert [(d.id, d.kind, d.value) for d in draft.dimensions] == [
        ("D1", "length", 40.0),
        ("D2", "diameter", 6.0),
    ]
    assert draft.dimensions[0].geometry["at"] == bound["at"]
    assert draft.dimensions[1].geometry == {"faces": [6]}


def test_a_parameter_named_by_a_length_in_its_last_word_prints_its_unit():
    """A counterbored hole's parameters ("counterbore_depth 2.000" printed bare before): a
    name ending in a length word is a length, one with "angle" in it an angle, and a count
    stays a bare number."""
    assert panel_model.parameter_text("counterbore_depth", 2.0) == "2.000 mm"
    assert panel_model.parameter_text("counterbore_diameter", 18.0) == "18.000 mm"
    assert panel_model.parameter_text("countersink_angle", 90.0) == "90.000°"
    assert panel_model.parameter_text("hole_count", 4) == panel_model.number_text(4, 3)
    assert "mm" not in panel_model.parameter_text("hole_count", 4)
