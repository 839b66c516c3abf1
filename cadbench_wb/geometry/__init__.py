# SPDX-License-Identifier: LGPL-2.1-or-later
"""Pure geometry shared by the metrics and the FreeCAD layer: mesh segmentation, surface fits
and snapping, rigid motions, ICP, ray-cast sampling, subdivision, spectrum geometry. numpy and
scipy only: never FreeCAD, never Qt."""
