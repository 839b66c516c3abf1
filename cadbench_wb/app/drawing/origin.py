# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where TechDraw centred a view, read off its vertices.

A view vertex is a model vertex seen along the view, less the view's centre: the offset
that most (model vertex, view vertex) pairs share is the centre. Pure (numpy); used for the
plain views (drawing.view_origin) and the sections (drawing_section.section_origin).
"""

import numpy as np

from cadbench_wb import standard

_VIEWS = standard.DRAWING["views"]


def shared_offset(model, seen):
    """(x, y) that most pairs of a model point (seen along the view, in the view's axes)
    and a view vertex differ by, or None when no offset stands out: fewer than
    origin_min_pairs pairs share one, or two offsets tie (a symmetric part's few vertices).
    Offsets within origin_bin_mm of one another are one."""
    model, seen = np.asarray(model, dtype=float), np.asarray(seen, dtype=float)
    if len(model) < 1 or len(seen) < _VIEWS["origin_min_pairs"]:
        return None
    offsets = (model[:, None, :] - seen[None, :, :]).reshape(-1, 2)
    bins = np.round(offsets / _VIEWS["origin_bin_mm"]).astype(np.int64)
    keys = bins[:, 0] * (1 << 32) + bins[:, 1]  # one integer per bin, for a fast count
    _values, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    order = np.sort(counts)
    if order[-1] < _VIEWS["origin_min_pairs"] or (len(order) > 1 and order[-2] == order[-1]):
        return None
    x, y = offsets[inverse.reshape(-1) == counts.argmax()].mean(axis=0)
    return float(x), float(y)
