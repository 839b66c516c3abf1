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

# Default dimension tolerances (seed 001): linear max(0.05 mm, 0.5 %), angular 0.25 deg.
LINEAR_TOLERANCE_ABS_MM = 0.05
LINEAR_TOLERANCE_REL = 0.005
ANGULAR_TOLERANCE_DEG = 0.25

# Measurement spectrum (app/dimensions/spectrum.py, geometry/spectrum_geometry.py,
# metrics/dimension_matching.py).
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
    # Extended mode, a drilled hole's depth: its faces (bore, point, counterbore) turn
    # about one axis within this (mm), far below any hole's size.
    "hole_axis_mm": 1e-4,
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

# Alignment search (app/shape/alignment.py).
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
    # Point-to-plane ICP on the best few proposals, and on every further proposal whose
    # proxy is within refine_margin of the best refined one (the largest proxy gain ICP was
    # seen to make from an axis-aligned start is about 0.1), at most refine_max in all.
    "refine_top": 2,
    "refine_margin": 0.15,
    "refine_max": 8,
    # Vertex snap after ICP (alignment._snapped): candidate vertices within each tolerance
    # (x the reference diagonal, loose to tight) of a reference vertex are paired and the
    # pose refitted; the pose is kept only if the final pairs agree within snap_residual_rel,
    # i.e. they are the same corners to a part per million, not near misses.
    "snap_tolerances_rel": (5e-3, 1e-3, 1e-4, 1e-5, 1e-6),
    "snap_residual_rel": 1e-6,
    # The turns _phase_snapped tries about a turned part's axis, most voted first: a vertex
    # pair votes for a turn that puts it within phase_vote_rel x the diagonal (along its
    # circle). The twins of a copy agree to the pose's rounding; an STL's ring vertices on
    # the reference's seam circles (every 0.2 rad) each propose a stray turn, and at the
    # first snap tolerance (5e-3) those of different circles pooled into stray clusters that
    # outvoted the part's own turn on NIST FTC-11's STL; at 5e-6 its own turn snaps.
    "phase_vote_rel": 5e-6,
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
    # Refinement by the IoU itself (alignment._Overlap), after ICP, of the best few poses
    # when the best is not vertex-snapped (a partial match: ICP fits surfaces, not overlap,
    # and stops in the nearest basin): a compass search over the six motions on seeded
    # interior points of both solids classified by ray casting, from overlap_step_rel x the
    # diagonal and overlap_step_deg, halved overlap_levels times, at most overlap_evaluations
    # poses per start; the same estimate on overlap_select_points other points then picks
    # among the starts and their refinements.
    "overlap_refine_top": 5,
    "overlap_finish_top": 2,
    # The starts (alignment._global_starts): besides the proposals between frames,
    # overlap_random_starts seeded uniform turns between the canonical frames; the
    # bounding-box placements of the best overlap_flush_turns turns, of which the best
    # overlap_flush_starts join the overlap_refine_top best centred ones; starts closer than
    # distinct_pose_deg and overlap_distinct_shift_rel x the diagonal are one.
    "overlap_random_starts": 48,
    "overlap_flush_turns": 3,
    "overlap_flush_starts": 3,
    "overlap_distinct_shift_rel": 0.02,
    # The pick (alignment._exact_pick): exact booleans on the best overlap_exact_top
    # contenders within overlap_exact_margin of the best selecting estimate, on pairs of
    # at most overlap_exact_max_faces faces (each boolean costs about 1.5 CPU-s on a NIST
    # part; the selecting estimate picks there).
    "overlap_exact_top": 3,
    "overlap_exact_margin": 0.01,
    "overlap_exact_max_faces": 200,
    "overlap_points": 1000,
    "overlap_select_points": 4000,
    "overlap_step_rel": 0.04,
    "overlap_step_deg": 1.0,
    "overlap_levels": (3, 3),  # halvings for every start, then for the overlap_finish_top
    "overlap_evaluations": 60,
    # Not refined when the pose's IoU (on the selecting points, standard error about 0.004)
    # is within this of the smaller volume over the larger, which no pose can exceed.
    "overlap_bound_margin": 0.01,
    # Then the winner's faces made parallel where they are within direction_snap_deg of the
    # reference's, and shifted on the selecting points from direction_snap_shift_rel x the
    # diagonal, halved direction_snap_levels times (alignment._direction_snapped).
    "direction_snap_deg": 3.0,
    "direction_snap_shift_rel": 0.005,
    "direction_snap_levels": 6,
}

