# SPDX-License-Identifier: LGPL-2.1-or-later
# Executed by FreeCAD's GUI at start-up; no __file__. The workbench class lives in
# cadbench_wb.gui.workbench and is imported lazily, so start-up stays cheap.


class CadBenchWorkbench(Workbench):  # FreeCAD provides Workbench here
    MenuText = "cadbench"
    ToolTip = "Score a reconstructed CAD model against its reference"

    def __init__(self):
        from cadbench_wb import resources

        self.__class__.Icon = resources.icon_path("CadBench_Workbench")

    def Initialize(self):
        from cadbench_wb.gui import workbench

        workbench.initialize(self)

    def Activated(self):
        from cadbench_wb.gui import workbench

        workbench.activated(self)

    def Deactivated(self):
        from cadbench_wb.gui import workbench

        workbench.deactivated(self)

    def GetClassName(self):
        return "Gui::PythonWorkbench"


Gui.addWorkbench(CadBenchWorkbench())  # FreeCAD provides Gui here


def _register_preferences():
    # The Preferences page and its icon at start-up, as Draft's and TechDraw's are: Edit >
    # Preferences shows it before the workbench has ever been activated.
    from cadbench_wb.gui import preferences

    preferences.register_page()


_register_preferences()
