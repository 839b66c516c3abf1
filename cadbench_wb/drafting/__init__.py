# SPDX-License-Identifier: LGPL-2.1-or-later
"""2D drawings (DXF) read the way they print: printed dimension values, the "numbers vs
lines" check (dxf-check) and the gold-against-candidate drawing scorer (drawing-score).

Pure: ezdxf, numpy, scipy and matplotlib only, never FreeCAD, so the TechDraw read-back in
app/ and the command line share one reading of what a drawing prints.
"""