# Cross-checks of the exact booleans (seed 000: safeguards against silent boolean failures).
CROSS_CHECK = {
    # Inclusion-exclusion: V(A^B) + V(AuB) = V(A) + V(B), relative to V(A) + V(B).
    "inclusion_exclusion_rel": 1e-6,
    # A - B = A - A^B and B - A = B - A^B, relative to V(A) + V(B).
    "difference_rel": 1e-6,
    # Fine tessellation for the mesh boolean, as a fraction of the bbox diagonal.
    "mesh_deflection_rel": 0.0005,
    # Angular deflection of those meshes (rad; app/shape/meshing.cross_check_meshes). Part's
    # tessellate uses 0.1 rad: 126 nodes on every circle, 1-3 s per NIST part. At 0.2 rad
    # the NIST parts' mesh volumes are off by at most 1.8e-4 (measured: CTC-01 7e-5, FTC-06
    # 1.8e-4, FTC-07 4e-7, FTC-08 6e-6, FTC-09 6e-5; the 250-hole plate 3.5e-4), so 3 x the
    # two errors stays under mesh_tolerance_floor and the cross-check is as strict as at
    # 0.1 rad, with 2-4 x fewer triangles. (0.3 rad: FTC-06 4.2e-4, the plate 8e-4: over.)
    "mesh_angular_deflection": 0.2,
    # A planar face with at least mesh_split_holes holes is cut into patches of about
    # mesh_split_holes_per_patch holes before meshing (meshing.split_for_meshing):
    # OpenCASCADE's planar Delaunay grows faster than its boundary nodes.
    "mesh_split_holes": 40,
    "mesh_split_holes_per_patch": 4,
    # Floor of the tolerance between the exact and the mesh IoU.
    "mesh_tolerance_floor": 0.003,
    # Seeded point sampling in the union of the two bounding boxes.
    "sample_points": 20000,
    "sample_seed": 20260810,
    # Agreement within this many standard errors of the sampling estimate.
    "sample_sigmas": 3.0,
    # Modeled threads (app/recognition/threads.py has_modeled_thread on either solid): OpenCASCADE's
    # exact booleans take 10-40 s per pair there and were found wrong (0.943 against
    # 0.848 +- 0.013 by sampling), so they are skipped; the mesh boolean is reported with
    # method "mesh" and still has to agree with point sampling.
    "exact_booleans_on_threads": False,
    # Whether the exact booleans run is decided from the inputs alone, never from a clock,
    # so that the same pair gives the same JSON (route and figure) on every machine and
    # under any load. Beyond exact_max_faces faces in both solids together they are not
    # attempted: the General Fuse's face/face intersections grow with the product of the
    # face counts. Measured on vertex-snapped moved copies (CPU seconds of the plain General
    # Fuse): pairs of 240-540 faces (NIST CTC-01, FTC-06/07/08/09, the 250-hole plate)
    # 2-7 s; FTC-07's AP242 edition (676) about 20 s, inconsistent; CTC-02's AP242 edition
    # (1270) still running after 38.7 s, stopped by the safety net at 80 s of wall clock
    # and thrown away. Beyond 1000 the mesh route decides at once.
    "exact_max_faces": 1000,
    # Nor are they attempted when an edge or vertex of either solid is toleranced beyond
    # exact_max_tolerance_rel x the larger bbox diagonal (fidelity.exact_tolerance_refusal):
    # the General Fuse takes every such edge as a tube of its tolerance, and the pieces it
    # cuts no longer add up to the solids. Measured on vertex-snapped moved copies: FTC-07's
    # AP242 edition (53 B-spline edges beyond 1e-4 x diagonal, the largest 0.126 mm = 3.1e-4
    # x diagonal) is inconsistent by 1.1e-5 plain, 4e-6 after limitTolerance, 1.8e-5 at a
    # fuzzy value of 0.13 mm (48 s of CPU), unchanged by Shape.fix; every other NIST part
    # (STEP and AP242 editions, bundled cases) stays under 2e-5 x diagonal (CTC-05 AP242).
    "exact_max_tolerance_rel": 1e-4,
    # A safety net, not a budget: a run of the exact booleans that has spent this many CPU
    # seconds (its child process, all attempts together; RLIMIT_CPU, whole seconds) is
    # stopped and the mesh route decides; the result says so (crossCheck.exactSafetyNet),
    # because only then does the route depend on the machine (its speed: CPU time does not
    # grow with the machine's load, as the 90 s of wall clock this replaced did: a pair that
    # took 7.7 s idle fell to the mesh route after 101 s on a loaded machine). Well above the
    # slowest pair under exact_max_faces (about 20 CPU-s).
    "exact_safety_net_cpu_s": 90.0,
    # A backstop of wall clock for a child that stops computing (a deadlock spends no CPU):
    # a job that needs the whole CPU budget reaches it only with under 0.375 of a core for
    # all of it; inside the default 300 s scoring limit (DEFAULT_TIMEOUT_S), so that the
    # mesh route still decides.
    "exact_backstop_wall_s": 240.0,
    # Fuzzy values tried in turn (x the larger bbox diagonal; 0 = plain booleans), while the
    # budget lasts: faces closer than the fuzzy value are treated as coincident, which
    # rescues near-coincident faces the vertex snap of the alignment could not make exact.
    # The bundled bearing block against itself turned 1e-5 rad and moved 1 micron: plain
    # 0.99992 (residual 9e-7), fuzzy 1e-6 x diagonal 0 (refuted), 1e-5 x diagonal 1.0
    # (residual 6e-12); gluing faces that close moves the IoU by about 1e-5.
    "fuzzy_values_rel": (0.0, 1e-5),
    # A tessellation manifold3d refuses is made again at these shares of the deflection in
    # turn, finer then coarser (after its cracks closed, the alignment's own mesh and
    # trimesh's repair: meshing.manifold_for). The coarser mesh's own volume error enters
    # the mesh tolerance as any mesh's does (crosscheck.decide).
    "mesh_retry_factors": (0.5, 2.0),
}

