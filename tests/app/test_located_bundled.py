# SPDX-License-Identifier: LGPL-2.1-or-later
"""Located recall on the bundled cases, against what a careful reader of each drawing
finds: per target, how many features (members) carry it on the reference, read from the
construction (build.py and the callout). A pattern counts per feature ("4x R8" is four),
a depth per face at its level (a base split by a recess has two bottoms), a target the
reference does not hold has none. The seed-style figures stay as case.yaml states them
(test_bundled_cases.py); referenceCoverageLocated is the share of targets with a member.

Where a value also stands on the reference's other features, case.yaml binds the target
to its faces (bearing_block D5, bracket_slot B2 and B4: faces that keep their numbers on
FreeCAD 0.20 and 1.0) or, where FreeCAD 0.20 and 1.0 number the faces differently (on
fillet_block the top is Face2 on one, Face3 on the other), by place: fillet_block L4, L7
and L13 name points of build.py's construction on the faces that carry them.
"""

import os
import shutil

import pytest
from conftest import ROOT

from cadbench_wb.case_model import cases

# case -> {target: members}, by hand from build.py (unmeasurable targets: 0).
MEMBERS = {
    "bearing_block": {
        "D1": 1, "D2": 1, "D3": 2, "D4": 1,
        "D5": 1,  # housing depth 30: its front and back (y 5, 35); not the base ends' steps
        "D6": 1, "D7": 1, "D8": 2, "D9": 2, "D10": 2, "D11": 1, "D12": 2, "D13": 2,
        "D14": 1, "D15": 0, "D16": 0, "D17": 0,
    },
    "bracket_slot": {
        "B1": 1,
        "B2": 1,  # width 50: y 0 to 50, not the overall height (z 0 to 50)
        "B3": 1,
        "B4": 1,  # overall height 50: z 0 to 50, not the width
        "B5": 1, "B6": 1, "B7": 4, "B8": 2, "B9": 1, "B10": 1,
        "B11": 0, "B12": 0, "B13": 0, "B14": 0,
    },
    "fillet_block": {
        "L1": 1, "L2": 1, "L3": 1,
        "L4": 4,  # 4x R10 corners, not the Ø20 boss's R10
        "L5": 1, "L6": 1,
        "L7": 1,  # pocket depth 8: its floor to the top, not the left end to the pocket wall
        "L8": 4, "L9": 1, "L10": 1, "L11": 1, "L12": 1,
        "L13": 1,  # pocket 8 from the left end: that pair only, not the depth
        "L14": 0,
    },
    "flange_bolt_circle": {
        "F1": 1, "F2": 1, "F3": 1, "F4": 1, "F5": 1, "F6": 6, "F7": 0, "F8": 1, "F9": 1,
        "F10": 0,
    },
    "nist_ftc_11": {"N1": 1, "N2": 1, "N3": 2, "N4": 1, "N5": 0, "N6": 0},
    "plate_counterbored": {
        "P1": 1, "P2": 1, "P3": 1, "P4": 4, "P5": 4, "P6": 4, "P7": 4, "P8": 0, "P9": 0,
        "P10": 0,
    },
    "slope_block": {
        "W1": 1, "W2": 1, "W3": 1, "W4": 1, "W5": 2, "W6": 1, "W7": 2, "W8": 1, "W9": 0,
    },
    "turned_shaft": {
        "S1": 1, "S2": 2, "S3": 1, "S4": 1, "S5": 1, "S6": 1, "S7": 1, "S8": 1, "S9": 1,
        "S10": 2, "S11": 0, "S12": 1,
    },
}  # fmt: skip
# Targets bound by place in case.yaml, and the faces those places are on (build.py):
# (type, centre coordinate that tells them apart).
BY_PLACE = {
    "fillet_block": {
        "L4": {("cylinder", (10.0, 10.0)), ("cylinder", (70.0, 10.0)),
               ("cylinder", (10.0, 50.0)), ("cylinder", (70.0, 50.0))},
        "L7": {("plane", 17.0), ("plane", 25.0)},  # z of the pocket floor and the top
        "L13": {("plane", 0.0), ("plane", 8.0)},  # x of the left end and the pocket wall
    },
}  # fmt: skip


def _located(tmp_path, case_id, full=False):
    """Per target its member count, and referenceCoverageLocated, on the reference itself
    (full: the score result)."""
    from cadbench_wb.app.cases import build as case_build
    from cadbench_wb.app.scoring import score_files

    skip = {"reference.step", "candidates", "__pycache__"}
    folder = tmp_path / case_id
    shutil.copytree(
        os.path.join(ROOT, "cases", case_id),
        folder,
        ignore=lambda d, n: [x for x in n if x in skip],
    )
    case = cases.load_case(str(folder))
    if not os.path.exists(case.reference_path):
        case_build.run_build_script(case, str(folder))
    result = score_files(
        case.reference_path, case.reference_path, {"only": ["dimensions"], "no_align": True}, case
    )
    if full:
        return result
    members = {d["id"]: (d.get("located") or {}).get("total", 0) for d in result["dimensions"]}
    return members, result["referenceCoverageLocated"]


@pytest.mark.parametrize("case_id", list(MEMBERS))
def test_each_target_is_located_on_the_features_a_reader_of_the_drawing_finds(
    fc, tmp_path, case_id
):
    members, coverage = _located(tmp_path, case_id)
    assert members == MEMBERS[case_id]
    covered = sum(n > 0 for n in MEMBERS[case_id].values()) / len(MEMBERS[case_id])
    assert coverage == pytest.approx(covered)


def test_place_bindings_find_the_faces_the_construction_names(fc, tmp_path):
    """fillet_block L4, L7, L13: the faces their `at:` points resolve to, by type and
    place, whatever numbers the reference's faces have."""
    result = _located(tmp_path, "fillet_block", full=True)
    by_id = {d["id"]: d["located"] for d in result["dimensions"]}
    for target, wanted in BY_PLACE["fillet_block"].items():
        located = by_id[target]
        assert located["binding"] == "at"
        assert len(located["boundFaces"]) == len(wanted)
        found = set()
        for member in located["members"]:
            for g in member["reference"]["geometry"]:
                if g["type"] == "cylinder":
                    found.add(("cylinder", tuple(round(c, 6) for c in g["centre"][:2])))
                else:
                    axis = 2 if target == "L7" else 0
                    found.add(("plane", round(g["centre"][axis], 6)))
        assert found == wanted
        assert located["found"] == located["total"] == MEMBERS["fillet_block"][target]
