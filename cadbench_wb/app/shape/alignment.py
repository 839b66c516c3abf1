# SPDX-License-Identifier: LGPL-2.1-or-later
"""Best-possible rigid alignment of a candidate onto its reference (seed 000).

Proper rotations and translations only: a mirror image is never aligned onto its
reference and scale is never aligned away. Poses are proposed from the pose as delivered,
the 24 axis-aligned rotations between the two solids' principal frames of inertia, a
sweep about the unique axis of axisymmetric parts, and frames from dominant face
directions (with their 24 axis-aligned rotations). Every proposal is scored by a cheap
proxy (interior points of each solid tested against the other's column occupancy), the
leading ones are refined by point-to-plane ICP until none left could beat the best, and
the winner is snapped onto exactly coinciding B-rep vertices so that the exact booleans
(shape_fidelity.py, run once on the final pose) see shared faces as shared. When nothing
snaps (a partial match: ICP fits surfaces, not overlap), starts between the canonical
frames (proposals, seeded uniform turns, bounding boxes flush) are refined by the IoU
itself (_Overlap) and the exact booleans pick among the best few. The candidate's side of
every sampled estimate lives in its canonical frame (centroid and principal axes, signed
by its third moments, what they leave open settled by its vertices: settled_frame), so
the pose it is delivered in does not change the samples, and the starts are rotations
between frames, which do not depend on it either. A copy is confirmed as soon as a
proposal snaps onto all its vertices, without ICP. The fine tessellations made here are
handed on for the cross-checks.
"""

import dataclasses
import itertools
import math
import re

import numpy as np
import Part
from scipy.spatial import cKDTree

from cadbench_wb import standard
from cadbench_wb.app.model import mesh_solid, meshing, placement
from cadbench_wb.app.shape import exact
from cadbench_wb.geometry import icp, kept, rigid, sampling
from cadbench_wb.geometry.sampling import ColumnOccupancy


@dataclasses.dataclass
class Pose:
    rotation: np.ndarray
    translation: np.ndarray
    proxy_iou: float = 0.0
    origin: str = ""

    def as_dict(self) -> dict:
        return {
            "rotation": self.rotation.tolist(),
            "translation": self.translation.tolist(),
            "proxyIoU": self.proxy_iou,
            "origin": self.origin,
        }


@dataclasses.dataclass
class Alignment:
    best: Pose
    ambiguous: bool
    alternatives: list[Pose]
    evaluated: int
    degeneracy: str
    meshes: tuple | None = None  # fine (vertices, triangles) of reference and candidate
    refined: int = 0  # proposals refined by ICP

    @property
    def snapped(self) -> bool:
        """Whether the pose puts the candidate's B-rep vertices exactly on the reference's
        (_snapped): shared faces then coincide to rounding error."""
        return "vertex snap" in self.best.origin

    def aligned_meshes(self) -> tuple | None:
        """The fine meshes of the reference and of the candidate in the best pose, for the
        cross-checks (moving the vertices costs nothing; tessellating again would)."""
        if self.meshes is None:
            return None
        mesh_ref, (vertices, triangles) = self.meshes
        moved = vertices @ self.best.rotation.T + self.best.translation
        return mesh_ref, (moved, triangles)

    def as_dict(self) -> dict:
        angle = rigid.angle_between(np.eye(3), self.best.rotation)
        return {
            "rotation": self.best.rotation.tolist(),
            "translation": self.best.translation.tolist(),
            "rotationAngleDeg": angle,
            "proxyIoU": self.best.proxy_iou,
            "origin": self.best.origin,
            "ambiguous": self.ambiguous,
            "alternatives": [p.as_dict() for p in self.alternatives[:ALTERNATIVES_LISTED]],
            "alternativeCount": len(self.alternatives),
            "posesEvaluated": self.evaluated,
            "posesRefined": self.refined,
            "inertia": self.degeneracy,
        }


def mass_properties(shape) -> tuple[float, np.ndarray, np.ndarray]:
    """Volume, centroid and inertia tensor about the centroid (unit density) of all solids."""
    total, moment = 0.0, np.zeros(3)
    parts = []
    for solid in shape.Solids:
        volume = solid.Volume
        centre = np.array(tuple(solid.CenterOfMass))
        matrix = solid.MatrixOfInertia
        inertia = np.array([[matrix.A[4 * i + j] for j in range(3)] for i in range(3)])
        parts.append((volume, centre, inertia))
        total += volume
        moment += volume * centre
    centroid = moment / total
    tensor = np.zeros((3, 3))
    for volume, centre, inertia in parts:
        d = centre - centroid
        tensor += inertia + volume * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
    return total, centroid, tensor


def mesh_mass_properties(vertices: np.ndarray, triangles: np.ndarray):
    """Volume, centroid and inertia tensor about the centroid (unit density) of a closed,
    outward triangle mesh: sums over the tetrahedra each triangle makes with a fixed point
    (the box centre, against cancellation). For a tetrahedron (0, a, b, c) of signed volume
    det / 6, the integral of x x^T is det / 120 (a a^T + b b^T + c c^T + s s^T), s = a+b+c."""
    origin = (vertices.min(axis=0) + vertices.max(axis=0)) / 2
    a, b, c = (vertices[triangles[:, k]] - origin for k in range(3))
    det = np.einsum("ij,ij->i", a, np.cross(b, c))
    volume = float(det.sum() / 6)
    centre = ((a + b + c) * det[:, None]).sum(axis=0) / 24 / volume
    total = a + b + c
    second = sum(np.einsum("i,ij,ik->jk", det, v, v) for v in (a, b, c, total)) / 120
    second -= volume * np.outer(centre, centre)  # about the centroid
    inertia = np.trace(second) * np.eye(3) - second
    return volume, centre + origin, inertia


def rigid_diameter(shape) -> float:
    """Twice the largest distance of a B-rep vertex from their mean (a box's diagonal): a
    size no rigid motion changes; the bounding box's diagonal for a shape with fewer than
    two vertices (a sphere)."""
    points = vertex_points(shape)
    if len(points) < 2:
        return shape.BoundBox.DiagonalLength
    return float(2 * np.linalg.norm(points - points.mean(axis=0), axis=1).max())


def canonical_frame(vertices: np.ndarray, triangles: np.ndarray, inertia: np.ndarray):
    """The principal frame of a closed mesh (columns, right-handed), each axis signed so
    that the solid's third moment along it is positive: the same frame, relative to the
    solid, in whatever pose the solid is delivered. (An axis whose third moment vanishes,
    a mirror-symmetric direction, keeps eigh's sign: the solid looks the same either way
    along it, up to what ICP and the IoU refinement settle.)"""
    _, frame = rigid.principal_frame(inertia)
    frame = frame.copy()
    moments = third_moments(vertices, triangles, frame)
    scale = max(float(np.abs(moments).max()), 1e-300)
    flips = np.where(moments < -1e-9 * scale, -1.0, 1.0)
    frame *= flips
    if np.linalg.det(frame) < 0:
        weakest = int(np.argmin(np.abs(moments)))
        frame[:, weakest] *= -1
    return frame


