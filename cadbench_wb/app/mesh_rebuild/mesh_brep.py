# SPDX-License-Identifier: LGPL-2.1-or-later
"""An analytic B-rep rebuilt from a mesh candidate's triangles, for the B-rep-only figures.

The mesh is cut into regions on fitted planes, cylinders, cones, spheres and tori
(geometry/mesh_segments.py); where two regions meet, their shared mesh vertices lie on the
model's edge, so each boundary chain becomes a line, a circle or an arc when its vertices
fit one within the fit tolerance, else a B-spline through them. Each region becomes a face
on its fitted surface bounded by those edges; a region that goes all the way round its
axis is split in two halves (an OpenCASCADE face on a periodic surface needs a seam
otherwise), which recognition joins again as pieces of one surface. The faces are sewn,
made a solid, and the solid is accepted only if it is valid and its volume agrees with the
mesh's (standard.MESH_FEATURES volume_rel); otherwise RebuildFailed names why.
"""

import math

import FreeCAD
import numpy as np
import Part

from cadbench_wb import standard
from cadbench_wb.geometry import mesh_segments, surface_fitting, surface_snapping

SETTINGS = standard.MESH_FEATURES


class RebuildFailed(Exception):
    """No trustworthy analytic B-rep: the message is the not-applicable reason's tail."""


def fit_tolerance(vertices: np.ndarray) -> float:
    """The fit tolerance of a mesh (mm): fit_rel of its diagonal or largest coordinate."""
    diagonal = float(np.linalg.norm(vertices.max(axis=0) - vertices.min(axis=0)))
    return SETTINGS["fit_rel"] * max(diagonal, float(np.abs(vertices).max()))


def rebuilt_solid(vertices: np.ndarray, triangles: np.ndarray, mesh_volume: float):
    """(solid, summary) of the analytic B-rep of a closed mesh; raises RebuildFailed."""
    tolerance = fit_tolerance(vertices)
    try:
        regions = mesh_segments.regions_of(vertices, triangles, tolerance, SETTINGS)
        halves = _halves(regions, vertices, triangles, tolerance)
        regions = mesh_segments.connected_regions(halves, triangles)
        labels = mesh_segments.triangle_labels(regions, len(triangles))
        loops = mesh_segments.boundary_loops(triangles, labels)
    except mesh_segments.SegmentationFailed as failure:
        raise RebuildFailed(str(failure)) from None
    # Edges are drawn through the boundary vertices: on the surfaces they bound, not off
    # them by the STL's float32 rounding (a part delivered turned rebuilt no face before).
    vertices = surface_snapping.snapped_vertices(vertices, triangles, regions)
    kinds: dict = {}
    for region in regions:
        kinds[region.surface.kind] = kinds.get(region.surface.kind, 0) + 1
    edges: dict = {}
    faces = []
    geometries: dict = {}
    areas = _areas(regions, vertices, triangles)
    for number, region in enumerate(regions):
        wires = []
        for loop in loops.get(number, []):
            chain_edges = [
                _edge(piece, number, vertices, tolerance, edges)
                for chain in mesh_segments.chains_of(loop)
                for piece in mesh_segments.split_at_corners(chain, vertices, SETTINGS["seed_deg"])
            ]
            wires.append(_wire(chain_edges, number))
        used = np.unique(triangles[region.triangles])
        inside = _inside(region.surface, used, loops.get(number, []), vertices)
        faces.append(
            _face(
                region.surface,
                wires,
                number,
                vertices[used],
                geometries,
                inside,
                areas[number],
                tolerance,
            )
        )
    solid = _unified(_sewn_solid(faces, tolerance))
    volume = solid.Volume
    deflections = _deflections(regions, vertices, triangles)
    deflection = float(deflections.max(initial=0.0))
    # The facets cut the curved faces' chords: the volumes differ by at most each curved
    # region's area times its own deflection (twice that, and volume_rel of the volume for
    # rounding). Region by region, not the whole area times the largest deflection: that
    # let a solid with four of six bolt holes filled pass (flange_bolt_circle on 1.0).
    allowed = 2 * float(deflections @ areas) + SETTINGS["volume_rel"] * abs(mesh_volume)
    if abs(volume - mesh_volume) > allowed:
        raise RebuildFailed(
            f"the rebuilt solid's volume {volume:.6g} mm3 differs from the mesh's "
            f"{mesh_volume:.6g} by more than the facets' chords explain ({allowed:.3g})"
        )
    summary = {
        "regions": len(regions),
        "surfaces": dict(sorted(kinds.items())),
        "faces": len(solid.Faces),
        "fitTolerance": tolerance,
        "deflection": deflection,
        "volume": volume,
    }
    return solid, summary