# Files of several solids (app/model/solid_union.py).
MULTI_SOLID = {
    # Solids whose bounding boxes come within this share of the larger diagonal may touch
    # or overlap: they are united (checked); the others stay disjoint in a compound.
    "touch_rel": 1e-6,
    # Fuzzy values tried in turn for the union (x the largest solid's diagonal).
    "fuzzy_values_rel": (0.0, 1e-6),
    # The union's volume must match the union of the tessellations within mesh_error_factor
    # x the tessellations' own measured volume error plus volume_floor_rel of the total.
    "mesh_deflection_rel": 0.0005,
    "mesh_error_factor": 2.0,
    "volume_floor_rel": 1e-7,
}

# Degenerate solids (loading.py): a solid of a file of several is dropped, with a note,
# before anything is measured when its volume is below volume_rel of all the solids' total,
# or its thickness (2 x volume / area: a slab's thickness, a needle's half width) is below
# thickness_rel of the whole model's bounding-box diagonal. Either way it cannot move
# shapeIoU by what the cross-check resolves (1e-6), but its tessellation can fail the mesh
# route (a 50 x 1e-6 x 1e-6 mm sliver is no manifold), and a candidate must never be able to
# choose NOT CHECKED by adding one. thickness_rel is 1/50 of the cross-check's mesh
# deflection (mesh_deflection_rel). The largest solid is never dropped.
DEGENERATE_SOLID = {
    "volume_rel": 1e-7,
    "thickness_rel": 1e-5,
}

# Inputs refused as too_large before the work starts (loading.py), so that a big honest
# file is told at once instead of running into the scoring's time limit (DEFAULT_TIMEOUT_S):
# - mesh_max_triangles: a mesh is checked and measured on its triangles (app/model/mesh_solid.py:
#   0.24 s for NIST FTC-06's 26,818), but the analytic rebuild of its features still costs
#   about 0.3 ms per triangle there, and a route that needs its polyhedral B-rep (one
#   planar face per triangle) 0.55 ms per triangle to make and check it (FreeCAD's
#   conversion and BRepCheck took 1.4 ms per triangle on a closed 19,800-triangle sphere);
#   a 2M-triangle STL took 121 s to convert alone when measured idle.
# - brep_max_faces: every stage walks the faces (features, spectrum, thread fits, the
#   tessellation for alignment and the mesh route); a 20k-face STEP ran into the 120 s
#   limit, and the largest real test part (NIST CTC-02) has 637 faces: 5,000 is about eight
#   times that. Counted in a STEP's text (ADVANCED_FACE entities, which matched the faces
#   read on every NIST part) before OpenCASCADE reads it, and on the shapes of the others.
# - candidate_max_bytes: a candidate file larger than this is refused by its size alone,
#   before it is hashed or copied (a 9 GiB sparse file took 121 s to hash). A 5,000-face
#   STEP is some 13 MB (the 20,160-face compound of tests/hostile is 54 MB) and a
#   50,000-triangle ASCII STL some 15 MB: 1 GiB, FCSTD_MAX_UNCOMPRESSED_BYTES's figure,
#   is 70 times either.
INPUT_SIZE = {
    "mesh_max_triangles": 50_000,
    "brep_max_faces": 5_000,
    "candidate_max_bytes": 1 << 30,
}
CANDIDATE_MAX_BYTES = INPUT_SIZE["candidate_max_bytes"]

# Diff pieces smaller than this share of the reference's volume are left out of the diff
# view and files (counted instead): 1e-5 is ten times the inclusion-exclusion tolerance
# above, so a piece that small cannot move shapeIoU by what the cross-check resolves.
DIFF_SLIVER_REL = 1e-5

