# SPDX-License-Identifier: LGPL-2.1-or-later
"""Section A-A: a TechDraw DrawViewSection where the plain views hide a hole's depth.

A counterbore's floor or a blind hole's bottom lies behind the face it is drilled from:
the views that show the depth show it as hidden lines, which the drawing does not draw
(ISO 128-44: a section, not hidden lines, dimensions an interior). The cutting plane runs
through the axes of as many such holes as one plane holds, parallel to the first of the
front, top and right views that sees the depth; the section looks the way that view does.

TechDraw centres a section on its cut solid, not on the part: the section's own centre is
read off its vertices (the part's vertices on the kept side, seen along the view).
"""

import FreeCAD
import Part

from cadbench_wb import standard

SECTIONS = ("Section", "SectionB")  # view names; their cutting planes A-A and B-B
SYMBOLS = ("A", "B")
_SECTION = standard.DRAWING["section"]


def section_planes(shape, views=("Front", "Top", "Right")) -> list:
    """[(normal, point on the plane, base view name)]: the sections that show the hidden
    hole depths, at most max_sections, each holding the most hole profiles not yet shown
    (then the most holes), or [] when no hole hides a depth. The normal is a view's
    direction (from the part towards the viewer, as TechDraw's Direction); the base view is
    the one that sees the plane's holes end-on, where the cutting plane would be marked."""
    holes = hidden_depth_holes(shape)
    planes, shown = [], set()
    while len(planes) < _SECTION["max_sections"]:
        best = None
        for view in views:
            normal = _vector(view)
            levels = {}
            for axis, point, profile in holes:
                if abs(axis.dot(normal)) < 1e-6 and profile not in shown:
                    level = round(point.dot(normal), _SECTION["same_plane_decimals"])
                    levels.setdefault(level, []).append((axis, point, profile))
            for _level, members in sorted(levels.items()):
                score = (len({m[2] for m in members}), len(members))
                if best is None or score > best[0]:
                    best = (score, normal, members)
        if best is None:
            break
        _score, normal, members = best
        shown |= {m[2] for m in members}
        axis, point, _profile = members[0]
        base = next(
            (name for name in views if abs(abs(axis.dot(_vector(name))) - 1) < 1e-6), "Front"
        )
        planes.append((normal, point, base))
    return planes


def _vector(name):
    from cadbench_wb.app.drawing.pose import DIRECTIONS  # noqa: PLC0415 - heavy: loaded on first use

    return FreeCAD.Vector(*DIRECTIONS[name])


def hidden_depth_holes(shape) -> list:
    """(axis, point on the axis, profile) of every hole with a depth the outline does not
    show: a stepped hole (coaxial bores of different diameters: a counterbore) or a blind
    one (a bore closed by a flat or a drill point's cone). The profile (its radii, blind or
    not) tells holes of one kind, which one section shows for all. Axis-parallel axes
    only: a section of an inclined hole is no true shape."""
    bores = {}  # axis line -> radii of its concave cylinders
    ends_of = {}
    for face in shape.Faces:
        if isinstance(face.Surface, (Part.Plane, Part.Cone)):
            for edge in face.Edges:
                ends_of.setdefault(edge.hashCode(), []).append(face)
    for face in shape.Faces:
        surface = face.Surface
        if not isinstance(surface, Part.Cylinder) or not _concave(face):
            continue
        axis = surface.Axis
        if max(abs(axis.x), abs(axis.y), abs(axis.z)) < 1 - 1e-6:
            continue
        key = _axis_key(surface.Center, axis)
        entry = bores.setdefault(key, [axis, surface.Center, set(), False])
        entry[2].add(round(surface.Radius, 4))
        entry[3] = entry[3] or _closed_end(ends_of, face)
    return [
        (axis, point, (tuple(sorted(radii)), blind))
        for _key, (axis, point, radii, blind) in sorted(bores.items())
        if len(radii) > 1 or blind
    ]


def _concave(face) -> bool:
    u0, u1, v0, v1 = face.ParameterRange
    u, v = (u0 + u1) / 2, (v0 + v1) / 2
    point, normal = face.valueAt(u, v), face.normalAt(u, v)
    surface = face.Surface
    offset = point - surface.Center
    radial = offset - surface.Axis * offset.dot(surface.Axis)
    return normal.dot(radial) < 0


