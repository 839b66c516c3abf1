# SPDX-License-Identifier: LGPL-2.1-or-later
"""case.yaml: validation with located errors, candidates and their expectations, and the
bundled cases' own consistency (pure: no FreeCAD)."""

import os
import subprocess
import sys

import pytest

from cadbench_wb.case_model import cases

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "cases")
THREAD_CASES = {"thread_bolt_m8", "thread_nut_m10"}  # another issue's cases
STANDARD_SAMPLES = {
    "perfect_moved",
    "scaled_102",
    "mirrored",
    "broken_empty",
    "broken_garbage",
    "broken_face_only",
}

GOOD = """\
id: demo_block
title: Demo block
reference: reference.step
anchoring: true
dimensions:
  - {id: D1, kind: length, value: 40}
  - {id: D2, kind: diameter, value: 10, tol: 0.1, note: hole}
  - {id: D3, kind: length, value: 12, spectrum: extended}
  - {id: D4, kind: angle, value: 26.565}
candidates:
  - file: candidates/a.step
    note: perfect
    expect:
      delivered: true
      dimensionRecall: 3/4
      shapeIoU: {value: 1.0, tol: 0.001}
"""


def write_case(tmp_path, text, files=("reference.step", "candidates/a.step")):
    folder = tmp_path / "case"
    folder.mkdir(exist_ok=True)
    for name in files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("ISO-10303-21;\n")
    (folder / "case.yaml").write_text(text)
    return str(folder)


def test_a_valid_case_loads_with_defaults(tmp_path):
    case = cases.load_case(write_case(tmp_path, GOOD))
    assert case.id == "demo_block" and case.anchoring is True
    assert [d.kind for d in case.dimensions] == ["length", "diameter", "length", "angle"]
    assert case.dimensions[0].tolerance == pytest.approx(0.2)  # 0.5 % of 40
    assert case.dimensions[1].tolerance == 0.1
    assert case.dimensions[3].tolerance == 0.25
    assert case.dimensions[2].spectrum == "extended"
    (candidate,) = case.candidates
    assert candidate.name == "a" and candidate.path.endswith(os.path.join("candidates", "a.step"))
    assert candidate.expect["dimensionRecall"] == "3/4"
    assert case.missing_files() == []


@pytest.mark.parametrize(
    "change, line, field",
    [
        (("kind: angle, value: 26.565", "kind: slope, value: 26.565"), 9, "dimensions[3].kind"),
        (("value: 40}", "value: -40}"), 6, "dimensions[0].value"),
        (("{id: D2,", "{id: D1,"), 7, "dimensions[1].id"),
        (("spectrum: extended", "spectrum: wide"), 8, "dimensions[2].spectrum"),
        (("reference: reference.step", "reference: ../elsewhere.step"), 3, "reference"),
        (("anchoring: true", "anchoring: maybe"), 4, "anchoring"),
        (("dimensionRecall: 3/4", "dimensionRecall: [3, 4]"), 15, "dimensionRecall"),
        (("{value: 1.0, tol: 0.001}", "{value: 1.0, slack: 1}"), 16, "shapeIoU"),
    ],
)
def test_bad_input_is_named_with_file_line_and_field(tmp_path, change, line, field):
    folder = write_case(tmp_path, GOOD.replace(*change))
    with pytest.raises(cases.CaseInvalid) as caught:
        cases.load_case(folder)
    message = str(caught.value)
    assert f"case.yaml:{line}: " in message
    assert field in message


def test_a_dimension_binds_to_faces_a_feature_or_no_geometry(tmp_path):
    text = GOOD.replace(
        "{id: D1, kind: length, value: 40}",
        "{id: D1, kind: length, value: 40, geometry: {faces: [Face12, 3, 12]}}",
    )
    text = text.replace("note: hole}", "note: hole, geometry: {feature: F2}}")
    text = text.replace("value: 26.565}", "value: 26.565, geometry: {none: a cosmetic thread}}")
    case = cases.load_case(write_case(tmp_path, text))
    bindings = [d.geometry for d in case.dimensions]
    # 1-based on the page (as FreeCAD names faces), 0-based indices inside.
    assert bindings == [{"faces": [2, 11]}, {"feature": "F2"}, None, {"none": "a cosmetic thread"}]


@pytest.mark.parametrize(
    "binding, message",
    [
        ("{faces: []}", "non-empty list"),
        ("{faces: [Edge3]}", "'Edge3' is not a face"),
        ("{faces: [0]}", "is not a face"),
        ("{feature: ''}", "non-empty text"),
        ("{edges: [1]}", "must be one of"),
        ("{faces: [1], none: x}", "must be one of"),
        ("Face3", "must be one of"),
    ],
)
def test_a_bad_geometry_binding_is_named_with_its_field(tmp_path, binding, message):
    text = GOOD.replace(
        "{id: D1, kind: length, value: 40}",
        f"{{id: D1, kind: length, value: 40, geometry: {binding}}}",
    )
    with pytest.raises(cases.CaseInvalid, match="dimensions\\[0\\].geometry") as caught:
        cases.load_case(write_case(tmp_path, text))
    assert message in str(caught.value)
    assert "case.yaml:6: " in str(caught.value)


