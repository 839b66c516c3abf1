# SPDX-License-Identifier: LGPL-2.1-or-later
"""A FreeCAD document read as data: objects, dependencies, simple properties, shape files.

Opening an FCStd as a live document would import the Python modules its FeaturePython
objects name, which runs code chosen by whoever wrote the file. Candidates are untrusted,
so cadbench reads Document.xml with an XML parser and the stored shapes as BREP data;
nothing in the file is executed. Pure Python: no FreeCAD needed to read the structure.
"""

import dataclasses
import xml.etree.ElementTree as ET
import zipfile

from cadbench_wb.errors import DeliveryFailure


@dataclasses.dataclass
class DocumentObject:
    """One object of Document.xml, with the properties cadbench can read as plain values."""

    name: str
    type: str
    label: str = ""
    deps: list[str] = dataclasses.field(default_factory=list)
    properties: dict = dataclasses.field(default_factory=dict)
    shape_file: str | None = None
    group: list[str] = dataclasses.field(default_factory=list)
    placement: tuple | None = None  # (x, y, z, q0, q1, q2, q3) from PropertyPlacement

    @property
    def visible(self) -> bool:
        return bool(self.properties.get("Visibility", True))


def _value_of(prop: ET.Element):
    """The plain value of a property element, or None for kinds cadbench does not read."""
    # A custom enumeration (Fasteners' 'diameter': 'M8') stores its names in the file: the
    # name is the value. Built-in enumerations store only an index (read as an int).
    names = [e.attrib.get("value") for e in prop.iter("Enum")]
    index = prop.find("Integer")
    if names and index is not None and index.attrib.get("value", "").isdigit():
        position = int(index.attrib["value"])
        return names[position] if position < len(names) else None
    for child in prop:
        tag, attrs = child.tag, child.attrib
        if tag in ("Bool",):
            return attrs.get("value") == "true"
        if tag in ("Float", "Integer", "Distance", "Length", "Angle"):
            try:
                return float(attrs["value"]) if tag != "Integer" else int(attrs["value"])
            except (KeyError, ValueError):
                return None
        if tag in ("String", "Uuid"):
            return attrs.get("value")
        if tag == "Link":
            return attrs.get("value")
        if tag == "Part":
            return {"file": attrs.get("file")}
        if tag == "PropertyPlacement":
            keys = ("Px", "Py", "Pz", "Q0", "Q1", "Q2", "Q3")
            try:
                return tuple(float(attrs[k]) for k in keys)
            except (KeyError, ValueError):
                return None
        if tag == "LinkList":
            return [link.attrib.get("value") for link in child if link.tag == "Link"]
        if tag == "Enumeration" or tag == "Integer":
            return attrs.get("value")
    if prop.attrib.get("type") == "App::PropertyEnumeration":
        for child in prop:
            if child.tag == "Integer":
                return child.attrib.get("value")
    return None


def read_document(path: str) -> tuple[list[DocumentObject], zipfile.ZipFile]:
    """The objects of an FCStd file in document order, and the open archive."""
    try:
        archive = zipfile.ZipFile(path)
        root = ET.fromstring(archive.read("Document.xml"))
    except (zipfile.BadZipFile, KeyError, ET.ParseError, OSError) as exc:
        raise DeliveryFailure("unreadable_file", f"{path}: not a readable FreeCAD document ({exc})")
    objects_el = root.find("Objects")
    data_el = root.find("ObjectData")
    if objects_el is None:
        raise DeliveryFailure("empty_model", f"{path}: the document has no objects")
    objects: dict[str, DocumentObject] = {}
    for el in objects_el.findall("Object"):
        name = el.attrib.get("name", "")
        objects[name] = DocumentObject(name=name, type=el.attrib.get("type", ""))
    for el in objects_el.findall("ObjectDeps"):
        obj = objects.get(el.attrib.get("Name", ""))
        if obj is not None:
            obj.deps = [d.attrib.get("Name", "") for d in el.findall("Dep")]
    for el in data_el.findall("Object") if data_el is not None else []:
        obj = objects.get(el.attrib.get("name", ""))
        if obj is None:
            continue
        for prop in el.iter("Property"):
            value = _value_of(prop)
            name = prop.attrib.get("name", "")
            if name == "Shape" and isinstance(value, dict):
                obj.shape_file = value.get("file") or None
            elif name == "Group" and isinstance(value, list):
                obj.group = value
            elif name == "Placement" and isinstance(value, tuple):
                obj.placement = value
            elif name == "Label":
                obj.label = value or ""
            elif value is not None and not isinstance(value, dict):
                obj.properties[name] = value
    return list(objects.values()), archive


def scored_objects(objects: list[DocumentObject], archive: zipfile.ZipFile):
    """The document's final visible results, by the rule stated in the README.

    - A PartDesign Body stands for its features (its shape is its Tip's shape).
    - An object another shape-bearing object consumes (a Cut's tool, a Body's features,
      a FeaturePython a Body uses as BaseFeature) is an intermediate step, not a result.
    - Of the results, the visible ones are scored; if none is visible, all of them are.
    Returns (objects, notes).
    """
    by_name = {o.name: o for o in objects}

    def has_shape(obj):
        return obj.shape_file and archive.getinfo(obj.shape_file).file_size > 0

    body_members = {}
    for obj in objects:
        if obj.type == "PartDesign::Body":
            for dep in obj.deps + obj.group:
                body_members.setdefault(dep, set()).add(obj.name)
    consumed = set()
    for consumer in objects:
        # Sketches, datums and binders attached to a solid reference it; they do not
        # turn it into an intermediate step.
        if not has_shape(consumer) or consumer.type in _NOT_SOLIDS or "Datum" in consumer.type:
            continue
        for dep in consumer.deps:
            # A Body's features name the Body they belong to; that is no consumption.
            if consumer.name in body_members and dep in body_members[consumer.name]:
                continue
            if dep != consumer.name:
                consumed.add(dep)
    notes = []
    results = [
        o
        for o in objects
        if has_shape(o)
        and o.name not in consumed
        and o.type not in _NOT_SOLIDS
        and not (o.name in body_members and o.type != "PartDesign::Body")
    ]
    visible = [o for o in results if o.visible]
    if results and not visible:
        notes.append("no result is visible: every final result was scored")
        visible = results
    links = [o.name for o in objects if o.type in ("App::Link", "App::LinkGroup")]
    if links:
        notes.append(f"links are not followed: {', '.join(links)}")
    return [by_name[o.name] for o in visible], notes


# Objects whose shapes are never part bodies, even when they carry a Shape.
_NOT_SOLIDS = {
    "Sketcher::SketchObject",
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


def containers_of(objects: list[DocumentObject]) -> dict[str, list[DocumentObject]]:
    """For each object, the App::Part containers it sits in, innermost first."""
    parent = {}
    for obj in objects:
        if obj.type == "App::Part":
            for member in obj.group:
                parent[member] = obj
    chains = {}
    for obj in objects:
        chain, cursor = [], parent.get(obj.name)
        while cursor is not None and cursor not in chain:
            chain.append(cursor)
            cursor = parent.get(cursor.name)
        chains[obj.name] = chain
    return chains
