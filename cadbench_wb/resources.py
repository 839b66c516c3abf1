# SPDX-License-Identifier: LGPL-2.1-or-later
"""Paths of the checkout's resources (icons, ui files, cases), resolved in one place:
Init.py and InitGui.py are executed without __file__, so they ask this module."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ICONS = os.path.join(ROOT, "resources", "icons")
CASES = os.path.join(ROOT, "cases")
TEMPLATES = os.path.join(ROOT, "resources", "templates")


def icon_path(name: str) -> str:
    return os.path.join(ICONS, f"{name}.svg")
