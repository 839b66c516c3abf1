# SPDX-License-Identifier: LGPL-2.1-or-later
"""How a part is held for its drawing and which views show it, as a drafter decides.

Squared up to the axes, its longest extent lying across the front view, the standard
views plus those a feature needs, and which views TechDraw projects polygonally.
"""

import math

import numpy as np

from cadbench_wb import standard

ORTHOGRAPHIC = ("Front", "Top", "Right")
# Where each view looks from (TechDraw's Direction points from the part to the viewer).
DIRECTIONS = {
    "Front": (0, -1, 0),
    "Top": (0, 0, 1),
    "Right": (1, 0, 0),
    "Rear": (0, 1, 0),
    "Bottom": (0, 0, -1),
    "Left": (-1, 0, 0),
}
ISO = "Iso"

# Tuned numbers, with their reasons: standard.DRAWING["pose"].
SQUARE_TOLERANCE_DEG = standard.DRAWING["pose"]["square_tolerance_deg"]
LYING_RATIO = standard.DRAWING["pose"]["lying_ratio"]
FACING_RATIO = standard.DRAWING["pose"]["facing_ratio"]
HEAVY_FACES = standard.DRAWING["pose"]["heavy_faces"]
HEAVY_SHARE = standard.DRAWING["pose"]["heavy_share"]


def posed(shape, hold=None) -> tuple:
    """(shape, squared-up degrees, orientation text or None): the part held as it is
    drawn -- squared up, lying down, its larger side facing the front view.

    hold: the holding (hold_of) to use instead of this shape's own: a candidate aligned
    onto its reference is held as the reference is (the same views, whatever pose it was
    delivered in and however near a ratio its own box comes to a threshold).

    Drawn is a copy without the shape's triangulation (copyMesh=False): the scoring's
    earlier stages mesh the reference in place, and TechDraw's result depends on the
    triangulation a shape carries (NIST FTC-06's reference printed 19 of its 21 targets
    after the shape stage, 20 as read from its file). The drawing must be the same whether
    it is made in the scoring process or in a child of its own (app/drawing/ahead.py)."""
    shape, squared = squared_up(shape.copy())
    longest, facing = hold if hold is not None else (None, None)
    shape, turned = lying_down(shape, longest)
    shape, faced = facing_front(shape, facing)
    return shape, squared, "; ".join(t for t in (turned, faced) if t) or None


def hold_of(shape) -> tuple:
    """(axis turned to x or "x", whether turned about x to face the front): how posed()
    holds this shape by its own box, squared up. Plain data: a candidate's drawing is
    held by its reference's (posed's hold)."""
    shape, _ = squared_up(shape.copy())
    longest = _longest(shape.BoundBox)
    turned, _ = lying_down(shape, longest)
    return longest, _faces_front(turned.BoundBox)


def _longest(box) -> str:
    """The axis lying_down turns to x ("x": none)."""
    lengths = {"x": box.XLength, "y": box.YLength, "z": box.ZLength}
    longest = max(lengths, key=lambda k: (lengths[k], k == "x"))
    if longest == "x" or lengths[longest] <= LYING_RATIO * lengths["x"]:
        return "x"
    return longest


def _faces_front(box) -> bool:
    return box.YLength > FACING_RATIO * box.ZLength


