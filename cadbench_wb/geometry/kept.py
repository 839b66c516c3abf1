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

# What is kept: at most LIMIT entries (the reference side of one scoring makes about eight)
# and BUDGET bytes of arrays, the oldest used dropped first: the last few references' (a
# campaign of several cases interleaved), never an unbounded store. Under a memory limit
# (a scoring child's, a campaign worker's) at most an eighth of it: what is kept must never
# be what makes a later job run out of memory, so a job's outcome cannot depend on the
# jobs the process scored before (the smallest limit, standard.MIN_MEMORY_MB = 1024, keeps
# 128 MB).
LIMIT = 64
BUDGET = 256 * 1024 * 1024
LIMIT_SHARE = 8

_KEPT: collections.OrderedDict = collections.OrderedDict()  # key -> (value, bytes)


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
        return _KEPT[key][0]
    value = make()
    _KEPT[key] = (value, _read_only(value))
    budget = budget_bytes()
    while _KEPT and (len(_KEPT) > LIMIT or sum(size for _, size in _KEPT.values()) > budget):
        _KEPT.popitem(last=False)
    return value


def known(kind: str, mesh, params: tuple):
    """What kept() made before for this kind, mesh content and params, or None (made by
    nobody: the caller may then make a cheaper object of its own, never kept)."""
    key = (kind, mesh_key(*mesh), params)
    if key not in _KEPT:
        return None
    _KEPT.move_to_end(key)
    return _KEPT[key][0]


def budget_bytes() -> int:
    """BUDGET, or an eighth of this process's address-space limit when that is smaller."""
    try:
        import resource  # noqa: PLC0415 - Unix-only
    except ImportError:
        return BUDGET
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return BUDGET
    return min(BUDGET, soft // LIMIT_SHARE)


def clear() -> None:
    _KEPT.clear()


def _read_only(value) -> int:
    """Every numpy array of value (itself, in a tuple, or an attribute) made read-only; the
    bytes they hold."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
        return value.nbytes
    if isinstance(value, tuple | list):
        return sum(_read_only(item) for item in value)
    if hasattr(value, "__dict__"):
        return sum(
            _read_only(item) for item in vars(value).values() if isinstance(item, np.ndarray)
        )
    return 0