# Analytic surfaces fitted to a mesh candidate's triangles (geometry/mesh_segments.py,
# geometry/surface_fitting.py, app/mesh_rebuild/mesh_brep.py), so that its B-rep-only figures
# are read off a rebuilt B-rep instead of its facets.
# - fit_rel: every vertex of a region lies within fit_rel x max(diagonal, largest
#   coordinate) of its surface. A CAD tessellation puts its vertices on the surfaces, and
#   STL stores them as float32 (half an ulp is 6e-8 of the coordinate): 3e-7 is five such
#   roundings; the fits of the bundled cases' own STLs left at most 3.1e-8 of the diagonal
#   (bearing block 4.4e-6 mm), and a facet's sagitta (the tessellation's deflection, 1e-4
#   of the diagonal and more in any exporter) is hundreds of times larger, so a curved
#   face's facets never pass for planes.
# - flat_deg: triangles whose normals differ by less than this are one planar group (a
#   thin float32 triangle's normal moves by a few thousandths of a degree).
# - seed_deg: the widest angle between two facets of one curved face that region growing
#   follows (exporters' default angular deflections are 0.5 rad = 29 deg at most). Half of
#   it bounds a facet's normal against its surface's at the facet's centre (the normal lies
#   between the surface's at its corners): a flat disc meshed on its rim alone has every
#   vertex on a 45-degree chamfer's cone, and is kept out of it by its normal.
# - volume_rel: the rebuilt solid's volume must agree with the mesh's to twice the mesh's
#   area times its deflection (what the facets' chords can cut off, measured on the fit)
#   plus this share of the volume (1e-6: float rounding, not a tuned bound).
# - max_failed_seeds: region growing gives up after this many seeds fit nothing (each
#   costs 0.1-0.35 s here; the bundled cases' own STLs that rebuild fail at most 10, on
#   planes that meet fillets; NIST FTC-06's spent 73 s on 200, CTC-01's 10 s on 61), so a
#   mesh of free-form surfaces is not applicable in seconds, not minutes. A seed is tried
#   and counted once, whichever start reaches it.
# - facets_min: this many planar regions in a row, each bent against the next by less than
#   seed_deg, are the facets of a curved face no fit took (not applicable), not planes: a
#   drawn part has at most a few such planes side by side (slope_block's slope and top:
#   2); a regular polygon of 8 or more sides would read as facets too.
MESH_FEATURES = {
    "fit_rel": 3e-7,
    "flat_deg": 0.05,
    "seed_deg": 50.0,
    "volume_rel": 1e-6,
    "max_failed_seeds": 60,
    "facets_min": 6,
}

# Feature recognition and semanticMatch (app/recognition/features.py, metrics/feature_matching.py).
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
    # Recognition (app/recognition/brep_graph.py, app/recognition/features.py, app/recognition/regions.py): what the
    # B-rep rules call parallel, coaxial, full, narrow. Each number with what it separates;
    # every one has a test at its boundary (tests/app/test_feature_standard.py).
    "recognition": {
        # Faces meeting at less than this (degrees between their normals at the edge) are
        # tangent. On the bundled cases' 96 models (references and candidates) tangent edges
        # measure at most 4.5e-5 degrees (an M8 thread's B-spline flanks), creases at least
        # 3.9 (NIST FTC-06); a drawn crease (a shallow roof, a draft) is a degree or more.
        "smooth_deg": 1.0,
        # Two axes within this angle (degrees) can be one line (a hole and its counterbore;
        # a cone and the shaft it leads to): a bore drilled askew by a degree is another
        # hole.
        "coaxial_deg": 0.5,
        # ... and their lines within coaxial_rel x the part's diagonal + noise_mm of each
        # other (7.6e-5 mm on a 75 mm part): far above the rounding a rigid move leaves in
        # a copy's axes; a counterbore offset by a thousandth of a millimetre is not the
        # bore's head. The same tolerance places a turned groove's walls at its ends.
        "coaxial_rel": 1e-6,
        # Lengths and radii within this (mm) are equal (the kernel's Precision::Confusion is
        # 1e-7 mm): a counterbore, an inner groove or the wider end of a through hole is
        # wider than its neighbour by more.
        "noise_mm": 1e-6,
        # |cos| between a plane's normal and an axis (or two normals) from which they are
        # parallel: 0.9999 is 0.81 degrees, far above the kernel's noise and below a drawn
        # draft of 1 degree (cos 0.99985): a flat bottom, a step, a chamfer's end face, a
        # groove's wall or a slot's sides square within it, a tapered wall is not.
        "parallel_cos": 0.9999,
        # |cos| between the straight rails of a chamfer strip, and between the axes of one
        # fillet run: 0.99999 is 0.26 degrees; a bevel whose width changes along it (a
        # tapered face, a facet of a polygonal part) is no chamfer of one size.
        "rail_parallel_cos": 0.99999,
        # A hole's wall goes all the way round: coaxial faces of one surface spanning at
        # least full_turn_deg (a cylinder split in halves sums to 360; a keyway or a cross
        # slot that cuts a sliver from the wall leaves less) ...
        "full_turn_deg": 359.0,
        # ... a slot's round end spans at least half_turn_deg (180 when tangent to the
        # sides); a blend between two faces spans less (180 minus the faces' angle).
        "half_turn_deg": 179.0,
        # Coaxial wall segments of one hole end and start within stack_gap_rel x diagonal
        # + noise_mm of each other (they share the step's circle): a web left between two
        # holes drilled from both sides makes two holes.
        "stack_gap_rel": 1e-5,
        # A planar face bounded by the hole's circles is its flat bottom or step when it
        # lies within annulus_level_rel x diagonal + noise_mm of the segment's end (the
        # hole's own bottom lies there exactly): a pin standing in the bottom of a blind
        # hole raises its top face above it.
        "annulus_level_rel": 1e-4,
        # A cone at a hole's end whose small radius is below apex_rel x diagonal (0.075 mm
        # on a 75 mm part) reaches its apex: a drill point, even when a modeller truncated
        # its tip; a cone ending in a visible flat is a flat bottom.
        "apex_rel": 1e-3,
        # A planar chamfer stands between two planes whose normals differ by chamfer_deg
        # (degrees): a bevel between faces 20 degrees apart or less is a facet of a slope,
        # beyond 160 a sharp edge's tip.
        "chamfer_deg": (20.0, 160.0),
        # A convex cone's semi-angle (degrees) for a conical chamfer: 45 for the common
        # bevel, 30 and 60 for lead-in chamfers; a cone closer than 15 degrees to its axis
        # is a taper, one within 15 degrees of square a shoulder of the part.
        "cone_chamfer_semi_deg": (15.0, 75.0),
        # Faces of one chamfer or fillet run have sizes within seed 001's absolute linear
        # tolerance (0.05 mm) divided by this: neighbouring bevels of 1 and 1.01 mm are
        # two features, faces of one bevel agree to the kernel's noise.
        "chain_divisor": 10,
        # A through cut's walls all run along one direction: each planar wall's normal is
        # square to it within this (cosine; 1e-4 is 0.0057 degrees): a window with a
        # tapered wall is no breakthrough of one section.
        "through_wall_cos": 1e-4,
    },
}