def squared_up(shape) -> tuple:
    """The shape turned by the small rotation that makes its nearly axis-parallel faces and
    cylinder axes exactly parallel to the axes (within SQUARE_TOLERANCE_DEG), and that
    rotation's angle in degrees. A candidate aligned onto its reference carries the
    alignment's last thousandths of a degree: its holes would project as ellipses and its
    edges miss the levels of a square view. Faces meant to be inclined stay as they are."""
    from cadbench_wb.app.model import placement  # noqa: PLC0415 - heavy: loaded on first use

    pairs = []  # (weight, direction, the axis it is turned onto)
    limit = math.cos(math.radians(SQUARE_TOLERANCE_DEG))
    for face in shape.Faces:
        direction = _face_direction(face)
        if direction is None:
            continue
        v = np.array([direction.x, direction.y, direction.z])
        axis = int(np.argmax(np.abs(v)))
        if abs(v[axis]) < limit:
            continue  # an inclined face: not squared, and no say in the rotation
        target = np.zeros(3)
        target[axis] = math.copysign(1.0, v[axis])
        pairs.append((face.Area, v, target))
    if not pairs:
        return shape, 0.0
    if len({int(np.argmax(np.abs(t))) for _, _, t in pairs}) == 1:
        # One axis only (a plain turned part): the least turn that squares it; a
        # best fit would leave the turn about that axis undetermined.
        target = pairs[0][2]
        mean = sum(w * v * np.sign(v @ target) for w, v, t in pairs)
        rotation = _turn_onto(mean / np.linalg.norm(mean), target)
    else:
        covariance = sum(w * np.outer(t, v) for w, v, t in pairs)
        u, _, vt = np.linalg.svd(covariance)
        rotation = u @ np.diag([1.0, 1.0, np.linalg.det(u @ vt)]) @ vt
    # NIST FTC-11 aligned with a tilt of 2.5e-11 rad was left unsquared by acos of the trace,
    # its circles then projected as no circles at all (8 of 9 targets instead of 9).
    angle = _rotation_angle_deg(rotation)
    if angle < 1e-12:  # rounding of a square part's own fit (1e-16 rad): nothing to square
        return shape, 0.0
    center = shape.BoundBox.Center
    c = np.array([center.x, center.y, center.z])
    return placement.placed(shape, rotation, c - rotation @ c), angle


def _rotation_angle_deg(rotation) -> float:
    """A rotation's angle in degrees, also when tiny: acos of the trace loses every turn
    under ~1e-8 rad (1 - cos is then below the float's resolution), and a pose read from
    ten printed digits is off by 1e-10 rad -- enough for TechDraw to miss its holes."""
    r = np.asarray(rotation)
    sine = np.linalg.norm([r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]]) / 2
    return math.degrees(math.atan2(sine, (np.trace(r) - 1) / 2))


def _turn_onto(v, target):
    """The rotation matrix of the least turn taking unit vector v onto unit vector target."""
    axis = np.cross(v, target)
    sine, cosine = np.linalg.norm(axis), float(v @ target)
    if sine < 1e-15:
        return np.eye(3)
    k = axis / sine
    cross = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + sine * cross + (1 - cosine) * cross @ cross


def _face_direction(face):
    """A plane's normal or a cylinder's or cone's axis (sign as given)."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    surface = face.Surface
    if isinstance(surface, Part.Plane):
        u0, u1, v0, v1 = face.ParameterRange
        return face.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
    if isinstance(surface, (Part.Cylinder, Part.Cone)):
        return surface.Axis
    return None


def lying_down(shape, longest: str | None = None) -> tuple:
    """The shape turned so that its longest extent runs across the front view, as a
    drafter draws a shaft lying; (shape, what was turned) -- the dimensions are the same.
    longest: the axis to turn to x ("x": none), else found from the shape's box."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    box = shape.BoundBox
    if longest is None:
        longest = _longest(box)
    if longest == "x":
        return shape, None
    turned = shape.copy()
    axis = FreeCAD.Vector(0, 1, 0) if longest == "z" else FreeCAD.Vector(0, 0, 1)
    turned.rotate(box.Center, axis, 90 if longest == "z" else -90)
    return turned, f"{longest} axis turned to x"


