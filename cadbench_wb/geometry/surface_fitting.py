# SPDX-License-Identifier: LGPL-2.1-or-later
"""Least-squares fits of analytic surfaces to points: planes and the surfaces of revolution
whose meridian is a line or a circle (cylinders, cones, spheres, tori).

Every fit returns a Surface with its parameters and the largest distance of the points to
it; the caller accepts it against a tolerance (standard.MESH_FEATURES). Pure numpy/scipy.
A revolution surface is found in two steps: its axis is the line the points' normals all
cross (true of every surface of revolution), then its meridian (distance to the axis
against position along it) is a line (cylinder, cone) or a circle (sphere, torus); the
whole is then refined on the points' own distances (scipy.optimize.least_squares).
"""

import dataclasses
import math

import numpy as np
from scipy import optimize

# Guards against dividing by a vanishing length (a point on an axis): not tuned.
TINY = 1e-12


@dataclasses.dataclass
class Surface:
    kind: str  # plane, cylinder, cone, sphere, torus
    origin: np.ndarray  # plane: a point; sphere: centre; others: a point on the axis
    axis: np.ndarray  # plane: unit normal; others: unit axis
    radius: float = 0.0  # cylinder radius; cone: radius at origin; sphere; torus major
    minor: float = 0.0  # torus minor radius
    semi_angle: float = 0.0  # cone half angle, radians (radius grows along +axis)
    residual: float = math.inf  # largest distance of the fitted points to the surface

    def distances(self, points: np.ndarray) -> np.ndarray:
        return np.abs(signed_distances(self, points))


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), TINY)


def _frame(axis: np.ndarray):
    """Two unit vectors square to axis and to each other."""
    helper = np.array([1.0, 0, 0]) if abs(axis[0]) < 0.9 else np.array([0, 1.0, 0])
    first = _unit(np.cross(axis, helper))
    return first, np.cross(axis, first)


def signed_distances(surface: Surface, points: np.ndarray) -> np.ndarray:
    rel = points - surface.origin
    if surface.kind == "plane":
        return rel @ surface.axis
    if surface.kind == "sphere":
        return np.linalg.norm(rel, axis=1) - surface.radius
    along = rel @ surface.axis
    radial = np.linalg.norm(rel - np.outer(along, surface.axis), axis=1)
    if surface.kind == "cylinder":
        return radial - surface.radius
    if surface.kind == "cone":
        slope = math.tan(surface.semi_angle)
        return (radial - surface.radius - slope * along) * math.cos(surface.semi_angle)
    return np.hypot(radial - surface.radius, along) - surface.minor


def normals_at(surface: Surface, points: np.ndarray) -> np.ndarray:
    """Unit normals of the surface at (the feet of) the points: the gradient of
    signed_distances."""
    if surface.kind == "plane":
        return np.tile(surface.axis, (len(points), 1))
    rel = points - surface.origin
    if surface.kind == "sphere":
        found = rel
    else:
        along = rel @ surface.axis
        outward = rel - np.outer(along, surface.axis)
        radial = np.linalg.norm(outward, axis=1)
        outward = outward / np.maximum(radial, TINY)[:, None]
        if surface.kind == "cylinder":
            found = outward
        elif surface.kind == "cone":
            found = outward - math.tan(surface.semi_angle) * surface.axis
        else:
            found = outward * (radial - surface.radius)[:, None] + np.outer(along, surface.axis)
    return found / np.maximum(np.linalg.norm(found, axis=1), TINY)[:, None]


def plane_fit(points: np.ndarray) -> Surface:
    centre = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - centre, full_matrices=False)
    surface = Surface("plane", centre, vt[-1])
    surface.residual = float(surface.distances(points).max())
    return surface


def _axis_directions(normals: np.ndarray) -> tuple:
    """Start directions of the candidate axes: each principal direction of the normals
    (the smallest-variance one is exact for cylinders and cones; sphere and torus normals
    spread every way)."""
    centred = normals - normals.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    return vt[-1], vt[0], vt[1]


def _refined_axis(points, normals, direction):
    direction = _unit(direction)
    frame = _tilt_frame(direction)
    _, first, second = frame
    # Start from the point nearest to all normal lines, for this direction.
    centre = points.mean(axis=0)
    start = np.array([0.0, 0.0, centre @ first, centre @ second])

    # The axis tilts from the start direction by (a, b) along the frame, and the origin is
    # in the frame's plane: no parameter is singular (polar angles lose the azimuth for an
    # axis along z, where LM then ran out of evaluations on most seeds of NIST CTC-01).
    def residuals(x):  # x: (k, 4) parameter sets -> (k, points) residuals
        axis = _tilted(frame, x[:, 0], x[:, 1])
        origin = x[:, 2:3] * first + x[:, 3:4] * second
        cross = _cross(normals[None], axis[:, None])
        lengths = np.sqrt((cross**2).sum(axis=2))
        weight = np.clip(lengths, 0.0, 1.0)
        offsets = ((points[None] - origin[:, None]) * cross).sum(axis=2)
        return weight * offsets / np.maximum(lengths, TINY)

    try:
        x, misfit = _least_squares(residuals, start)
    except (ValueError, np.linalg.LinAlgError):
        return None
    origin = x[2] * first + x[3] * second
    axis = _tilted(frame, x[:1], x[1:2])[0]
    return origin, axis, float(np.abs(misfit).max())