# Threads (app/recognition/threads.py, app/threads/stage.py, metrics/thread_matching.py).
THREADS = {
    # Helical flanks (app/model/thread_flanks.py). A sample's residual is n . v / |v|, the sine of
    # the angle between the surface and the screw's motion: dimensionless, so one bound holds
    # for every size. fit_residual bounds its rms over a face or a thread: lofted and swept
    # B-spline flanks measure 1e-8 (cq_warehouse ruled helices) to 1.3e-3 (bd_warehouse
    # lofted loops), a fade-out fitted against its thread's screw 0.05 and more.
    "fit_residual": 0.01,
    # A fit is unique only when the second-best linear complex leaves an rms residual above
    # fit_unique: a cylinder or a crest strip (1e-3), a sliver face (3e-6) or a patch too
    # small to tell admit two screws; a one-turn flank leaves 0.027 (bd_warehouse) to 0.04
    # (cq_warehouse), a fade-out 0.006 to 0.027.
    "fit_unique": 0.005,
    # Reweightings of the linear-complex fit (1 / |v|^2) and rounds of growing a flank
    # group (fit the faces the screw slides together, collect again) before it is final.
    "fit_reweightings": 2,
    "fit_rounds": 4,
    # A thread's flanks go all the way round its axis: their edges leave no angular gap
    # wider than 360 / turn_sectors degrees (an end tip or a fade-out covers a quarter turn,
    # so leaves a 270-degree gap).
    "turn_sectors": 12,
    # Samples per free-form face for reading threads (grid x grid points of a Fibonacci
    # lattice over its parameter range), and the sagitta of the points along its edges as
    # a share of the face's diagonal: on a loop of radius r and diagonal about 3 r, 1e-3
    # puts them 2 acos(1 - 3e-3) = 9 degrees apart, well inside turn_sectors' 30.
    "grid": 7,
    "quick_grid": 5,  # has_modeled_thread, run on every scoring
    "edge_sagitta_rel": 1e-3,
    # Flanks of one screw further apart along the axis than run_gap_leads x the lead are two
    # threads (a stud threaded at both ends); a loop's flanks overlap the next one's.
    "run_gap_leads": 0.5,
    # A lead below this share of the face size is a surface of revolution, not a helix.
    "min_lead_rel": 1e-3,
    # Mean |normal . axis| of a flank: a helical strip with radial normals is no flank.
    "min_flank_cos": 0.05,
    # |Mean normal . outward radial| of a thread's flanks: 0.5 for 60-degree flanks (both
    # lean the same way), about 0 for a spring's tube or a coil's round wire.
    "min_radial_share": 0.2,
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
    # The zone's material is integrated along columns parallel to the axis (app/threads/
    # zone.py): zone_rings x zone_sectors midpoint columns. On the bd_warehouse and
    # cq_warehouse fixtures 32 x 256 is within 3e-5 of 96 x 1024 (well inside volume_rel);
    # beyond zone_odd_rays_max of the columns crossing the surface an odd number of times
    # the mesh is open and the volume not measured.
    "zone_rings": 32,
    "zone_sectors": 256,
    "zone_odd_rays_max": 0.01,
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
    # A candidate off by more than size_ratio_off in volume is "uniformly scaled" when its
    # volume's cube root and its three principal radii of gyration give one factor within
    # this (relative; metrics/unit_scale.py), and that factor names a unit mix-up (25.4,
    # 1000, 10, 304.8 either way) within it too. 0.2 %: the exact moments of a scaled
    # B-rep agree to rounding, the fine meshes' to about 1e-4 (app/shape/alignment.py);
    # a cube stretched 2 % along one axis gives factors 0.66 % apart.
    "uniform_scale_rel": 0.002,
}

