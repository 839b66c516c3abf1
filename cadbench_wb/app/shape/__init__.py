# SPDX-License-Identifier: LGPL-2.1-or-later
"""shapeIoU in the FreeCAD layer: alignment, exact and mesh booleans, the diff (see README.md)."""
