# SPDX-License-Identifier: LGPL-2.1-or-later
"""Shape fidelity: IoU, Dice, precision and recall from Part booleans (seed 002),
safeguarded against silent boolean failures by two independent methods (seed 000)."""

import time

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app.model import mesh_solid, meshing, thread_flanks
from cadbench_wb.app.shape import time_budget
from cadbench_wb.geometry import sampling
from cadbench_wb.metrics import crosscheck


def _exact_within(job):
    """The result of an exact job started in a child process, stopped when its CPU budget
    is spent, or None and why not (and whether a limit stopped it, CPU or wall clock)."""
    try:
        found = job.result()
    except time_budget.BudgetSpent as spent:
        return None, (str(spent), spent.clock or spent.cpu)
    return found, None


def exact_work_refusal(faces_reference: int, faces_candidate: int, meshed=None) -> str | None:
    """Why the exact booleans are not attempted on a pair of these face counts, or None.

    The route is chosen from the inputs, never from a clock (same inputs, same JSON on any
    machine): the face counts bound the General Fuse's work (standard.CROSS_CHECK
    exact_max_faces). A safety net of CPU seconds stays behind it (exact_safety_net_cpu_s)
    and is reported when it fires. meshed: the role ("candidate", "reference") delivered as
    triangles, if any: the General Fuse on a mesh's triangles measures the same polyhedron
    the mesh boolean does, and on 1,854 triangles (bearing_block's own STL) it ran into the
    90 s safety net and was thrown away."""
    if meshed:
        return (
            f"exact booleans not attempted: the {meshed} is a mesh (its triangles as faces): "
            "the General Fuse would measure the polyhedron the mesh boolean measures, and ran "
            "past the safety net on 1,854 triangles"
        )
    limit = standard.CROSS_CHECK["exact_max_faces"]
    total = faces_reference + faces_candidate
    if total <= limit:
        return None
    return (
        f"exact booleans not attempted: {total} faces in the pair "
        f"({faces_reference} + {faces_candidate}) > {limit} (standard.CROSS_CHECK exact_max_faces)"
    )


def exact_tolerance_refusal(tolerance: float, diagonal: float) -> str | None:
    """Why the exact booleans are not attempted on solids whose largest edge or vertex
    tolerance (mm) is this, or None.

    OpenCASCADE's General Fuse takes every edge as a tube of its tolerance: beyond
    standard.CROSS_CHECK exact_max_tolerance_rel x the diagonal the pieces it cuts do not
    add up to the solids, plain, fuzzy or after ShapeFix (measured there), so the result
    would be thrown away after seconds of CPU. Decided from the inputs, never a clock."""
    limit = standard.CROSS_CHECK["exact_max_tolerance_rel"] * diagonal
    if tolerance <= limit:
        return None
    return (
        f"exact booleans not attempted: an edge or vertex toleranced to {tolerance:.3g} mm "
        f"> {limit:.3g} mm ({standard.CROSS_CHECK['exact_max_tolerance_rel']:g} x the "
        "diagonal, standard.CROSS_CHECK exact_max_tolerance_rel), where the General Fuse's "
        "pieces no longer add up to the solids"
    )


def largest_tolerance(shape) -> float:
    """The largest tolerance (mm) of the shape's edges and vertices (faces' are smaller)."""
    return max((item.Tolerance for item in (*shape.Edges, *shape.Vertexes)), default=0.0)


