# SPDX-License-Identifier: LGPL-2.1-or-later
"""Threaded parts built with FreeCAD's own PartDesign (the thread cases and their tests).

Threads are cut the way a FreeCAD user cuts them: a SubtractiveHelix of the ISO 68-1
basic profile for a bolt (Part.makeLongHelix is off by up to 0.39 mm in radius and is not
used), a PartDesign::Hole with Threaded and ModelThread for a nut. Each takes 1-3 s.
"""

import math
import os

import Part

from cadbench_wb.app.model.kernel_compat import attach
from cadbench_wb.runtime.freecad_env import import_freecad

# Hex bolt M8 x 30 (ISO 4017 proportions) and hex nut M10 (ISO 4032 proportions).
BOLT = {"major": 8.0, "length": 30.0, "thread_length": 22.0, "across_flats": 13.0,
        "head_height": 5.3, "tip_chamfer": 0.8}  # fmt: skip
NUT = {"across_flats": 16.0, "height": 8.4}
TAP_DRILL = {"M10": 8.5, "M10x1.25": 8.75}


def _modules():
    freecad = import_freecad()
    import PartDesign  # noqa: F401, PLC0415 - registers the PartDesign types
    import Sketcher  # noqa: F401, PLC0415

    return freecad, Part


def _hexagon(part, freecad, across_flats, z0, height):
    radius = across_flats / 2 / math.cos(math.pi / 6)
    points = [
        freecad.Vector(radius * math.cos(k * math.pi / 3), radius * math.sin(k * math.pi / 3), z0)
        for k in range(7)
    ]
    return part.Face(part.makePolygon(points)).extrude(freecad.Vector(0, 0, height))


def plain_bolt(major=BOLT["major"]):
    """The bolt without its thread: hex head on top, shank from z = 0 (tip) to the head,
    tip chamfered 45 degrees."""
    freecad, part = _modules()
    length, chamfer = BOLT["length"], BOLT["tip_chamfer"]
    shank = part.makeCylinder(major / 2, length)
    tip = [e for e in shank.Edges if e.BoundBox.ZMax < 1e-9 and e.Length > 1e-6]
    shank = shank.makeChamfer(chamfer, tip)
    head = _hexagon(part, freecad, BOLT["across_flats"], length, BOLT["head_height"])
    return shank.fuse(head).removeSplitter().Solids[0]


def bolt_document(pitch=1.25, left=False, threaded=True, name="bolt"):
    """A FreeCAD document whose Body is the bolt with a modeled external thread running
    out through the tip; returns (document, body)."""
    freecad, part = _modules()
    doc = freecad.newDocument(name)
    base = doc.addObject("Part::Feature", "PlainBolt")
    base.Shape = plain_bolt()
    body = doc.addObject("PartDesign::Body", "Body")
    body.BaseFeature = base
    if threaded:
        _cut_helix(doc, body, part, freecad, pitch, left)
    doc.recompute()
    return doc, body


def _cut_helix(doc, body, part, freecad, pitch, left):
    """SubtractiveHelix of the ISO basic profile: root flat P/4 at depth 5H/8."""
    radius = BOLT["major"] / 2
    depth = 5 * math.sqrt(3) / 2 * pitch / 8
    over = 0.2  # the cutter reaches past the crest so the crest is the shank itself
    start = -pitch  # below the tip: the thread runs out through the chamfer
    slope = math.tan(math.radians(30))
    inner, outer = radius - depth, radius + over
    half_root, half_top = pitch / 8, pitch / 8 + (depth + over) * slope
    corners = [(inner, -half_root), (inner, half_root), (outer, half_top), (outer, -half_top)]
    sketch = body.newObject("Sketcher::SketchObject", "ThreadProfile")
    attach(sketch, (doc.getObject("XZ_Plane"), [""]))
    sketch.MapMode = "FlatFace"
    points = [freecad.Vector(r, start + z, 0) for r, z in corners]
    for k in range(4):
        sketch.addGeometry(part.LineSegment(points[k], points[(k + 1) % 4]))
    doc.recompute()
    helix = body.newObject("PartDesign::SubtractiveHelix", "Thread")
    helix.Profile = sketch
    helix.ReferenceAxis = (sketch, ["V_Axis"])
    helix.Mode = "pitch-height-angle"
    helix.Pitch = pitch
    helix.Height = BOLT["thread_length"] - start
    helix.LeftHanded = bool(left)


