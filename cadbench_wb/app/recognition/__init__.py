# SPDX-License-Identifier: LGPL-2.1-or-later
"""Feature and thread recognition on a B-rep: read by several metrics (semanticMatch,
threadMatch, the located bindings of dimensionRecall), so it lives below their rooms."""
