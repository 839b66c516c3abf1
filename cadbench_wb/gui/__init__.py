# SPDX-License-Identifier: LGPL-2.1-or-later
"""The FreeCAD GUI layer: the only package that imports FreeCADGui and Qt (through
FreeCAD's PySide shim). It holds no geometry or metric logic: it calls the core."""
