# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which solids of an FCStd document cadbench scores: the rule stated in the README.

The final results that FreeCAD's window displays, with their placements composed from
the containers (App::Part, Body, Assembly) and links (App::Link, arrays, sibling
documents) above them. Pure Python: the answer is a list of ScoredPart, each naming a
stored BREP and the chain of placements to apply; app/model/fcstd_shapes.py reads and places
them. Linked documents are read as data too, and only inside the candidate's own folder.
"""

import dataclasses
import os

from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.inputs import fcstd_data

# Objects whose shapes are never part bodies, even when they carry a Shape: sketches,
# datums, and binders that copy another object's shape for reference.
NOT_SOLIDS = {
    "Sketcher::SketchObject",
    "Sketcher::SketchObjectPython",
    "PartDesign::Plane",
    "PartDesign::Line",
    "PartDesign::Point",
    "PartDesign::CoordinateSystem",
    "PartDesign::ShapeBinder",
    "PartDesign::SubShapeBinder",
    "Part::Part2DObjectPython",
    "Part::Datum",
    "Part::DatumPoint",
    "Part::DatumLine",
    "Part::DatumPlane",
}

# Link properties through which an object uses another one up as an input: the input is
# an intermediate step (a Cut's Base and Tool, a Fillet's Base, a Body's features and
# BaseFeature, a compound's Links, a Draft array's Base, a loft's Sections...). Links not
# named here (attachments, directions, expressions, App::Link's LinkedObject) consume nothing.
CONSUMING_LINKS = {
    "Base",
    "Tool",
    "Shapes",
    "Objects",
    "Source",
    "Links",
    "BaseFeature",
    "Profile",
    "Sketch",
    "Sections",
    "Spine",
    "Faces",
    "Components",
    "Additions",
    "Subtractions",
}

# Containers whose placement moves their members and whose hiding hides them (FreeCAD's
# GeoFeatureGroups). A plain DocumentObjectGroup only sorts the tree: hiding it hides
# each member through the member's own Visibility, which is read directly.
PLACING_CONTAINERS = {
    "App::Part",
    "PartDesign::Body",
    "Assembly::AssemblyObject",
    "App::LinkGroup",
}
LINK_TYPES = {"App::Link", "App::LinkElement", "App::LinkPython"}

# How deep links may chain before cadbench calls the chain circular.
MAX_LINK_DEPTH = 12


@dataclasses.dataclass
class ScoredPart:
    """One stored shape to score and how to place it."""

    document: fcstd_data.Document
    obj: fcstd_data.DocumentObject
    member: str  # the BREP (or .bin) file in document's archive
    chain: list  # [(placement tuple, inverse?)], outermost first, applied before the shape's
    via: str  # how it was reached: "Part/Body", "Link 'Crankshaft' -> Crankshaft.FCStd#Model"


class _Reader:
    """Reads one candidate's documents, following links inside its folder only."""

    def __init__(self, main: fcstd_data.Document):
        self.main = main
        self.root_folder = os.path.realpath(os.path.dirname(os.path.abspath(main.path)))
        self.documents = {os.path.realpath(main.path): main}
        self.notes: list[str] = []
        self.broken: list[str] = []

    def sibling(self, doc: fcstd_data.Document, file: str, link_name: str):
        """The document a link names, read as data, or None (noted) when absent."""
        if os.path.isabs(file) or file.startswith("\\") or ":" in file[:3]:
            raise DeliveryFailure(
                "link_outside_folder",
                f"{self.main.path}: link {link_name!r} names the absolute path {file!r}; "
                "only documents inside the candidate's folder are read",
            )
        base = os.path.dirname(os.path.abspath(doc.path))
        target = os.path.realpath(os.path.join(base, file))
        if os.path.commonpath([target, self.root_folder]) != self.root_folder:
            raise DeliveryFailure(
                "link_outside_folder",
                f"{self.main.path}: link {link_name!r} names {file!r}, outside the "
                "candidate's folder; only documents inside it are read",
            )
        if target in self.documents:
            return self.documents[target]
        if not os.path.isfile(target):
            self.broken.append(f"link {link_name!r}: linked document {file!r} is not there")
            return None
        try:
            linked = fcstd_data.read_document(target)
        except DeliveryFailure as failure:
            self.broken.append(f"link {link_name!r}: {failure.detail}")
            return None
        self.documents[target] = linked
        return linked


def _members(doc: fcstd_data.Document) -> dict[str, str]:
    """For each object, the container whose Group or ElementList holds it."""
    owner = {}
    for obj in doc.objects:
        if obj.type == "App::Origin":
            continue
        for member in obj.group + [t.name for t in obj.links.get("ElementList", [])]:
            owner.setdefault(member, obj.name)
    return owner