def _tilt_frame(direction: np.ndarray) -> tuple:
    """(direction, and two unit vectors square to it): what _tilted tilts along."""
    return (direction, *_frame(direction))


def _tilted(frame: tuple, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Unit axes (k, 3): the frame's direction tilted by a along its first square vector
    and b along its second (frame: _tilt_frame)."""
    direction, first, second = frame
    axes = direction[None] + a[:, None] * first[None] + b[:, None] * second[None]
    return axes / np.linalg.norm(axes, axis=1)[:, None]


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a x b over the last axis, broadcast (np.cross costs more than the product here)."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def _least_squares(residuals, start: np.ndarray, calls: int | None = None):
    """(parameters, residuals) of scipy's Levenberg-Marquardt (MINPACK) on residuals, a
    function of parameter sets (k, n) -> (k, m): the forward-difference Jacobian is one
    vectorised call of n sets instead of n calls (the fits' time went to Python overhead
    per call, the point sets being small). calls bounds the residual sets evaluated, as
    MINPACK's lmdif counts them (scipy's default: 100 n (n + 1))."""
    last: dict = {}

    def value(x):
        found = residuals(x[None])[0]
        last["x"], last["f"] = x.copy(), found
        return found

    def jacobian(x):
        base = last["f"] if "x" in last and np.array_equal(last["x"], x) else value(x)
        # MINPACK's own forward step (lmdif): sqrt(machine epsilon) of the parameter.
        step = np.sqrt(np.finfo(float).eps) * np.abs(x)
        step[step == 0] = np.sqrt(np.finfo(float).eps)
        shifted = x[None] + np.diag(step)
        return ((residuals(shifted) - base[None]) / step[:, None]).T

    count = len(start)
    calls = calls or 100 * count * (count + 1)
    solved = optimize.least_squares(
        value, start, jac=jacobian, method="lm", max_nfev=max(calls // (count + 1), 1)
    )
    return solved.x, solved.fun


def _meridian(points, origin, axis):
    rel = points - origin
    along = rel @ axis
    radial = np.linalg.norm(rel - np.outer(along, axis), axis=1)
    return along, radial


def _initial_revolutions(points, normals):
    """Candidate cylinders, cones, spheres and tori about each candidate axis (the line the
    normal lines all come close to, by least squares from each start direction) and the
    meridian, simplest kind first, then in the axes' order. Lazily: an axis is refined
    only when the candidates before it fail (a bore's cylinder on the first axis costs one
    axis fit, not three)."""
    directions = _axis_directions(normals)
    about: list = []

    def candidates(index):
        while len(about) <= index:
            result = _refined_axis(points, normals, directions[len(about)])
            about.append([] if result is None else _revolutions_about(points, *result[:2]))
        return about[index]

    # A torus before a sphere: vertices on a few coaxial circles (a fillet's rings) fit a
    # sphere through them as well; a true sphere makes no ring torus (its tube would be
    # wider than its ring, which _plausible refuses).
    for kind in ("cylinder", "cone", "torus", "sphere"):
        for index in range(len(directions)):
            yield from (s for s in candidates(index) if s.kind == kind)


def _revolutions_about(points, origin, axis) -> list[Surface]:
    along, radial = _meridian(points, origin, axis)
    # The origin moved to the middle of the points along the axis: parameters near zero.
    middle = float(along.mean())
    origin = origin + middle * axis
    along = along - middle
    candidates = [Surface("cylinder", origin, axis, radius=float(radial.mean()))]
    if np.ptp(along) > TINY:
        slope, intercept = np.polyfit(along, radial, 1)
        candidates.append(
            Surface("cone", origin, axis, radius=float(intercept), semi_angle=math.atan(slope))
        )
    # Circle through the meridian points (t, r): Kasa's algebraic fit.
    design = np.column_stack([along, radial, np.ones_like(along)])
    rhs = along**2 + radial**2
    try:
        (a, b, c), *_ = np.linalg.lstsq(design, rhs, rcond=None)
    except np.linalg.LinAlgError:
        return candidates
    tc, rc = a / 2, b / 2
    rho = math.sqrt(max(c + tc**2 + rc**2, 0.0))
    centre = origin + tc * axis
    distance = float(np.linalg.norm(points - centre, axis=1).mean())
    candidates.append(Surface("sphere", centre, axis, radius=distance))
    candidates.append(Surface("torus", centre, axis, radius=float(rc), minor=float(rho)))
    return candidates


def _parameters(surface: Surface) -> np.ndarray:
    """The refined parameters of a surface, at its start: the origin, the axis's tilt
    (a, b) from its start (_tilted), the radius, and the cone's half angle or the torus's
    minor radius; a sphere: centre and radius."""
    if surface.kind == "sphere":
        return np.array([*surface.origin, surface.radius], dtype=float)
    base = [*surface.origin, 0.0, 0.0, surface.radius]
    if surface.kind == "cone":
        base.append(surface.semi_angle)
    if surface.kind == "torus":
        base.append(surface.minor)
    return np.array(base, dtype=float)


def _surface_of(kind: str, x: np.ndarray, frame: tuple) -> Surface:
    """The surface of parameters x as _parameters spells them for the start axis frame[0]
    (frame: _tilt_frame)."""
    if kind == "sphere":
        return Surface("sphere", x[:3].copy(), frame[0], radius=float(x[3]))
    axis = _tilted(frame, x[3:4], x[4:5])[0]
    surface = Surface(kind, x[:3].copy(), axis, radius=float(x[5]))
    if kind == "cone":
        surface.semi_angle = float(x[6])
    if kind == "torus":
        surface.minor = float(x[6])
    return surface


def _batch_distances(kind: str, x: np.ndarray, points: np.ndarray, frame) -> np.ndarray:
    """signed_distances of the surfaces of parameter sets x (k, n), as _parameters spells
    them for the start axis frame[0], to the points: (k, points). frame: _tilt_frame."""
    rel = points[None] - x[:, None, :3]
    if kind == "sphere":
        return np.sqrt((rel**2).sum(axis=2)) - x[:, 3:4]
    axis = _tilted(frame, x[:, 3], x[:, 4])[:, None]
    along = (rel * axis).sum(axis=2)
    radial = np.sqrt(np.maximum((rel**2).sum(axis=2) - along**2, 0.0))
    radius = x[:, 5:6]
    if kind == "cylinder":
        return radial - radius
    if kind == "cone":
        semi = x[:, 6:7]
        return (radial - radius - np.tan(semi) * along) * np.cos(semi)
    return np.hypot(radial - radius, along) - x[:, 6:7]


def refined(surface: Surface, points: np.ndarray) -> Surface:
    """The surface moved to minimise the points' squared distances to it."""
    if surface.kind == "plane":
        return plane_fit(points)

    frame = _tilt_frame(surface.axis)

    def residuals(x):  # x: (k, n) parameter sets -> (k, points) signed distances
        return _batch_distances(surface.kind, x, points, frame)

    try:
        x, _ = _least_squares(residuals, _parameters(surface), calls=400)
        result = _surface_of(surface.kind, x, frame)
    except (ValueError, np.linalg.LinAlgError):
        result = surface
    result = canonical(result)
    result.residual = float(result.distances(points).max())
    return result


