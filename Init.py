# SPDX-License-Identifier: LGPL-2.1-or-later
# Executed (not imported) by FreeCAD at start-up, in freecadcmd and the GUI alike. It has no
# __file__; everything lives in the cadbench_wb package. Nothing here needs Qt.
import FreeCAD

# FreeCAD's test runner: `freecadcmd -t TestCadbench`, or the Test workbench's list.
FreeCAD.__unit_test__ = getattr(FreeCAD, "__unit_test__", []) + ["TestCadbench"]
