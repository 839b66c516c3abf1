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

# Measurement spectrum (app/spectrum.py, metrics/spectrum_geometry.py, dimensions.py).
SPECTRUM = {
    # Plane normals (and axes) within this angle (radians) are parallel: far above kernel
    # noise, far below any drawn angle (0.25 deg = 4.4e-3 rad).
    "parallel_rad": 1e-5,
    # Plane levels and axis positions closer than this (mm) are the same.
    "same_level_mm": 1e-6,
    # A circle, arc or cylinder sweeping at least this reads as a diameter (a hole that
    # another CAD system split into two half-cylinders is still a diameter); every one
    # reads as a radius.
    "diameter_min_sweep_deg": 179.999,
    # Near-linear pruning: up to this many levels (or axes) per direction every pair is
    # measured; beyond it, neighbours within the window plus pairs with the extremes.
    "all_pairs_max": 256,
    "neighbour_window": 16,
    # Angles: every pair of plane directions up to this many directions, beyond it the
    # angles between adjacent faces and against the largest-area datum directions.
    "angle_all_pairs_max": 64,
    "angle_datum_directions": 8,
    # Extended mode, many parallel axes: each axis paired with its nearest neighbours.
    "axis_neighbours": 8,
}

# Located dimension matching (metrics/located.py): a target counts only where the
# reference geometry that carries it lands on the candidate. Not part of seed 000's
# dimensionRecall (which verdicts use); it stands beside it as dimensionRecallLocated.
LOCATED = {
    # The candidate geometry that corresponds to a reference face or edge lies within
    # max(max_offset_mm, max_offset_diagonals x the reference's diagonal) of its mapped
    # place: a hole moved by a fraction of its pitch is still that hole, the neighbour of a
    # filled one (a pitch away on a typical pattern) is not.
    "max_offset_mm": 1.0,
    "max_offset_diagonals": 0.05,
    # Axes and normals of corresponding geometry after alignment: within this (degrees).
    "parallel_deg": 1.0,
    # Faces at one place with one size are one feature (the two halves of a split hole).
    "same_place_mm": 1e-4,
}

# randomHitRate (seed 000's chance floor): a random length uniform in
# [length_low_mm, length_high_diagonals x the reference's bounding-box diagonal] and a
# random angle uniform in (0, 180], each within the default tolerance of its family.
RANDOM_HIT = {
    "length_low_mm": 0.5,
    "length_high_diagonals": 1.5,
    "angle_low_deg": 0.0,
    "angle_high_deg": 180.0,
}

# Alignment search (app/alignment.py).
ALIGNMENT = {
    # Relative gap under which two principal moments count as equal (axisymmetric, cubic).
    "degenerate_moment_gap": 2e-3,
    # Angular sweep around a unique axis when the other two moments are equal.
    "sweep_steps": 120,
    # Rotations tried when all three moments are equal (besides face-direction frames).
    "random_poses": 48,
    # Proxy: seeded interior points of each solid against the other's column occupancy.
    "proxy_columns": 64,
    "proxy_points": 6000,
    "proxy_seed": 20260811,
    # Differences below this are within the proxy's resolution.
    "proxy_noise": 0.003,
    # Poses whose proxy IoU is within this of the best are "equally good" (ambiguity).
    "ambiguity_tolerance": 0.01,
    # Poses closer than this (degrees of rotation) are the same pose.
    "distinct_pose_deg": 2.0,
    # Point-to-plane ICP on the best few proposals.
    "refine_top": 2,
    # The judge that settles close calls between two poses: seeded points in the
    # reference's box (grown by a margin), classified by ray casting on the fine meshes.
    "judge_points": 20000,
    "judge_margin_rel": 0.05,
    "judge_min_gain": 0.001,
    "icp_moving_points": 1500,
    "icp_iterations": 60,
    # An ICP-refined pose whose proxy gains this much replaces its start outright; a smaller
    # gain is decided by the fine-mesh IoU of both poses.
    "icp_clear_gain": 0.02,
    # ICP that moves less than this (degrees; mm) left its start where it was.
    "icp_still_deg": 0.005,
    "icp_still_shift": 1e-4,
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
    # Modeled threads (app/threads.py has_modeled_thread on either solid): OpenCASCADE's
    # exact booleans take 10-40 s per pair there and were found wrong (0.943 against
    # 0.848 +- 0.013 by sampling), so they are skipped; the mesh boolean is reported with
    # method "mesh" and still has to agree with point sampling.
    "exact_booleans_on_threads": False,
}

# Feature recognition and semanticMatch (app/features.py, metrics/feature_matching.py).
FEATURES = {
    # A cone at a hole's mouth is a countersink when its outer diameter is at least this
    # many times the hole's; a smaller one is a chamfer of the hole's edge.
    "countersink_min_ratio": 1.3,
    # A chamfer's distances are at most this share of the adjacent faces' widths (a larger
    # bevel is a face of the part: a hexagon's side, the flat top beside a slope).
    "chamfer_max_rel": 0.34,
    # semanticMatch: a candidate feature may stand for a reference feature of the same type
    # when their locations are within max(gate_abs, gate_rel x reference diagonal) and
    # their axes are parallel within axis_deg. It earns full credit when kind and
    # attributes are equal, every size parameter is within seed 001's tolerance (linear
    # max(0.05 mm, 0.5 %), angular 0.25 deg) and the location within max(position_abs,
    # position_rel x diagonal); otherwise partial_credit.
    "gate_abs": 1.0,
    "gate_rel": 0.02,
    "position_abs": 0.1,
    "position_rel": 0.002,
    "axis_deg": 1.0,
    "partial_credit": 0.5,
}