def _areas(regions, vertices, triangles) -> np.ndarray:
    """Each region's area: its triangles' (the volume check weighs each deflection by it)."""
    _, facet_areas = mesh_segments.triangle_normals(vertices, triangles)
    return np.array([float(facet_areas[region.triangles].sum()) for region in regions])


def _inside(surface, used, loops, vertices):
    """A mesh vertex well inside a sphere region, or None: of the region's vertices off its
    boundary, the one nearest the direction of their mean from the centre (a hemisphere's
    pole). It lies on the region's face and a triangle or more away from the other face its
    wire bounds on the sphere (_bounded)."""
    if surface.kind != "sphere":
        return None
    boundary = [vertex for loop in loops for vertex, _ in loop]
    interior = np.setdiff1d(used, np.array(boundary, dtype=used.dtype))
    if len(interior) == 0:
        return None
    directions = vertices[interior] - surface.origin
    return vertices[interior[int(np.argmax(directions @ directions.mean(axis=0)))]]


def _deflections(regions, vertices, triangles) -> np.ndarray:
    """Each region's deflection: the largest distance of a facet's centre to the region's
    fitted surface (a chord's middle is where it strays furthest, within 3/2), 0 on
    planes."""
    deflections = np.zeros(len(regions))
    for number, region in enumerate(regions):
        if region.surface.kind != "plane":
            centres = vertices[triangles[region.triangles]].mean(axis=1)
            deflections[number] = 1.5 * float(region.surface.distances(centres).max())
    return deflections


def _halves(regions, vertices, triangles, tolerance):
    """Regions that go round their axis (no gap of a quarter turn in their triangles'
    azimuths) split into two halves on the same surface; not a cone that holds its apex
    (a drill point): its halves would meet at the apex, where OCCT bounds neither half
    without mending that split their edges (NIST FTC-06), while the whole cone bounded by
    its rim alone gets its seam and its degenerate apex edge from ShapeFix."""
    found = []
    for region in regions:
        surface = region.surface
        if surface.kind not in ("cylinder", "cone", "torus") or _holds_apex(
            region, vertices, triangles, tolerance
        ):
            found.append(region)
            continue
        centres = vertices[triangles[region.triangles]].mean(axis=1) - surface.origin
        first, second = surface_fitting._frame(surface.axis)
        azimuth = np.arctan2(centres @ second, centres @ first)
        ordered = np.sort(azimuth)
        gaps = np.diff(np.concatenate([ordered, ordered[:1] + 2 * math.pi]))
        if gaps.max() >= math.pi / 2:
            found.append(region)
            continue
        upper = azimuth >= 0
        for side in (upper, ~upper):
            if side.any():
                found.append(mesh_segments.Region(region.triangles[side], surface))
    return found


def _holds_apex(region, vertices, triangles, tolerance) -> bool:
    """Whether a cone region has a mesh vertex on its axis (within the fit tolerance): the
    tessellation's vertex at the apex."""
    surface = region.surface
    if surface.kind != "cone":
        return False
    points = vertices[np.unique(triangles[region.triangles])] - surface.origin
    along = points @ surface.axis
    radial = np.linalg.norm(points - np.outer(along, surface.axis), axis=1)
    return bool(radial.min() <= tolerance)