def shape_figures(
    reference,
    candidate_aligned,
    meshes=None,
    keep_shapes: bool = True,
    volumes=None,
    meshed=None,
    snapped: bool = False,
) -> dict:
    """Every shape figure of an aligned pair, with its cross-check and per-stage times.

    meshes: the fine (vertices, triangles) of the reference and of the aligned candidate,
    when the alignment already made them (it tessellates at the cross-check's deflection).
    keep_shapes: keep the common/missing/extra solids (for the diff files).
    volumes: the exact volumes of the reference and of the candidate (either may be None)
    when loading measured them already: a rigid motion keeps a volume, and on B-spline
    thread flanks each exact volume costs about 0.3 s of CPU.
    meshed: "candidate" or "reference" when that side was delivered as a mesh (STL, OBJ).
    snapped: the pose puts the candidate's B-rep vertices on the reference's (alignment's
    vertex snap): then no fuzzy retry (fuzzy_retry_refusal).

    The exact booleans start first, in a child process, and run while this process
    computes the two independent estimates (mesh boolean, point sampling) that judge them:
    on two cores the estimates cost no wall time. A fuzzy retry, when the plain attempt is
    not confirmed, gets what is left of the safety net.
    """
    start = time.perf_counter()
    skipped = exact_work_refusal(_face_count(reference), _face_count(candidate_aligned), meshed)
    # Modeled threads: meshed at Part's 0.1 rad (meshing.cross_check_meshes), exact skipped.
    threaded = thread_flanks.has_modeled_thread(reference) or thread_flanks.has_modeled_thread(
        candidate_aligned
    )
    if skipped is None and not standard.CROSS_CHECK["exact_booleans_on_threads"] and threaded:
        skipped = "modeled thread: exact booleans skipped"
    if skipped is None:
        skipped = exact_tolerance_refusal(
            max(largest_tolerance(reference), largest_tolerance(candidate_aligned)),
            max(reference.BoundBox.DiagonalLength, candidate_aligned.BoundBox.DiagonalLength),
        )
    thread_check = time.perf_counter() - start
    job = None
    if not skipped:
        diagonal = max(reference.BoundBox.DiagonalLength, candidate_aligned.BoundBox.DiagonalLength)
        fuzzy = standard.CROSS_CHECK["fuzzy_values_rel"][0] * diagonal
        budget = standard.CROSS_CHECK["exact_safety_net_cpu_s"]
        job = time_budget.ExactJob(reference, candidate_aligned, fuzzy, keep_shapes, budget)
    try:
        exact_volumes = _exact_volumes(reference, candidate_aligned, volumes)
        computed = _shape_figures(
            reference,
            candidate_aligned,
            meshes,
            keep_shapes,
            (skipped, job, not threaded, exact_volumes, snapped, meshed),
        )
    finally:
        if job is not None:
            job.close()
    computed["timing"]["thread_check"] = thread_check
    return computed


def _face_count(shape) -> int:
    """The shape's faces: a triangle mesh's triangles (each a face of its polyhedron)."""
    return shape.face_count() if mesh_solid.is_triangles(shape) else len(shape.Faces)


def _exact_volumes(reference, candidate, known) -> dict:
    """{"a": exact volume of the reference, "b": of the candidate}, measured where not known."""
    known_a, known_b = known if known is not None else (None, None)
    return {
        "a": reference.Volume if known_a is None else known_a,
        "b": candidate.Volume if known_b is None else known_b,
    }


def _shape_figures(reference, candidate_aligned, meshes, keep_shapes, exact_plan) -> dict:
    skipped, job, coarse, exact_volumes, snapped, meshed = exact_plan
    timing = {}
    params = standard.CROSS_CHECK
    diagonal = max(reference.BoundBox.DiagonalLength, candidate_aligned.BoundBox.DiagonalLength)
    start = time.perf_counter()
    if meshes is None:
        meshes = meshing.cross_check_meshes(reference, candidate_aligned, diagonal)
    timing["tessellation"] = time.perf_counter() - start
    estimates = _Estimates(meshes, (reference, candidate_aligned), diagonal, coarse, meshed)
    start, before = time.perf_counter(), sum(estimates.seconds.values())
    safety_net = params["exact_safety_net_cpu_s"]
    decision, exact, attempts = _exact_decision(
        (reference, candidate_aligned, exact_volumes),
        estimates,
        skipped,
        (safety_net, job),
        (keep_shapes, snapped),
    )
    timing.update(estimates.seconds)
    timing["exact_child_cpu"] = estimates.exact_child_cpu
    timing["booleans"] = time.perf_counter() - start - (sum(estimates.seconds.values()) - before)
    mesh_a, mesh_b = meshes = estimates.meshes
    if estimates.refined:
        decision["crossCheck"]["estimatesRemeshed"] = REMESHED
    if estimates.repairs:  # only where a tessellation had to be made a manifold
        decision["crossCheck"]["meshRepairs"] = estimates.repairs
    decision["crossCheck"]["exactAttempts"] = attempts
    # True only when a limit stopped the exact route (its CPU budget; the wall-clock backstop
    # for a hung child): the one case where the route (and so the JSON) depends on the
    # machine (its speed, not its load), hence reported.
    decision["crossCheck"]["exactSafetyNet"] = any(a.get("safetyNet") for a in attempts)
    if decision["volumes"] is not None:
        figures = crosscheck.figures_from(decision["volumes"])
    else:
        fallback = dict(exact_volumes, common=0.0)
        figures = crosscheck.figures_from(fallback)
    decision = crosscheck.bounded(figures, decision, params)
    figures.update(_diagnostics(figures, meshes, (reference, candidate_aligned)))
    if not decision["checked"]:
        for key in ("iou", "dice", "precision", "recall"):
            figures[key] = None
    figures["method"] = decision["method"]
    figures["crossCheck"] = decision["crossCheck"]
    figures["checked"] = decision["checked"]
    figures["reason"] = decision["reason"]
    missing = meshing.manifold_missing()
    if missing:  # an Addon Manager install without manifold3d: point sampling cross-checks
        figures["crossCheck"]["meshSkipped"] = missing
        figures["reason"] += f"; {missing}"
    # The fine meshes are kept for later stages (thread zone volumes) so they are made once.
    shapes = dict(exact["shapes"], mesh_reference=mesh_a, mesh_candidate=mesh_b)
    return {"figures": figures, "shapes": shapes, "timing": timing}


