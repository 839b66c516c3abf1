# SPDX-License-Identifier: LGPL-2.1-or-later
"""Where a solid's measurable geometry sits: one descriptor per face and per edge.

Located dimension matching (metrics/located.py) needs, for every face and edge the
spectrum names, its surface type and where it is: a plane's outward normal and centroid,
a cylinder's axis and the middle of its axial extent, a cone's apex, a sphere's or torus'
centre, a line's midpoint, a circle's centre. Read once per shape; everything after this
is numpy. The descriptors are taken in the frame of the shape given, so the aligned
candidate (the candidate moved into the reference frame) is read in the reference frame,
with the sub-element numbering of the delivered file (transformShape keeps the topology).
"""

import math

import numpy as np
import Part

from cadbench_wb.metrics.located import Geometry


def geometry_of(shape, diagonal: float, with_edge_faces: bool = False) -> Geometry:
    """Descriptors of every face and edge of a shape (indices as in shape.Faces/Edges).

    diagonal: the reference's bounding-box diagonal (the spectrum has it; OCC's tight box
    costs more than everything here). with_edge_faces: which faces each edge bounds, for
    targets bound to faces (a few ms on a 200-face part, so only when asked)."""
    part = Part

    faces, edges = shape.Faces, shape.Edges
    face_rows = [_face_row(part, face) for face in faces]
    edge_rows = [_edge_row(part, edge) + (0.0,) for edge in edges]
    _meridians_on_their_axis(part, faces, edges, edge_rows)
    vertices = np.array([(v.X, v.Y, v.Z) for v in shape.Vertexes], float)
    edge_faces = _edge_faces(faces, edges) if with_edge_faces else [[] for _ in edges]
    return Geometry.from_rows(face_rows, edge_rows, edge_faces, vertices.reshape(-1, 3), diagonal)


def _edge_faces(faces, edges) -> list:
    index_of = {}
    for index, edge in enumerate(edges):
        index_of.setdefault(edge.hashCode(), []).append(index)
    edge_faces = [[] for _ in edges]
    for face_index, face in enumerate(faces):
        for edge in face.Edges:
            for index in index_of.get(edge.hashCode(), ()):
                if edges[index].isSame(edge) and face_index not in edge_faces[index]:
                    edge_faces[index].append(face_index)
    return edge_faces


def _vec(v) -> tuple:
    return (v.x, v.y, v.z)


def _face_row(part, face) -> tuple:
    """(type, point, direction, size, major, convex) of one face."""
    try:
        surface = face.Surface
    except TypeError:  # surface types Part cannot wrap
        return ("other", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 0.0, 0.0, False)
    u0, u1, v0, v1 = face.ParameterRange
    if isinstance(surface, part.Plane):
        normal = surface.Axis
        if face.Orientation == "Reversed":
            normal = -normal
        # The middle of the face's rectangle in its plane: a point of the plane that stays
        # with the face (its centre of mass would cost ten times more and say no more).
        middle = face.valueAt((u0 + u1) / 2, (v0 + v1) / 2)
        return ("plane", _vec(middle), _vec(normal), 0.0, 0.0, False)
    if isinstance(surface, part.Cylinder):
        axis = surface.Axis
        # v is the signed distance along the axis from surface.Center: the middle of the
        # face's axial extent is a point of the axis that two halves of a split hole share.
        middle = surface.Center + axis * ((v0 + v1) / 2)
        convex = _convex(face, surface)
        return ("cylinder", _vec(middle), _vec(axis), surface.Radius, 0.0, convex, (v1 - v0) / 2)
    if isinstance(surface, part.Cone):
        half = abs(math.degrees(surface.SemiAngle))
        return ("cone", _vec(surface.Apex), _vec(surface.Axis), half, 0.0, False)
    if isinstance(surface, part.Sphere):
        return ("sphere", _vec(surface.Center), (0.0, 0.0, 0.0), surface.Radius, 0.0, False)
    if isinstance(surface, part.Toroid):
        return (
            "torus",
            _vec(surface.Center),
            _vec(surface.Axis),
            surface.MinorRadius,
            surface.MajorRadius,
            False,
        )
    middle = face.valueAt((u0 + u1) / 2, (v0 + v1) / 2)
    return ("other", _vec(middle), (0.0, 0.0, 0.0), 0.0, 0.0, False)


def _edge_row(part, edge) -> tuple:
    """(type, point, direction, size) of one edge."""
    try:
        curve = edge.Curve
    except TypeError:
        return ("other", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 0.0)
    if isinstance(curve, part.Line):
        start, end = edge.ParameterRange
        first, last = edge.valueAt(start), edge.valueAt(end)
        direction = last - first
        if direction.Length > 0:
            direction.normalize()
        return ("line", _vec((first + last) * 0.5), _vec(direction), end - start)
    if isinstance(curve, part.Circle):
        return ("circle", _vec(curve.Center), _vec(curve.Axis), curve.Radius)
    return ("other", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 0.0)


def _meridians_on_their_axis(part, faces, edges, edge_rows) -> None:
    """A fillet turned as a surface of revolution is measured by its seam, a meridian
    circle whose place around the axis depends on where the seam happens to lie (and the
    alignment of a round part leaves that angle free). Such a circle is located on the
    revolution axis instead: the foot of its centre, the axis, and the centre's distance."""
    index_of = {}
    for index, edge in enumerate(edges):
        if edge_rows[index][0] == "circle":
            index_of.setdefault(edge.hashCode(), []).append(index)
    if not index_of:
        return
    for face in faces:
        try:
            surface = face.Surface
        except TypeError:
            continue
        if not isinstance(surface, part.SurfaceOfRevolution):
            continue
        origin, axis = surface.Location, surface.Direction
        axis = axis / axis.Length
        for edge in face.Edges:
            for index in index_of.get(edge.hashCode(), ()):
                if not edges[index].isSame(edge):
                    continue
                kind, centre, normal, radius, _ = edge_rows[index]
                offset = type(origin)(*centre) - origin
                along = offset.dot(axis)
                foot = origin + axis * along
                distance = (offset - axis * along).Length
                edge_rows[index] = (kind, _vec(foot), _vec(axis), radius, distance)


def _convex(face, surface) -> bool:
    """A shaft (normal away from the axis), not a hole or a fillet in a corner."""
    u0, u1, v0, v1 = face.ParameterRange
    u, v = (u0 + u1) / 2, (v0 + v1) / 2
    offset = face.valueAt(u, v) - surface.Center
    radial = offset - surface.Axis * offset.dot(surface.Axis)
    return face.normalAt(u, v).dot(radial) > 0
