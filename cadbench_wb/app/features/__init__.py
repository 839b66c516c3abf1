# SPDX-License-Identifier: LGPL-2.1-or-later
"""semanticMatch in the FreeCAD layer: feature recognition on the B-rep (see README.md)."""
