# SPDX-License-Identifier: LGPL-2.1-or-later
"""One scored shape from several solids: touching and overlapping solids united, each step
checked for validity and volume, disjoint solids kept apart in a compound.

A file of several solids (an assembly export, a body plus thread solids, a document of
stacked blocks) must be scored as the material it holds: overlapping material counted
once, touching solids without the internal faces that make a tessellation non-manifold.
OpenCASCADE's fuse can still go wrong on real data (removeSplitter turning a valid fused
nut into an invalid solid was seen), so every step is checked: valid, and its volume equal
to an independent estimate (the union of the solids' tessellations by manifold3d, whose
own error is measured on the same solids), before it is used.
"""

import numpy as np
from scipy.cluster.hierarchy import DisjointSet

from cadbench_wb import standard
from cadbench_wb.app.model import meshing


class UnionFailed(Exception):
    """Overlapping solids that no checked fuse could unite."""


def united(solids) -> tuple[object, list[str]]:
    """The scored shape of several valid solids and notes saying what was done."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    params = standard.MULTI_SOLID
    groups = _touching_groups(solids, params["touch_rel"])
    if all(len(g) == 1 for g in groups):
        return Part.makeCompound(solids), [
            f"{len(solids)} disjoint solids scored together as one compound"
        ]
    result, notes = [], []
    for group in groups:
        if len(group) == 1:
            result.append(group[0])
            continue
        shape, note = _united_group(group, params)
        result.extend(shape.Solids)
        notes.append(note)
    shape = result[0] if len(result) == 1 else Part.makeCompound(result)
    summary = f"{len(solids)} solids touch or overlap: united into {len(result)} solid(s)"
    return shape, [summary, *notes]


def _touching_groups(solids, touch_rel: float) -> list[list]:
    """Solids in groups whose bounding boxes touch or overlap (transitively)."""
    boxes = []
    for solid in solids:
        box = solid.BoundBox
        boxes.append((box, box.DiagonalLength))

    touching = DisjointSet(range(len(solids)))
    for i in range(len(solids)):
        for j in range(i + 1, len(solids)):
            grown = boxes[i][0]
            grown = type(grown)(grown)
            grown.enlarge(touch_rel * max(boxes[i][1], boxes[j][1]))
            if grown.intersect(boxes[j][0]):
                touching.merge(i, j)
    groups: dict[int, list] = {}
    for i, solid in enumerate(solids):
        groups.setdefault(touching[i], []).append(solid)
    return list(groups.values())


def _united_group(group, params) -> tuple[object, str]:
    """One group's union, checked; the note says which step was kept and why."""
    estimate, tolerance = _mesh_union_volume(group, params)
    diagonal = max(s.BoundBox.DiagonalLength for s in group)
    attempts = []
    for fuzzy_rel in params["fuzzy_values_rel"]:
        try:
            fused = group[0].multiFuse(group[1:], fuzzy_rel * diagonal)
        except Exception as exc:  # OCC failures surface as several exception types
            attempts.append(f"fuse failed ({type(exc).__name__})")
            continue
        problem = _problem(fused, estimate, tolerance)
        if problem:
            attempts.append(f"fuse {problem}")
            continue
        try:
            refined = fused.removeSplitter()
        except Exception:  # the fused solid stands on its own
            refined = None
        # removeSplitter only merges faces: the volume must not move beyond rounding.
        if refined is not None and not _problem(refined, fused.Volume, 1e-9 * fused.Volume):
            return refined, f"{len(group)} solids fused, faces merged (volume checked)"
        return fused, (
            f"{len(group)} solids fused (volume checked); removeSplitter's result "
            "was invalid or changed the volume, so the fused solid is scored"
        )
    pieces = _general_fuse_pieces(group, estimate, tolerance, diagonal, params, attempts)
    if pieces is not None:
        return pieces, (
            f"{len(group)} solids united as the General Fuse's split pieces (each valid, "
            "their volume checked): the one-solid fuse was invalid"
        )
    raise UnionFailed(
        f"{len(group)} touching or overlapping solids cannot be united into a checked "
        "solid: " + "; ".join(attempts)
    )


def _general_fuse_pieces(group, estimate, tolerance, diagonal, params, attempts):
    """The union as a compound of the General Fuse's split solids, each once: no material
    counted twice, and every piece valid on its own even where the merged solid is not
    (seen on a third-party assembly's overlapping STEP solids). None if that fails too."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    for fuzzy_rel in params["fuzzy_values_rel"]:
        try:
            result, _ = group[0].generalFuse(group[1:], fuzzy_rel * diagonal)
        except Exception as exc:  # OCC failures surface as several types
            attempts.append(f"general fuse failed ({type(exc).__name__})")
            continue
        solids = result.Solids
        if not solids or not all(s.isValid() for s in solids):
            attempts.append("general fuse gave an invalid piece")
            continue
        compound = Part.makeCompound(solids)
        problem = _problem(compound, estimate, tolerance)
        if problem:
            attempts.append(f"general fuse {problem}")
            continue
        return compound
    return None


def _problem(shape, expected: float, tolerance: float) -> str | None:
    """Why a fused shape cannot be used, or None."""
    if shape is None or shape.isNull() or not shape.Solids:
        return "gave no solid"
    if not shape.isValid():
        return "gave an invalid shape"
    volume = sum(s.Volume for s in shape.Solids)
    if abs(volume - expected) > tolerance:
        return f"volume {volume:.6g} differs from the expected {expected:.6g}"
    return None


def _mesh_union_volume(group, params) -> tuple[float, float]:
    """The union's volume from the tessellations (manifold3d), and the tolerance that its
    measured error allows: tessellating shrinks each solid a little, and the union shrinks
    by at most the sum of those shrinkages (plus a floor for rounding)."""
    import manifold3d  # noqa: PLC0415 - optional dependency

    diagonal = max(s.BoundBox.DiagonalLength for s in group)
    deflection = params["mesh_deflection_rel"] * diagonal
    manifolds, error = [], 0.0
    for solid in group:
        mesh = meshing.mesh_of(solid, deflection)
        shape = meshing.manifold_of(*mesh)
        if shape is None:
            # No estimate for this solid: fall back to the bounds every union obeys.
            return _bounds_only(group)
        manifolds.append(shape)
        error += abs(shape.volume() - solid.Volume)
    union = manifold3d.Manifold.batch_boolean(manifolds, manifold3d.OpType.Add).volume()
    total = sum(s.Volume for s in group)
    return union, params["mesh_error_factor"] * error + params["volume_floor_rel"] * total


def _bounds_only(group) -> tuple[float, float]:
    volumes = np.array([s.Volume for s in group])
    low, high = volumes.max(), volumes.sum()
    return (low + high) / 2, (high - low) / 2 * (1 + 1e-9)