def bolt(pitch=1.25, left=False, threaded=True):
    """The bolt's solid (a copy; the document is closed)."""
    freecad, _part = _modules()
    doc, body = bolt_document(pitch, left, threaded)
    shape = body.Shape.copy()
    freecad.closeDocument(doc.Name)
    return shape.Solids[0]


def nut_document(size="M10", fine=False, left=False, threaded=True, modeled=True, name="nut"):
    """A FreeCAD document whose Body is a hex nut with a PartDesign::Hole through it;
    returns (document, body, hole)."""
    freecad, part = _modules()
    doc = freecad.newDocument(name)
    body = doc.addObject("PartDesign::Body", "Body")
    hexagon = body.newObject("Sketcher::SketchObject", "Hexagon")
    attach(hexagon, (doc.getObject("XY_Plane"), [""]))
    hexagon.MapMode = "FlatFace"
    radius = NUT["across_flats"] / 2 / math.cos(math.pi / 6)
    corners = [
        freecad.Vector(radius * math.cos(k * math.pi / 3), radius * math.sin(k * math.pi / 3), 0)
        for k in range(6)
    ]
    for k in range(6):
        hexagon.addGeometry(part.LineSegment(corners[k], corners[(k + 1) % 6]))
    pad = body.newObject("PartDesign::Pad", "Pad")
    pad.Profile = hexagon
    pad.Length = NUT["height"]
    doc.recompute()
    top = max(range(len(pad.Shape.Faces)), key=lambda i: pad.Shape.Faces[i].CenterOfMass.z)
    circle = body.newObject("Sketcher::SketchObject", "HoleCentre")
    attach(circle, (pad, [f"Face{top + 1}"]))
    circle.MapMode = "FlatFace"
    circle.addGeometry(part.Circle(freecad.Vector(0, 0, 0), freecad.Vector(0, 0, 1), 4), False)
    doc.recompute()
    hole = body.newObject("PartDesign::Hole", "Hole")
    hole.Profile = circle
    hole.ThreadType = "ISOMetricFineProfile" if fine else "ISOMetricProfile"
    hole.ThreadSize = size
    hole.Threaded = bool(threaded)
    hole.ModelThread = bool(modeled and threaded)
    hole.ThreadDirection = "Left" if left else "Right"
    hole.DepthType = "ThroughAll"
    if not threaded:
        # A plain hole at the tap-drill size (D - P): what is left when the thread is missing.
        hole.ThreadType = "None"
        hole.Diameter = TAP_DRILL[size]
    doc.recompute()
    return doc, body, hole


def nut(size="M10", fine=False, left=False, threaded=True, modeled=True):
    freecad, _part = _modules()
    doc, body, _hole = nut_document(size, fine, left, threaded, modeled)
    shape = body.Shape.copy()
    freecad.closeDocument(doc.Name)
    return shape.Solids[0]


def save_cosmetic_nut(path: str, size="M10") -> str:
    """An FCStd with a PartDesign::Hole Threaded = true, ModelThread = false."""
    freecad, _part = _modules()
    doc, _body, _hole = nut_document(size, threaded=True, modeled=False, name="cosmetic_nut")
    return _save(freecad, doc, path)


def save_cosmetic_bolt(path: str, size="M8") -> str:
    """An FCStd with the plain bolt as a Part::Feature carrying thread attributes
    (Threaded = true, ModelThread = false, ThreadSize), as a cosmetic thread is declared."""
    freecad, _part = _modules()
    doc = freecad.newDocument("cosmetic_bolt")
    obj = doc.addObject("Part::Feature", "Bolt")
    obj.Shape = plain_bolt()
    obj.addProperty("App::PropertyBool", "Threaded", "Thread")
    obj.addProperty("App::PropertyBool", "ModelThread", "Thread")
    obj.addProperty("App::PropertyString", "ThreadSize", "Thread")
    obj.Threaded, obj.ModelThread, obj.ThreadSize = True, False, size
    doc.recompute()
    return _save(freecad, doc, path)


def _save(freecad, doc, path: str) -> str:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    doc.saveAs(path)
    freecad.closeDocument(doc.Name)
    return path
