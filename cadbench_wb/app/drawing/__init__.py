# SPDX-License-Identifier: LGPL-2.1-or-later
"""drawingMatch in the FreeCAD layer: the TechDraw page, its views and exports (see README.md)."""
