# SPDX-License-Identifier: LGPL-2.1-or-later
"""Located matching on hand-made geometry, and its summary lines (pure: no FreeCAD)."""

import pytest

from cadbench_wb.metrics.located import Correspondence, Geometry, max_offset
from cadbench_wb.metrics.located_dimensions import located_figures
from cadbench_wb.results import report


def holes(*places, diagonal=100.0):
    """Cylinder faces (holes along z) at (x, y, z) with a radius: (x, y, z, r)."""
    faces = [("cylinder", (x, y, z), (0, 0, 1), r, 0.0, False) for x, y, z, r in places]
    return Geometry.from_rows(faces, [], [], [], diagonal)


def test_holes_pair_one_to_one_nearest_first_within_the_limit():
    limit = max_offset(100.0)  # max(1 mm, 0.05 x 100) = 5 mm
    assert limit == pytest.approx(5.0)
    reference = holes((0, 0, 5, 3), (20, 0, 5, 3), (40, 0, 5, 3))
    # The first hole moved 4 mm (still it), the second gone, the third 6 mm off (not it).
    candidate = holes((4, 0, 5, 3), (46, 0, 5, 3))
    pairs = Correspondence(reference, candidate)
    first = pairs.of(("Face", 0))
    assert first[0] == ("Face", 0) and first[1] == pytest.approx(4.0)
    # The neighbour 16 mm away never stands in for the missing hole.
    assert pairs.of(("Face", 1)) is None
    assert pairs.of(("Face", 2)) is None


def test_split_halves_are_one_site_and_a_hole_never_answers_for_a_shaft():
    faces = [
        ("cylinder", (0, 0, 5), (0, 0, 1), 3.0, 0.0, False),
        ("cylinder", (0, 0, 5), (0, 0, -1), 3.0, 0.0, False),  # the other half, axis flipped
        ("cylinder", (30, 0, 5), (0, 0, 1), 3.0, 0.0, True),  # a boss
    ]
    reference = Geometry.from_rows(faces, [], [], [], 100.0)
    candidate = Geometry.from_rows([faces[0], faces[0][:5] + (True,)], [], [], [], 100.0)
    pairs = Correspondence(reference, candidate)
    assert pairs.site_of(("Face", 1)) == pairs.site_of(("Face", 0)) == ("Face", 0)
    assert pairs.of(("Face", 1))[0] == ("Face", 0)
    assert pairs.of(("Face", 2)) is None  # the candidate's shaft is 30 mm away


def test_figures_average_member_shares_over_targets():
    entries = [
        {"credit": 11 / 12, "found": 11, "total": 12},
        {"credit": 1.0, "found": 1, "total": 1},
        {"credit": 0.0, "found": 0, "total": 0},
    ]
    figures = located_figures(entries)
    assert figures["dimensionRecallLocated"] == pytest.approx((11 / 12 + 1) / 3)
    assert figures["referenceCoverageLocated"] == pytest.approx(2 / 3)
    assert (figures["membersFound"], figures["membersTotal"]) == (12, 13)
    assert located_figures([])["dimensionRecallLocated"] is None


def test_the_summary_shows_located_figures_and_flags_a_difference():
    result = {
        "dimensionRecallLocated": 0.5,
        "referenceCoverageLocated": 1.0,
        "dimensionLocated": {"differs": True, "membersFound": 1, "membersTotal": 2},
        "dimensions": [
            {
                "id": "D1",
                "status": "found",
                "measurableOnReference": True,
                "located": {"status": "found", "found": 1, "total": 1},
            },
            {
                "id": "D2",
                "status": "found",
                "measurableOnReference": True,
                "located": {
                    "status": "not_found",
                    "found": 0,
                    "total": 1,
                    "rejectedSeedHit": "value found, but elsewhere: cylinder Face9",
                },
            },
            {
                "id": "D3",
                "status": "not_measurable_on_reference",
                "measurableOnReference": False,
                "unmeasurableReason": {"code": "sharp_corner", "text": "a sharp corner"},
                "located": {"status": "not_measurable_on_reference", "found": 0, "total": 0},
            },
        ],
    }
    lines = report.located_lines(result)
    assert lines[0].split() == ["dimensionRecallLocated", "0.5000", "DIFFERS", "from", "the",
                                "value", "match"]  # fmt: skip
    assert "(1 of 2 members at their place)" in lines[1]
    assert lines[2] == (
        "  - D2: located not_found (0 of 1 members) value found, but elsewhere: cylinder Face9"
    )
    assert lines[3] == "  - D3: not measurable: a sharp corner"
    assert len(lines) == 4
    assert report.located_lines({}) == []