def test_a_dimension_binds_by_place_one_point_per_face(tmp_path):
    text = GOOD.replace(
        "{id: D1, kind: length, value: 40}",
        "{id: D1, kind: length, value: 40, geometry: {at: [[0, 5, 5], [40, 5, 5.5]], "
        "normal: [1, 0, 0]}}",
    )
    text = text.replace("note: hole}", "note: hole, geometry: {at: [3, 4, 0], axis: [0, 0, 2]}}")
    text = text.replace("value: 26.565}", "value: 26.565, geometry: {at: [1, 2, 3]}}")
    case = cases.load_case(write_case(tmp_path, text))
    assert [d.geometry for d in case.dimensions] == [
        {"at": [[0.0, 5.0, 5.0], [40.0, 5.0, 5.5]], "normal": [1.0, 0.0, 0.0]},
        {"at": [[3.0, 4.0, 0.0]], "axis": [0.0, 0.0, 2.0]},  # a bare point is a list of one
        None,
        {"at": [[1.0, 2.0, 3.0]]},
    ]


@pytest.mark.parametrize(
    "binding, message",
    [
        ("{at: []}", "geometry.at: must be a point [x, y, z] or a non-empty list"),
        ("{at: [1, 2]}", "geometry.at: must be a point"),
        ("{at: [[1, 2, 3], [1, 2]]}", "geometry.at: must be a point"),
        ("{at: [1, 2, x]}", "geometry.at: must be a point"),
        ("{at: [1, 2, .nan]}", "geometry.at: must be a point"),
        ("{at: [1, 2, true]}", "geometry.at: must be a point"),
        ("{at: [1, 2, 3], normal: [0, 0, 0]}", "geometry.normal: must be a non-zero vector"),
        ("{at: [1, 2, 3], axis: [0, 1]}", "geometry.axis: must be a non-zero vector"),
        ("{at: [1, 2, 3], normal: [0, 0, 1], axis: [0, 0, 1]}", "must be one of"),
        ("{faces: [1], normal: [0, 0, 1]}", "must be one of"),
        ("{at: [1, 2, 3], faces: [1]}", "must be one of"),
    ],
)
def test_a_bad_place_binding_is_named_with_its_field(tmp_path, binding, message):
    text = GOOD.replace(
        "{id: D1, kind: length, value: 40}",
        f"{{id: D1, kind: length, value: 40, geometry: {binding}}}",
    )
    with pytest.raises(cases.CaseInvalid, match="dimensions\\[0\\].geometry") as caught:
        cases.load_case(write_case(tmp_path, text))
    assert message in str(caught.value)


def test_missing_reference_and_candidates_need_a_build_script(tmp_path):
    folder = write_case(tmp_path, GOOD, files=("candidates/a.step",))
    with pytest.raises(cases.CaseInvalid, match="reference.step does not exist"):
        cases.load_case(folder)
    folder = write_case(tmp_path, GOOD, files=("reference.step",))
    os.remove(os.path.join(folder, "candidates", "a.step"))
    with pytest.raises(cases.CaseInvalid, match=r"candidates\[0\].file"):
        cases.load_case(folder)
    (tmp_path / "case" / "build.py").write_text("def build(out_dir, case_dir): pass\n")
    os.remove(os.path.join(folder, "reference.step"))
    case = cases.load_case(write_case(tmp_path, GOOD + "build: build.py\n", files=()))
    assert case.build_script.endswith("build.py")
    assert case.missing_files() == ["reference.step", "candidates/a.step"]


def test_duplicate_case_ids_are_refused(tmp_path):
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "reference.step").write_text("x")
        (folder / "case.yaml").write_text("id: same\ntitle: T\nreference: reference.step\n")
    with pytest.raises(cases.CaseInvalid, match="duplicate case id 'same'"):
        cases.discover_cases(str(tmp_path))


def test_expectations_compare_as_documented():
    result = {
        "delivered": False,
        "failure": {"reason": "empty_file", "detail": "0 bytes"},
        "dimensionRecall": 14 / 17,
        "shapeIoU": 0.9952,
        "verdicts": {"dimensionRecall": {"verdict": "FAIL", "reachable": "PASS"}},
    }
    good = {
        "delivered": False,
        "failure": "empty_file",
        "dimensionRecall": "14/17",
        "shapeIoU": {"value": 0.995, "tol": 0.0005},
        "verdicts.dimensionRecall.reachable": "PASS",
    }
    assert cases.expectation_failures(good, result) == []
    assert cases.expectation_failures({"shapeIoU": {"min": 0.99, "max": 1}}, result) == []
    bad = {
        "delivered": True,
        "failure": "no_solid",
        "dimensionRecall": "13/17",
        "shapeIoU": {"value": 0.999, "tol": 0.001},
        "verdicts.dimensionRecall.verdict": "PASS",
        "referenceCoverage": "14/17",
    }
    failures = cases.expectation_failures(bad, result)
    assert [f.split(":")[0] for f in failures] == list(bad)
    assert "missing from the result" in failures[-1]


