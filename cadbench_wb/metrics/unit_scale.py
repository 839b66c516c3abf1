# SPDX-License-Identifier: LGPL-2.1-or-later
"""Whether a candidate is the reference uniformly scaled, and the unit mix-up that suggests.

A part modelled in inches where millimetres were meant (the most common error of AI CAD
generators) is the right shape at 1/25.4 of the size: it FAILs rightly, but "undersized by
100 % in volume" does not say why. A uniform scale s leaves every ratio of the part alone:
its volume scales by s^3 and each principal second moment per unit volume by s^2 (the
radius of gyration about each principal axis by s). Both are invariant under the rigid
alignment, so they are compared without it. Pure numpy.
"""

import numpy as np

# (candidate size / reference size, the likely mix-up and its fix), one per common unit.
UNIT_MIXUPS = (
    (1 / 25.4, "modelled in inches? x25.4"),
    (25.4, "modelled in mm but declared in inches? /25.4"),
    (1 / 1000, "modelled in metres? x1000"),
    (1000, "declared in metres where mm were meant? /1000"),
    (1 / 10, "modelled in centimetres? x10"),
    (10, "declared in centimetres where mm were meant? /10"),
    (1 / 304.8, "modelled in feet? x304.8"),
)


def uniform_scale(reference: tuple, candidate: tuple, tolerance: float) -> float | None:
    """The linear factor s (candidate / reference) when the candidate's volume and its three
    principal radii of gyration are all the reference's times s, each within tolerance
    (relative); None otherwise. reference, candidate: (volume, inertia tensor about the
    centroid, unit density)."""
    (volume_ref, inertia_ref), (volume_cand, inertia_cand) = reference, candidate
    if not (volume_ref > 0 and volume_cand > 0):
        return None
    by_volume = (volume_cand / volume_ref) ** (1 / 3)
    moments_ref = np.linalg.eigvalsh(np.asarray(inertia_ref, dtype=float)) / volume_ref
    moments_cand = np.linalg.eigvalsh(np.asarray(inertia_cand, dtype=float)) / volume_cand
    if not (np.all(moments_ref > 0) and np.all(moments_cand > 0)):
        return None
    by_axis = np.sqrt(moments_cand / moments_ref)
    if np.all(np.abs(by_axis / by_volume - 1) <= tolerance):
        return float(by_volume)
    return None


def unit_mixup(scale: float, tolerance: float) -> str | None:
    """The likely unit mix-up behind a uniform scale, or None when it matches none."""
    for factor, text in UNIT_MIXUPS:
        if abs(scale / factor - 1) <= tolerance:
            return text
    return None


def scale_line(scale: float, tolerance: float) -> str:
    """One line for the interpretation: the factor and, where one fits, the unit mix-up."""
    mixup = unit_mixup(scale, tolerance)
    line = f"Uniformly scaled: the candidate is {scale:.4g} x the reference"
    return f"{line} ({mixup})" if mixup else line