def facing_front(shape, turn: bool | None = None) -> tuple:
    """The shape turned about x so that the front view shows its larger side: a plate is
    drawn with its face in the front view and its thickness in the top view, not as an
    edge-on sliver; (shape, what was turned). turn: whether to, else found from its box."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    box = shape.BoundBox
    if not (_faces_front(box) if turn is None else turn):
        return shape, None
    turned = shape.copy()
    turned.rotate(box.Center, FreeCAD.Vector(1, 0, 0), 90)
    return turned, "y axis turned to z"


def view_sizes(shape, names) -> dict:
    """Width and height (model mm) of each view, from the bounding box."""
    box = shape.BoundBox
    across = {"x": box.XLength, "y": box.YLength, "z": box.ZLength}
    spans = {
        "Front": ("x", "z"),
        "Rear": ("x", "z"),
        "Top": ("x", "y"),
        "Bottom": ("x", "y"),
        "Right": ("y", "z"),
        "Left": ("y", "z"),
    }
    sizes = {name: (across[spans[name][0]], across[spans[name][1]]) for name in names}
    sizes[ISO] = (box.DiagonalLength, box.DiagonalLength * 0.8)
    return sizes


def extra_views(shape) -> tuple:
    """The rear, bottom or left-hand views a drafter adds: where a hole or boss shows its
    circle only from there (a counterbore on the underside)."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    seen_from = {}
    # Planes by the edges they hold (shape.ancestorsOfType per edge took 3 s on 270 faces).
    planes_of = {}
    for face in shape.Faces:
        if isinstance(face.Surface, Part.Plane):
            for edge in face.Edges:
                planes_of.setdefault(edge.hashCode(), []).append(face)
    for face in shape.Faces:
        surface = face.Surface
        if not isinstance(surface, Part.Cylinder):
            continue
        axis = surface.Axis
        directions = set()
        for edge in face.Edges:
            # (a degenerated edge read from STEP has no 3D curve: edge.Curve would raise)
            if edge.Degenerated or not isinstance(edge.Curve, Part.Circle):
                continue
            for neighbour in planes_of.get(edge.hashCode(), ()):
                if not neighbour.Edges or not any(e.isSame(edge) for e in neighbour.Edges):
                    continue
                u0, u1, v0, v1 = neighbour.ParameterRange
                normal = neighbour.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
                if abs(abs(normal.dot(axis)) - 1) < 1e-6:
                    directions.add(_direction_name(normal))
        key = (round(surface.Radius, 4), _rounded_vector(surface.Center, axis))
        seen_from.setdefault(key, set()).update(d for d in directions if d)
    needed = set()
    for directions in seen_from.values():
        if directions and not directions & set(ORTHOGRAPHIC):
            needed.add(min(directions, key=list(DIRECTIONS).index))
    return tuple(name for name in DIRECTIONS if name in needed)


def _direction_name(vector):
    for name, (x, y, z) in DIRECTIONS.items():
        if abs(vector.x - x) + abs(vector.y - y) + abs(vector.z - z) < 1e-6:
            return name
    return None


def _rounded_vector(center, axis) -> tuple:
    """A point of the axis line that is the same for every face on that line."""
    foot = center - axis * center.dot(axis)
    return tuple(round(c, 3) + 0.0 for c in (foot.x, foot.y, foot.z))


def views_to_draw(shape) -> tuple:
    """(orthographic view names, names of the views drawn polygonally). A threaded part is
    drawn with polygonal hidden-line removal: curves come out as short lines, so its
    diameters are read across its cylinders' silhouettes, and extra views (which would
    only add circles) are not drawn."""
    if is_heavy(shape):
        return ORTHOGRAPHIC, set(ORTHOGRAPHIC) | {ISO}
    return ORTHOGRAPHIC + extra_views(shape), set()


def is_heavy(shape) -> bool:
    """Whether exact hidden-line removal would take minutes: a modelled thread (a helix of
    B-spline or swept faces). Measured on an M8 bolt: 25 s for a side view, 230 s looking
    at its tip, under a second with TechDraw's polygonal removal (CoarseView)."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    exact = (Part.Plane, Part.Cylinder, Part.Cone, Part.Sphere, Part.Toroid)
    free_form = sum(not isinstance(f.Surface, exact) for f in shape.Faces)
    return threaded_by_count(free_form, len(shape.Faces))


def threaded_by_count(free_form: int, faces: int) -> bool:
    """Whether free_form of faces free-form faces make a part a modelled thread."""
    return free_form >= HEAVY_FACES and free_form >= HEAVY_SHARE * faces