def consumed_objects(doc: fcstd_data.Document) -> dict[str, str]:
    """Objects that another shape-bearing object uses up, each with its consumer's name."""
    by_name = doc.by_name
    consumed = {}
    for consumer in doc.objects:
        if consumer.type in NOT_SOLIDS or "Datum" in consumer.type:
            continue
        bodyish = consumer.type == "PartDesign::Body"
        if not (doc.has_shape(consumer) or bodyish):
            continue
        for prop, targets in consumer.links.items():
            if prop not in CONSUMING_LINKS and not (bodyish and prop in ("Group", "Model")):
                continue
            for target in targets:
                if not target.file and target.name != consumer.name:
                    consumed.setdefault(target.name, consumer.name)
        # Before Bodies (0.15-0.16), a PartDesign feature extends the solid its sketch is
        # attached to, with no link to that solid: follow the sketch's Support.
        if consumer.type.startswith("PartDesign::") and not bodyish:
            for prop in ("Sketch", "Profile"):
                for target in consumer.links.get(prop, []):
                    sketch = by_name.get(target.name)
                    for support in sketch.links.get("Support", []) if sketch else []:
                        if support.name != consumer.name and not support.file:
                            consumed.setdefault(support.name, consumer.name)
    return consumed


def _link_placement(obj) -> tuple | None:
    placement = obj.placement
    if placement is None:
        placement = obj.properties.get("LinkPlacement")
    return placement