def fuzzy_retry_refusal(snapped: bool) -> str | None:
    """Why a plain attempt that was not confirmed gets no fuzzy retry, or None.

    A fuzzy value joins faces that nearly coincide; on a vertex-snapped pose the shared
    faces coincide to rounding error, where the plain General Fuse is exact, so a plain
    failure there comes from the part's own geometry and a fuzzy value has nothing to join.
    Measured on moved copies of public NIST parts: snapped, FTC-07 (AP242 edition, 338
    faces) is inconsistent plain and at 1e-5 x the diagonal alike (41 s of CPU in all);
    turned by 1e-5 rad and not snapped, the fuzzy retry rescues FTC-09 (1.0, residual
    4e-16) and the bundled bearing block, and fails on CTC-01 and FTC-06 (in 3 s each).
    Decided from the pose, never from a clock."""
    if snapped:
        return (
            "not started: the pose is vertex-snapped (shared faces coincide to rounding "
            "error), so a fuzzy value has no near-coincident faces to join"
        )
    return None


def _exact_decision(pair, estimates, skipped, budget, options):
    """The cross-check decision after at most two exact attempts (plain, then fuzzy); the
    exact result it used; what each attempt gave. Which attempts run follows from their
    results alone; pair: (reference, candidate, their exact volumes); budget: (the safety
    net's CPU seconds of the children for all attempts together, the job of the first
    attempt, already running)."""
    reference, candidate, volumes = pair
    budget, job = budget
    keep_shapes, snapped = options
    params = standard.CROSS_CHECK
    volumes = dict(volumes)
    exact = {"volumes": volumes, "shapes": {}, "route": "skipped"}
    if skipped:
        estimates.finest()
        mesh, note = estimates.mesh()
        decision = crosscheck.decide(volumes, mesh, estimates.sampled, params, skipped, note)
        return decision, exact, []
    diagonal = max(reference.BoundBox.DiagonalLength, candidate.BoundBox.DiagonalLength)
    attempts = []
    remaining = budget
    decision, refused = None, None
    for fuzzy_rel in params["fuzzy_values_rel"]:
        fuzzy = fuzzy_rel * diagonal
        if remaining <= 0:
            attempts.append({"fuzzy": fuzzy, "outcome": "not started", "safetyNet": True})
            break
        refused = fuzzy_retry_refusal(snapped) if attempts else None
        if refused:
            break
        if job is None:  # a retry: its own child, with what the first attempt left
            job = time_budget.ExactJob(reference, candidate, fuzzy, keep_shapes, remaining)
        found, stopped = _exact_within(job)
        remaining -= job.cpu_used_s
        estimates.exact_child_cpu += job.cpu_used_s
        job = None
        if found is None:
            outcome, clock = stopped
            attempts.append({"fuzzy": fuzzy, "outcome": outcome, "safetyNet": clock})
            break
        decision = _checked(found["volumes"], estimates, params)
        outcome = "confirmed" if decision["method"] == "exact" else _exact_outcome(decision)
        attempts.append({"fuzzy": fuzzy, "route": found["route"], "outcome": outcome})
        exact = found
        if decision["method"] == "exact":
            return decision, exact, attempts
    if decision is None or "route" not in attempts[-1]:
        why = f"exact booleans gave no result ({attempts[-1]['outcome'] if attempts else ''})"
        if attempts and attempts[-1].get("safetyNet"):
            why = (
                f"exact booleans stopped by the safety net ({attempts[-1]['outcome']}; "
                f"{params['exact_safety_net_cpu_s']:g} CPU-s of the exact route's child, "
                "standard.CROSS_CHECK exact_safety_net_cpu_s): the one route choice that "
                "depends on the machine's speed (not on its load)"
            )
        estimates.finest()
        mesh, note = estimates.mesh()
        decision = crosscheck.decide(volumes, mesh, estimates.sampled, params, why, note)
        exact = {"volumes": volumes, "shapes": {}, "route": "stopped"}
    if refused:  # listed after the attempt it follows, which decided
        attempts.append({"fuzzy": fuzzy, "outcome": refused})
    return decision, exact, attempts