def bundled():
    return [c for c in cases.discover_cases(CASES) if c.id not in THREAD_CASES]


def test_at_least_eight_bundled_cases_with_real_parts_among_them():
    found = bundled()
    assert len(found) >= 8
    real = {c.id for c in found if c.group == "real-world"}
    assert {"nist_ftc_11", "nist_ftc_06"} <= real
    for case in found:
        folder = case.path
        if case.id in real:
            assert os.path.isfile(case.reference_path), "third-party references are committed"
            assert os.path.isfile(os.path.join(folder, "PROVENANCE.md"))
            assert os.path.isfile(os.path.join(folder, case.drawing))
        else:
            assert case.build_script and os.path.isfile(case.build_script)
        assert case.raw.get("provenance")


def test_bundled_dimensions_say_where_they_come_from():
    for case in bundled():
        assert case.dimensions, case.id
        for dimension in case.dimensions:
            assert dimension.source, f"{case.id} {dimension.id}: no callout named"
            if dimension.spectrum != "default":
                assert dimension.note, f"{case.id} {dimension.id}: say why it is not measurable"


def test_bundled_cases_have_every_kind_of_sample():
    for case in bundled():
        names = {c.name for c in case.candidates}
        assert STANDARD_SAMPLES <= names, case.id
        assert any(n.startswith("wrong_") for n in names), case.id
        assert any(n.startswith("missing_") for n in names), case.id
        for candidate in case.candidates:
            assert candidate.note and "delivered" in candidate.expect, candidate.file
            if candidate.expect["delivered"]:
                assert {"shapeIoU", "dimensionRecall"} <= set(candidate.expect)


def test_the_bearing_block_is_seed_000s_example():
    case = cases.load_case(os.path.join(CASES, "bearing_block"))
    assert len(case.dimensions) == 17
    assert sum(d.spectrum == "default" for d in case.dimensions) == 14


def test_generated_files_are_ignored_and_real_references_are_not():
    git = ["git", "-C", ROOT, "check-ignore", "-q"]
    if subprocess.run(["git", "-C", ROOT, "rev-parse"], capture_output=True).returncode:
        pytest.skip("not a git checkout")
    assert subprocess.run(git + ["cases/bearing_block/reference.step"]).returncode == 0
    assert subprocess.run(git + ["cases/bearing_block/candidates/mirrored.step"]).returncode == 0
    real = "cases/nist_ftc_11/nist_ftc_11_asme1_rb.stp"
    assert subprocess.run(git + [real]).returncode == 1


def test_expectations_per_freecad_version_apply_by_version_prefix():
    candidate = cases.Candidate(
        file="c.step",
        path="/c.step",
        expect={"semanticMatch": "1/1", "threadMatch": 1.0},
        expect_freecad={"1.0": {"semanticMatch": "5/6"}},
    )
    assert candidate.expected("1.0.0") == {"semanticMatch": "5/6", "threadMatch": 1.0}
    assert candidate.expected("1.0.2")["semanticMatch"] == "5/6"
    for other in ("0.20.2", "1.01.0", "11.0.0", None):
        assert candidate.expected(other) == candidate.expect


@pytest.mark.parametrize(
    "section,message",
    [
        ("features: {target: bogus}", "features.target: 'bogus' is not one of"),
        ("features: [{type: hole, count: 0}]", "features.expected[0].count"),
        ("features: {target: replace, expected: [{type: hole}]}", "location: required"),
        ("threads: {cosmetic: maybe}", "threads.cosmetic: 'maybe' is not one of"),
        ("threads: [accept]", "threads: must be a mapping"),
    ],
)
def test_metric_sections_are_validated_when_the_case_loads(tmp_path, section, message):
    # The metric registry names each section's validator; `case check` runs them without
    # FreeCAD, where before only a scoring found the mistake.
    folder = write_case(tmp_path, GOOD + section + "\n")
    with pytest.raises(cases.CaseInvalid, match=message.replace("[", r"\[").replace("]", r"\]")):
        cases.load_case(folder)
    process = subprocess.run(
        [sys.executable, "-m", "cadbench_wb", "case", "check", folder],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert process.returncode != 0 and "Traceback" not in process.stderr


def test_case_check_names_an_unknown_field_and_its_likely_spelling(tmp_path):
    folder = write_case(tmp_path, GOOD + "feature: [{type: hole}]\nnotes: mine\n")
    assert cases.unknown_fields(cases.load_case(folder)) == [
        "feature (did you mean features?)",
        "notes",
    ]
