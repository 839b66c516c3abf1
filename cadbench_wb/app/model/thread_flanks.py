# SPDX-License-Identifier: LGPL-2.1-or-later
"""Helical flanks: the faces one screw motion slides along themselves, grouped by screw.

A surface is helical when one screw motion (turn about an axis while advancing by the lead)
slides it along itself: every point p with normal n satisfies n . v(p) = 0 for the screw's
velocity field v(p) = c_bar + c x p, a linear complex (Pottmann and Wallner, kinematic
surfaces). The fit is one 6x6 eigenproblem, whatever the kernel's surface type (PartDesign
sweep, lofted or ruled B-spline, STEP import).

Tolerances are dimensionless, so they follow the thread's size: the residual of a sample is
n . v / |v|, the sine of the angle between the surface and the screw's motion there. It is
the same number for an M3 and an M24 with the same relative modelling error, and a B-spline
that approximates a helicoid within a share e of its pitch tilts its normals by about e.
The fit is reweighted by 1 / |v|^2 so that it minimises exactly that residual.

A thread is read from its flanks as a whole: each face's own fit only proposes a screw; the
faces that screw slides (within the tolerance) are fitted together, and a group counts only
once its flanks go all the way round the axis. End tips, fade-outs and the last partial loop
fit screws of their own (often exactly, with a wrong lead) but cover less than a turn, so
they never seed a thread; they join the thread they touch as its run-out (threads.py).
"""

import dataclasses
import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app.model import mesh_solid

ANALYTIC_SURFACES = ("Plane", "Cylinder", "Cone", "Sphere", "Toroid")


@dataclasses.dataclass
class Screw:
    axis: np.ndarray  # unit vector
    point: np.ndarray  # on the axis
    lead: float  # signed: > 0 right-handed
    residual: float = 0.0  # rms of n . v / |v| over the fitted samples

    def residuals(self, points: np.ndarray, normals: np.ndarray) -> np.ndarray:
        """n . v / |v| of each sample: 0 on a surface this screw slides along itself."""
        velocity = _cross(self.axis, points - self.point) + (self.lead / (2 * math.pi)) * self.axis
        speed = np.linalg.norm(velocity, axis=1)
        return np.einsum("ij,ij->i", normals, velocity) / np.maximum(speed, 1e-300)