# Child process that reads and measures candidates (runner.py).
DEFAULT_TIMEOUT_S = 300
DEFAULT_MEMORY_MB = 8192
# The smallest --memory-mb accepted (input_checks.memory_megabytes): the scoring child must
# import numpy and FreeCAD (Part, Mesh, OpenBLAS' buffers) and score a case's own reference.
# Measured here (FreeCAD 0.20.2, Debian 12, RLIMIT_AS; `cadbench score --case` of each of
# the 11 bundled cases' references against themselves, every metric, one OpenBLAS thread):
# 896 MB scores all 11 as without a limit; 768 MB fails 8 of them (memory in alignment,
# shapeIoU or threadMatch; NIST FTC-06 times out); at 576 MB and below OpenBLAS retries its
# buffer's allocation for ever inside numpy's eigh (geometry/rigid.py), a timeout that was
# charged to the candidate. 1024 keeps 14 % over the largest bundled case's need; the
# self-test's BLAS step (app/model/kernel_selftest.py) turns a limit too low for that buffer into
# the scorer's own failure before any model is read.
MIN_MEMORY_MB = 1024
# The largest --memory-mb accepted: 4 TiB, more than any machine this runs on; RLIMIT_AS
# takes bytes as a C long and refuses numbers past 2^63 (then nothing would be scored).
MAX_MEMORY_MB = 1 << 22
# The longest --timeout accepted: a week, longer than any scoring should take; the child's
# CPU-time backstop (RLIMIT_CPU, whole seconds) refuses numbers past a C long (1e300 s).
MAX_TIMEOUT_S = 7 * 24 * 3600
# The shortest --timeout accepted: a scoring child's start (the interpreter, FreeCAD's
# import, the kernel self-test) took 1.0 s of wall time here on an idle machine, before any
# model is read; under five times that the limit runs out in the scorer's own start-up
# (which was reported as environment_broken, exit 8), so it is refused as a usage error.
MIN_TIMEOUT_S = 5

# Input limits, checked before any work starts (inputs/checks.py, inputs/fcstd_archive.py,
# inputs/bounded_yaml.py, drafting/reading.py); each refusal names the limit it hit.
# FCStd archives: FreeCAD writes one to three members per object (the 65 third-party
# documents in tests/data: at most 294 members, 5.5 MB inflated, names of 33 bytes).
# 100 000 members is a document of some 30 000 objects; zipfile builds one object per
# member before anything is read, so a forged count is refused from the end record.
FCSTD_MAX_MEMBERS = 100_000
# A member is written to a temporary file under its own name to be read by OpenCASCADE,
# and a Linux file name holds at most 255 bytes (NAME_MAX).
FCSTD_MAX_NAME_BYTES = 255
# Inflated bytes of all members together (a zip bomb declares GBs in a few MB): 1 GiB of
# BREP text is some 200 times the largest real document here and takes OpenCASCADE longer
# to read than the default time limit allows; the declared sizes bound what zipfile
# inflates, so nothing beyond this is ever decompressed.
FCSTD_MAX_UNCOMPRESSED_BYTES = 1 << 30
# case.yaml: the bundled cases are at most 8 kB, 454 nodes and 6 levels deep. A case file
# is text a person writes: 1 MiB, 100 000 nodes once aliases are expanded (an alias bomb
# stands for 10^9 in 1 kB) and 32 levels (PyYAML composes recursively) leave room for
# cases with thousands of dimensions and refuse what only an attack produces.
CASE_FILE_MAX_BYTES = 1 << 20
YAML_MAX_NODES = 100_000
YAML_MAX_DEPTH = 32
# DXF: blocks placing blocks. Real drawings nest a few levels (a title block, a symbol in a
# detail); ezdxf's audit follows block references recursively (RecursionError near 1000
# levels), so nesting is measured iteratively first and deeper than this is refused.
DXF_MAX_BLOCK_DEPTH = 100
# DXF numbers: beyond 1e15 neighbouring doubles are 0.125 apart, so no drawing unit's detail
# survives there, and differences of such coordinates overflow (1e308 - -1e308 = inf) in
# the measuring code. Real drawings, in mm or on survey grids, stay below 1e9.
DXF_MAX_COORDINATE = 1e15

