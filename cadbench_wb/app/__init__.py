# SPDX-License-Identifier: LGPL-2.1-or-later
"""The FreeCAD layer: loading, booleans, alignment, measurement. Imports FreeCAD and Part,
never FreeCADGui, PySide or pivy."""
