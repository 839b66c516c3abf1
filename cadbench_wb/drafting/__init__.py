# SPDX-License-Identifier: LGPL-2.1-or-later
"""2D drawings (DXF) read the way they print: printed dimension values, the "numbers vs
lines" check (dxf-check) and the gold-against-candidate drawing scorer (drawing-score);
and the pure half of the TechDraw sheet cadbench draws: which dimensions to place where
(plan.py, circles.py), the layout on the sheet (layout.py), its read-back (readback.py) and
its layout checks (sheet_checks.py).

Pure: ezdxf, numpy, scipy and matplotlib only, never FreeCAD, so the TechDraw read-back in
app/drawing/ and the command line share one reading of what a drawing prints.
"""