def settled_frame(mesh, inertia: np.ndarray, points: np.ndarray, gap: float) -> tuple:
    """canonical_frame with what the solid's moments leave open settled by its vertices, so
    that a symmetric candidate's samples (alignment._Overlap) are the same in every pose.

    A mirror-symmetric direction (third moment below SIGN_OPEN x V x size^3, rounding
    there) is signed by the third moment of the B-rep vertices (points), else of the mesh
    vertices, else left as it is (both vertex sets are then symmetric along it, and either
    sign gives the same samples). The plane of two equal moments (a turned part: eigh's
    axes in it follow the rounding of the delivered pose) is turned to the phase of the
    first circular harmonic of the vertices about the unique axis that is not negligible
    (PHASE_OPEN of its total): the seam of a surface of revolution, or a bolt circle's
    holes (their own symmetry is then the only freedom left).

    Returns the frame and the proper flips of its axes (diagonal matrices) that it leaves
    open and that map the mesh's vertices onto themselves: a symmetry of the candidate,
    under which _Overlap makes its samples symmetric too, so that either choice of the
    open signs gives the same estimates."""
    vertices, triangles = mesh
    frame = canonical_frame(vertices, triangles, inertia)
    kind = rigid.degeneracy(rigid.principal_frame(inertia)[0], gap)
    if kind == "full":
        return frame, []
    volume, centre, _ = mesh_mass_properties(vertices, triangles)
    size = max(float(np.linalg.norm(vertices - centre, axis=1).max()), 1e-300)
    clouds = [p - centre for p in (points, vertices) if len(p)]
    unique = {"axial0": 0, "axial2": 2}.get(kind)
    moments = third_moments(vertices, triangles, frame)
    strength = np.abs(moments) / (abs(volume) * size**3)
    for k in range(3) if unique is None else (unique,):
        if strength[k] > SIGN_OPEN:
            continue
        for cloud in clouds:
            along = cloud @ frame[:, k]
            total = float(np.sum(along**3))
            if abs(total) > SIGN_OPEN * max(float(np.sum(np.abs(along) ** 3)), 1e-300):
                frame[:, k] *= -1 if total < 0 else 1
                strength[k] = 1.0  # settled
                break
    if unique is None:
        if np.linalg.det(frame) < 0:
            frame[:, int(np.argmin(strength))] *= -1
        open_axes = [k for k in range(3) if strength[k] <= SIGN_OPEN]
        flips = [np.diag(f) for f in _open_flips(open_axes)]
        return frame, _symmetries(flips, (vertices - centre) @ frame, size)
    a, b = (1, 2) if unique == 0 else (0, 1)
    if np.linalg.det(frame) < 0:
        frame[:, b] *= -1  # the plane's axes are free: the phase below settles them
    for cloud in clouds:
        x, y = cloud @ frame[:, a], cloud @ frame[:, b]
        radius = np.hypot(x, y)
        off = radius > 1e-6 * size
        if not off.any():
            continue
        phase = np.arctan2(y[off], x[off])
        for order in range(1, PHASE_HARMONICS + 1):
            harmonic = complex(np.sum(radius[off] * np.exp(1j * order * phase)))
            if abs(harmonic) > PHASE_OPEN * float(radius[off].sum()):
                turn = math.atan2(harmonic.imag, harmonic.real) / order
                first = math.cos(turn) * frame[:, a] + math.sin(turn) * frame[:, b]
                second = -math.sin(turn) * frame[:, a] + math.cos(turn) * frame[:, b]
                frame[:, a], frame[:, b] = first, second
                return frame, _axial_flips(frame, (vertices - centre), strength, (unique, b), size)
    return frame, _axial_flips(frame, (vertices - centre), strength, (unique, b), size)


def _open_flips(axes: list[int]) -> list[tuple]:
    """The proper sign flips (other than none) of the open axes alone."""
    flips = []
    for signs in itertools.product((1.0, -1.0), repeat=3):
        flipped = [k for k in range(3) if signs[k] < 0]
        if flipped and len(flipped) % 2 == 0 and set(flipped) <= set(axes):
            flips.append(signs)
    return flips


def _axial_flips(frame, cloud, strength, axes, size) -> list[np.ndarray]:
    """The half turn about the plane's first axis (the unique axis and the second one
    flipped), if the unique axis's sign was left open and it maps the vertices onto
    themselves."""
    unique, second = axes
    if strength[unique] > SIGN_OPEN:
        return []
    signs = np.ones(3)
    signs[[unique, second]] = -1
    return _symmetries([np.diag(signs)], cloud @ frame, size)


def _symmetries(flips, local: np.ndarray, size: float) -> list[np.ndarray]:
    """The flips (of the frame's coordinates) that map the vertices (local) onto
    themselves, to 1e-9 of the size."""
    tree = cKDTree(local)
    return [f for f in flips if tree.query(local @ f)[0].max() <= 1e-9 * size]


# settled_frame: a moment below this (relative) leaves its sign open; a harmonic below
# PHASE_OPEN of its total leaves the phase open (above it, the rounding of a delivered pose,
# 1e-11 of the size in a STEP file, moves the phase by less than 1e-7 rad).
SIGN_OPEN = 1e-8
PHASE_OPEN = 1e-4
PHASE_HARMONICS = 24


