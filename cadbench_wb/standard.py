# SPDX-License-Identifier: LGPL-2.1-or-later
"""The numbers that define the scoring standard, in one place.

Everything here feeds the metric fingerprint (fingerprint.py): change a number and the
fingerprint changes, so figures scored under different standards are never mixed.
Thresholds come from seed 000; default tolerances from seed 001.
"""

# Pass thresholds (seed 000). threadMatch is all or nothing.
THRESHOLDS = {
    "dimensionRecall": 0.95,
    "semanticMatch": 0.90,
    "shapeIoU": 0.90,
    "threadMatch": 1.0,
    "drawingMatch": 0.90,
}

# The ceiling each metric may be passed "reachably" at (seed 000: passed reachable).
CEILINGS = {
    "dimensionRecall": "referenceCoverage",
    "drawingMatch": "drawingSelfTest",
}

# Default dimension tolerances (seed 001): linear max(0.05 mm, 0.5 %), angular 0.25 deg.
LINEAR_TOLERANCE_ABS_MM = 0.05
LINEAR_TOLERANCE_REL = 0.005
ANGULAR_TOLERANCE_DEG = 0.25

# Alignment search (app/alignment.py).
ALIGNMENT = {
    # Relative gap under which two principal moments count as equal (axisymmetric, cubic).
    "degenerate_moment_gap": 2e-3,
    # Angular sweep around a unique axis when the other two moments are equal.
    "sweep_steps": 72,
    # Poses whose proxy IoU is within this of the best are "equally good" (ambiguity).
    "ambiguity_tolerance": 0.005,
    # Poses closer than this (degrees of rotation) are the same pose.
    "distinct_pose_deg": 2.0,
    # Coarse tessellation for the proxy, as a fraction of the bounding-box diagonal.
    "proxy_deflection_rel": 0.004,
    # Local refinement: pattern search on 3 rotations + 3 translations.
    "refine_initial_deg": 2.0,
    "refine_initial_rel": 0.01,
    "refine_evaluations": 120,
    "refine_top": 3,
    # Final polish of the winning pose on a finer mesh, with smaller steps.
    "polish_deflection_rel": 0.001,
    "polish_step_scale": 0.25,
}

# Cross-checks of the exact booleans (seed 000: safeguards against silent boolean failures).
CROSS_CHECK = {
    # Inclusion-exclusion: V(A^B) + V(AuB) = V(A) + V(B), relative to V(A) + V(B).
    "inclusion_exclusion_rel": 1e-6,
    # A - B = A - A^B and B - A = B - A^B, relative to V(A) + V(B).
    "difference_rel": 1e-6,
    # Fine tessellation for the mesh boolean, as a fraction of the bbox diagonal.
    "mesh_deflection_rel": 0.0005,
    # Floor of the tolerance between the exact and the mesh IoU.
    "mesh_tolerance_floor": 0.003,
    # Seeded point sampling in the union of the two bounding boxes.
    "sample_points": 20000,
    "sample_seed": 20260810,
    # Agreement within this many standard errors of the sampling estimate.
    "sample_sigmas": 3.0,
}

# Rounding of reported figures: enough digits for "correct to the last decimal" and few
# enough that last-bit noise in the kernel never changes the JSON.
SIGNIFICANT_DIGITS = 10

# Interpretation lines (seed 002): what counts as over-/under-generating or off in size.
INTERPRETATION = {
    "excess_share": 0.05,
    "missing_share": 0.05,
    "size_ratio_off": 0.02,
    "center_offset_rel": 0.01,
}

# Child process that reads and measures candidates (runner.py).
DEFAULT_TIMEOUT_S = 300
DEFAULT_MEMORY_MB = 8192


def as_dict() -> dict:
    """The whole standard as plain data (for the fingerprint and the README)."""
    return {
        "thresholds": THRESHOLDS,
        "ceilings": CEILINGS,
        "linear_tolerance": [LINEAR_TOLERANCE_ABS_MM, LINEAR_TOLERANCE_REL],
        "angular_tolerance_deg": ANGULAR_TOLERANCE_DEG,
        "alignment": ALIGNMENT,
        "cross_check": CROSS_CHECK,
        "significant_digits": SIGNIFICANT_DIGITS,
        "interpretation": INTERPRETATION,
    }
