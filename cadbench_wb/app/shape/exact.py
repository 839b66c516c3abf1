# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exact booleans of a pair (seed 002's figures from OpenCASCADE), on their own: the
exact-boolean child (time_budget.py) imports only this and Part, not the cross-check's
numpy, scipy and mesh modules (0.25 CPU-s of its start-up per job)."""

import Part


def exact_booleans(reference, candidate, fuzzy: float = 0.0, keep_shapes: bool = True) -> dict:
    """Volumes of A, B, A^B, AuB, A-B, B-A from OpenCASCADE; None where a boolean failed.

    One General Fuse (BOPAlgo_Builder, the engine under common, fuse and cut) splits both
    solids into pieces that each belong to A, to B or to both: common, the two differences
    and the union are sums over the same pieces, at about a third of the cost of four
    separate booleans. The pieces of A must still add up to A's own volume (and B's to B's),
    which crosscheck.exact_residuals tests. If the General Fuse fails, four booleans do.
    fuzzy is OpenCASCADE's fuzzy value (mm): faces and edges closer than that are treated
    as coincident, which is what near-coincident faces of a nearly perfect copy need.
    """
    volumes = {"a": reference.Volume, "b": candidate.Volume}
    try:
        pieces = _general_fuse_pieces(reference, candidate, fuzzy)
    except Exception:  # OCC failures surface as several exception types
        pieces = None
    if pieces is None:
        return _four_booleans(reference, candidate, volumes, fuzzy, keep_shapes)
    shapes = {}
    for key in ("common", "missing", "extra"):
        solids = pieces[key]
        volumes[key] = sum(s.Volume for s in solids)
        shapes[key] = Part.makeCompound(solids) if solids and keep_shapes else None
    volumes["union"] = volumes["common"] + volumes["missing"] + volumes["extra"]
    shapes["union"] = None
    return {"volumes": volumes, "shapes": shapes, "route": "general fuse"}


def _general_fuse_pieces(reference, candidate, fuzzy: float) -> dict | None:
    result, piece_map = reference.generalFuse([candidate], fuzzy)
    if result.isNull() or len(piece_map) != 2:
        return None
    of_a, of_b = piece_map
    in_b = [p for p in of_b if p.ShapeType == "Solid"]
    common, missing = [], []
    for piece in of_a:
        if piece.ShapeType != "Solid":
            continue
        shared = any(piece.isSame(other) for other in in_b)
        (common if shared else missing).append(piece)
    extra = [p for p in in_b if not any(p.isSame(c) for c in common)]
    return {"common": common, "missing": missing, "extra": extra}


def _four_booleans(reference, candidate, volumes, fuzzy: float, keep_shapes: bool) -> dict:
    shapes = {}
    for key, operation in (
        ("common", lambda: reference.common(candidate, fuzzy)),
        ("union", lambda: reference.fuse(candidate, fuzzy)),
        ("missing", lambda: reference.cut(candidate, fuzzy)),
        ("extra", lambda: candidate.cut(reference, fuzzy)),
    ):
        try:
            result = operation()
            null = result.isNull()
            volume = None if null else sum(s.Volume for s in result.Solids)
        except Exception:  # OCC failures surface as several exception types
            result, volume = None, None
        shapes[key] = result if volume is not None and keep_shapes else None
        volumes[key] = volume
    return {"volumes": volumes, "shapes": shapes, "route": "four booleans"}
