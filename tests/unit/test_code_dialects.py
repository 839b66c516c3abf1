# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which dialect a script is run as, read off its imports without running or parsing it;
and the field figures' text of a campaign."""

import pytest

from cadbench_wb.campaign.field import campaign_field_figures, field_text
from cadbench_wb.code import dialects
from cadbench_wb.errors import DeliveryFailure


@pytest.mark.parametrize(
    ("source", "dialect"),
    [
        (b"import cadquery as cq\nresult = cq.Workplane().box(1, 1, 1)\n", "cadquery"),
        (b"from build123d import *\nwith BuildPart() as part:\n    Box(1, 1, 1)\n", "build123d"),
        (b"import FreeCAD as App\nimport Part\n", "freecad"),
        (b"import math, Part\n", "freecad"),
        (b"from FreeCAD import Vector\n", "freecad"),
        (b"import numpy as np\n    import cadquery\n", "cadquery"),  # inside a function
        (b"import cadquery as cq\nfrom build123d import Box\n", "cadquery"),  # one environment
    ],
)  # fmt: skip
def test_the_dialect_is_read_off_the_imports(source, dialect):
    assert dialects.dialect_of(source) == dialect


@pytest.mark.parametrize(
    "source",
    [
        b"x = 1\n",
        b"# import cadquery\nx = 1\n",  # a comment is no import
        b"s = 'import cadquery'\n",
        b"import FreeCAD\nimport cadquery\n",  # OCP beside FreeCAD's OpenCASCADE
    ],
)
def test_no_runnable_dialect_is_a_named_failure(source):
    with pytest.raises(DeliveryFailure) as refused:
        dialects.dialect_of(source)
    assert refused.value.reason == "code_runtime_error"
    assert "--dialect" in refused.value.detail


def test_a_declared_dialect_wins_and_an_unknown_one_is_refused():
    assert dialects.dialect_of(b"x = 1\n", "build123d") == "build123d"
    with pytest.raises(ValueError):
        dialects.dialect_of(b"x = 1\n", "openscad")


def test_invalid_rate_counts_undelivered_checked_scorings_with_the_timeout_used():
    rows = [
        {"system": "a", "checked": True, "delivered": True, "candidate": "a/r/c1.py",
         "fieldFigures": {"chamferDistance": 1.0, "voxelIoU64": 0.5}},
        {"system": "a", "checked": True, "delivered": False, "candidate": "a/r/c2.py",
         "fieldFigures": {"chamferDistance": None, "voxelIoU64": None}},
        {"system": "a", "checked": False, "delivered": None, "candidate": "a/r/c3.py"},
        {"system": "b", "checked": True, "delivered": False, "candidate": None},
    ]  # fmt: skip
    figures = campaign_field_figures(rows, scoring_timeout=300, code_timeout=60)
    assert figures["a"]["invalidRate"]["count"] == 1 and figures["a"]["invalidRate"]["of"] == 2
    assert figures["a"]["invalidRate"]["timeoutSeconds"] == 60
    assert figures["a"]["chamferDistance"]["over"] == {"mean": 1.0, "median": 1.0, "n": 1}
    assert figures["b"]["invalidRate"]["rate"] == 1.0
    assert figures["b"]["invalidRate"]["timeoutOf"] == "scoring"
    assert figures["b"]["voxelIoU64"]["over"] is None
    text = field_text({"fieldFigures": figures})
    assert "1/2 50.0% (60 s script)" in text and "never in a verdict" in text
