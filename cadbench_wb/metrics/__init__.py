# SPDX-License-Identifier: LGPL-2.1-or-later
"""Pure math on numbers and arrays: no FreeCAD, no Qt. Runs on any Python with numpy."""
