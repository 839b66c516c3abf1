# SPDX-License-Identifier: LGPL-2.1-or-later
"""A TechDraw drawing of a model, made headless: page, views, dimensions, DXF/SVG/FCStd.

FreeCAD 0.20 headless facts this module is built on (FREECAD_NOTES.md): a dimension
measures only after doc.recompute(); getText() prints no number, so what a drawing shows is
read back from the DXF (drawing_readback.py); writeDXFPage works, a page SVG or PDF writer
does not exist without the GUI. The views' geometry comes from getEdgeByIndex and
getVertexByIndex (unscaled, y up, centred on TechDraw.findCentroid) -- getVisibleEdges is
scaled and y-down. The choice of dimensions and their places is drawing_plan.py and
drawing_layout.py; this module only talks to TechDraw.
"""

import contextlib
import math
import os
import re
import sys

import numpy as np

from cadbench_wb import resources, standard
from cadbench_wb.app.drawing import origin as drawing_origin
from cadbench_wb.app.drawing import pose as drawing_pose
from cadbench_wb.app.drawing import section as drawing_section
from cadbench_wb.app.drawing import sheets as drawing_sheets
from cadbench_wb.app.drawing import svg as drawing_svg
from cadbench_wb.app.drawing.pose import ISO, ORTHOGRAPHIC
from cadbench_wb.app.model import kernel_compat
from cadbench_wb.drafting import candidates as drawing_candidates
from cadbench_wb.drafting import layout as drawing_layout
from cadbench_wb.drafting import plan as drawing_plan
from cadbench_wb.errors import CadbenchError
from cadbench_wb.runtime.freecad_env import import_freecad

TEMPLATE = "A3_Landscape_ISO7200TD.svg"
SHEET = "A3"
PROJECTIONS = {"first": "First Angle", "third": "Third Angle"}
# Tuned numbers, with their reasons: standard.DRAWING["views"].
ORIGIN_BIN = standard.DRAWING["views"]["origin_bin_mm"]
MEASURE_TOLERANCE = standard.DRAWING["views"]["measure_tolerance_rel"]
FILES = {"dxf": "drawing.dxf", "svg": "drawing.svg", "fcstd": "drawing.FCStd"}
PDF_UNAVAILABLE = "FreeCAD 0.20 has no headless PDF writer for TechDraw pages (TechDrawGui only)"
SVG_WRITER = (
    "assembled: the template, TechDraw.viewPartAsSvg per view, dimensions from the DXF "
    "(FreeCAD 0.20 has no headless page SVG writer)"
)


class DrawingFailed(CadbenchError):
    """TechDraw could not make or export the drawing."""

    reason = "drawing_failed"
    exit_status = 3


def make_drawing(
    shape,
    out_dir: str,
    case=None,
    projection: str = "first",
    title: str = "",
    planned=None,
    hold=None,
) -> dict:
    """Draw a shape, write drawing.dxf, drawing.svg and drawing.FCStd into out_dir.

    Returns what was drawn: files (relative to out_dir), scale, views, the dimensions with
    the value TechDraw measured and the text they should print, and those left out.
    planned: a dict that receives, under "dimensions", every dimension the planner chose
    before the sheet left any out, with its view's 3D frame (planned_entry), and under
    "shape" the copy as drawn (posed: turned, the faces numbered as the model's).
    hold: how to hold the shape (pose.hold_of: a candidate is held as its reference).
    """
    with drawing_session(shape, projection, title, hold) as session:
        return session.draw(out_dir, case, planned)


@contextlib.contextmanager
def drawing_session(shape, projection: str = "first", title: str = "", hold=None):
    """A Session: one shape's views projected once (hidden-line removal, the costly step)
    and drawn with as many cases as asked, each drawing the same as make_drawing's."""
    if projection not in PROJECTIONS:
        raise DrawingFailed(f"unknown projection {projection!r} (first or third)")
    freecad = import_freecad()
    import TechDraw  # noqa: F401, PLC0415 - registers the TechDraw document objects

    doc = freecad.newDocument(_document_name(freecad))
    try:
        with _progress_silenced(), faces_not_sought(freecad):
            session = Session(freecad, doc, shape, projection, title, hold)
        yield session
    finally:
        freecad.closeDocument(doc.Name)