# Threads (app/threads.py, app/thread_stage.py, metrics/thread_matching.py).
THREADS = {
    # Helical-face test (linear-complex fit of sampled points and normals): the smallest
    # eigenvalue share must be below fit_residual x the next one, and the next one above
    # fit_degenerate (else the face is a cylinder or a plane, which any screw slides along).
    "fit_residual": 1e-4,
    "fit_degenerate": 1e-10,
    # A lead below this share of the face size is a surface of revolution, not a helix.
    "min_lead_rel": 1e-3,
    # Mean |normal . axis| of a flank: a helical strip with radial normals is no flank.
    "min_flank_cos": 0.05,
    # ISO designation: same pitch within pitch_rel, major within abs + pitch share.
    "pitch_rel": 0.01,
    "designation_major_abs": 0.1,
    "designation_major_pitch": 0.3,
    # threadMatch (all or nothing, seed 000): per reference thread, the candidate's thread
    # of the same kind must have the major diameter within max(major_abs, major_rel x d),
    # the pitch within pitch_rel, the same hand, its axis within axis_offset mm and
    # axis_angle_deg, both ends within end_pitches x pitch, and the material volume in the
    # reference thread's zone (tube between minor and major diameter over its length)
    # within volume_rel.
    "major_abs": 0.1,
    "major_rel": 0.01,
    "axis_offset": 0.1,
    "axis_angle_deg": 1.0,
    "end_pitches": 1.0,
    "volume_rel": 0.03,
    # Polygon segments of the zone tube (manifold3d).
    "zone_segments": 256,
    # Cosmetic threads (declared in an FCStd, not modeled) count only where the case says
    # `threads: {cosmetic: accept}`; their volume is then not compared.
    "cosmetic_default": "reject",
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

# 2D drawing scorer (`cadbench drawing-score`, drafting/): seed 001's 2D vector-semantic
# path on DXF. Lengths "_rel" are fractions of the gold geometry's bounding-box diagonal.
# Dimension value tolerances are LINEAR_TOLERANCE_* and ANGULAR_TOLERANCE_DEG above.
DRAWING_2D = {
    "weights": {
        "geometry_similarity": 0.60,
        "dimension_similarity": 0.25,
        "standalone_text_annotation_similarity": 0.10,
        "registered_visual_similarity": 0.05,
    },
    # score = min(raw, gate_floor + gate_slope * geometry_similarity)
    "gate_floor": 0.35,
    "gate_slope": 0.65,
    # Curves are resampled at this interval (gold-derived) with at most sample_cap points
    # per drawing; a denser or radically larger drawing gets a coarser interval instead.
    "sample_interval_rel": 0.0005,
    "sample_cap": 400_000,
    # Soft Chamfer/F1: full credit within match distance, none beyond soft_falloff times it.
    "match_distance_abs": 0.05,
    "match_distance_rel": 0.002,
    "soft_falloff": 2.0,
    # Dimensions and standalone text: 80 % value/content, 20 % placement; placement credit
    # falls linearly to 0 at placement_radius_rel from the gold position.
    "measurement_share": 0.8,
    "placement_share": 0.2,
    "placement_radius_rel": 0.05,
    # Registered visual similarity: fixed-size monochrome masks, centroid-registered.
    "raster_size": 1024,
    "raster_margin_px": 16,
    "raster_tolerance_px": 8,
    # Entity types that make a candidate unscorable: pasted pictures and embedded objects
    # hide what is drawn; proxies cannot be read; solids are not 2D drafting.
    "prohibited_entities": [
        "IMAGE",
        "OLE2FRAME",
        "OLEFRAME",
        "ACAD_PROXY_ENTITY",
        "3DSOLID",
        "BODY",
        "REGION",
        "SURFACE",
        "MESH",
    ],
}


def as_dict() -> dict:
    """The whole standard as plain data (for the fingerprint and the README)."""
    return {
        "thresholds": THRESHOLDS,
        "ceilings": CEILINGS,
        "linear_tolerance": [LINEAR_TOLERANCE_ABS_MM, LINEAR_TOLERANCE_REL],
        "angular_tolerance_deg": ANGULAR_TOLERANCE_DEG,
        "spectrum": SPECTRUM,
        "random_hit": RANDOM_HIT,
        "located": LOCATED,
        "alignment": ALIGNMENT,
        "cross_check": CROSS_CHECK,
        "significant_digits": SIGNIFICANT_DIGITS,
        "interpretation": INTERPRETATION,
        "features": FEATURES,
        "threads": THREADS,
    }