def _cross(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Row-wise cross product (either side may be one vector): np.cross costs ten times
    more on these small arrays."""
    a, b = np.atleast_2d(first), np.atleast_2d(second)
    return np.column_stack(
        [
            a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
            a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
            a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0],
        ]
    )


@dataclasses.dataclass
class FaceSamples:
    face: object  # the Part.Face
    index: int
    points: np.ndarray
    normals: np.ndarray
    own: Screw | None = None  # the face's own screw fit, if it has a unique one
    _edges: np.ndarray | None = None
    _area: float | None = None

    def area(self) -> float:
        """The face's surface area over its parameter range (untrimmed), from the first
        derivatives at a few of its samples: enough to weigh faces, fifty times cheaper than
        OpenCASCADE's integral on a B-spline."""
        if self._area is None:
            u0, u1, v0, v1 = self.face.ParameterRange
            elements = []
            for u, v in _lattice(u0, u1, v0, v1, 16):
                d_u, d_v = self.face.derivative1At(u, v)
                elements.append(d_u.cross(d_v).Length)
            self._area = float(np.mean(elements)) * (u1 - u0) * (v1 - v0)
        return self._area

    def edge_points(self) -> np.ndarray:
        """Points along the face's edges, a few degrees apart on a thread's loop: where the
        face's extremes along and away from a helix axis lie (a helicoid patch has no
        interior extreme of either), and what tells how far round the axis it goes."""
        if self._edges is None:
            # By sagitta: cheap (0.2 ms an edge, ten times less than by count) and as dense
            # on a long helix as on a short one.
            sagitta = standard.THREADS["edge_sagitta_rel"] * self.face.BoundBox.DiagonalLength
            points = []
            for edge in self.face.Edges:
                points += [tuple(p) for p in edge.discretize(Deflection=max(sagitta, 1e-7))]
            self._edges = np.array(points) if points else self.points[:0]
        return self._edges


def _lattice(u0: float, u1: float, v0: float, v1: float, count: int) -> list[tuple]:
    """count parameter pairs of a rank-1 (Fibonacci) lattice over the rectangle: evenly
    spread, and no two share a u or a v, so a face that winds several turns is never
    sampled at the same angle over and over (a 5 x 5 grid on a three-turn face puts its
    columns 270 degrees apart, two of them at one angle)."""
    golden = (math.sqrt(5) - 1) / 2
    return [
        (u0 + (u1 - u0) * (k + 0.5) / count, v0 + (v1 - v0) * ((k * golden + 0.5) % 1.0))
        for k in range(count)
    ]


def face_samples(face, index: int, count: int) -> FaceSamples | None:
    """Points and oriented normals at count x count parameter pairs of a lattice over the
    face's parameter range. They lie on the face's surface, possibly past a trimmed face's
    edges: a helicoid trimmed by a plane or a cone is still the same helicoid there, so they
    serve the fit (asking OpenCASCADE which are inside costs 2 ms a point); extremes come
    from the edges."""
    u0, u1, v0, v1 = face.ParameterRange
    surface = face.Surface
    points, normals = [], []
    for u, v in _lattice(u0, u1, v0, v1, count * count):
        try:
            normal = face.normalAt(u, v)
        except Exception:  # a singular point (apex, pole) has no normal
            continue
        points.append(tuple(surface.value(u, v)))
        normals.append(tuple(normal))
    if len(points) < 12:
        return None
    return FaceSamples(face, index, np.array(points), np.array(normals))


def screw_fit(points: np.ndarray, normals: np.ndarray) -> Screw | None:
    """The screw motion that slides the sampled surface along itself, or None when the
    samples admit no unique screw (a cylinder, a plane, a patch too small to tell) or no
    helical one (a surface of revolution, an extrusion)."""
    params = standard.THREADS
    centre = points.mean(axis=0)
    scale = float(np.abs(points - centre).max())
    if scale <= 0:
        return None
    local = (points - centre) / scale
    rows = np.hstack([normals, _cross(local, normals)])
    scales = np.ones(len(rows))
    for _ in range(params["fit_reweightings"] + 1):
        # The least-squares eigenvectors are the right singular vectors of the weighted rows:
        # SVD is also better conditioned than eigh on rows^T rows, and with FreeCAD loaded
        # LAPACK's eigh costs 3-8 ms on a 6x6 where the SVD of 300 x 6 rows costs 0.05.
        vectors = np.linalg.svd(rows * scales[:, None], full_matrices=False)[2]
        best = vectors[-1]
        speed = np.linalg.norm(best[:3] + _cross(best[3:], local), axis=1)
        scales = 1.0 / np.maximum(speed, 1e-12)
    second = vectors[-2]
    second_speed = np.linalg.norm(second[:3] + _cross(second[3:], local), axis=1)
    second_residual = _rms(rows @ second / np.maximum(second_speed, 1e-12))
    c_bar, c = best[:3], best[3:]
    norm2 = float(c @ c)
    if norm2 < 1e-12:
        return None  # a pure translation: an extrusion, not a helix
    per_radian = float(c @ c_bar) / norm2 * scale
    if abs(per_radian) * 2 * math.pi < params["min_lead_rel"] * scale:
        return None  # a surface of revolution
    screw = Screw(c / math.sqrt(norm2), centre + scale * np.cross(c, c_bar) / norm2, 0.0)
    screw.lead = 2 * math.pi * per_radian
    screw.residual = _rms(screw.residuals(points, normals))
    if second_residual < params["fit_unique"]:
        return None  # two independent screws fit: a cylinder, a plane, a tiny patch
    return screw


def _rms(values: np.ndarray) -> float:
    return float(np.sqrt(np.mean(values**2))) if len(values) else 0.0


class Stack:
    """Every face's samples in one array, so that one screw is tested on all at once."""

    def __init__(self, faces: list[FaceSamples]):
        self.faces = faces
        self.points = np.vstack([s.points for s in faces])
        self.normals = np.vstack([s.normals for s in faces])
        self.owner = np.concatenate([np.full(len(s.points), k) for k, s in enumerate(faces)])
        self.counts = np.bincount(self.owner, minlength=len(faces)).astype(float)

    def slid(self, screw: Screw) -> np.ndarray:
        """Per face: True when the screw slides it along itself and it is a flank (its
        normals lean on the axis; a crest or root strip with radial normals fits any
        screw)."""
        params = standard.THREADS
        squares = screw.residuals(self.points, self.normals) ** 2
        rms = np.sqrt(np.bincount(self.owner, squares, len(self.faces)) / self.counts)
        leaning = np.bincount(self.owner, np.abs(self.normals @ screw.axis), len(self.faces))
        return (rms <= params["fit_residual"]) & (leaning / self.counts >= params["min_flank_cos"])


def free_form_samples(shape, count: int) -> list[FaceSamples]:
    """Samples of every face that is not a plane, cylinder, cone, sphere or torus: a helical
    flank is none of those, whatever it was made with."""
    found = []
    for index, face in enumerate(shape.Faces):
        if type(face.Surface).__name__ in ANALYTIC_SURFACES:
            continue
        samples = face_samples(face, index, count)
        if samples is not None:
            found.append(samples)
    return found


def own_fit(samples: FaceSamples) -> Screw | None:
    """The face's own screw, when it is a flank of one."""
    screw = screw_fit(samples.points, samples.normals)
    if screw is None or screw.residual > standard.THREADS["fit_residual"]:
        return None
    if float(np.abs(samples.normals @ screw.axis).mean()) < standard.THREADS["min_flank_cos"]:
        return None  # normals square to the axis: a helical strip, not a flank
    return screw


def flank_groups(
    faces: list[FaceSamples], first_only: bool = False
) -> list[tuple[Screw, list[FaceSamples]]]:
    """(screw, flank faces) of every group of faces one screw slides that goes all the way
    round its axis. Each face's own fit proposes a screw, largest faces first; the faces it
    slides are fitted together until the group no longer changes; two groups one screw
    slides together (a seed whose own fit was off by more than the others' spread) are one.
    With first_only, the first group found is enough."""
    for samples in faces:
        samples.own = own_fit(samples)
    seeds = sorted((s for s in faces if s.own is not None), key=_seed_order)
    used: set[int] = set()
    groups: list[tuple[Screw, list[FaceSamples]]] = []
    stack = Stack(faces) if seeds else None
    for seed in seeds:
        if seed.index in used:
            continue
        free = np.array([s.index not in used for s in faces])
        screw, members = _grown(seed, stack, free)
        if screw is None or not goes_round(screw, members):
            continue
        used.update(s.index for s in members)
        if _run_outs_of_a_group(members, groups):
            continue
        if first_only:
            return [(screw, members)]
        for number, (_other, others) in enumerate(groups):
            joint = _joint_fit(others + members)
            if joint is not None:
                groups[number] = (joint, others + members)
                break
        else:
            groups.append((screw, members))
    return groups


def _run_outs_of_a_group(members: list[FaceSamples], groups) -> bool:
    """True when every face of a later, smaller group shares an edge with a group found
    before it: the fade-out tips of a multi-start thread. Each tip covers a quarter turn,
    but N starts place N of them round the axis, so together they go round and fit a screw
    of their own; they are the thread's run-outs (its band), not a thread."""
    area = sum(s.area() for s in members)
    for _screw, others in groups:
        if sum(s.area() for s in others) <= area:
            continue
        edges = {e.hashCode() for s in others for e in s.face.Edges}
        if all(any(e.hashCode() in edges for e in s.face.Edges) for s in members):
            return True
    return False


def _seed_order(samples: FaceSamples) -> tuple:
    """Largest sampled extent first (a whole loop before its fade-out), then face order."""
    return (-float(np.ptp(samples.points, axis=0).sum()), samples.index)


def _joint_fit(members: list[FaceSamples]) -> Screw | None:
    """The one screw that slides all these faces, if there is one."""
    joint = screw_fit(
        np.vstack([s.points for s in members]), np.vstack([s.normals for s in members])
    )
    if joint is None or joint.residual > standard.THREADS["fit_residual"]:
        return None
    return joint


def _grown(seed: FaceSamples, stack: Stack, free: np.ndarray):
    """The seed's screw refitted on all the free faces it slides, until they no longer
    change."""
    screw, members = seed.own, [seed]
    for _ in range(standard.THREADS["fit_rounds"]):
        chosen = stack.slid(screw) & free
        found = [s for s, keep in zip(stack.faces, chosen, strict=True) if keep or s is seed]
        if [s.index for s in found] == [s.index for s in members] and len(members) > 1:
            break
        joint = _joint_fit(found)
        if joint is None:
            break
        screw, members = joint, found
    return screw, members


def goes_round(screw: Screw, members: list[FaceSamples]) -> bool:
    """True when the flanks go all the way round the axis: their edges leave no angular gap
    wider than 360 / turn_sectors degrees. (The grid cannot tell: a 7 x 7 grid on a
    three-turn face is 150 degrees apart.)"""
    points = np.vstack([s.points for s in members] + [s.edge_points() for s in members])
    theta = np.sort(angles_about(points, screw))
    gaps = np.diff(np.concatenate([theta, [theta[0] + 2 * math.pi]]))
    return float(gaps.max()) <= 2 * math.pi / standard.THREADS["turn_sectors"]


def angles_about(points: np.ndarray, screw: Screw) -> np.ndarray:
    """Angle of each point about the screw's axis, from a fixed reference direction."""
    axis = screw.axis
    reference = np.cross(axis, [1.0, 0.0, 0.0])
    if np.linalg.norm(reference) < 0.5:
        reference = np.cross(axis, [0.0, 1.0, 0.0])
    reference /= np.linalg.norm(reference)
    other = np.cross(axis, reference)
    rel = points - screw.point
    return np.arctan2(rel @ other, rel @ reference)


# --- whether a shape has a modeled thread (asked on every scoring) ---------------------------


# The answers of has_modeled_thread for the last shapes asked about, with the shapes
# themselves (held, so that no other shape takes an id meanwhile): one scoring asks about
# each of its shapes from alignment, the shape stage and the meshes (four times a pair).
_ANSWERED: list = []
_ANSWERS_KEPT = 4


def has_modeled_thread(shape) -> bool:
    """Whether the shape has a modeled thread (modeled_thread_found), answered once per
    shape object: a rigidly moved copy registered by same_thread_as shares the answer. A
    triangle mesh (STL/OBJ) has planar faces only, never a helical flank."""
    if mesh_solid.is_triangles(shape):
        return False
    for known, answer in _ANSWERED:
        if known is shape:
            return answer
    answer = modeled_thread_found(shape)
    _remember(shape, answer)
    return answer


def same_thread_as(moved, original) -> None:
    """moved is original moved rigidly (a placed copy): has_modeled_thread gives it the
    original's answer, once the original has one, without reading it again."""
    for known, answer in _ANSWERED:
        if known is original:
            _remember(moved, answer)
            return


def _remember(shape, answer: bool) -> None:
    _ANSWERED.append((shape, answer))
    del _ANSWERED[:-_ANSWERS_KEPT]


def modeled_thread_found(shape) -> bool:
    """True when the shape has helical flanks that go all the way round an axis, whatever
    they end in (fade-out, square cut, chamfer): a cheap pass of app/recognition/threads.py's reading,
    run on every scoring. A 5 x 5 lattice per free-form face (nothing to do on parts of
    planes, cylinders, cones, spheres and tori); the first face that fits a screw and goes
    round by itself (a loop, a whole flank) settles it, else the faces are grouped as
    its modeled_threads groups them. One face fitting a screw is not enough: blends on real
    parts do, to 3e-3 (NIST CTC 02, CTC 05, FTC 07), over a fraction of a turn."""
    faces = []
    for index, face in enumerate(shape.Faces):
        if type(face.Surface).__name__ in ANALYTIC_SURFACES:
            continue
        samples = face_samples(face, index, standard.THREADS["quick_grid"])
        if samples is None:
            continue
        own = own_fit(samples)
        if own is not None and goes_round(own, [samples]):
            return True
        faces.append(samples)
    return bool(faces) and bool(flank_groups(faces, first_only=True))