def _edge(chain, region, vertices, tolerance, cache):
    """The Part edge of a chain, made once and shared by the two regions it separates."""
    key = (frozenset((region, chain.regions[1])), frozenset(chain.vertices))
    if key in cache:
        return cache[key]
    points = vertices[chain.vertices]
    edge = None
    if chain.closed:
        circle = _circle_fit(points, tolerance)
        if circle is not None:
            centre, normal, radius = circle
            edge = Part.Edge(Part.Circle(_vector(centre), _vector(normal), radius))
        else:
            curve = Part.BSplineCurve()
            curve.interpolate([_vector(p) for p in points], PeriodicFlag=True)
            edge = curve.toShape()
    else:
        start, end = points[0], points[-1]
        along = end - start
        length = float(np.linalg.norm(along))
        rel = points - start
        off = np.linalg.norm(rel - np.outer(rel @ along / max(length**2, 1e-300), along), axis=1)
        if len(points) == 2 or off.max() <= tolerance:
            edge = Part.LineSegment(_vector(start), _vector(end)).toShape()
        else:
            circle = _circle_fit(points, tolerance)
            if circle is not None:
                middle = _on_circle(points[len(points) // 2], circle)
                edge = Part.Arc(_vector(start), _vector(middle), _vector(end)).toShape()
            else:
                curve = Part.BSplineCurve()
                curve.interpolate([_vector(p) for p in points])
                edge = curve.toShape()
    cache[key] = edge
    return edge


def _circle_fit(points, tolerance):
    """(centre, normal, radius) of the circle through the points within tolerance, or None."""
    if len(points) < 4:
        return None
    plane = surface_fitting.plane_fit(points)
    if plane.residual > tolerance:
        return None
    first, second = surface_fitting._frame(plane.axis)
    rel = points - plane.origin
    x, y = rel @ first, rel @ second
    design = np.column_stack([x, y, np.ones_like(x)])
    (a, b, c), *_ = np.linalg.lstsq(design, x**2 + y**2, rcond=None)
    cx, cy = a / 2, b / 2
    radius = math.sqrt(max(c + cx**2 + cy**2, 0.0))
    if np.abs(np.hypot(x - cx, y - cy) - radius).max() > tolerance:
        return None
    return plane.origin + cx * first + cy * second, plane.axis, radius


def _on_circle(point, circle):
    centre, normal, radius = circle
    rel = point - centre
    rel = rel - (rel @ normal) * normal
    return centre + rel / max(float(np.linalg.norm(rel)), 1e-300) * radius


def _vector(p):
    return FreeCAD.Vector(float(p[0]), float(p[1]), float(p[2]))


def _wire(edges, region):
    try:
        wire = Part.Wire(edges)
    except Exception as exc:  # OCC's wire builder refuses disconnected edges
        raise RebuildFailed(f"region {region}'s boundary does not make a wire ({exc})") from None
    if not wire.isClosed():
        raise RebuildFailed(f"region {region}'s boundary wire is open")
    return wire


def _geometry(surface, points):
    origin, axis = _vector(surface.origin), _vector(surface.axis)
    if surface.kind == "plane":
        return Part.Plane(origin, axis)
    if surface.kind == "cylinder":
        geometry = Part.Cylinder()
        geometry.Axis, geometry.Center, geometry.Radius = axis, origin, surface.radius
        return geometry
    if surface.kind == "cone":
        # Part.Cone through two circles, at the ends of the region along the axis (where
        # the radius is positive; the fit's own origin may lie beyond the apex).
        along = (points - surface.origin) @ surface.axis
        ends = [float(along.min()), float(along.max())]
        radii = [surface.radius + math.tan(surface.semi_angle) * t for t in ends]
        centres = [_vector(surface.origin + t * surface.axis) for t in ends]
        return Part.Cone(centres[0], centres[1], max(radii[0], 0.0), max(radii[1], 0.0))
    if surface.kind == "sphere":
        return _sphere(surface, points)
    geometry = Part.Toroid()
    geometry.Center, geometry.Axis = origin, axis
    geometry.MajorRadius, geometry.MinorRadius = surface.radius, surface.minor
    return geometry


def _sphere(surface, points):
    """A Part sphere on the fit, turned so that its seam meridian lies opposite the
    region's points and its poles as far from them as can be: a face bounded on a sphere
    across its seam or round a pole came out invalid (a quarter ball of NIST FTC-08's
    STL)."""
    directions = points - surface.origin
    directions /= np.maximum(np.linalg.norm(directions, axis=1), surface_fitting.TINY)[:, None]
    middle = directions.mean(axis=0)
    if np.linalg.norm(middle) < 1e-6:  # round the whole ball: any frame does
        middle = np.array([1.0, 0.0, 0.0])
    seam = -surface_fitting._unit(middle)
    # The pole: of the directions square to the seam's, the one furthest from every point
    # (a pole on the region's boundary left a degenerate edge and a face short of its area).
    first, second = surface_fitting._frame(seam)
    turns = np.linspace(0.0, math.pi, 180, endpoint=False)
    poles = np.outer(np.cos(turns), first) + np.outer(np.sin(turns), second)
    nearness = np.abs(directions @ poles.T).max(axis=0)
    pole = poles[int(np.argmin(nearness))]
    if float(nearness.min()) >= math.cos(math.radians(SETTINGS["seed_deg"] / 2)):
        # Every direction square to the seam's is within half a facet's bend of a vertex
        # (seed_deg bounds the bend): on or inside the region, as on a hemispherical
        # pocket's rim (NIST FTC-06), where a pole had ShapeFix split the rim edge (1.3 mm
        # off, an open shell). The pole goes to the middle instead, and the face round it
        # gets its seam and its degenerate edge. A quarter ball's best pole is 45 degrees
        # from its nearest vertex and stays where it was.
        pole, seam = surface_fitting._unit(middle), first
    frame = FreeCAD.Rotation(_vector(seam), _vector(np.cross(pole, seam)), _vector(pole), "ZXY")
    geometry = Part.Sphere()
    geometry.Radius = surface.radius
    geometry.transform(FreeCAD.Placement(_vector(surface.origin), frame).toMatrix())
    return geometry


def _bounded(geometry, wire, surface, inside, area, tolerance):
    """The face a wire bounds on a curved geometry. On a sphere or a torus (closed both
    ways) a wire bounds two faces, the wire's direction choosing; OCCT 7.8 (FreeCAD 1.0)
    took the complement of a quarter ball's face, and of half a fillet's torus band (860
    mm2 for 117: turned_shaft delivered turned), where 7.6 did not. The face kept is one
    that holds a vertex inside the region (_inside, spheres only; within the fit
    tolerance, as every vertex of the region lies), tried on the wire both ways, then on
    fresh copies of it; without such a vertex, the one nearer the region's area. Not by area alone: a hemisphere's two faces have the same
    area, and NIST FTC-06's STL had its pocket made a ball (+8580 mm3) and its dome of
    82 % of a ball its 18 % cap (-16758 mm3) whichever way its wire ran."""
    face = _fixed_face(geometry, wire, tolerance)
    if surface.kind not in ("sphere", "torus"):
        return face
    other = _fixed_face(geometry, wire.reversed(), tolerance)
    if inside is None:
        return other if abs(other.Area - area) < abs(face.Area - area) else face
    point = Part.Vertex(_vector(inside))
    chosen = other if other.distToShape(point)[0] < face.distToShape(point)[0] else face
    if chosen.distToShape(point)[0] <= tolerance:
        return chosen
    for fresh in (wire.copy(), wire.copy().reversed()):
        # ShapeFix edits the edges it is given (their pcurves on this sphere), so a second
        # try on the same wire repeats the first: a copy is bounded afresh (sewn later).
        candidate = _fixed_face(geometry, fresh, tolerance)
        if candidate.isValid() and candidate.distToShape(point)[0] <= tolerance:
            return candidate
    return chosen


def _fixed_face(geometry, wire, tolerance):
    """The face a wire bounds on a geometry, as ShapeFix mends it: at 1e-7 first, then, if
    that leaves it invalid, at the fit tolerance. A drill point's half cone is bounded by
    the rim and two lines meeting at the apex, which OCCT closes in the surface's
    parameters by a degenerate edge only where the wire's apex is within the fix's
    precision of the cone's, and a fitted apex lies within the fit tolerance of the mesh's
    vertex (NIST CTC-01's drill points: invalid mended at 1e-7, valid at 1e-5). Faces
    valid at 1e-7 are left as they were."""
    face = Part.Face(geometry, wire)
    face.fix(1e-7, 1e-7, 1e-4)
    if face.isValid():
        return face
    mended = Part.Face(geometry, wire)
    mended.fix(tolerance, tolerance, 10 * tolerance)
    return mended if mended.isValid() else face


def _face(surface, wires, region, points, geometries, inside, area, tolerance):
    if not wires:
        raise RebuildFailed(f"region {region} has no boundary (a closed {surface.kind})")
    try:
        # One geometry per fitted surface: the two halves of a region round its axis lie
        # on the very same surface, so they are unified again below.
        if id(surface) not in geometries:
            geometries[id(surface)] = _geometry(surface, points)
        geometry = geometries[id(surface)]
        face = _planar_face(wires) if surface.kind == "plane" else None
        if face is None:
            single = [_bounded(geometry, wire, surface, inside, area, tolerance) for wire in wires]
            outer = max(range(len(wires)), key=lambda k: single[k].Area)
            face = single[outer]
            inner = [w for k, w in enumerate(wires) if k != outer]
            if inner:
                face.cutHoles(inner)
    except Exception as exc:  # OCC's face builders raise assorted errors
        raise RebuildFailed(f"no face on region {region}'s fitted {surface.kind} ({exc})") from None
    if not face.isValid() or face.Area <= 0:
        raise RebuildFailed(f"the face on region {region}'s fitted {surface.kind} is invalid")
    return face


def _planar_face(wires):
    """The face Part's FaceMakerBullseye makes of a plane region's wires, or None where it
    finds them not coplanar: a boundary vertex the snapping left where it was (not
    converged, or too far to move; surface_snapping) lies off the plane by float rounding
    (4e-6 mm; one of NIST FTC-06's 71 planes as meshed), and the face is then bounded on
    the fitted plane as a curved face is on its surface."""
    try:
        face = Part.makeFace(wires, "Part::FaceMakerBullseye")
    except Exception as exc:  # FreeCAD raises it as a Base.FreeCADError
        if "not coplanar" in str(exc):
            return None
        raise
    return face if face.ShapeType == "Face" else face.Faces[0]


def _unified(solid):
    """The solid with faces of one surface merged (the halves of a bore become one face
    with a seam, as a CAD kernel makes it), when that keeps it valid and its volume; the
    unmerged solid otherwise (recognition joins the halves as pieces of one surface)."""
    try:
        # On a copy: UnifySameDomain edits the shared sub-shapes of its argument, which
        # left turned_shaft's rebuilt solid invalid and 700 mm3 larger (seen on 0.20).
        merged = solid.copy().removeSplitter()
    except Exception:  # OCC's UnifySameDomain can throw on odd input: keep what holds
        return solid
    if merged.ShapeType == "Compound" and len(merged.Solids) == 1:
        merged = merged.Solids[0]
    if merged.ShapeType != "Solid" or not merged.isValid():
        return solid
    if abs(merged.Volume - solid.Volume) > 1e-9 * abs(solid.Volume):
        return solid
    return merged


def _sewn_solid(faces, tolerance):
    try:
        shell = Part.Shell(faces)
        closed = shell.isClosed()
    except Exception:  # faces whose edges are not shared yet: sewing joins them
        closed = False
    try:
        if not closed:
            sewn = Part.Compound(faces)
            sewn.sewShape()
            shells = sewn.Shells
            if len(shells) != 1 or not shells[0].isClosed():
                raise RebuildFailed(
                    f"the rebuilt faces sew into {len(shells)} shell(s), not one closed shell"
                )
            shell = shells[0]
        solid = Part.Solid(shell)
    except RebuildFailed:
        raise
    except Exception as exc:
        raise RebuildFailed(f"the rebuilt faces do not make a solid ({exc})") from None
    if solid.Volume < 0:
        solid.reverse()
    if not solid.isValid():
        # ShapeFix (faces oriented alike, tolerances raised to the fit's) on a copy: on
        # the solid just made, whose faces are the very ones of the list, it reports
        # success and leaves it unorientable (bearing_block's own STL, seen on 0.20).
        solid = solid.copy()
        solid.fix(tolerance, tolerance, 10 * tolerance)
        if solid.Volume < 0:
            solid.reverse()
    if not solid.isValid():
        raise RebuildFailed("the rebuilt solid fails OpenCASCADE's BRepCheck")
    return solid