def _closed_end(ends_of, face) -> bool:
    """Whether a bore ends in a flat disc or a cone (a blind hole's bottom): a face of the
    part that touches the bore and is bounded by the bore's circle alone.
    ends_of: edge hash -> the plane and cone faces holding that edge."""
    axis, center = face.Surface.Axis, face.Surface.Center
    for edge in face.Edges:
        if edge.Degenerated or not isinstance(edge.Curve, Part.Circle):
            continue
        for other in ends_of.get(edge.hashCode(), ()):
            if not any(e.isSame(edge) for e in other.Edges):
                continue
            if all(_on_axis(e, axis, center, face.Surface.Radius) for e in other.Edges):
                return True
    return False


def _on_axis(edge, axis, center, radius) -> bool:
    """A circle of the bore's radius about its axis (a counterbore's floor also has the
    smaller bore's circle: no bottom), or a cone's apex."""
    if edge.Degenerated:
        # A cone's apex. Read from STEP it has no 3D curve, and edge.Curve raises
        # "TypeError: undefined curve type" (NIST CTC-04: 66 such apexes); FreeCAD's own
        # cones give it a circle of radius 0.
        return True
    curve = edge.Curve
    if isinstance(curve, Part.Circle):
        offset = curve.Center - center
        across = (offset - axis * offset.dot(axis)).Length
        return across < 1e-6 and abs(curve.Radius - radius) < 1e-6
    return edge.Length < 1e-9  # a degenerate apex edge that is not flagged so


def _axis_key(center, axis) -> tuple:
    foot = center - axis * center.dot(axis)
    direction = max(range(3), key=lambda i: abs((axis.x, axis.y, axis.z)[i]))
    return (direction, *(round(c, 4) + 0.0 for c in (foot.x, foot.y, foot.z)))


def add_section(doc, page, model, base, plane, scale, index=0):
    """The DrawViewSection of plane (normal, point, base name) at scale, not yet computed:
    the index-th section (A-A, B-B). Properties that differ between TechDraw versions are
    set only where they exist."""
    normal, point, _base_name = plane
    section = doc.addObject("TechDraw::DrawViewSection", SECTIONS[index])
    page.addView(section)
    section.BaseView = base
    section.SectionSymbol = SYMBOLS[index]
    section.SectionNormal = normal
    section.Direction = normal
    section.SectionOrigin = point
    # The section's x runs as its look-alike view's does (FreeCAD's ProjGroup: the front
    # and top views' x is the model's x, the right view's is y).
    x_dir = FreeCAD.Vector(1, 0, 0) if abs(normal.x) < 0.5 else FreeCAD.Vector(0, 1, 0)
    section.XDirection = x_dir
    section.ScaleType = "Custom"
    section.Scale = scale
    section.SeamVisible = False
    section.SmoothVisible = False
    for name, value in (("FuseBeforeCut", False), ("CutSurfaceDisplay", "Hatch")):
        if name in section.PropertiesList:
            try:
                setattr(section, name, value)
            except Exception:  # an enumeration without this value
                pass
    section.Source = [model]
    return section


def section_origin(item, shape, plane):
    """The model point the section is centred on (its x and y; along the normal it is the
    plane's point), or None when the section's vertices and the part's kept vertices share
    no offset."""
    normal, point, _base = plane
    x_dir = item.XDirection
    y_dir = item.Direction.cross(x_dir)
    level = point.dot(normal)
    kept = [v.Point for v in shape.Vertexes if v.Point.dot(normal) <= level + 1e-6]
    seen = []
    index = 0
    while True:
        try:
            vertex = item.getVertexByIndex(index)
        except Exception:  # TechDraw raises past the last vertex
            break
        seen.append((vertex.Point.x, vertex.Point.y))
        index += 1
    if not kept:
        return None
    from cadbench_wb.app.drawing.origin import shared_offset  # noqa: PLC0415 - heavy: loaded on first use

    found = shared_offset([(p.dot(x_dir), p.dot(y_dir)) for p in kept], seen)
    if found is None:
        return None
    across, up = found
    return x_dir * float(across) + y_dir * float(up) + normal * level
