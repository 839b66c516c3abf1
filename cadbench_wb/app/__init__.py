# SPDX-License-Identifier: LGPL-2.1-or-later
"""The FreeCAD layer: loading, booleans, alignment, measurement. Imports FreeCAD and Part,
never FreeCADGui, PySide or pivy."""

from cadbench_wb.runtime.freecad_env import import_freecad

# Whoever imports this layer first (the scoring child, a case's build script, a test) gets
# FreeCAD with every Mod/<workbench> folder on sys.path, as freecadcmd has it: FreeCAD 1.0's
# Part needs Mod/Part (PartEnums) and segfaults without it.
import_freecad()