class _Walker:
    """What one document displays, object by object."""

    def __init__(self, reader: _Reader, honour_visibility: bool = True):
        self.reader = reader
        self.honour_visibility = honour_visibility
        self.cache = {}

    def facts(self, doc):
        key = id(doc)
        if key not in self.cache:
            self.cache[key] = (_members(doc), consumed_objects(doc))
        return self.cache[key]

    def shown(self, obj) -> bool:
        return obj.visible or not self.honour_visibility

    def roots(self, doc):
        owner, _ = self.facts(doc)
        return [o for o in doc.objects if o.name not in owner]

    def parts(self, doc, obj, chain, via, depth=0, forced=False):
        """The scored parts under obj (forced: a link shows its target even when hidden)."""
        plain_group = (
            bool(obj.group)
            and obj.type not in PLACING_CONTAINERS
            and obj.type not in LINK_TYPES
            and not doc.has_shape(obj)
        )
        # A plain group's own Visibility hides nothing: its members carry their own.
        if not forced and not plain_group and not self.shown(obj):
            return []
        if obj.type in LINK_TYPES:
            return self.link_parts(doc, obj, chain, via, depth)
        owner, consumed = self.facts(doc)
        if obj.name in consumed and not forced:
            # A document saved by FreeCAD's window says what it displays: an input left
            # visible there is shown, and scored. Without GuiDocument.xml (a script's
            # document, where everything is 'visible'), consumed inputs are never scored.
            label = obj.label or obj.name
            if not (doc.has_gui_document and self.honour_visibility):
                return []
            if doc.has_shape(obj) and obj.type not in NOT_SOLIDS:
                self.reader.notes.append(
                    f"{label} is displayed although {consumed[obj.name]} consumes it: "
                    "scored as FreeCAD shows it"
                )
        if obj.type == "PartDesign::Body":
            return self.body_parts(doc, obj, chain, via)
        if obj.type in PLACING_CONTAINERS or obj.group:
            inner = chain
            if obj.type in PLACING_CONTAINERS and obj.placement:
                inner = chain + [(obj.placement, False)]
            found = []
            for name in obj.group + [t.name for t in obj.links.get("ElementList", [])]:
                child = doc.by_name.get(name)
                if child is not None and owner.get(name) == obj.name:
                    found += self.parts(doc, child, inner, f"{via}{obj.label or obj.name}/", depth)
            return found
        if obj.type in NOT_SOLIDS or "Datum" in obj.type or not doc.has_shape(obj):
            return []
        return [ScoredPart(doc, obj, obj.shape_file, chain, via)]

    def body_parts(self, doc, body, chain, via):
        """A Body stands for its Tip's shape (stored as the Body's own Shape)."""
        tip_names = [t.name for t in body.links.get("Tip", [])]
        tip = doc.by_name.get(tip_names[0]) if tip_names else None
        later = [
            doc.by_name[n]
            for n in body.group
            if n in doc.by_name
            and doc.by_name[n].visible
            and doc.has_shape(doc.by_name[n])
            and doc.by_name[n].type not in NOT_SOLIDS
            and doc.by_name[n] is not tip
        ]
        label = body.label or body.name
        for feature in later:
            self.reader.notes.append(
                f"Body {label}: feature {feature.label or feature.name} is visible too, but "
                f"the Body's shape is its Tip ({tip.label or tip.name if tip else 'none'}): "
                "scored the Tip"
            )
        if doc.has_shape(body):
            return [ScoredPart(doc, body, body.shape_file, chain, via)]
        if tip is not None and doc.has_shape(tip):
            # Early Bodies (0.14-0.16) stored no shape of their own: the Tip's is the same.
            inner = chain + ([(body.placement, False)] if body.placement else [])
            return [ScoredPart(doc, tip, tip.shape_file, inner, f"{via}{label}/")]
        return []

    def link_parts(self, doc, link, chain, via, depth):
        """What an App::Link shows: its target, placed by the link, once per element."""
        label = link.label or link.name
        if depth >= MAX_LINK_DEPTH:
            self.reader.broken.append(f"link {label!r}: chain too deep or circular")
            return []
        found = self.linked_object(doc, link)
        if found is None:
            return []
        target_doc, target, sub = found
        scale = link.properties.get("ScaleVector") or (link.properties.get("Scale", 1.0),) * 3
        if any(abs(s - 1.0) > 1e-12 for s in scale):
            self.reader.broken.append(f"link {label!r}: scaled links are not scored ({scale})")
            return []
        # LinkTransform false (the default): the link's placement replaces the target's own.
        keep_own = bool(link.properties.get("LinkTransform", False))
        element_placements = self.element_placements(doc, link)
        where = f"{via}{label}->" + (
            f"{os.path.basename(target_doc.path)}#" if target_doc is not doc else ""
        )
        found_parts = []
        for steps in element_placements:
            inner = chain + steps
            if not keep_own and target.placement:
                inner = inner + [(target.placement, True)]
            if sub:
                found_parts += self.sub_parts(target_doc, target, sub, inner, where, depth)
            else:
                found_parts += self.parts(target_doc, target, inner, where, depth + 1, forced=True)
        return found_parts

    def element_placements(self, doc, link) -> list[list]:
        """Placement steps per shown element: the link's own, or each array element's
        (an array element sits at the link's placement times its own)."""
        base = _link_placement(link)
        steps = [(base, False)] if base else []
        count = int(link.properties.get("ElementCount", 0) or 0)
        if count <= 0:
            return [steps]
        elements = [doc.by_name.get(t.name) for t in link.links.get("ElementList", [])]
        elements = [e for e in elements if e is not None]
        if elements:
            chosen = [e.placement for e in elements if self.shown(e)]
        else:
            listed = doc.placement_list(link, "PlacementList")[:count]
            flags = link.properties.get("VisibilityList") or []
            chosen = [p for i, p in enumerate(listed) if i >= len(flags) or flags[i]]
        return [steps + ([(p, False)] if p else []) for p in chosen]

    def linked_object(self, doc, link):
        targets = link.links.get("LinkedObject", [])
        label = link.label or link.name
        if not targets:
            self.reader.broken.append(f"link {label!r} links to nothing")
            return None
        target = targets[0]
        target_doc = doc
        if target.file:
            target_doc = self.reader.sibling(doc, target.file, label)
            if target_doc is None:
                return None
        obj = target_doc.by_name.get(target.name)
        if obj is None:
            where = f" in {target.file}" if target.file else ""
            self.reader.broken.append(f"link {label!r}: object {target.name!r}{where} is absent")
            return None
        return target_doc, obj, target.sub

    def sub_parts(self, doc, obj, sub, chain, via, depth):
        """A link to a sub-object path such as 'Body.' inside a Part."""
        names = [n for n in sub.split(".") if n]
        if not sub.endswith("."):
            self.reader.broken.append(
                f"{via}: links to the element {sub!r} (a face or edge), not a solid"
            )
            return []
        cursor = obj
        for name in names:
            child = doc.by_name.get(name)
            if child is None:
                self.reader.broken.append(f"{via}: sub-object {name!r} is absent")
                return []
            if cursor.type in PLACING_CONTAINERS and cursor.placement:
                chain = chain + [(cursor.placement, False)]
            cursor = child
        return self.parts(doc, cursor, chain, via, depth + 1, forced=True)


def scored_parts(doc: fcstd_data.Document) -> tuple[list[ScoredPart], list[str], list[str]]:
    """The parts cadbench scores, notes on the reading, and the links it could not follow.

    Of the document's final results (nothing consumes them), those FreeCAD displays are
    scored; if none is displayed, every final result is, with a note.
    """
    reader = _Reader(doc)
    walker = _Walker(reader)
    parts = [p for root in walker.roots(doc) for p in walker.parts(doc, root, [], "")]
    if not parts and not reader.broken:
        walker = _Walker(reader, honour_visibility=False)
        parts = [p for root in walker.roots(doc) for p in walker.parts(doc, root, [], "")]
        if parts:
            reader.notes.append("no final result is visible: every final result was scored")
    return parts, reader.notes, reader.broken
