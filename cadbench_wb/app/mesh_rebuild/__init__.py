# SPDX-License-Identifier: LGPL-2.1-or-later
"""The analytic B-rep rebuilt from a mesh candidate's triangles, for the B-rep-only metrics."""