# A read that fails once the child's peak address space (VmPeak) came within this share of
# its memory limit failed for memory (memory_use.py): OpenCASCADE reports a failed
# allocation as "Error in reading STEP". Measured: a 20k-face STEP read under 500 MB fails
# at a peak of 499.9 MB; FreeCAD's own imports peak at 162 MB; 5 % leaves room for the
# allocation that failed being smaller than the gap.
MEMORY_EXHAUSTED_SHARE = 0.95

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
    # Registration (issue 13): the translation that best superimposes the part geometry,
    # found among the peaks of a cross-correlation of the two part clouds rasterised at
    # registration_cells across the larger part (1/512 of it: finer than the 0.002-of-the-
    # diagonal match distance), each refined on matched vertices and judged by the soft F1
    # on at most registration_screen_samples samples per drawing.
    "registration_cells": 512,
    "registration_peaks": 8,
    "registration_screen_samples": 8_000,
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
# Annotation drawn with curves (drafting/classify.py): a bubble is a closed curve holding
# a text of at most bubble_label_chars characters whose middle lies within
# bubble_label_reach of the bubble's half size from its middle, the bubble no larger than
# bubble_size_in_text_heights text heights in half size (grid bubbles run 1-3; a room or
# a plate holding a note is far larger). A grid label without a circle is such a short
# text whose middle lies within line_label_reach_in_text_heights of a long centre or
# grid line's end (drafters write it one or two heights past the end).
DRAWING_2D_ANNOTATION = {
    "bubble_label_chars": 5,
    "bubble_label_reach": 0.8,
    "bubble_size_in_text_heights": 4.0,
    "line_label_reach_in_text_heights": 2.5,
}