def canonical(surface: Surface) -> Surface:
    """One spelling per surface: the axis's largest component positive, the origin the
    foot of the perpendicular from the world origin (cylinders), radii positive."""
    axis = surface.axis
    if surface.kind != "sphere" and axis[int(np.argmax(np.abs(axis)))] < 0:
        surface.axis = -axis
        if surface.kind == "cone":
            surface.semi_angle = -surface.semi_angle
    if surface.kind == "cylinder":
        surface.origin = surface.origin - (surface.origin @ surface.axis) * surface.axis
        surface.radius = abs(surface.radius)
    if surface.kind == "sphere":
        surface.radius = abs(surface.radius)
    if surface.kind == "torus":
        surface.minor = abs(surface.minor)
    return surface


def best_fit(points: np.ndarray, normals: np.ndarray, tolerance: float) -> Surface | None:
    """The simplest surface (plane, cylinder, cone, sphere, torus) that every point lies
    within tolerance of, or None.

    normals: a unit normal per point (vertex normals of the mesh), which place the axis.
    """
    plane = plane_fit(points)
    if plane.residual <= tolerance:
        return plane
    # Twice the parameters of a torus (7): fewer points than that fit a surface that is
    # not there (a few facets of a bore read as a cone or a torus).
    if len(points) < 14:
        return None
    # The simplest kind that fits wins: a short band whose vertices lie on its two rims
    # only fits a sphere (and a torus) through both rims as well as its cylinder.
    extent = float(np.ptp(points, axis=0).max())
    for candidate in _initial_revolutions(points, normals):
        # The axis from the normals is near exact when the kind is right: a start far off
        # every point is not refined (it is where the time would go, not a tuned bound).
        if candidate.distances(points).max() > 0.05 * extent:
            continue
        fitted = refined(candidate, points)
        if fitted.residual <= tolerance and _plausible(fitted, points):
            return fitted
    return None


def _plausible(surface: Surface, points: np.ndarray) -> bool:
    """A fit that stands for its points and not for a degenerate limit: a cone whose half
    angle is within a hair of 0 or 90 degrees is a cylinder or a plane fitted badly; a
    torus with a tube wider than its ring is a spindle."""
    extent = float(np.ptp(points, axis=0).max())
    if surface.kind == "cylinder":
        return surface.radius < 1e3 * extent
    if surface.kind == "cone":
        return 1e-3 < abs(surface.semi_angle) < math.pi / 2 - 1e-3
    if surface.kind == "torus":
        return 0 < surface.minor < surface.radius and surface.radius < 1e3 * extent
    if surface.kind == "sphere":
        return surface.radius < 1e3 * extent
    return True