def _checked(volumes, estimates, params) -> dict:
    """crosscheck.decide on exact volumes, with the mesh boolean run only when point
    sampling alone does not confirm them: decide needs one independent witness, and on a
    perfect copy the mesh boolean is the slow one (coincident faces everywhere: 15 s on a
    plate with 250 holes). Without the mesh figure the sampling tolerance lacks the mesh's
    volume error, so a confirmation here would stand with the mesh figure too. When the
    exact figure is not confirmed on the alignment's meshes, the estimates are made again
    on Part's finer tessellation before anything is decided on them (_Estimates.finest)."""
    if not crosscheck.exact_consistent(volumes, params) and estimates.refinable():
        # Volumes inconsistent with themselves are never confirmed (crosscheck.decide), so
        # the estimates on the alignment's meshes would be thrown away unread: made on
        # Part's tessellation at once (FTC-10's moved copy: 20,000 points and a mesh
        # boolean saved). The alignment's meshes are made manifolds first, as the mesh
        # boolean would have: a replacement stands for its side in finest() too.
        estimates.manifolds()
        estimates.finest()
        mesh, note = estimates.mesh()
        return crosscheck.decide(volumes, mesh, estimates.sampled, params, None, note)
    if not estimates.mesh_done:
        decision = crosscheck.decide(
            volumes, None, estimates.sampled, params, None, MESH_NOT_NEEDED
        )
        if decision["method"] == "exact":
            return decision
    mesh, note = estimates.mesh()
    decision = crosscheck.decide(volumes, mesh, estimates.sampled, params, None, note)
    if decision["method"] == "exact" or not estimates.finest():
        return decision
    mesh, note = estimates.mesh()
    return crosscheck.decide(volumes, mesh, estimates.sampled, params, None, note)


MESH_NOT_NEEDED = "not run: point sampling confirmed the exact booleans on its own"
REMESHED = (
    "mesh boolean and point sampling made again on Part's tessellation (0.1 rad): the "
    "exact figure was not confirmed on the alignment's meshes (standard.CROSS_CHECK "
    "mesh_angular_deflection)"
)


