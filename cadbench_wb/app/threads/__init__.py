# SPDX-License-Identifier: LGPL-2.1-or-later
"""threadMatch in the FreeCAD layer: modeled and cosmetic thread recognition (see README.md)."""
