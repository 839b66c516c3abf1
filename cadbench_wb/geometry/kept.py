# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a scoring derives from the reference's mesh alone, kept in this process by the
mesh's content: a campaign worker scores many candidates against one reference, and each
job tessellates it anew into the same arrays.

Only pure functions of the arrays are kept (a ray-casting grid, column occupancy, seeded
points, a KD-tree of facet centres, voxels), so a kept object is the one the same call
would make again: no figure can change. The key is the arrays' shapes, types and a digest
of their bytes (about 1 ms for 29,000 triangles), never their identity, so an array
changed in place is never taken for the mesh it was. The kept arrays are made read-only:
a caller that wrote into one would raise, not change the next job's figures.
"""

import collections
import hashlib

import numpy as np

# Entries kept (the reference side of one scoring makes about six): the last few
# references' (a campaign of several cases interleaved), not an unbounded store.
LIMIT = 24

_KEPT: collections.OrderedDict = collections.OrderedDict()


def mesh_key(vertices, triangles) -> tuple:
    """The mesh's content as a key: (shape, dtype, blake2b digest) of each array."""
    parts = []
    for array in (vertices, triangles):
        array = np.ascontiguousarray(array)
        digest = hashlib.blake2b(array.view(np.uint8).ravel(), digest_size=16).hexdigest()
        parts.append((array.shape, array.dtype.str, digest))
    return tuple(parts)


def kept(kind: str, mesh, params: tuple, make):
    """make(), or what it made before for the same kind, mesh content and params."""
    key = (kind, mesh_key(*mesh), params)
    if key in _KEPT:
        _KEPT.move_to_end(key)
        return _KEPT[key]
    value = make()
    _read_only(value)
    _KEPT[key] = value
    while len(_KEPT) > LIMIT:
        _KEPT.popitem(last=False)
    return value


def clear() -> None:
    _KEPT.clear()


def _read_only(value) -> None:
    """Every numpy array of value (itself, in a tuple, or an attribute) made read-only."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif isinstance(value, tuple | list):
        for item in value:
            _read_only(item)
    elif hasattr(value, "__dict__"):
        for item in vars(value).values():
            if isinstance(item, np.ndarray):
                item.flags.writeable = False