# TechDraw drawings (app/drawing*.py): how a part is posed, which dimensions are offered,
# how the sheet is laid out and checked. Each number with its reason; every one has a test
# at its boundary (tests/app/test_drawing_standard.py).
DRAWING = {
    "pose": {
        # Faces and axes within this angle of a coordinate axis are made exactly parallel
        # to it: an aligned candidate carries the alignment's last thousandths of a degree
        # (its holes would project as ellipses). Well below the common draft angles (0.5,
        # 1 degree): at 1.0, NIST FTC-07's 36 faces with a 1 degree draft sat on the limit,
        # squared in one pose and not in another (its perfect copy drew 1 target of the
        # reference's 2).
        "square_tolerance_deg": 0.1,
        # A part longer than this many times its x extent along y or z is drawn lying
        # down (a shaft lies across the front view); a near-cube keeps its pose.
        "lying_ratio": 1.2,
        # A part deeper (y) than this many times its height (z) is turned to show that
        # side in the front view: a plate or a flange seen edge-on is a sliver (NIST FTC-08,
        # 222.7 deep, 48.3 high); a block (80 x 40 x 30) keeps the side it is drawn on.
        "facing_ratio": 2.0,
        # Free-form faces from which a part counts as threaded and is drawn with polygonal
        # hidden-line removal: a modelled thread is most of its part's faces (M8 bolt 56 of
        # 85, M10 nut 21 of 36); blends on a machined part are few (NIST FTC-07: 20 of 269,
        # drawn exactly in about 2 s per view).
        "heavy_faces": 20,
        "heavy_share": 0.25,
    },
    "views": {
        # In a polygonal view only straight lines at least this share of the view are
        # outline: a thread's zigzag (flank lines about 1 % of an M8 bolt's length) gives
        # no levels.
        "coarse_min_line_rel": 0.01,
        # Points per edge for the outline (bounding boxes, label collisions): a share of
        # the view, 1 mm on a 100 mm part (labels keep LABEL_GAP = 1.5 mm clear).
        "outline_step_rel": 0.01,
        # The views' centre from their vertices: offsets agreeing to origin_bin_mm (model
        # mm, far above TechDraw's 1e-7 rounding), shared by at least origin_min_pairs
        # vertex pairs (three corners fix a centre beyond chance).
        "origin_bin_mm": 1e-5,
        "origin_min_pairs": 3,
        # The front and top views' centres agree in x within origin_agree_bins bins, and
        # lie within origin_off_middle_diagonals of the part's box centre (TechDraw
        # centres on its box: a centre far off it is a wrong match, findCentroid decides).
        "origin_agree_bins": 10,
        "origin_off_middle_diagonals": 0.05,
        # A dimension TechDraw measures this far (relative) from the planned value is not
        # drawn: the reference does not mean what the plan thought (printing is to 0.01).
        "measure_tolerance_rel": 1e-6,
    },
    "plan": {
        # Geometry coordinates closer than this (model mm) are the same level: TechDraw's
        # hidden-line removal moves vertices by up to 1e-4 on B-spline edges.
        "level_tolerance_mm": 1e-3,
        # A distance below this prints as 0 with two decimals and is no dimension.
        "min_value_mm": 0.01,
        # A line this close to axis-parallel (sine of its angle) is horizontal or vertical.
        "axis_tolerance": 1e-6,
        # Decimals printed ('%.2w': two, trailing zeros removed): ISO 129-1 writes the
        # nominal, a 75 within 0.007 prints 75 (and R5.01 never appears).
        "decimals": 2,
        # Holes whose angular spacing round their circle differs by more than this are no
        # bolt circle (a drafter locates them by coordinates).
        "pitch_angle_tolerance_deg": 0.1,
    },
    "layout": {
        # TechDraw's default dimension font size (mm on the sheet, ISO 3098 3.5).
        "text_height_mm": 3.5,
        # ISO 129-1: the first dimension line 10 mm from the outline, then 7 mm apart.
        "first_row_mm": 10.0,
        "row_pitch_mm": 7.0,
        # Clear space around a label, and between neighbouring views' dimension bands.
        "label_gap_mm": 1.5,
        "view_gap_mm": 12.0,
        # Rows per side of a view; a default that needs more is dropped (targets get
        # max_rows on the other side too).
        "max_rows": 8,
        # Rows of horizontal dimensions, columns of vertical ones, before the other side is
        # used (TechDraw's DXF prints vertical dimensions' text level: a column is a label
        # wide).
        "preferred_rows": 5,
        "preferred_columns": 3,
        # A default linear dimension spanning less than this on the sheet is left out:
        # its extension lines merge (ISO 128's thin lines are 0.25 mm, 0.7 mm apart).
        "min_sheet_span_mm": 1.0,
        # A default angle whose shorter leg is below this is left out (ISO 129-1's arc
        # needs room for two 2.5 mm arrowheads).
        "min_angle_leg_mm": 5.0,
        # A default radius or diameter smaller than this on the sheet is left out (an R0.4
        # at 1:2 is 0.2 mm; a drafter notes such rounds in general).
        "min_sheet_radius_mm": 1.0,
        # Dimension band a view usually needs on a side (scale and sheet estimate).
        "estimated_band_mm": 20.0,
        # The front view's longer side on the sheet from which a scale is readable: below
        # it the next larger sheet is taken (an A3 holds a 160 mm part at 1:2, 80 mm).
        "readable_front_mm": 70.0,
        # Between the frame and the drawing.
        "sheet_margin_mm": 5.0,
    },
    "label_search": {
        # Where a diameter, radius, angle or sloping length looks for a free place for its
        # label, nearest first (sheet mm beyond the arc, the apex or the line; directions
        # in degrees): ISO 129-1 puts a radius' label on a leader at about 45 degrees, so
        # the diagonals come first, then flatter and steeper ones; the distances grow to
        # about the height of a dimension band (60 mm), beyond which a label no longer
        # reads as its feature's.
        "radial_distances_mm": (4.0, 8.0, 14.0, 22.0, 32.0, 45.0, 60.0),
        "radial_angles_deg": (45, 135, -45, -135, 20, 160, -20, -160, 70, 110, -70, -110),
        "angle_distances_mm": (8.0, 12.0, 18.0, 26.0),
        "angle_turns_deg": (0, 15, -15, 30, -30),
        "sloping_distances_mm": (6.0, 10.0, 16.0, 24.0),
    },
    "section": {
        # Sections (app/drawing/section.py). Hole axes whose level along the section's
        # normal agrees to same_plane_decimals (0.1 um) lie on one cutting plane. The
        # section's centre is found as the views' (origin_bin_mm, origin_min_pairs above).
        # At most max_sections sections (A-A, B-B): one per plane of hole kinds a drafter
        # would section; the sheet has two free grid cells for them.
        "same_plane_decimals": 4,
        "max_sections": 2,
    },
    "checks": {
        # ISO 3098 / ISO 128: lettering kept clear of lines; half the ISO 129 gap of a text
        # above its dimension line (about 1 mm).
        "min_text_clearance_mm": 0.5,
        # Lines are sampled this finely (sheet mm) to test them against boxes.
        "sample_step_mm": 0.25,
        # A dimension's own extension lines start this close to its view's outline (ISO
        # 129's small gap): boxes are compared shrunk by it so touching is not crossing.
        "box_tolerance_mm": 0.5,
    },
}


def as_dict() -> dict:
    """The whole standard as plain data (for the fingerprint and the README)."""
    return {
        "thresholds": THRESHOLDS,
        "linear_tolerance": [LINEAR_TOLERANCE_ABS_MM, LINEAR_TOLERANCE_REL],
        "angular_tolerance_deg": ANGULAR_TOLERANCE_DEG,
        "spectrum": SPECTRUM,
        "random_hit": RANDOM_HIT,
        "located": LOCATED,
        "alignment": ALIGNMENT,
        "cross_check": CROSS_CHECK,
        "multi_solid": MULTI_SOLID,
        "degenerate_solid": DEGENERATE_SOLID,
        "input_size": INPUT_SIZE,
        "significant_digits": SIGNIFICANT_DIGITS,
        "interpretation": INTERPRETATION,
        "features": FEATURES,
        "mesh_features": MESH_FEATURES,
        "threads": THREADS,
    }
