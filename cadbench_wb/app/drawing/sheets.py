# SPDX-License-Identifier: LGPL-2.1-or-later
"""The sheets a drawing may go on: ISO 216 A4 to A0 landscape, with their ISO 7200 frames.

A drafter keeps a readable scale and takes a larger sheet before a smaller scale. The A3
sheet is the drawing's own template (drawing.template_file); the others are the same
family shipped in resources/templates (so a sheet is the same on every FreeCAD version),
else FreeCAD's own, found by name (FreeCAD 0.20: *_Landscape_ISO7200TD.svg; 1.0:
*_Landscape_TD.svg). A sheet whose template is missing or states no frame is not offered.
"""

import os

from cadbench_wb import resources

SHEETS = ("A4", "A3", "A2", "A1", "A0")  # smallest first
DEFAULT_SHEET = "A3"
TEMPLATE_NAMES = ("{sheet}_Landscape_ISO7200TD.svg", "{sheet}_Landscape_TD.svg")


def sheet_templates(freecad, default_path: str, areas_of) -> dict:
    """{sheet: (template path, frame box, title block box)}, smallest sheet first.

    default_path: the A3 template; areas_of(path) -> (frame, title block), raising when
    the template states neither."""
    folders = (
        resources.TEMPLATES,
        os.path.join(freecad.getResourceDir(), "Mod", "TechDraw", "Templates"),
    )
    found = {}
    for sheet in SHEETS:
        paths = [default_path] if sheet == DEFAULT_SHEET else []
        paths += [
            os.path.join(folder, name.format(sheet=sheet))
            for folder in folders
            for name in TEMPLATE_NAMES
        ]
        for path in paths:
            if not os.path.isfile(path):
                continue
            try:
                found[sheet] = (path, *areas_of(path))
            except Exception:  # a template without a stated frame is no sheet
                continue
            break
    return found