class _Estimates:
    """The two independent estimates: point sampling and the mesh boolean (each when
    first asked for), on the alignment's meshes. finest() makes both again on Part's own
    tessellation (0.1 rad, as before mesh_angular_deflection) whenever the exact figure is
    not confirmed on them, so that a reported mesh figure never rests on coarser meshes.
    A side delivered as triangles (meshed: "reference" or "candidate") keeps its mesh: its
    faces are its triangles, which tessellate into themselves at any deflection (made
    again, the same triangles cost 13 s on a 26786-triangle STL)."""

    def __init__(self, meshes, shapes, diagonal, coarse: bool, meshed=None):
        self.meshes, self.shapes, self.diagonal = meshes, shapes, diagonal
        self.coarse, self.refined = coarse, False
        # The alignment's meshes, kept when finest() replaces them: closed manifolds where
        # Part's finer tessellation may not be (_mesh_iou).
        self.aligned = None
        self.kept = {"reference": 0, "candidate": 1}.get(meshed)
        self.seconds = {"sampling": 0.0, "mesh_boolean": 0.0, "remeshing": 0.0}
        self.exact_child_cpu = 0.0  # CPU seconds of the exact attempts' child, in all
        self._sample()

    def _sample(self) -> None:
        """Point sampling of the current meshes, made when first asked for (sampled): a
        pair whose exact booleans are not attempted has its estimates made again on Part's
        tessellation at once (finest), and the alignment meshes' 20,000 points were thrown
        away unread (0.1-0.2 CPU-s on NIST CTC-04's 15,750 triangles)."""
        self._sampled, self._sample_meshes = None, self.meshes
        self.mesh_done, self.answer, self.repairs = False, (None, None), {}

    @property
    def sampled(self) -> dict:
        """sampling.sampled_iou of the meshes as _sample found them (before the mesh
        boolean replaced any), computed once."""
        if self._sampled is None:
            params = standard.CROSS_CHECK
            start = time.perf_counter()
            self._sampled = sampling.sampled_iou(
                *self._sample_meshes, params["sample_points"], params["sample_seed"]
            )
            self.seconds["sampling"] += time.perf_counter() - start
        return self._sampled

    def mesh(self) -> tuple:
        """(the mesh boolean's volumes or None, why none) as crosscheck.decide takes them."""
        if not self.mesh_done:
            start = time.perf_counter()
            found, note, self.meshes, self.repairs = _mesh_iou(
                self.meshes, self.shapes, self.diagonal, self.aligned
            )
            self.answer, self.mesh_done = (found, note), True
            self.seconds["mesh_boolean"] += time.perf_counter() - start
        return self.answer

    def refinable(self) -> bool:
        """Whether finest() would make the estimates again (not made so yet, no thread)."""
        return self.coarse and not self.refined

    def manifolds(self) -> None:
        """The current meshes made manifolds as mesh() makes them (a replacement stands for
        its side from then on), without the boolean."""
        if not self.mesh_done:
            start = time.perf_counter()
            self.meshes = _manifolds(self.meshes, self.shapes, self.diagonal, self.aligned)[0]
            self.seconds["mesh_boolean"] += time.perf_counter() - start

    def finest(self) -> bool:
        """Make the estimates again on Part's tessellation; False if they already were."""
        if not self.refinable():
            return False
        start = time.perf_counter()
        deflection = standard.CROSS_CHECK["mesh_deflection_rel"] * self.diagonal
        self.aligned = self.meshes
        # On copies: the shapes hold the alignment's triangulation, which tessellate reuses.
        self.meshes = tuple(
            self.meshes[i] if i == self.kept else meshing.mesh_of(_copy(s), deflection)
            for i, s in enumerate(self.shapes)
        )
        self.refined = True
        self.seconds["remeshing"] += time.perf_counter() - start
        self._sample()
        return True


def _copy(shape):
    """A copy to tessellate (one that holds no triangulation yet); a triangle mesh is its
    own tessellation, and copying it would make its polyhedral B-rep."""
    return shape if mesh_solid.is_triangles(shape) else shape.copy()


def _exact_outcome(decision) -> str:
    cross = decision["crossCheck"]
    if not cross["exactConsistent"]:
        return "inconsistent with themselves"
    return "refuted by the mesh boolean and point sampling"


def _mesh_iou(meshes, shapes, diagonal, aligned=None):
    """The mesh boolean's volumes (None if it gave none), why it gave none, the meshes, and
    {role: how its tessellation was made a manifold} for each side that needed it.

    A tessellation manifold3d refuses (a crack between two faces' meshes of one edge, a
    non-manifold edge, a sliver) is repaired or replaced before the route is given up
    (meshing.manifold_for: cracks closed, the union of a compound's solids, the alignment's mesh,
    trimesh's repair, then the tessellation made again finer and coarser). A repaired
    mesh is used for the boolean only; sampling keeps the original, its ray casting needs
    no manifold. aligned: the alignment's meshes, when Part's finer tessellation replaced
    them."""
    missing = meshing.manifold_missing()
    if missing:  # nothing to repair or retry: the boolean cannot run at all
        return None, missing, list(meshes), {}
    meshes, solids, tried, repairs = _manifolds(meshes, shapes, diagonal, aligned)
    first, second = solids
    if first is None or second is None:
        refused = [
            f"{role}: {steps}"
            for role, solid, steps in zip(("reference", "candidate"), solids, tried, strict=True)
            if solid is None
        ]
        why = "tessellation refused by manifold3d (" + "; ".join(refused) + ")"
        return None, why, meshes, repairs
    common = (first ^ second).volume()
    va, vb = first.volume(), second.volume()
    return {"a": va, "b": vb, "common": common, "union": va + vb - common}, None, meshes, repairs