def third_moments(vertices: np.ndarray, triangles: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """Integral over the solid of u^3 along each column u of frame, about its centroid.

    Over a tetrahedron (0, a, b, c) of signed volume det / 6 the integral of (l . x)^3 is
    det / 120 times the complete symmetric sum of degree 3 of l.a, l.b, l.c."""
    volume, centre, _ = mesh_mass_properties(vertices, triangles)
    local = (vertices - centre) @ frame
    a, b, c = (local[triangles[:, k]] for k in range(3))
    det = np.einsum("ij,ij->i", a, np.cross(b, c))
    sums = a**3 + b**3 + c**3 + a * a * (b + c) + b * b * (a + c) + c * c * (a + b) + a * b * c
    return (det[:, None] * sums).sum(axis=0) / 120


def dominant_directions(shape, limit: int = 6) -> list[np.ndarray]:
    """Unit directions that carry most planar face area (outward normals) and cylinder axes.
    A triangle mesh's planar faces are its triangles: their normals and areas, read off the
    triangles (its polyhedron's 26,818 faces took 2 s to read one by one)."""
    if mesh_solid.is_triangles(shape):
        weights = list(zip(*mesh_solid.outward_normals(*shape.mesh), strict=True))
    else:
        weights = _face_directions(shape)
    merged = _merged_directions(weights, 0.9999)
    merged.sort(key=lambda e: (-round(e[1], 6), tuple(np.round(e[0], 6))))
    return [e[0] for e in merged[:limit]]


def _interior_points(inside, mesh, count: int, seed: int) -> np.ndarray:
    """Seeded points uniform in the solid's volume (uniform in its box, those inside kept).
    Not the columns' centre lines of ColumnOccupancy.interior_points: points on a lattice
    of lines leave the IoU flat over shifts of a column's width across them, which cost a
    bracket against a block 0.007 of IoU at the flush pose. All the inside points of whole
    batches are kept (about count of them): a point near the surface that one tessellation
    puts inside and another outside then changes that point only, not which later points
    make up the count."""
    vertices, _ = mesh
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    rng = np.random.default_rng(seed)
    box = float(np.prod(np.maximum(hi - lo, 1e-12)))
    batch = int(min(max(count * box / max(_mesh_volume(mesh), 1e-12 * box), count), 64 * count))
    points = lo + rng.random((batch, 3)) * (hi - lo)
    return points[inside(points)]


def _mesh_volume(mesh) -> float:
    vertices, triangles = mesh
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    return float(abs(np.einsum("ij,ij->i", a, np.cross(b, c)).sum()) / 6)


class _Overlap:
    """IoU of a pose from seeded interior points of each solid classified against the other
    by ray casting (exact on the fine meshes, unlike the proxy's columns), for refining a
    pose by the IoU itself. The candidate's points live in its canonical frame."""

    def __init__(self, mesh_ref, canonical_cand, volumes, sample):
        count, seed = sample
        self.mesh_ref = mesh_ref
        self.mesh_cand, self.frame, self.centre, flips = canonical_cand
        self.in_ref = kept.kept("inside test", mesh_ref, (), lambda: sampling.InsideTest(*mesh_ref))
        self.in_cand = sampling.InsideTest(*self.mesh_cand)
        self.ref_points = kept.kept(
            "interior points",
            mesh_ref,
            (count, seed),
            lambda: _interior_points(self.in_ref, mesh_ref, count, seed),
        )
        # A candidate symmetric under flips of its canonical frame (settled_frame's) gets
        # samples with that symmetry: which of the equal frames a pose delivered gives
        # then changes nothing.
        points = _interior_points(self.in_cand, self.mesh_cand, count // (1 + len(flips)), seed + 1)
        mirrored = [points @ f for f in flips]
        self.cand_points = np.vstack([points] + [m[self.in_cand(m)] for m in mirrored])
        self.volume_ref, self.volume_cand = volumes
        self.calls = 0
        # Estimates by pose (its bits): a pose asked again (a start rescored, a contender's
        # direction snap climbing over poses already seen) costs nothing.
        self.known: dict[bytes, float] = {}

    def __call__(self, rotation: np.ndarray, translation: np.ndarray) -> float:
        key = np.asarray(rotation, dtype=float).tobytes() + np.asarray(translation, float).tobytes()
        if key not in self.known:
            self.known[key] = self._estimate(rotation, translation)
        return self.known[key]

    def _estimate(self, rotation: np.ndarray, translation: np.ndarray) -> float:
        self.calls += 1
        rotation, translation = rotation @ self.frame, rotation @ self.centre + translation
        moved = self.cand_points @ rotation.T + translation
        precision = self.in_ref(moved).mean()
        recall = self.in_cand((self.ref_points - translation) @ rotation).mean()
        common = (precision * self.volume_cand + recall * self.volume_ref) / 2
        union = self.volume_ref + self.volume_cand - common
        return float(common / union) if union > 0 else 0.0

    def climb(self, pose: Pose, steps: tuple, levels: int, cap: int, turns: bool = True):
        """(pose, its IoU here, the steps left) after a compass search on this IoU from
        pose: each of the six motions (shifts along the axes first, then turns about the
        axes through the candidate's placed centroid) tried both ways at the current steps
        (mm, rad), the first that gains taken, the steps halved when none gains, for
        levels halvings or cap poses. Deterministic: the same points, order and steps for
        every start."""
        rotation, translation = pose.rotation, pose.translation
        best = self(rotation, translation)
        shift, turn = steps
        evaluations = 1
        # Shifts first: a partial match's best pose mostly keeps the faces parallel that the
        # starts made parallel, and a turn that gains a few sample points is often noise.
        moves = [(k, sign) for k in (3, 4, 5, 0, 1, 2)[: 6 if turns else 3] for sign in (1, -1)]
        while levels > 0 and evaluations < cap:
            gained = False
            for k, sign in moves:
                if evaluations >= cap:
                    break
                if k < 3:
                    spin = rigid.rotation_about(np.eye(3)[k], sign * turn)
                    pivot = rotation @ self.centre + translation
                    trial = (spin @ rotation, spin @ (translation - pivot) + pivot)
                else:
                    trial = (rotation, translation + sign * shift * np.eye(3)[k - 3])
                evaluations += 1
                value = self(*trial)
                if value > best:
                    best, (rotation, translation), gained = value, trial, True
            if not gained:
                shift, turn, levels = shift / 2, turn / 2, levels - 1
        origin = pose.origin if pose.origin.endswith(" + iou") else pose.origin + " + iou"
        return Pose(rotation, translation, pose.proxy_iou, origin), best, (shift, turn)


def _face_directions(shape) -> list[tuple[np.ndarray, float]]:
    """(direction, area) of each planar face's outward normal and each cylinder's axis."""
    weights = []
    for face in shape.Faces:
        surface = face.Surface
        if isinstance(surface, Part.Plane):
            u0, u1, v0, v1 = face.ParameterRange
            normal = face.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
            weights.append((np.array(tuple(normal)), face.Area))
        elif isinstance(surface, Part.Cylinder):
            axis = np.array(tuple(surface.Axis))
            weights.append((axis, face.Area))
            weights.append((-axis, face.Area))
    return weights


# The 27 grid cells around a cell (itself included), for _merged_directions.
_NEIGHBOUR_CELLS = [(i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]


def _merged_directions(weights, cos_min: float) -> list[list]:
    """[direction, summed area] in first-seen order: each direction joins the first earlier
    entry within cos_min of it, or starts one.

    Only entries in the 27 grid cells around a direction can be that close (cells as wide
    as the chord of that angle), so each direction is compared with a few entries instead
    of all: an STL candidate's thousands of triangles, each its own direction, took 30 s
    of CPU (26818 triangles: 90 s) when every entry was compared. The entries found are
    the same ones, in the same order, as comparing with all of them."""
    cell = math.sqrt(2.0 - 2.0 * cos_min)
    grid: dict[tuple, list[int]] = {}
    merged: list[list] = []
    for direction, area in weights:
        direction = direction / np.linalg.norm(direction)
        key = tuple(int(v) for v in np.floor(direction / cell))
        near = sorted(
            index
            for offset in _NEIGHBOUR_CELLS
            for index in grid.get((key[0] + offset[0], key[1] + offset[1], key[2] + offset[2]), ())
        )
        for index in near:
            if np.dot(merged[index][0], direction) > cos_min:
                merged[index][1] += area
                break
        else:
            grid.setdefault(key, []).append(len(merged))
            merged.append([direction, area])
    return merged


class _Proxy:
    """IoU estimated from interior points of each solid tested against the other solid.

    The same seeded points serve every pose, so the differences between poses are not
    sampling noise but geometry.
    """

    def __init__(self, mesh_ref, canonical_cand, volume_ref, volume_cand, params):
        columns, count, seed = params["proxy_columns"], params["proxy_points"], params["proxy_seed"]
        mesh_cand, self.frame, self.centre = canonical_cand
        # The reference's side, as the last job against this reference made it (kept.py).
        self.ref = kept.kept(
            "column occupancy", mesh_ref, (columns,), lambda: ColumnOccupancy(*mesh_ref, columns)
        )
        self.cand = ColumnOccupancy(*mesh_cand, columns)
        self.ref_points = kept.kept(
            "column interior points",
            mesh_ref,
            (columns, count, seed),
            lambda: self.ref.interior_points(count, seed),
        )
        self.cand_points = self.cand.interior_points(count, seed + 1)
        self.volume_ref, self.volume_cand = volume_ref, volume_cand
        self.calls = 0

    def __call__(self, rotation: np.ndarray, translation: np.ndarray) -> float:
        self.calls += 1
        # The pose of the delivered candidate, as a pose of its canonical mesh.
        rotation, translation = rotation @ self.frame, rotation @ self.centre + translation
        precision = self.ref.contains(self.cand_points @ rotation.T + translation).mean()
        recall = self.cand.contains((self.ref_points - translation) @ rotation).mean()
        common = (precision * self.volume_cand + recall * self.volume_ref) / 2
        union = self.volume_ref + self.volume_cand - common
        return float(common / union) if union > 0 else 0.0


def align(reference, candidate) -> Alignment:
    """The best proper rigid pose of candidate onto reference, with its ambiguity."""
    params = standard.ALIGNMENT
    # The candidate's size by a measure its pose cannot change (its bounding box grows when
    # it is turned), so that its tessellation, and every sample drawn on it, is the same
    # in whatever pose it is delivered.
    diagonal = max(reference.BoundBox.DiagonalLength, rigid_diameter(candidate))
    mesh_ref, mesh_cand = meshing.cross_check_meshes(reference, candidate, diagonal)
    # The frames come from the fine meshes: proposals only need them to the mesh's volume
    # error (1e-4, far inside degenerate_moment_gap), and OpenCASCADE's exact volume,
    # centre and inertia cost about 1.2 s each on B-spline thread flanks.
    v_ref, c_ref, i_ref = mesh_mass_properties(*mesh_ref)
    v_cand, c_cand, i_cand = mesh_mass_properties(*mesh_cand)
    values_ref, _ = rigid.principal_frame(i_ref)
    frame_ref = canonical_frame(*mesh_ref, i_ref)
    kind = rigid.degeneracy(values_ref, params["degenerate_moment_gap"])
    # The proxy keeps the candidate as delivered: in the canonical frame its columns run
    # along a turned part's axis, too coarse across it for the phase snap's comparisons
    # (a moved copy of the bundled turned shaft then no longer snapped). The IoU
    # refinement below, which decides partial matches, is the part done canonically.
    proxy = _Proxy(mesh_ref, (mesh_cand, np.eye(3), np.zeros(3)), v_ref, v_cand, params)
    # The pose as delivered is always a proposal: candidates are often modeled in the
    # reference's own frame, and then no motion at all is the best-possible alignment.
    proposals = [(np.eye(3), "as given")]
    # Proposals from eigh's frames, as before the canonical ones: a turned part's sweep and
    # phase snap were tuned on them (the sets of 24 rotations between frames are the same).
    eigen_ref, eigen_cand = rigid.principal_frame(i_ref)[1], rigid.principal_frame(i_cand)[1]
    proposals += _proposed_rotations(kind, eigen_ref, eigen_cand, reference, candidate, params)
    poses = []
    for rotation, origin in proposals:
        translation = np.zeros(3) if origin == "as given" else c_ref - rotation @ c_cand
        poses.append(Pose(rotation, translation, proxy(rotation, translation), origin))
    # The starts of the IoU refinement: proposals between frames only (not the pose as
    # given, which exists in one delivered pose alone).
    invariant = [p for p in poses if p.origin != "as given"]
    poses = _distinct(_leading(sorted(poses, key=_rank), params), params["distinct_pose_deg"])
    matcher = kept.kept("plane matcher", mesh_ref, (), lambda: icp.PlaneMatcher(*mesh_ref))
    moving, moving_normals = icp.surface_samples(*mesh_cand, params["icp_moving_points"], 12)
    judge = _Judge(mesh_ref, mesh_cand, params)
    refined = []
    # Refine in proxy order until no unrefined proposal could still win: one that would
    # not beat the best refined proxy by more than the proxy's noise even if ICP gained
    # on it what it can gain. That is estimated from the gains ICP made here (twice the
    # largest), never above refine_margin: on a perfect copy ICP gains nothing, so equal
    # starts (the sweeps of a turned part) are not all refined to the same figure.
    count, gain = 0, 0.0

    def snap(pose: Pose) -> Pose:
        return _snapped(pose, reference, candidate, proxy, params)

    # A copy: equal volumes, and every B-rep vertex of each on one of the other's once
    # snapped. Then the pose is confirmed before ICP (a pose that snaps has its vertices on
    # the same pairs whatever ICP did to it first, and Kabsch on the same pairs gives the
    # same pose to the last bit), and ICP is not run on it.
    copy = None
    equal = min(v_ref, v_cand) >= (1 - params["proxy_noise"]) * max(v_ref, v_cand)
    corners = (len(vertex_points(reference)), len(vertex_points(candidate))) if equal else ()
    for pose in poses:
        leader = max((p.proxy_iou for p in refined), default=0.0)
        reach = pose.proxy_iou + min(params["refine_margin"], 2 * gain)
        if leader >= 1 - params["proxy_noise"]:
            break  # a refined pose already fits to the proxy's resolution: none can beat it
        if count >= params["refine_top"] and (
            reach <= leader + params["proxy_noise"] or count >= params["refine_max"]
        ):
            break
        count += 1
        if copy is None and equal and corners[0] == corners[1] and pose.proxy_iou >= leader:
            copy = _confirmed_copy(snap(pose), corners[0])
            if copy is not None:
                refined.append(copy)
                continue
        rotation, translation = matcher.refine(
            moving,
            pose.rotation,
            pose.translation,
            params["icp_iterations"],
            moving_normals=moving_normals,
        )
        improved = Pose(rotation, translation, proxy(rotation, translation), pose.origin + " + icp")
        gain = max(gain, improved.proxy_iou - pose.proxy_iou)
        if max(pose.proxy_iou, improved.proxy_iou) < leader - params["proxy_noise"]:
            # Neither can win: no need for the judge to settle which of the two is better.
            refined.append(max((pose, improved), key=lambda p: p.proxy_iou))
        else:
            refined.append(_better(pose, improved, judge, params, snap))
    poses = _distinct(sorted(refined + poses[count:], key=_rank), params["distinct_pose_deg"])
    axis = None
    if kind in ("axial0", "axial2"):
        axis = (frame_ref[:, 0 if kind == "axial0" else 2], c_ref)

    def snapped(pose: Pose) -> Pose:
        pose = _snapped(_rescored(pose, proxy), reference, candidate, proxy, params)
        if axis is not None and "vertex snap" not in pose.origin:
            pose = _phase_snapped(pose, axis, reference, candidate, (proxy, params))
        return pose

    best = snapped(poses[0])
    # Nothing snapped: not a copy of the reference in some pose, so its best pose is where
    # the overlap is largest, which ICP (a fit of surfaces) need not have found.
    if "vertex snap" not in best.origin and best.proxy_iou < 1 - params["proxy_noise"]:
        gap = params["degenerate_moment_gap"]
        frame_cand, flips = settled_frame(mesh_cand, i_cand, vertex_points(candidate), gap)
        canonical = ((mesh_cand[0] - c_cand) @ frame_cand, mesh_cand[1])
        overlap, select = (
            _Overlap(mesh_ref, (canonical, frame_cand, c_cand, flips), (v_ref, v_cand), sample)
            for sample in (
                (params["overlap_points"], params["proxy_seed"] + 3),
                (params["overlap_select_points"], params["proxy_seed"] + 5),
            )
        )
        # No pose can give more than the smaller volume over the larger: a pose already
        # within overlap_bound_margin of that (a scaled copy centred by ICP) is left as it
        # is (the refinement cost 4 CPU-s a pair on the bundled cases' scaled copies).
        bound = min(v_ref, v_cand) / max(v_ref, v_cand)
        if select(best.rotation, best.translation) < bound - params["overlap_bound_margin"]:
            canon = _Canon(frame_cand, c_cand, c_ref, diagonal)
            starts = _global_starts(invariant, canon, overlap, (frame_ref, mesh_ref), params)
            contenders = _overlap_refined([best, *starts], overlap, select, params)
            best = _exact_pick(contenders, (reference, candidate), select, canon, params)
            best = snapped(best)
        best.proxy_iou = proxy(best.rotation, best.translation)
    alternatives = [
        p for p in poses[1:] if p.proxy_iou >= best.proxy_iou - params["ambiguity_tolerance"]
    ]
    return Alignment(
        best, bool(alternatives), alternatives, proxy.calls, kind, (mesh_ref, mesh_cand), count
    )


def _confirmed_copy(pose: Pose, corners: int) -> Pose | None:
    """pose if its vertex snap paired all corners vertices (of both solids: they have as
    many), else None."""
    found = re.search(r"vertex snap \((\d+) vertices\)$", pose.origin)
    return pose if found and int(found.group(1)) == corners else None


def _snapped(pose: Pose, reference, candidate, proxy, params) -> Pose:
    """The pose that makes the candidate's B-rep vertices coincide exactly with the
    reference's, where they coincide to within snap_residual_rel of the diagonal.

    ICP on tessellations leaves a pose a few microradians off: enough for OpenCASCADE's
    booleans to see two nearly coincident faces, the case they fail on (a bearing block
    against itself turned 1e-5 rad gives an empty common). Vertices that match to a part
    per million are the same corner of the same model, and the least-squares motion of
    those pairs (Kabsch) puts shared faces on top of each other to rounding error, where
    the booleans are exact. Candidates without such pairs keep the ICP pose.
    """
    if "vertex snap" in pose.origin:
        return pose  # snapped while refining (_better)
    points_ref, points_cand = vertex_points(reference), vertex_points(candidate)
    if len(points_ref) < 3 or len(points_cand) < 3:
        return pose
    diagonal = float(np.linalg.norm(points_ref.max(axis=0) - points_ref.min(axis=0)))
    tree = cKDTree(points_ref)
    rotation, translation = pose.rotation, pose.translation
    pairs = 0
    for tolerance in params["snap_tolerances_rel"]:
        distance, index = tree.query(points_cand @ rotation.T + translation)
        close = distance <= tolerance * diagonal
        # One reference vertex stands for at most one candidate vertex: the nearest one, not
        # the first listed (a mesh candidate has many vertices near each reference corner at
        # the first, loosest tolerance, and the first of them depends on the file's order).
        near = np.flatnonzero(close)
        near = near[np.lexsort((distance[near], index[near]))]
        _, first = np.unique(index[near], return_index=True)
        chosen = np.sort(near[first])
        source, target = points_cand[chosen], points_ref[index[chosen]]
        if len(chosen) < 3 or np.linalg.matrix_rank(source - source.mean(axis=0), 1e-6) < 2:
            return pose
        rotation, translation = rigid.kabsch(source, target)
        pairs = len(chosen)
    residual = np.linalg.norm(source @ rotation.T + translation - target, axis=1).max()
    if residual > params["snap_residual_rel"] * diagonal:
        return pose
    snapped = Pose(rotation, translation, proxy(rotation, translation), pose.origin)
    if snapped.proxy_iou < pose.proxy_iou - params["proxy_noise"]:
        return pose
    snapped.origin = f"{pose.origin} + vertex snap ({pairs} vertices)"
    return snapped


def _phase_snapped(pose: Pose, axis_line, reference, candidate, scoring) -> Pose:
    """The pose turned about the reference's axis so that the candidate's B-rep vertices
    meet the reference's, then snapped (_snapped), or the pose unchanged.

    A turned part fits equally well at every angle about its axis, so the sweep leaves it
    wherever the proxy's noise put it, up to a sweep step off the reference's own seams:
    no vertex comes near its twin, the snap finds no pairs, and OpenCASCADE's booleans then
    meet near-coincident tori and cylinders, the case they fail on (NIST FTC-11: General
    Fuse inconsistent at both fuzzy values). Vertices at the same radius and height are
    the same seam point of the same circle: each such pair proposes the turn that puts
    one on the other, and the first turn that snaps is the pose."""
    proxy, params = scoring
    axis, centre = axis_line
    axis = axis / np.linalg.norm(axis)
    points_ref = vertex_points(reference) - centre
    points_cand = vertex_points(candidate)
    if len(points_ref) == 0 or len(points_cand) == 0:
        return pose
    placed_cand = points_cand @ pose.rotation.T + pose.translation - centre
    diagonal = float(np.linalg.norm(points_ref.max(axis=0) - points_ref.min(axis=0)))
    first = np.cross(axis, np.eye(3)[int(np.argmin(np.abs(axis)))])
    first /= np.linalg.norm(first)
    second = np.cross(axis, first)

    def cylindrical(points):
        height = points @ axis
        radial = points - np.outer(height, axis)
        phase = np.arctan2(radial @ second, radial @ first)
        return height, np.linalg.norm(radial, axis=1), phase

    h_ref, r_ref, phi_ref = cylindrical(points_ref)
    h_cand, r_cand, phi_cand = cylindrical(placed_cand)
    tolerance = params["snap_tolerances_rel"][0] * diagonal
    votes = params["phase_vote_rel"] * diagonal
    turns = _phase_turns((h_ref, r_ref, phi_ref), (h_cand, r_cand, phi_cand), tolerance, votes)
    for turn in turns[:PHASE_TRIES]:
        spin = rigid.rotation_about(axis, turn)
        rotation = spin @ pose.rotation
        translation = spin @ (pose.translation - centre) + centre
        turned = Pose(rotation, translation, proxy(rotation, translation), pose.origin)
        snapped = _snapped(turned, reference, candidate, proxy, params)
        # Equally good as the sweep's pick (ambiguity_tolerance, as its alternatives are):
        # the pick's own proxy is the best of 120 noisy draws, a snapped turn's is not.
        good = snapped.proxy_iou >= pose.proxy_iou - params["ambiguity_tolerance"]
        if snapped is not turned and good:
            snapped.origin = snapped.origin.replace(
                " + vertex snap", f" + turned {math.degrees(turn):.3f} deg + vertex snap"
            )
            return snapped
    return pose


def _phase_turns(reference, candidate, tolerance: float, vote: float) -> list[float]:
    """At most PHASE_TRIES turns about the axis that put a candidate vertex on a reference
    vertex at the same height and radius (within tolerance; vertices on the axis have no
    phase), those that bring the most such pairs within vote (mm, along their circle)
    first, ties by angle.

    The part's own turn is proposed by every vertex that has a twin, a stray pairing by a
    few: taking the first turns met instead made the choice depend on the order of the
    vertices (an STL of NIST FTC-11 lists its 6,000 vertices in another order than its
    polyhedron's B-rep does, and none of the first 12 turns met snapped)."""
    h_ref, r_ref, phi_ref = reference
    h_cand, r_cand, phi_cand = candidate
    off_axis = np.flatnonzero(r_cand > tolerance)
    if len(off_axis) == 0 or len(h_ref) == 0:
        return []
    tree = cKDTree(np.column_stack([h_ref, r_ref]))
    near = tree.query_ball_point(
        np.column_stack([h_cand[off_axis], r_cand[off_axis]]), tolerance, p=np.inf
    )
    counts = [len(found) for found in near]
    if not sum(counts):
        return []
    index_ref = np.concatenate([np.asarray(found, dtype=np.int64) for found in near])
    index_cand = np.repeat(off_axis, counts)
    turns = np.round((phi_ref[index_ref] - phi_cand[index_cand]) % (2 * math.pi), 9)
    order = np.lexsort((r_cand[index_cand], turns))
    turns, radii = turns[order], r_cand[index_cand][order]
    # A pair votes for a turn when it puts its vertices within tolerance at their radius.
    width = vote / radii
    votes = np.searchsorted(turns, turns + width, "right") - np.searchsorted(turns, turns - width)
    ranked, kept = np.lexsort((turns, -votes)), []
    for k in ranked:
        if all(abs(turns[k] - t) > 1e-6 for t in kept):
            kept.append(float(turns[k]))
        if len(kept) >= PHASE_TRIES:
            break
    return kept


def vertex_points(shape) -> np.ndarray:
    """The B-rep vertices' points (n, 3): a triangle mesh's own vertices, which are its
    polyhedron's."""
    if mesh_solid.is_triangles(shape):
        return shape.vertex_points()
    return np.array([tuple(v.Point) for v in shape.Vertexes])


# Turns about the axis tried by _phase_snapped (each costs one vertex snap, milliseconds).
PHASE_TRIES = 12

ALTERNATIVES_LISTED = 5  # an axisymmetric part has dozens; the count says how many


class _Judge:
    """IoU of a pose from seeded points classified by ray casting on the fine meshes, for
    the few close calls between two poses.

    Exact booleans are no judge here: at a pose a hundredth of a degree off a perfect copy
    OpenCASCADE's common can come back empty (seen on the bundled flange), exactly the
    silent failure seed 000 warns of. Ray casting cannot fail that way, and both poses are
    judged on the same points, so their difference is geometry, not sampling noise.
    """

    def __init__(self, mesh_ref, mesh_cand, params):
        vertices, _ = mesh_ref
        lo, hi = vertices.min(axis=0), vertices.max(axis=0)
        margin = params["judge_margin_rel"] * np.linalg.norm(hi - lo)
        rng = np.random.default_rng(params["proxy_seed"] + 2)
        self.points = lo - margin + rng.random((params["judge_points"], 3)) * (hi - lo + 2 * margin)
        self.mesh_cand = mesh_cand
        self.in_ref, self.in_cand_test = None, None
        self.mesh_ref = mesh_ref
        self.calls = 0

    def __call__(self, pose: Pose) -> float:
        self.calls += 1
        if self.in_ref is None:
            self.in_ref = sampling.inside_mesh(self.points, *self.mesh_ref)
            # inside_mesh's answers, its grid made once for every pose judged.
            self.in_cand_test = sampling.InsideTest(*self.mesh_cand)
        local = (self.points - pose.translation) @ pose.rotation
        in_cand = self.in_cand_test(local)
        union = np.count_nonzero(self.in_ref | in_cand)
        return np.count_nonzero(self.in_ref & in_cand) / union if union else 0.0


def _overlap_refined(poses: list[Pose], overlap: _Overlap, select: _Overlap, params) -> list:
    """Poses and their refinements by the IoU (_Overlap.climb), as (estimate, pose) on
    another _Overlap on more points (the judge's points fill the reference's box only, and
    a partial match sticking out of it would gain by its loss), best first; ties go to the
    earlier pose, the unrefined before its refinement."""
    vertices = overlap.mesh_ref[0]
    diagonal = float(np.linalg.norm(vertices.max(axis=0) - vertices.min(axis=0)))
    steps = (params["overlap_step_rel"] * diagonal, math.radians(params["overlap_step_deg"]))
    # Every start climbs the coarse levels; only the best few go on to the fine ones (a
    # climb's cost is its evaluations, and most starts end far below the best).
    coarse, fine = params["overlap_levels"]
    cap = params["overlap_evaluations"]
    climbed = [overlap.climb(p, steps, coarse, cap) for p in poses]
    order = sorted(range(len(climbed)), key=lambda k: -climbed[k][1])
    contenders = []
    for rank, k in enumerate(order):
        pose, _, left = climbed[k]
        if rank < params["overlap_finish_top"]:
            # Finished on the selecting points: more of them, so less of a fit to a few.
            pose = select.climb(pose, left, fine, cap)[0]
        contenders += [poses[k], pose]
    scores = [select(p.rotation, p.translation) for p in contenders]
    ranked = sorted(range(len(contenders)), key=lambda k: (-scores[k], k))
    return [(scores[k], contenders[k]) for k in ranked]


class _Canon:
    """Poses of the candidate in its canonical frame (x_c = F^T (x - c), F settled_frame's):
    what a start or a tie-break says in these terms is the same whatever pose the candidate
    is delivered in."""

    def __init__(self, frame, centre, centre_ref, diagonal):
        self.frame, self.centre, self.centre_ref, self.diagonal = (
            frame,
            centre,
            centre_ref,
            diagonal,
        )

    def pose(self, rotation, translation, origin: str) -> Pose:
        """The pose of the delivered candidate that puts the canonical one at x -> Rx + t."""
        rotation = rotation @ self.frame.T
        return Pose(rotation, translation - rotation @ self.centre, 0.0, origin)

    def key(self, pose: Pose) -> tuple:
        """The pose of the canonical candidate, quantised (a canonical tie-break)."""
        rotation = pose.rotation @ self.frame
        shift = (pose.rotation @ self.centre + pose.translation - self.centre_ref) / self.diagonal
        return (*np.round(rotation, 6).ravel(), *np.round(shift, 6))

    def apart(self, a: Pose, b: Pose, min_deg: float, min_shift: float) -> bool:
        if rigid.angle_between(a.rotation, b.rotation) > min_deg:
            return True
        placed_a = a.rotation @ self.centre + a.translation
        placed_b = b.rotation @ self.centre + b.translation
        return float(np.linalg.norm(placed_a - placed_b)) > min_shift * self.diagonal


def _global_starts(invariant: list[Pose], canon: _Canon, overlap: _Overlap, ref, params):
    """The starts of the IoU refinement, the same relative to the candidate in whatever pose
    it is delivered: every proposal between frames and seeded uniform turns between the
    canonical frames (a tilted optimum, such as a tube slanted through a disc, lies between
    the frames), each with its centroid on the reference's; then, for the best few turns,
    the 27 placements of its bounding box flush with the reference's or centred on it along
    each axis of the reference (a partial match often belongs against a wall of the
    other, where shifts from the centroid cross a long flat stretch first). Ranked by the
    overlap, ties by the canonical pose; the best overlap_refine_top distinct ones."""
    frame_ref, mesh_ref = ref
    turns = [(p.rotation @ canon.frame, p.origin) for p in invariant]
    turns += [(frame_ref @ r, o) for r, o in _random_rotations(params["overlap_random_starts"], 11)]
    scored = []
    for rotation, origin in turns:
        pose = canon.pose(rotation, canon.centre_ref, origin)
        scored.append((overlap(pose.rotation, pose.translation), canon.key(pose), pose))
    scored.sort(key=lambda e: (-e[0], e[1]))
    lo_ref, hi_ref = mesh_ref[0].min(axis=0), mesh_ref[0].max(axis=0)
    cloud = overlap.mesh_cand[0]
    flush, used = [], []
    for _, _, pose in scored:
        if len(used) >= params["overlap_flush_turns"]:
            break
        if any(rigid.angle_between(pose.rotation, u) <= params["distinct_pose_deg"] for u in used):
            continue
        used.append(pose.rotation)
        rotation = pose.rotation @ canon.frame
        turned = cloud @ rotation.T
        lo, hi = turned.min(axis=0), turned.max(axis=0)
        choices = (lo_ref - lo, hi_ref - hi, (lo_ref + hi_ref - lo - hi) / 2)
        for pick in itertools.product(range(3), repeat=3):
            shift = np.array([choices[pick[k]][k] for k in range(3)])
            placed = canon.pose(rotation, shift, pose.origin + " + flush")
            flush.append((overlap(placed.rotation, placed.translation), canon.key(placed), placed))
    # The best distinct centred starts (by turn), then the best few of the flush ones
    # that are apart from them.
    starts: list[Pose] = []
    for _, _, pose in scored:
        if len(starts) >= params["overlap_refine_top"]:
            break
        if all(
            rigid.angle_between(pose.rotation, s.rotation) > params["distinct_pose_deg"]
            for s in starts
        ):
            starts.append(pose)
    apart = params["distinct_pose_deg"], params["overlap_distinct_shift_rel"]
    added = 0
    for _, _, pose in sorted(flush, key=lambda e: (-e[0], e[1])):
        if added >= params["overlap_flush_starts"]:
            break
        if all(canon.apart(pose, s, *apart) for s in starts):
            starts.append(pose)
            added += 1
    return starts


def _exact_pick(contenders: list, pair, select: _Overlap, canon: _Canon, params) -> Pose:
    """Of the contenders ((estimate, pose), best first), the best by the exact booleans
    among the overlap_exact_top within overlap_exact_margin of the first, each also with its
    faces made parallel to the reference's (_direction_snapped); the first with its faces
    made parallel when the booleans are not for this pair (a mesh, more faces than
    overlap_exact_max_faces) or cannot be trusted on one of them.

    Between contenders that close the selecting points' difference is their noise (their
    standard error is about 0.004 of IoU): on the box-on-disc pair of CADTestBench's
    models, delivered in random poses, the contender the points picked changed with the
    pose (0.0742 to 0.0745 against a volume bound of 0.07446). Exact booleans cannot be
    wrong that way on a partial match, and a silent failure shows in their own pieces (they
    must add up to both solids) or against the estimate."""
    reference, candidate = pair
    top = contenders[0][0]
    near = [p for v, p in contenders if v >= top - params["overlap_exact_margin"]]
    near = near[: params["overlap_exact_top"]]
    turned = [_direction_snapped(p, pair, select, params) for p in near]
    meshed = mesh_solid.is_triangles(reference) or mesh_solid.is_triangles(candidate)
    faces = 0 if meshed else len(reference.Faces) + len(candidate.Faces)
    if meshed or faces > params["overlap_exact_max_faces"]:
        return turned[0]
    poses = []
    for pose, parallel in zip(near, turned, strict=True):
        poses += [pose] if parallel is pose else [pose, parallel]
    exact_ious = [_exact_iou(reference, candidate, p, select) for p in poses]
    if any(v is None for v in exact_ious):
        return turned[0]
    ranked = sorted(
        range(len(poses)), key=lambda k: (-round(exact_ious[k], 9), canon.key(poses[k]))
    )
    return poses[ranked[0]]


def _exact_iou(reference, candidate, pose: Pose, select: _Overlap) -> float | None:
    """The exact booleans' IoU of the candidate in pose, or None when their pieces do not
    add up to both solids (relative 1e-6) or the figure is far from the sampled estimate
    (0.05: about ten standard errors)."""
    moved = placement.placed(candidate, pose.rotation, pose.translation)
    volumes = exact.exact_booleans(reference, moved, keep_shapes=False)["volumes"]
    a, b = volumes["a"], volumes["b"]
    common, missing, extra = (volumes.get(k) for k in ("common", "missing", "extra"))
    if common is None or missing is None or extra is None:
        return None
    scale = a + b
    if abs(common + missing - a) > 1e-6 * scale or abs(common + extra - b) > 1e-6 * scale:
        return None
    union = common + missing + extra
    if union <= 0:
        return None
    iou = common / union
    if abs(iou - select(pose.rotation, pose.translation)) > 0.05:
        return None
    return iou


def _direction_snapped(pose: Pose, pair, select: _Overlap, params) -> Pose:
    """The pose turned (about the candidate's placed centroid) so that its dominant
    directions that lie within direction_snap_deg of one of the reference's coincide with
    it exactly (Kabsch on the paired directions), then shifted by a compass search on the
    selecting points (shifts only), if that is no worse by the selecting estimate.

    A sampled climb leaves a partial match tilted by a few hundredths of a degree, faces
    that belong flush then meet at a wedge, and no vertex can snap; CAD parts that differ
    mostly still share their faces' directions."""
    reference, candidate = pair
    dirs_ref = dominant_directions(reference)
    dirs_cand = [pose.rotation @ d for d in dominant_directions(candidate)]
    limit = math.cos(math.radians(params["direction_snap_deg"]))
    source, target = [], []
    for d in dirs_cand:
        near = max(dirs_ref, key=lambda r: float(np.dot(r, d)), default=None)
        if near is not None and np.dot(near, d) >= limit:
            source.append(d)
            target.append(near)
    if len(source) < 2 or np.linalg.matrix_rank(np.array(source), 1e-3) < 2:
        return pose
    source, target = np.array(source), np.array(target)
    u, _, vt = np.linalg.svd(source.T @ target)
    fix = np.diag([1.0, 1.0, np.sign(np.linalg.det(vt.T @ u.T)) or 1.0])
    spin = vt.T @ fix @ u.T
    pivot = pose.rotation @ select.centre + pose.translation
    turned = Pose(
        spin @ pose.rotation, spin @ (pose.translation - pivot) + pivot, pose.proxy_iou, ""
    )
    vertices = select.mesh_ref[0]
    diagonal = float(np.linalg.norm(vertices.max(axis=0) - vertices.min(axis=0)))
    steps = (params["direction_snap_shift_rel"] * diagonal, 0.0)
    turned, value, _ = select.climb(turned, steps, params["direction_snap_levels"], 60, turns=False)
    if value < select(pose.rotation, pose.translation) - params["proxy_noise"]:
        return pose
    turned.origin = pose.origin + " + direction snap"
    return turned


def _rescored(pose: Pose, proxy) -> Pose:
    if pose.origin.endswith((" + iou", " + direction snap")):
        pose.proxy_iou = proxy(pose.rotation, pose.translation)
    return pose


def _better(start: Pose, refined: Pose, judge: _Judge, params, snap=None) -> Pose:
    """The ICP-refined pose if it really fits better than its start.

    ICP minimises surface distance, not IoU: on a scaled or wrong candidate it can trade a
    little overlap for a tilt, and the point proxy cannot resolve gains that small. A clear
    proxy gain is taken as it is; a marginal one is decided by the judge, and the refined
    pose must win by judge_min_gain, so that a tilt worth a few sample points never
    replaces a start that was already right.
    """
    moved = rigid.angle_between(start.rotation, refined.rotation) > params["icp_still_deg"] or (
        np.linalg.norm(start.translation - refined.translation) > params["icp_still_shift"]
    )
    if not moved:
        return start  # ICP stayed put: the start was already where the surfaces meet
    gain = refined.proxy_iou - start.proxy_iou
    if gain >= params["icp_clear_gain"]:
        return refined
    if gain <= -params["proxy_noise"]:
        return start  # clearly worse
    snapped = snap(start) if snap else start
    if snapped is not start:
        # The start's B-rep vertices already coincide with the reference's to a part per
        # million: that is the pose (the refined one snaps onto the same pairs, and Kabsch
        # on the same pairs gives the same motion), and the judge's 40,000 ray casts
        # (1.5 s on NIST FTC-07) would only pick which of the two gets snapped.
        return snapped
    return refined if judge(refined) > judge(start) + params["judge_min_gain"] else start


def _rank(pose: Pose):
    # Best proxy first, to the proxy's resolution; ties go to the smallest rotation, so the
    # delivered pose wins whenever it is as good, and the choice is deterministic.
    return (-round(pose.proxy_iou, 3), round(rigid.angle_between(np.eye(3), pose.rotation), 6))


def _leading(poses: list[Pose], params) -> list[Pose]:
    """The poses that can still matter: the best few and those whose proxy is within
    refine_margin of the best (any of them may overtake it once refined)."""
    floor = poses[0].proxy_iou - params["refine_margin"]
    return [p for i, p in enumerate(poses) if i < params["refine_top"] or p.proxy_iou >= floor][:60]


def _distinct(poses: list[Pose], min_deg: float) -> list[Pose]:
    kept: list[Pose] = []
    for pose in poses:
        if all(rigid.angle_between(pose.rotation, k.rotation) > min_deg for k in kept):
            kept.append(pose)
    return kept


def _proposed_rotations(kind, frame_ref, frame_cand, reference, candidate, params):
    # All 24 axis-aligned rotations between the two inertia frames, not only the four sign
    # choices: when the candidate is only partly right its principal axes need not come in
    # the reference's order, and a start in the wrong class is one ICP cannot leave.
    bases = [(frame_ref @ turn @ frame_cand.T, "inertia") for turn in rigid.axis_rotations()]
    directions = _direction_frames(reference, candidate)
    if kind == "distinct":
        return bases + directions
    if kind in ("axial0", "axial2"):
        # Two equal moments: the frame is free about the unique axis. Flip that axis or
        # not (sign_flips()[1] flips axes 1 and 2, [2] flips 0 and 2), then sweep.
        flips = rigid.sign_flips()
        axis = frame_ref[:, 0 if kind == "axial0" else 2]
        flipped = flips[1] if kind == "axial2" else flips[2]
        steps = params["sweep_steps"]
        proposals = []
        for flip in (np.eye(3), flipped):
            base = frame_ref @ flip @ frame_cand.T
            for k in range(steps):
                turn = rigid.rotation_about(axis, 2 * math.pi * k / steps)
                proposals.append((turn @ base, f"sweep {360 * k / steps:.1f} deg"))
        return proposals + bases + directions
    # Random turns between the two frames, not absolute ones: the same proposals relative
    # to the candidate in whatever pose it is delivered.
    turns = _random_rotations(params["random_poses"])
    return bases + directions + [(frame_ref @ r @ frame_cand.T, o) for r, o in turns]


def _direction_frames(reference, candidate):
    """Rotations taking frames of the candidate's dominant directions onto the
    reference's: every pair of candidate directions, and the 24 axis-aligned rotations
    between the two first frames (the directions of a part that is only partly right need
    not come in the same order of area)."""
    dirs_ref = dominant_directions(reference)
    dirs_cand = dominant_directions(candidate)
    frame_ref = _first_frame(dirs_ref)
    if frame_ref is None:
        return []
    proposals = []
    for a in range(len(dirs_cand)):
        for b in range(len(dirs_cand)):
            if a == b:
                continue
            frame_cand = rigid.frame_from_directions(dirs_cand[a], dirs_cand[b])
            if frame_cand is not None:
                proposals.append((frame_ref @ frame_cand.T, "directions"))
    frame_cand = _first_frame(dirs_cand)
    if frame_cand is not None:
        proposals += [
            (frame_ref @ turn @ frame_cand.T, "direction axes") for turn in rigid.axis_rotations()
        ]
    return proposals


def _first_frame(directions):
    for j in range(1, len(directions)):
        frame = rigid.frame_from_directions(directions[0], directions[j])
        if frame is not None:
            return frame
    return None


def _random_rotations(count: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    result = []
    for _ in range(count):
        w, x, y, z = rng.normal(size=4) / 1.0
        norm = math.sqrt(w * w + x * x + y * y + z * z)
        w, x, y, z = w / norm, x / norm, y / norm, z / norm
        matrix = np.array(
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
            ]
        )
        result.append((matrix, "random"))
    return result
