# SPDX-License-Identifier: LGPL-2.1-or-later
"""A small campaign built from real FreeCAD solids, shared by the campaign tests (no tests).

Three cases in two groups (one anchoring); two systems x two runs. Candidates are the
reference box stretched along x by a factor f: after alignment the reference lies inside the
candidate, so shapeIoU = 1 / f exactly. sysA run2 delivers a broken STEP for box_b, sysB run2
delivers nothing for plate_c, sysB stretches everything by 1.25 (IoU 0.8: FAIL).
"""

import os

CASES = {
    # id: (x, y, z, group, anchoring)
    "box_a": (10.0, 8.0, 6.0, "boxes", False),
    "box_b": (12.0, 5.0, 4.0, "boxes", True),
    "plate_c": (20.0, 16.0, 2.0, "plates", False),
}
SYSTEMS = ("sysA", "sysB")
RUNS = ("run1", "run2")
BROKEN = ("sysA", "run2", "box_b")
MISSING = ("sysB", "run2", "plate_c")


def stretch(system: str, run: str, case_id: str) -> float:
    """The factor along x of a candidate (distinct for every system x run x case)."""
    index = sorted(CASES).index(case_id)
    base = 1.25 if system == "sysB" else 1.0
    return base + 0.01 * (index + 1) + (0.02 if run == "run2" else 0.0)


def write_case(folder, case_id, spec, part, extra_yaml="") -> None:
    x, y, z, group, anchoring = spec
    os.makedirs(folder, exist_ok=True)
    part.makeBox(x, y, z).exportStep(os.path.join(folder, "reference.step"))
    with open(os.path.join(folder, "case.yaml"), "w") as handle:
        handle.write(
            f"id: {case_id}\ntitle: {case_id} test block\nreference: reference.step\n"
            f"group: {group}\nanchoring: {str(anchoring).lower()}\n{extra_yaml}"
        )


def build_campaign(root, part) -> dict:
    """cases/ and submissions/ under root; returns their paths."""
    cases = os.path.join(root, "cases")
    submissions = os.path.join(root, "submissions")
    for case_id, spec in CASES.items():
        write_case(os.path.join(cases, case_id), case_id, spec, part)
    for system in SYSTEMS:
        for run in RUNS:
            folder = os.path.join(submissions, system, run)
            os.makedirs(folder, exist_ok=True)
            for case_id, (x, y, z, _, _) in CASES.items():
                if (system, run, case_id) == MISSING:
                    continue
                path = os.path.join(folder, f"{case_id}.step")
                if (system, run, case_id) == BROKEN:
                    with open(path, "w") as handle:
                        handle.write("ISO-10303-21;\nthis is not a STEP body\n")
                    continue
                part.makeBox(x * stretch(system, run, case_id), y, z).exportStep(path)
    return {"cases": cases, "submissions": submissions}
