# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench: scores a reconstructed CAD model against its reference.

This module holds the version only; it imports neither FreeCAD nor Qt, so that
``import cadbench_wb`` works on any Python and the CLI's ``--help`` is instant.
"""

import os

__version__ = "0.1.0"


def _apply_child_limits() -> None:
    # A scoring child started by runtime/runner.py: its memory and CPU limits and death with
    # its parent, set before anything else is imported (runtime/child_limits.py says why).
    if os.environ.get("CADBENCH_CHILD_LIMITS"):
        from cadbench_wb.runtime import child_limits  # noqa: PLC0415 - scoring child only

        child_limits.apply_from_environment()


def _append_addon_packages() -> None:
    # A scoring child started by runner.child_environment: FreeCAD's AdditionalPythonPackages
    # (the Addon Manager's pip folder) go after site-packages. Standard library only.
    if os.environ.get("CADBENCH_ADDON_PACKAGES"):
        from cadbench_wb.runtime.freecad_env import append_addon_packages  # noqa: PLC0415 - scoring child only

        append_addon_packages()


_apply_child_limits()
_append_addon_packages()
