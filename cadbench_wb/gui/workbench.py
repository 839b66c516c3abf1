# SPDX-License-Identifier: LGPL-2.1-or-later
"""Workbench set-up, called from InitGui.py: commands, toolbar, menu and translations are
registered when the workbench is first activated, so FreeCAD's start-up stays cheap."""

import os

from cadbench_wb import resources

TOOLBAR = "cadbench"
MENU = "&cadbench"


def initialize(workbench) -> None:
    import FreeCADGui  # noqa: PLC0415 - FreeCAD-only

    # The kernel modules the workbench's objects need, loaded with the workbench (as Part's
    # own workbench loads them): imported on first use instead, they froze the window for
    # a second while a case opened (Part 0.9 s under load) or a deviation was shown.
    import Inspection  # noqa: F401, PLC0415
    import Mesh  # noqa: F401, PLC0415
    import Part  # noqa: F401, PLC0415

    from cadbench_wb.gui import commands, preferences, units  # noqa: PLC0415 - heavy: loaded on first use

    for gui_module in ("PartGui", "MeshGui", "InspectionGui"):
        try:
            __import__(gui_module)
        except ImportError:  # a FreeCAD build without that module: loaded when used
            pass
    translations = os.path.join(resources.ROOT, "resources", "translations")
    if os.path.isdir(translations):
        FreeCADGui.addLanguagePath(translations)
        FreeCADGui.updateLocale()
    units.install()  # the panel prints lengths, areas, volumes, angles as FreeCAD does
    commands.register()
    preferences.register_page()
    workbench.appendToolbar(TOOLBAR, commands.TOOLBAR)
    workbench.appendMenu(MENU, commands.MENU)


def activated(workbench) -> None:
    from cadbench_wb.gui import dependency_check, panel  # noqa: PLC0415 - heavy: loaded on first use

    panel.panel()
    # An Addon Manager install runs no `make setup`: say what the scoring child lacks.
    dependency_check.check_once()


def deactivated(workbench) -> None:
    from cadbench_wb.gui import panel  # noqa: PLC0415 - heavy: loaded on first use

    found = panel.dock(create=False)
    if found is not None and not found.widget().is_busy():
        found.hide()