def _manifolds(meshes, shapes, diagonal, aligned=None) -> tuple:
    """(the meshes, a replacement standing for its side; the manifold3d solid of each side
    or None; what was tried on each; {role: how it was made a manifold}) by
    meshing.manifold_for. With no manifold3d, the meshes as they are."""
    meshes = list(meshes)
    if meshing.manifold_missing():
        return meshes, [None, None], ["", ""], {}
    solids, tried, repairs = [], [], {}
    for index, (mesh, shape) in enumerate(zip(meshes, shapes, strict=True)):
        own = None if aligned is None else aligned[index]
        solid, steps, replacement = meshing.manifold_for(mesh, shape, diagonal, own)
        if replacement is not None:
            meshes[index] = replacement
        if solid is not None and steps:
            repairs[("reference", "candidate")[index]] = f"{steps[0]}; {steps[-1]}"
        solids.append(solid)
        tried.append(", ".join(steps))
    return meshes, solids, tried, repairs


def _diagnostics(figures, meshes, shapes) -> dict:
    """Volume, size, position and area ratios of the aligned pair, read off the fine meshes
    (volumes excepted: figures holds the exact ones where they were measured).

    The meshes are within mesh_deflection_rel (5e-4) of the diagonal of the surfaces, far
    inside what the diagnostics are read for (standard.INTERPRETATION: 2 % size, 1 %
    centre offset); OpenCASCADE's exact centre of mass and optimal bounding box cost 0.9 s
    of CPU on NIST FTC-08 (the box is made again on the aligned copy, which has no
    triangulation), and on B-spline thread flanks about a second per solid."""
    (box_a, centre_a, area_a), (box_b, centre_b, area_b) = (
        _mesh_properties(mesh) if len(mesh[1]) else _shape_properties(shape)
        for mesh, shape in zip(meshes, shapes, strict=True)
    )
    size_a, size_b = box_a[3:] - box_a[:3], box_b[3:] - box_b[:3]
    lo, hi = np.maximum(box_a[:3], box_b[:3]), np.minimum(box_a[3:], box_b[3:])
    inter = float(np.prod(np.clip(hi - lo, 0, None)))
    union = float(np.prod(size_a) + np.prod(size_b) - inter)
    ratios = np.where(size_a > 0, size_b / np.where(size_a > 0, size_a, 1), 0.0)
    return {
        "volume_ratio": figures["volumeB"] / figures["volumeA"] if figures["volumeA"] else 0.0,
        "center_offset": float(np.linalg.norm(centre_b - centre_a)),
        "bbox_iou": inter / union if union > 0 else 0.0,
        "size_ratio_x": float(ratios[0]),
        "size_ratio_y": float(ratios[1]),
        "size_ratio_z": float(ratios[2]),
        "surface_ratio": area_b / area_a if area_a else 0.0,
        "reference_diagonal": float(np.linalg.norm(size_a)),
    }


def _shape_properties(shape):
    """Bounding box, centre of volume and area from OpenCASCADE (a shape with no mesh)."""
    box = shape.BoundBox
    corners = np.array([box.XMin, box.YMin, box.ZMin, box.XMax, box.YMax, box.ZMax])
    return corners, _centre(shape), shape.Area


def _centre(shape):
    total, moment = 0.0, np.zeros(3)
    for solid in shape.Solids:
        total += solid.Volume
        moment += solid.Volume * np.array(tuple(solid.CenterOfMass))
    return moment / total if total else moment


def _mesh_properties(mesh):
    """Bounding box, centre of volume and area of a closed triangle mesh."""
    vertices, triangles = mesh
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    signed = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    centre = ((a + b + c) / 4.0 * signed[:, None]).sum(axis=0) / signed.sum()
    area = float(np.linalg.norm(np.cross(b - a, c - a), axis=1).sum() / 2)
    box = np.concatenate([vertices.min(axis=0), vertices.max(axis=0)])
    return box, centre, area
