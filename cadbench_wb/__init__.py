# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench: scores a reconstructed CAD model against its reference.

This module holds the version only; it imports neither FreeCAD nor Qt, so that
``import cadbench_wb`` works on any Python and the CLI's ``--help`` is instant.
"""

__version__ = "0.1.0"
