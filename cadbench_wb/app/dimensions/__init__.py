# SPDX-License-Identifier: LGPL-2.1-or-later
"""dimensionRecall in the FreeCAD layer: the spectrum of a body, located targets (see README.md)."""
