# SPDX-License-Identifier: LGPL-2.1-or-later
"""Quantities as FreeCAD prints them: FreeCAD.Units.Quantity(...).UserString, in the unit
schema and with the decimals the user chose (Edit > Preferences > General > Units), as
Part's and TechDraw's panels show theirs. The panel's rows are built by pure code
(panel_model.quantity_text); this is the formatter the workbench installs into it."""

import FreeCAD

from cadbench_wb.gui import panel_model

_KINDS = {"length": "Length", "area": "Area", "volume": "Volume", "angle": "Angle"}


def user_string(value: float, kind: str) -> str:
    """value (mm, mm², mm³ or degrees) in the user's unit schema: "12.35 mm", "0.49 in"."""
    units = FreeCAD.Units
    text = units.Quantity(float(value), getattr(units, _KINDS[kind])).UserString
    # A value that rounds to zero in the user's decimals keeps no minus sign ("-0.00 mm").
    number = text.split(" ")[0]
    return (
        text[1:] if number.startswith("-") and not any(c in "123456789" for c in number) else text
    )


def install() -> None:
    panel_model.use_quantity_text(user_string)
