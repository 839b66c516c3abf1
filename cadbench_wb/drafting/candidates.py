# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every dimension a drawing's views offer, before the plan chooses what to draw: the
circles' (radial, bolt circle, shaft: circles.py) and the straight edges' (linear,
inclined: plan.py), in a deterministic order. Pure Python (no FreeCAD)."""

from cadbench_wb.drafting.circles import (
    bolt_circle_candidates,
    radial_candidates,
    shaft_candidates,
)
from cadbench_wb.drafting.plan import inclined_candidates, linear_candidates


def candidates_of(views: list) -> list:
    """Every dimension the views offer, in a deterministic order."""
    found = []
    for view in views:
        found += radial_candidates(view)
        found += bolt_circle_candidates(view)
        found += shaft_candidates(view)
        found += linear_candidates(view)
        found += inclined_candidates(view)
    return found
