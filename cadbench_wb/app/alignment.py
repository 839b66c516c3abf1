# SPDX-License-Identifier: LGPL-2.1-or-later
"""Best-possible rigid alignment of a candidate onto its reference (seed 000).

Proper rotations and translations only: a mirror image is never aligned onto its
reference and scale is never aligned away. Poses are proposed from the two solids'
principal axes of inertia (with a sweep about the unique axis of axisymmetric parts, and
frames from dominant face directions when all three moments are equal), scored by a cheap
proxy (IoU of coarse manifold3d meshes), and the best few refined by a pattern search.
The exact booleans run once, on the final pose, in shape_fidelity.py.
"""

import dataclasses
import math

import numpy as np

from cadbench_wb import standard
from cadbench_wb.app import meshing
from cadbench_wb.metrics import rigid


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

    def as_dict(self) -> dict:
        angle = rigid.angle_between(np.eye(3), self.best.rotation)
        return {
            "rotation": self.best.rotation.tolist(),
            "translation": self.best.translation.tolist(),
            "rotationAngleDeg": angle,
            "proxyIoU": self.best.proxy_iou,
            "ambiguous": self.ambiguous,
            "alternatives": [p.as_dict() for p in self.alternatives],
            "posesEvaluated": self.evaluated,
            "inertia": self.degeneracy,
        }


def mass_properties(shape) -> tuple[float, np.ndarray, np.ndarray]:
    """Volume, centroid and inertia tensor about the centroid (unit density) of all solids."""
    total, moment = 0.0, np.zeros(3)
    parts = []
    for solid in shape.Solids:
        volume = solid.Volume
        centre = np.array(tuple(solid.CenterOfMass))
        inertia = np.array(
            [[solid.MatrixOfInertia.A[4 * i + j] for j in range(3)] for i in range(3)]
        )
        parts.append((volume, centre, inertia))
        total += volume
        moment += volume * centre
    centroid = moment / total
    tensor = np.zeros((3, 3))
    for volume, centre, inertia in parts:
        d = centre - centroid
        tensor += inertia + volume * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
    return total, centroid, tensor


def dominant_directions(shape, limit: int = 6) -> list[np.ndarray]:
    """Unit directions that carry most planar face area (outward normals) and cylinder axes."""
    import Part  # noqa: PLC0415

    weights: list[tuple[np.ndarray, float]] = []
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
    merged: list[list] = []
    for direction, area in weights:
        direction = direction / np.linalg.norm(direction)
        for entry in merged:
            if np.dot(entry[0], direction) > 0.9999:
                entry[1] += area
                break
        else:
            merged.append([direction, area])
    merged.sort(key=lambda e: (-round(e[1], 6), tuple(np.round(e[0], 6))))
    return [e[0] for e in merged[:limit]]


class _Proxy:
    """IoU of the reference and a posed candidate on coarse manifold meshes."""

    def __init__(self, reference, candidate, deflection: float):
        self.ref = meshing.manifold_of(*meshing.mesh_of(reference, deflection))
        self.cand = meshing.manifold_of(*meshing.mesh_of(candidate, deflection))
        self.ok = self.ref is not None and self.cand is not None
        self.ref_volume = self.ref.volume() if self.ok else 0.0
        self.cand_volume = self.cand.volume() if self.ok else 0.0
        self.calls = 0

    def __call__(self, rotation: np.ndarray, translation: np.ndarray) -> float:
        self.calls += 1
        moved = self.cand.transform(rigid.transform_matrix(rotation, translation))
        common = (self.ref ^ moved).volume()
        union = self.ref_volume + self.cand_volume - common
        return common / union if union > 0 else 0.0


def align(reference, candidate) -> Alignment:
    """The best proper rigid pose of candidate onto reference, with its ambiguity."""
    params = standard.ALIGNMENT
    _, c_ref, i_ref = mass_properties(reference)
    _, c_cand, i_cand = mass_properties(candidate)
    values_ref, frame_ref = rigid.principal_frame(i_ref)
    values_cand, frame_cand = rigid.principal_frame(i_cand)
    kind = rigid.degeneracy(values_ref, params["degenerate_moment_gap"])
    rotations = _proposed_rotations(kind, frame_ref, frame_cand, reference, candidate, params)
    diagonal = reference.BoundBox.DiagonalLength
    proxy = _Proxy(reference, candidate, params["proxy_deflection_rel"] * diagonal)
    # The pose as delivered is always a proposal: candidates are often modeled in the
    # reference's own frame, and then no motion at all is the best-possible alignment.
    rotations = [(np.eye(3), "as given")] + rotations
    poses = []
    for rotation, origin in rotations:
        translation = np.zeros(3) if origin == "as given" else c_ref - rotation @ c_cand
        score = proxy(rotation, translation) if proxy.ok else 0.0
        poses.append(Pose(rotation, translation, score, origin))
    poses = _distinct(sorted(poses, key=_rank), params["distinct_pose_deg"])
    if proxy.ok:
        top = params["refine_top"]
        refined = [_refine(p, proxy, c_ref, c_cand, diagonal, params, 1.0) for p in poses[:top]]
        poses = _distinct(sorted(refined + poses[top:], key=_rank), params["distinct_pose_deg"])
        # Polish the winner on a finer mesh: the coarse proxy's facets limit how close
        # the search can get to the true optimum.
        fine = _Proxy(reference, candidate, params["polish_deflection_rel"] * diagonal)
        if fine.ok:
            polished = _refine(
                _rescored(poses[0], fine),
                fine,
                c_ref,
                c_cand,
                diagonal,
                params,
                params["polish_step_scale"],
            )
            proxy.calls += fine.calls
            poses[0] = polished
    best = poses[0]
    alternatives = [
        p for p in poses[1:] if p.proxy_iou >= best.proxy_iou - params["ambiguity_tolerance"]
    ]
    return Alignment(best, bool(alternatives), alternatives, proxy.calls, kind)


