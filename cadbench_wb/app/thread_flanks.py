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

ANALYTIC_SURFACES = ("Plane", "Cylinder", "Cone", "Sphere", "Toroid")


@dataclasses.dataclass
class Screw:
    axis: np.ndarray  # unit vector
    point: np.ndarray  # on the axis
    lead: float  # signed: > 0 right-handed
    residual: float = 0.0  # rms of n . v / |v| over the fitted samples

    def residuals(self, points: np.ndarray, normals: np.ndarray) -> np.ndarray:
        """n . v / |v| of each sample: 0 on a surface this screw slides along itself."""
        rel = points - self.point
        velocity = np.cross(self.axis, rel) + (self.lead / (2 * math.pi)) * self.axis
        speed = np.linalg.norm(velocity, axis=1)
        return np.einsum("ij,ij->i", normals, velocity) / np.maximum(speed, 1e-300)


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
        """The grid's area (its quadrilaterals, over the untrimmed parameter range): enough
        to weigh faces, fifty times cheaper than OpenCASCADE's integral on a B-spline."""
        if self._area is None:
            side = math.isqrt(len(self.points))
            if side * side == len(self.points):
                grid = self.points.reshape(side, side, 3)
                along_u, along_v = np.diff(grid, axis=0)[:, :-1], np.diff(grid, axis=1)[:-1]
                self._area = float(np.linalg.norm(np.cross(along_u, along_v), axis=2).sum())
            else:  # a singular point was left out of the grid
                self._area = float(self.face.Area)
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


def face_samples(face, index: int, count: int) -> FaceSamples | None:
    """Points and oriented normals on a count x count grid of the face's parameter range.
    They lie on the face's surface, possibly past a trimmed face's edges: a helicoid trimmed
    by a plane or a cone is still the same helicoid there, so they serve the fit (asking
    OpenCASCADE which are inside costs 2 ms a point); extremes come from the edges."""
    u0, u1, v0, v1 = face.ParameterRange
    surface = face.Surface
    points, normals = [], []
    for u in np.linspace(u0, u1, count):
        for v in np.linspace(v0, v1, count):
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
    rows = np.hstack([normals, np.cross(local, normals)])
    weights = np.ones(len(rows))
    for _ in range(params["fit_reweightings"] + 1):
        values, vectors = np.linalg.eigh((rows * weights[:, None]).T @ rows)
        best = vectors[:, 0]
        speed = np.linalg.norm(best[:3] + np.cross(best[3:], local), axis=1)
        weights = 1.0 / np.maximum(speed, 1e-12) ** 2
    second = vectors[:, 1]
    second_speed = np.linalg.norm(second[:3] + np.cross(second[3:], local), axis=1)
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


def slides(screw: Screw, samples: FaceSamples) -> bool:
    """True when the screw slides this face along itself and the face is a flank (its
    normals lean on the axis; a crest or root strip with radial normals fits any screw)."""
    params = standard.THREADS
    if _rms(screw.residuals(samples.points, samples.normals)) > params["fit_residual"]:
        return False
    return float(np.abs(samples.normals @ screw.axis).mean()) >= params["min_flank_cos"]


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


def flank_groups(faces: list[FaceSamples]) -> list[tuple[Screw, list[FaceSamples]]]:
    """(screw, flank faces) of every group of faces one screw slides that goes all the way
    round its axis. Each face's own fit proposes a screw, largest faces first; the faces it
    slides are fitted together until the group no longer changes; two groups one screw
    slides together (a seed whose own fit was off by more than the others' spread) are one."""
    for samples in faces:
        samples.own = own_fit(samples)
    seeds = sorted((s for s in faces if s.own is not None), key=_seed_order)
    used: set[int] = set()
    groups: list[tuple[Screw, list[FaceSamples]]] = []
    for seed in seeds:
        if seed.index in used:
            continue
        screw, members = _grown(seed, [s for s in faces if s.index not in used])
        if screw is None or not goes_round(screw, members):
            continue
        used.update(s.index for s in members)
        for number, (_other, others) in enumerate(groups):
            joint = _joint_fit(others + members)
            if joint is not None:
                groups[number] = (joint, others + members)
                break
        else:
            groups.append((screw, members))
    return groups


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


def _grown(seed: FaceSamples, faces: list[FaceSamples]):
    screw, members = seed.own, [seed]
    for _ in range(standard.THREADS["fit_rounds"]):
        found = [s for s in faces if s is seed or slides(screw, s)]
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
