# SPDX-License-Identifier: LGPL-2.1-or-later
"""The scoring child's runtime: finding FreeCAD, starting the child with its limits, the
child itself, and the one reading of how it ended."""