def _rank(pose: Pose):
    # Best proxy first; ties go to the smallest rotation so the choice is deterministic.
    return (-round(pose.proxy_iou, 9), round(rigid.angle_between(np.eye(3), pose.rotation), 6))


def _distinct(poses: list[Pose], min_deg: float) -> list[Pose]:
    kept: list[Pose] = []
    for pose in poses:
        if all(rigid.angle_between(pose.rotation, k.rotation) > min_deg for k in kept):
            kept.append(pose)
    return kept


def _proposed_rotations(kind, frame_ref, frame_cand, reference, candidate, params):
    bases = [(frame_ref @ flip @ frame_cand.T, "inertia") for flip in rigid.sign_flips()]
    if kind == "distinct":
        return bases
    if kind in ("axial0", "axial2"):
        axis = frame_ref[:, 0 if kind == "axial0" else 2]
        steps = params["sweep_steps"]
        proposals = []
        for base, _ in bases[:2] if kind == "axial2" else (bases[0], bases[2]):
            for k in range(steps):
                turn = rigid.rotation_about(axis, 2 * math.pi * k / steps)
                proposals.append((turn @ base, f"sweep {360 * k / steps:.1f} deg"))
        return proposals + _direction_frames(reference, candidate)
    return bases + _direction_frames(reference, candidate) + _random_rotations(48)


def _direction_frames(reference, candidate):
    """Rotations taking pairs of the candidate's dominant directions onto the reference's."""
    dirs_ref = dominant_directions(reference)
    dirs_cand = dominant_directions(candidate)
    frame_ref = None
    for j in range(1, len(dirs_ref)):
        frame_ref = rigid.frame_from_directions(dirs_ref[0], dirs_ref[j])
        if frame_ref is not None:
            break
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
    return proposals


def _random_rotations(count: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    result = []
    for _ in range(count):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        w, x, y, z = q
        result.append(
            (
                np.array(
                    [
                        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
                    ]
                ),
                "random",
            )
        )
    return result


def _rescored(pose: Pose, proxy: _Proxy) -> Pose:
    return Pose(
        pose.rotation, pose.translation, proxy(pose.rotation, pose.translation), pose.origin
    )


def _refine(pose: Pose, proxy: _Proxy, c_ref, c_cand, diagonal, params, scale) -> Pose:
    """Pattern search on three small rotations about the reference centroid and three shifts."""
    if pose.proxy_iou >= 1.0 - 1e-9:
        return pose
    angle = math.radians(params["refine_initial_deg"]) * scale
    shift = params["refine_initial_rel"] * diagonal * scale
    # Moves are composed onto the pose about the reference centroid; the pose's own
    # translation is kept so that an "as given" pose is refined where it stands.
    offset = pose.translation - (c_ref - pose.rotation @ c_cand)
    params_now = np.zeros(6)
    best = pose.proxy_iou
    budget = params["refine_evaluations"]

    def evaluate(p):
        rotation = rigid.small_rotation(*p[:3]) @ pose.rotation
        translation = c_ref + offset + p[3:] - rotation @ c_cand
        return proxy(rotation, translation)

    while budget > 0 and angle > math.radians(0.005):
        improved = False
        for index in range(6):
            for sign in (1.0, -1.0):
                trial = params_now.copy()
                trial[index] += sign * (angle if index < 3 else shift)
                score = evaluate(trial)
                budget -= 1
                if score > best + 1e-7:
                    best, params_now, improved = score, trial, True
                    break
            if budget <= 0:
                break
        if not improved:
            angle, shift = angle / 2, shift / 2
    rotation = rigid.small_rotation(*params_now[:3]) @ pose.rotation
    translation = c_ref + offset + params_now[3:] - rotation @ c_cand
    return Pose(rotation, translation, best, pose.origin + " refined")