@contextlib.contextmanager
def _progress_silenced():
    """Under freecadcmd every recompute writes a progress bar to the process's stdout
    (file descriptor 1), which would corrupt `--json -`: send it to /dev/null meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


@contextlib.contextmanager
def faces_not_sought(freecad):
    """TechDraw looks for the faces of every view after hidden-line removal (for hatching
    and sections; this drawing uses neither): the preference HandleFaces off meanwhile,
    the user's own setting back afterwards. Measured on the bearing block at 1:1: 17, 28
    and 12 s for its three views with the search, 10, 14 and 6 s without."""
    group = freecad.ParamGet("User parameter:BaseApp/Preferences/Mod/TechDraw/General")
    saved = group.GetBool("HandleFaces", True)
    group.SetBool("HandleFaces", False)
    try:
        yield
    finally:
        group.SetBool("HandleFaces", saved)


def _document_name(freecad) -> str:
    taken = set(freecad.listDocuments())
    index = 0
    while f"cadbench_drawing{index}" in taken:
        index += 1
    return f"cadbench_drawing{index}"


class Session:
    """The page of one shape with its views and sections projected: draw() plans, places
    and exports the dimensions of one case; the next draw() starts from the same views
    (its dimensions and cosmetic lines removed, the projection's scale set back), so each
    drawing is the one a fresh make_drawing would make, without projecting again."""

    def __init__(self, freecad, doc, shape, projection, title, hold=None):
        import TechDraw  # noqa: PLC0415 - FreeCAD-only

        self.doc, self.projection, self.title = doc, projection, title
        shape, self.squared, self.turned = drawing_pose.posed(shape, hold)
        self.shape = shape
        model = doc.addObject("Part::Feature", "Model")
        model.Shape = shape
        model.Label = title or "Model"
        self.page = page = doc.addObject("TechDraw::DrawPage", "Page")
        self.template = template = doc.addObject("TechDraw::DrawSVGTemplate", "Template")
        template_path = template_file(freecad)
        self.sheets = sheets = drawing_sheets.sheet_templates(freecad, template_path, sheet_areas)
        self.areas = {name: (frame, block) for name, (_path, frame, block) in sheets.items()}
        names, self.coarse = drawing_pose.views_to_draw(shape)
        sizes = drawing_pose.view_sizes(shape, names)
        self.sheet, self.guess = drawing_layout.estimated_sheet(sizes, self.areas, projection)
        template.Template = sheets[self.sheet][0]
        page.Template = template
        self.group, items = _views(doc, page, model, projection, self.guess, names, self.coarse)
        # TechDraw centres a view on the middle of the part's box seen along its direction:
        # one point for every axis-parallel view, read off the front and top views'
        # vertices (TechDraw.findCentroid takes seconds on a 270-face part: the box of a
        # moved copy). View vertices read once for the origin and the first plan (until a
        # recompute).
        self.seen: dict = {}
        origin = view_origin(items["Front"], items["Top"], shape, self.seen)
        if origin is None:
            origin = TechDraw.findCentroid(shape, items["Front"].Direction)
        self.origins = {name: origin for name in items}
        sections = _sections(doc, page, model, items, shape, self.guess, self.coarse)
        for name, (section, center) in sections.items():
            items[name], self.origins[name] = section, center
        if not self.coarse:
            self.seen.clear()  # sections may have been made and the page recomputed meanwhile
        self.items = items
        self.cylinders = _cylinders(shape)
        # Each view's scale and place as projected, which the next drawing starts from.
        self.start = {name: (item.Scale, item.X, item.Y) for name, item in items.items()}
        self.start_group = (self.group.Scale, self.group.X, self.group.Y)
        self.drawn = 0
        self.projected = None  # (views' geometry, plan candidates) as projected

    def draw(self, out_dir, case=None, planned=None) -> dict:
        """make_drawing's drawing of this shape with this case's targets first; out_dir None
        plans only (planned receives the dimensions; nothing is written)."""
        freecad = import_freecad()
        if out_dir is not None:
            os.makedirs(out_dir, exist_ok=True)
        with _progress_silenced(), faces_not_sought(freecad):
            if self.drawn:
                self._reset()
            self.drawn += 1
            return self._draw(out_dir, case, planned)

    def _reset(self) -> None:
        """Back to the page as projected: the last drawing's dimensions and cosmetic lines
        removed, the estimated sheet, the scales and places it was projected at (a scale
        the layout changed is projected again, as a fresh drawing would project it)."""
        doc, page = self.doc, self.page
        for obj in list(doc.Objects):
            if obj.TypeId == "TechDraw::DrawViewDimension":
                page.removeView(obj)
                doc.removeObject(obj.Name)
        rescaled = False
        for name, item in self.items.items():
            if item.CosmeticEdges:
                item.clearCosmeticEdges()
            scale, x, y = self.start[name]
            if name == ISO or name in drawing_section.SECTIONS:
                if abs(item.Scale - scale) > 1e-12:
                    item.Scale, rescaled = scale, True
            item.X, item.Y = x, y
        scale, x, y = self.start_group
        if abs(self.group.Scale - scale) > 1e-12:
            self.group.Scale, rescaled = scale, True
        self.group.X, self.group.Y = x, y
        if self.template.Template != self.sheets[self.sheet][0]:
            self.template.Template = self.sheets[self.sheet][0]
        doc.recompute()
        if rescaled:
            kernel_compat.finished_views(self.items.values())
        self.seen.clear()

    def _draw(self, out_dir, case, planned) -> dict:
        import TechDraw  # noqa: PLC0415 - FreeCAD-only

        doc, page, template, group = self.doc, self.page, self.template, self.group
        shape, items, origins, sheets = self.shape, self.items, self.origins, self.sheets
        sheet, seen, cylinders = self.sheet, self.seen, self.cylinders
        projection, title, guess = self.projection, self.title, self.guess
        coarse, areas = self.coarse, self.areas
        if planned is not None:
            planned["shape"] = shape  # the views' frames are the posed copy's
        targets = case.dimensions if case else None
        scales = drawing_layout.SCALES
        # One step below the estimate is as small as a drawing goes to keep every default
        # dimension; below that, defaults are left out first.
        floor = scales[min(scales.index(guess) + 1, len(scales) - 1)]
        # Hidden-line removal (the costly step) runs at the view's scale, and may split or
        # merge edges and vertices differently at another one (tori, B-splines): plan on
        # the geometry of the guessed scale, on a larger sheet before at a smaller scale;
        # if the layout takes another scale, plan again on the geometry there.
        scales = tuple(s for s in scales if s <= guess)
        for attempt in range(len(scales)):
            if attempt == 0 and self.projected is not None:
                # The views as projected (every drawing starts there): read once.
                views, candidates = self.projected
            else:
                views = [
                    view_geometry(
                        name, items[name], shape, name in coarse, origins[name], cylinders, seen
                    )
                    for name in items
                ]
                candidates = drawing_candidates.candidates_of([v for v in views if v.name != ISO])
                if attempt == 0:
                    self.projected = (views, candidates)
            seen.clear()  # the recompute below may run hidden-line removal again
            chosen, sheet, plan = drawing_layout.planned_sheet(
                views, candidates, targets, areas, sheet, projection, scales, floor
            )
            settled = abs(group.Scale - plan.scale) < 1e-12
            _place_views(group, items, plan)
            doc.recompute()
            kernel_compat.finished_views(items.values())
            if settled or not plan.fits:
                break
            scales = tuple(s for s in scales if s <= plan.scale)
        by_name = {v.name: v for v in views}
        if planned is not None:
            # The plan on the geometry of the scale the sheet settled on (the one drawn).
            planned["dimensions"] = [planned_entry(c, by_name[c.view]) for c in chosen]
        if out_dir is None:
            return {"scaleValue": plan.scale, "fitsSheet": plan.fits, "sheet": sheet}
        drawn, dropped = _add_dimensions(doc, page, items, by_name, plan)
        dropped += [_dropped_entry(c, reason) for c, reason in plan.dropped]
        if template.Template != sheets[sheet][0]:
            template.Template = sheets[sheet][0]
        template.EditableTexts = _title_block(template.EditableTexts, title, plan.scale, sheet)
        doc.recompute()
        kernel_compat.finished_views(items.values())

        files = {key: os.path.join(out_dir, name) for key, name in FILES.items()}
        try:
            TechDraw.writeDXFPage(page, files["dxf"])
        except Exception as exc:  # TechDraw raises RuntimeError or Base.FreeCADError
            raise DrawingFailed(f"TechDraw.writeDXFPage failed: {exc}") from None
        drawing_svg.write_svg(files["svg"], template, items, files["dxf"])
        doc.saveAs(files["fcstd"])
        return {
            "files": dict(FILES),
            "exports": {
                "dxf": {"written": True, "writer": "TechDraw.writeDXFPage"},
                "svg": {"written": True, "writer": SVG_WRITER},
                "fcstd": {"written": True, "writer": "FreeCAD document with the page"},
                "pdf": {"written": False, "reason": PDF_UNAVAILABLE},
            },
            "template": os.path.basename(sheets[sheet][0]),
            "sheet": sheet,
            "frame": [round(v, 3) for v in sheets[sheet][1]],
            "titleBlock": [round(v, 3) for v in sheets[sheet][2]],
            "projection": projection,
            "scale": scale_text(plan.scale),
            "isoScale": scale_text(plan.iso_scale),
            "orientation": self.turned or "as modelled",
            "squaredUpDeg": self.squared,
            "coarseViews": sorted(coarse),
            "scaleValue": plan.scale,
            "fitsSheet": plan.fits,
            "views": {
                name: {"x": round(x, 3), "y": round(y, 3), "item": items[name].Name}
                for name, (x, y) in sorted(plan.positions.items())
            },
            "dimensions": drawn,
            "dropped": dropped,
        }


def planned_entry(candidate, view) -> dict:
    """A planned dimension as plain data with the 3D frame of its view: origin, x and y
    (a view point (u, v) is the model line origin + u x + v y along the view direction)."""
    return {
        "family": candidate.family,
        "value": candidate.value,
        "view": candidate.view,
        "kind": candidate.kind,
        "role": candidate.role,
        "count": candidate.count,
        "text": candidate.text,
        "key": candidate.key,
        "points": [list(p) for p in candidate.points],
        "origin": list(view.origin),
        "x": list(view.x_axis),
        "y": list(view.y_axis),
        # A radius stands for every arc of that radius in the view ('R3 typical'): their
        # centres, so every round it names is bound, not only the one it points at.
        "arcs": _round_arcs(view, candidate) if candidate.family == "radius" else [],
    }


def _round_arcs(view, candidate) -> list:
    """Centres of the view's arcs of the candidate's radius that are no whole circle (a
    hole's circle may come out of hidden-line removal as two halves: that is a hole)."""
    sweeps = {}
    for arc in view.arcs:
        if abs(arc.radius - candidate.value) <= 1e-4 * max(1.0, candidate.value):
            key = tuple(round(c, 4) for c in arc.center)
            total, _ = sweeps.get(key, (0.0, arc.center))
            sweeps[key] = (total + (360.0 if arc.full else arc.sweep_deg), arc.center)
    return [list(centre) for key, (total, centre) in sorted(sweeps.items()) if total < 359.9]


def _sections(doc, page, model, items, shape, scale, coarse) -> dict:
    """{name: (section view, its centre)} where holes hide their depth from the plain
    views; none for a polygonal drawing, none TechDraw leaves without a centre."""
    if coarse:
        return {}  # threaded parts: their depths are lengths along the outline
    planes = drawing_section.section_planes(shape)
    made = [
        drawing_section.add_section(doc, page, model, items[plane[2]], plane, scale, index)
        for index, plane in enumerate(planes)
    ]
    if not made:
        return {}
    doc.recompute()
    # A section may rightly come out empty (its plane misses the solid): emptiness is no
    # sign of background projection here, only the plain views' was.
    if kernel_compat.projects_in_background():
        kernel_compat.finished_views(made)
    found = {}
    for section, plane in zip(made, planes, strict=True):
        center = drawing_section.section_origin(section, shape, plane)
        if center is None:
            page.removeView(section)
            doc.removeObject(section.Name)
            continue
        found[section.Name] = (section, center)
    return found


def _views(doc, page, model, projection, scale, names=ORTHOGRAPHIC, coarse=()) -> tuple:
    """Front, top and right views in a projection group, and the isometric view on its
    own (it may be drawn at a smaller scale). The model is attached last: every change to
    a view with a source runs hidden-line removal again, the costly step."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    group = doc.addObject("TechDraw::DrawProjGroup", "Views")
    page.addView(group)
    group.ProjectionType = PROJECTIONS[projection]
    group.AutoDistribute = False
    group.ScaleType = "Custom"
    group.Scale = scale
    items = {name: group.addProjection(name) for name in names}
    iso = doc.addObject("TechDraw::DrawViewPart", ISO)
    page.addView(iso)
    iso.Direction = FreeCAD.Vector(1, -1, 1)  # ISO 5456-3 isometric, from front-right-top
    iso.XDirection = FreeCAD.Vector(1, 1, 0)
    iso.ScaleType = "Custom"
    iso.Scale = scale
    items[ISO] = iso
    for name, item in items.items():
        # Seam lines and tangent edges are no outline a drafter dimensions to; the
        # isometric view keeps its tangent edges, they show the rounds.
        item.SeamVisible = False
        item.SmoothVisible = name == ISO
        item.CoarseView = name in coarse
    group.Source = [model]
    iso.Source = [model]
    doc.recompute()
    kernel_compat.finished_views(items.values())
    return group, items


def _place_views(group, items, plan) -> None:
    """Scale and places. Setting a view's Scale, even to the value it has, runs hidden-line
    removal again at the next recompute; moving a view does not."""
    if abs(group.Scale - plan.scale) > 1e-12:
        group.Scale = plan.scale
    front = plan.positions["Front"]
    group.X, group.Y = front
    for name, item in items.items():
        if name == ISO or name in drawing_section.SECTIONS:
            scale = plan.iso_scale if name == ISO else plan.scale
            if abs(item.Scale - scale) > 1e-12:
                item.Scale = scale
            item.X, item.Y = plan.positions[name]
            continue
        item.X = plan.positions[name][0] - front[0]
        item.Y = plan.positions[name][1] - front[1]


def template_file(freecad=None) -> str:
    """The shipped ISO 7200 A3 template (resources/templates): FreeCAD 1.0 no longer ships
    it, and the same sheet on every version gives the same drawing."""
    path = os.path.join(resources.TEMPLATES, TEMPLATE)
    if not os.path.isfile(path):
        raise DrawingFailed(f"TechDraw template {TEMPLATE} not found at {path}")
    return path


def sheet_areas(template_path: str) -> tuple:
    """(frame, title block) boxes in page coordinates (y up), from the comments FreeCAD's
    ISO 7200 templates carry ('Working space 20 10 410 287', 'Title block ...')."""
    with open(template_path, encoding="utf-8") as handle:
        text = handle.read()
    size = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text)
    height = float(size.group(2)) if size else 297.0
    boxes = {}
    for name in ("Working space", "Title block"):
        found = re.search(name + r"\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", text)
        if not found:
            raise DrawingFailed(f"template {template_path} does not state its {name.lower()}")
        x0, y0, x1, y1 = (float(v) for v in found.groups())
        boxes[name] = (x0, height - y1, x1, height - y0)
    return boxes["Working space"], boxes["Title block"]


def scale_text(scale: float) -> str:
    if scale >= 1:
        return f"{scale:g}:1"
    return f"1:{1 / scale:g}"


def view_geometry(
    name, item, shape, coarse=False, origin=None, cylinders=None, seen=None
) -> drawing_plan.ViewGeometry:
    """A view's lines, arcs, vertices and outline as TechDraw computed them, with the outer
    cylinders seen from the side (for diameters of turned parts). In a polygonal (coarse)
    view, curves are chains of short lines: only long horizontal and vertical lines count
    as outline there, so a thread's zigzag gives no levels. seen: view vertices read since
    the last recompute, by view name (view_vertices)."""
    import Part  # noqa: PLC0415 - FreeCAD-only
    import TechDraw  # noqa: PLC0415 - FreeCAD-only

    edges = _indexed(item.getEdgeByIndex)
    vertices = list(enumerate(view_vertices(item, seen)))
    direction, x_dir = item.Direction, item.XDirection
    y_dir = direction.cross(x_dir)
    pictorial = name == ISO
    if origin is None and not pictorial:
        origin = TechDraw.findCentroid(shape, direction)
    origin = origin if origin is not None else shape.BoundBox.Center
    frame = (origin, direction, x_dir, y_dir)
    if cylinders is None:
        cylinders = [] if pictorial else _cylinders(shape)
    lines, arcs, outline = [], [], []
    xs = [p[0] for _, p in vertices] or [0.0]
    ys = [p[1] for _, p in vertices] or [0.0]
    size = max(max(xs) - min(xs), max(ys) - min(ys), 1e-3)
    for index, edge in enumerate(edges):
        if edge.Degenerated:
            continue  # a point (a cone's apex): nothing to draw
        curve = _curve_or_none(edge)  # None: a curve type FreeCAD cannot wrap, outline only
        a, b = edge.Vertexes[0].Point, edge.Vertexes[-1].Point
        if coarse:
            lines += drawing_plan.polygonal_outline(
                [drawing_plan.Line(index, (a.x, a.y), (b.x, b.y))], size
            )
        elif isinstance(curve, (Part.Line, Part.LineSegment)) or _straight(edge):
            lines.append(drawing_plan.Line(index, (a.x, a.y), (b.x, b.y)))
        elif isinstance(curve, Part.Circle):
            sweep = math.degrees(edge.LastParameter - edge.FirstParameter)
            full = edge.isClosed() or sweep >= 359.9
            center = (curve.Center.x, curve.Center.y)
            round_hole = not pictorial and _on_cylinder(cylinders, center, curve.Radius, frame)
            arcs.append(
                drawing_plan.Arc(index, center, curve.Radius, full, min(sweep, 360.0), round_hole)
            )
        outline += [
            (p.x, p.y) for p in edge.discretize(drawing_plan.outline_count(edge.Length, size))
        ]
    return drawing_plan.ViewGeometry(
        name=name,
        lines=lines,
        arcs=arcs,
        vertices=vertices,
        outline=outline,
        shafts=_shafts(shape, origin, direction, x_dir, y_dir) if name != ISO else [],
        origin=(origin.x, origin.y, origin.z),
        x_axis=(x_dir.x, x_dir.y, x_dir.z),
        y_axis=(y_dir.x, y_dir.y, y_dir.z),
        edge_count=len(edges),
    )


def view_vertices(item, seen: dict | None = None) -> list:
    """(x, y) of each of the view's vertices; seen: those read since the last recompute, by
    view name, where this view's are kept for the next reader."""
    if seen is not None and item.Name in seen:
        return seen[item.Name]
    found = [(v.Point.x, v.Point.y) for v in _indexed(item.getVertexByIndex)]
    if seen is not None:
        seen[item.Name] = found
    return found


def view_origin(front, top, shape, seen: dict | None = None):
    """The model point the axis-parallel views are centred on, or None: a view vertex is a
    model vertex seen along the view, less the centre, so the offset that most pairs of
    (model vertex, view vertex) share is the centre (front: x and z, top: y). seen: as
    view_vertices takes it."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    model = np.array([(v.X, v.Y, v.Z) for v in shape.Vertexes])
    found = []
    for item, (across, up) in ((front, (0, 2)), (top, (0, 1))):
        seen_points = np.array(view_vertices(item, seen))
        if not len(model):
            return None
        x_sign = 1.0 if item.XDirection.x > 0 else -1.0
        y_dir = item.Direction.cross(item.XDirection)
        y_sign = 1.0 if (y_dir.z if up == 2 else y_dir.y) > 0 else -1.0
        projected = np.c_[model[:, across] * x_sign, model[:, up] * y_sign]
        mine = drawing_origin.shared_offset(projected, seen_points)
        if mine is None:
            return None  # no offset stands out (a symmetric part's few vertices)
        found.append((mine[0] * x_sign, mine[1] * y_sign))
    (x, z), (x_top, y) = found
    origin = FreeCAD.Vector(x, y, z)
    box = shape.BoundBox
    views = standard.DRAWING["views"]
    off_middle = views["origin_off_middle_diagonals"] * box.DiagonalLength
    if abs(x - x_top) > views["origin_agree_bins"] * ORIGIN_BIN or (
        (origin - box.Center).Length > off_middle
    ):
        return None  # the views disagree, or the centre is off the part's middle
    return origin


def _curve_or_none(edge):
    """edge.Curve, or None for a curve type FreeCAD cannot wrap ("undefined curve type")."""
    try:
        return edge.Curve
    except TypeError:
        return None


def _straight(edge) -> bool:
    """A B-spline that is a straight line (hidden-line removal returns some lines so)."""
    a, b = edge.Vertexes[0].Point, edge.Vertexes[-1].Point
    chord = b - a
    if edge.isClosed() or chord.Length < 1e-9 or abs(edge.Length - chord.Length) > 1e-6:
        return False
    return all(
        (p - a).cross(chord).Length / chord.Length < 1e-6 * chord.Length for p in edge.discretize(7)
    )


def _indexed(getter) -> list:
    found = []
    while True:
        try:
            found.append(getter(len(found)))
        except Exception:  # TechDraw raises ValueError('wrong edgeIndex') past the end
            return found


def _cylinders(shape) -> list:
    """(axis, point on the axis, radius) of every cylindrical face."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    return [
        (face.Surface.Axis, face.Surface.Center, face.Surface.Radius)
        for face in shape.Faces
        if isinstance(face.Surface, Part.Cylinder)
    ]


def _on_cylinder(cylinders, center, radius, frame) -> bool:
    """Whether a circle of a view bounds a cylinder seen end-on (a hole or a boss), not a
    chamfer's or a round's edge."""
    origin, direction, x_dir, y_dir = frame
    point = origin + x_dir * center[0] + y_dir * center[1]
    for axis, on_axis, cylinder_radius in cylinders:
        if abs(abs(axis.dot(direction)) - 1) > 1e-6:
            continue
        if abs(cylinder_radius - radius) > 1e-4 * max(1.0, radius):
            continue
        offset = point - on_axis
        across = offset - axis * offset.dot(axis)
        if across.Length <= 1e-3:
            return True
    return False


def _shafts(shape, origin, direction, x_dir, y_dir) -> list:
    """Outer cylinders (at least a half turn) with their axis along the view's x or y."""
    import Part  # noqa: PLC0415 - FreeCAD-only

    found = set()
    for face in shape.Faces:
        surface = face.Surface
        if not isinstance(surface, Part.Cylinder):
            continue
        u0, u1, v0, v1 = face.ParameterRange
        if u1 - u0 < math.pi - 1e-6:
            continue
        axis, center = surface.Axis, surface.Center
        point = face.valueAt((u0 + u1) / 2, (v0 + v1) / 2)
        normal = face.normalAt((u0 + u1) / 2, (v0 + v1) / 2)
        radial = point - center - axis * (point - center).dot(axis)
        if normal.dot(radial) <= 0 or abs(axis.dot(direction)) > 1e-6:
            continue  # a hole, or seen end-on (then it is a circle in this view)
        offset = center - origin
        if abs(abs(axis.dot(x_dir)) - 1) < 1e-6:
            found.add(("x", round(offset.dot(y_dir), 6), round(surface.Radius, 6)))
        elif abs(abs(axis.dot(y_dir)) - 1) < 1e-6:
            found.add(("y", round(offset.dot(x_dir), 6), round(surface.Radius, 6)))
    return [drawing_plan.Shaft(*entry) for entry in sorted(found)]


def _add_dimensions(doc, page, items, views, plan) -> tuple:
    """TechDraw dimensions for the placed labels; those TechDraw measures differently from
    the plan are removed (a reference that does not mean what the plan thought)."""
    import FreeCAD  # noqa: PLC0415 - FreeCAD-only

    cosmetic_count = {}
    made = []
    for placed in plan.placed:
        c = placed.candidate
        item = items[c.view]
        refs = list(c.refs)
        if c.cosmetic is not None:
            # Cosmetic edges are numbered after the view's own edges, in creation order;
            # they take the coordinates getEdgeByIndex gives (unscaled, y up).
            kind, first, second = c.cosmetic
            if kind == "line":
                item.makeCosmeticLine(
                    FreeCAD.Vector(first[0], first[1], 0), FreeCAD.Vector(second[0], second[1], 0)
                )
            else:
                item.makeCosmeticCircle(FreeCAD.Vector(first[0], first[1], 0), second)
            index = views[c.view].edge_count + cosmetic_count.get(c.view, 0)
            cosmetic_count[c.view] = cosmetic_count.get(c.view, 0) + 1
            refs = [f"Edge{index}" if r == "Cosmetic" else r for r in refs]
        dim = doc.addObject("TechDraw::DrawViewDimension", "Dim")
        dim.Type = c.kind
        dim.References2D = [(item, ref) for ref in refs]
        dim.FormatSpec = c.format
        view_x, view_y = plan.positions[c.view]
        dim.X = placed.label[0] - view_x
        dim.Y = placed.label[1] - view_y
        page.addView(dim)
        made.append((placed, dim))
    doc.recompute()
    drawn, dropped = [], []
    for placed, dim in made:
        c = placed.candidate
        measured = dim.getRawValue()
        reason = measurement_problem(measured, c.value)
        if reason is not None:
            dropped.append(_dropped_entry(c, reason))
            page.removeView(dim)
            doc.removeObject(dim.Name)
            continue
        drawn.append(
            {
                "name": dim.Name,
                "view": c.view,
                "type": c.kind,
                "family": c.family,
                "role": c.role,
                "target": c.target,
                "measured": measured,
                "formatSpec": c.format,
                "expectedText": drawing_plan.printed_text(c.format, measured, c.kind),
                "label": [round(v, 3) for v in placed.label],
            }
        )
    return drawn, dropped


def measurement_problem(measured: float, planned: float):
    """Why a dimension TechDraw measured is not drawn, or None: no value (an angle between
    edges TechDraw cannot intersect measures nan and would print 'nan°'), or a value off
    the plan by more than MEASURE_TOLERANCE (relative; absolute below 1 mm)."""
    if not math.isfinite(measured):
        return f"TechDraw measured no value ({measured}), planned {planned:.6g}"
    if abs(measured - planned) > MEASURE_TOLERANCE * max(1.0, abs(planned)):
        return f"TechDraw measured {measured:.6g}, planned {planned:.6g}"
    return None


def _dropped_entry(candidate, reason: str) -> dict:
    return {
        "view": candidate.view,
        "type": candidate.kind,
        "family": candidate.family,
        "value": candidate.value,
        "target": candidate.target,
        "reason": reason,
    }


def _title_block(texts: dict, title: str, scale: float, sheet: str) -> dict:
    filled = dict(texts)
    values = {
        "DRAWING_TITLE": title or "Model",
        "FC-SC": scale_text(scale),
        "FC-SI": sheet,
        "FC-SH": "1 / 1",
        "FC-DATE": "",  # a date would make two drawings of one model differ
        "AUTHOR_NAME": "cadbench",
        "FreeCAD_DRAWING": title or "Model",
    }
    for key, value in values.items():
        if key in filled:
            filled[key] = value
    return filled
