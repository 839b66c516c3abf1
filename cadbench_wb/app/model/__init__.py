# SPDX-License-Identifier: LGPL-2.1-or-later
"""The scored model and the kernel services every metric reads: loading a file into one
solid, meshes, placement, the kernel's version quirks and self-test, the reference's facts.
Imports no metric package."""
