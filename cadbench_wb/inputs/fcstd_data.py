# SPDX-License-Identifier: LGPL-2.1-or-later
"""A FreeCAD document read as data: objects, links, visibility, placements, shape files.

Opening an FCStd as a live document would import the Python modules its FeaturePython
objects name, which runs code chosen by whoever wrote the file. Candidates are untrusted,
so cadbench reads Document.xml and GuiDocument.xml with an XML parser and the stored
shapes as BREP data; nothing in the file is executed. Pure Python: no FreeCAD needed.

Every format generation FreeCAD has written is read the same way: files before 0.18
carry neither ``ObjectDeps`` nor an App-side ``Visibility``, so the links are read from
the link properties themselves and the visibility from GuiDocument.xml (which, when
present, is what FreeCAD's window restores, in every version).
"""

import dataclasses
import struct
import xml.etree.ElementTree as ET
import zipfile
import zlib

from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.inputs import fcstd_archive

# What reading a member of a checked archive can still raise: a CRC or a deflate stream
# that does not match what the central directory promised (a damaged file).
MEMBER_READ_ERRORS = (zipfile.BadZipFile, zlib.error, KeyError, OSError, EOFError)


@dataclasses.dataclass(frozen=True)
class LinkTarget:
    """One object a link property names: in this document (file None) or in another."""

    name: str
    file: str | None = None
    sub: str = ""


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
    links: dict = dataclasses.field(default_factory=dict)  # property name -> [LinkTarget]
    files: dict = dataclasses.field(default_factory=dict)  # property name -> archive member
    gui_visibility: bool | None = None  # GuiDocument.xml's ViewProvider Visibility

    @property
    def visible(self) -> bool:
        """What FreeCAD's window shows: GuiDocument.xml first, then the App property."""
        if self.gui_visibility is not None:
            return self.gui_visibility
        return bool(self.properties.get("Visibility", True))


@dataclasses.dataclass
class Document:
    """One FCStd file read as data."""

    path: str
    program_version: str
    objects: list[DocumentObject]
    archive: zipfile.ZipFile
    has_gui_document: bool

    def __post_init__(self):
        self.by_name = {o.name: o for o in self.objects}

    def member_size(self, member: str | None) -> int:
        if not member:
            return 0
        try:
            return self.archive.getinfo(member).file_size
        except KeyError:
            return 0

    def has_shape(self, obj: DocumentObject) -> bool:
        return self.member_size(obj.shape_file) > 0

    def placement_list(self, obj: DocumentObject, prop: str) -> list[tuple]:
        """A PropertyPlacementList stored as a file: uint32 count, then 7 doubles each."""
        member = obj.files.get(prop)
        if not self.member_size(member):
            return []
        try:
            data = self.archive.read(member)
        except MEMBER_READ_ERRORS as exc:
            raise DeliveryFailure(
                "unreadable_file", f"{self.path}: archive member {member} is damaged ({exc})"
            ) from None
        (count,) = struct.unpack_from("<I", data, 0)
        if len(data) < 4 + count * 56:
            return []
        return [struct.unpack_from("<7d", data, 4 + i * 56) for i in range(count)]


def _link_targets(prop: ET.Element) -> list[LinkTarget]:
    """The objects a link property names, whatever its flavour (Link, LinkSub, XLink...)."""
    targets = []
    for el in prop.iter():
        if el is prop or el.tag in ("Sub", "DocMap", "Property"):
            continue
        attrs = el.attrib
        name = attrs.get("value") if el.tag in ("Link", "LinkSub") else None
        if el.tag in ("Link",) and "obj" in attrs:
            name = attrs["obj"]
        if el.tag.startswith("XLink") and "name" in attrs:
            name = attrs["name"]
        if not name:
            continue
        subs = [s.attrib.get("value", "") for s in el.findall("Sub")]
        sub = attrs.get("sub") or (subs[0] if len(subs) == 1 else "")
        targets.append(LinkTarget(name, attrs.get("file") or None, sub))
    return targets


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
        if tag == "PropertyVector":
            try:
                return tuple(float(attrs[k]) for k in ("valueX", "valueY", "valueZ"))
            except (KeyError, ValueError):
                return None
        if tag == "BoolList":
            # boost::dynamic_bitset's string: the first element is the last character.
            return [c == "1" for c in reversed(attrs.get("value", ""))]
        if tag == "LinkList":
            return [link.attrib.get("value") for link in child if link.tag == "Link"]
        if tag == "Enumeration" or tag == "Integer":
            return attrs.get("value")
    if prop.attrib.get("type") == "App::PropertyEnumeration":
        for child in prop:
            if child.tag == "Integer":
                return child.attrib.get("value")
    return None


def _file_member(prop: ET.Element) -> str | None:
    """The archive member a property stores its data in (PlacementList, ColorList...)."""
    for child in prop:
        if "file" in child.attrib and child.tag not in ("XLink", "XLinkSub"):
            return child.attrib["file"] or None
    return None


def _read_properties(obj: DocumentObject, el: ET.Element) -> None:
    for prop in el.iter("Property"):
        name = prop.attrib.get("name", "")
        kind = prop.attrib.get("type", "")
        if "Link" in kind and "Expression" not in kind:
            obj.links[name] = _link_targets(prop)
        value = _value_of(prop)
        member = _file_member(prop)
        if member:
            obj.files[name] = member
        if name == "Shape" and isinstance(value, dict):
            obj.shape_file = value.get("file") or None
        elif name == "Group" and isinstance(value, list):
            obj.group = value
        elif name == "Model" and isinstance(value, list) and obj.type == "PartDesign::Body":
            obj.group = value  # Bodies of the 0.14-0.16 development line list 'Model'

        elif name == "Placement" and isinstance(value, tuple):
            obj.placement = value
        elif name == "Label":
            obj.label = value or ""
        elif value is not None and not isinstance(value, dict):
            obj.properties[name] = value


def _gui_visibility(archive: zipfile.ZipFile) -> dict[str, bool] | None:
    """Each view provider's Visibility in GuiDocument.xml, or None without that file."""
    try:
        root = ET.fromstring(archive.read("GuiDocument.xml"))
    except (*MEMBER_READ_ERRORS, ET.ParseError):
        return None
    found = {}
    for provider in root.iter("ViewProvider"):
        for prop in provider.iter("Property"):
            if prop.attrib.get("name") == "Visibility":
                flag = prop.find("Bool")
                if flag is not None:
                    found[provider.attrib.get("name", "")] = flag.attrib.get("value") == "true"
                break
    return found


def read_document(path: str) -> Document:
    """An FCStd file as data; a file that is not one raises unreadable_file."""
    archive = fcstd_archive.opened_archive(path)  # limits checked before any extraction
    try:
        root = ET.fromstring(archive.read("Document.xml"))
    except (*MEMBER_READ_ERRORS, ET.ParseError) as exc:
        archive.close()
        raise DeliveryFailure(
            "unreadable_file", f"{path}: not a readable FreeCAD document ({exc})"
        ) from None
    try:
        return _document(path, archive, root)
    except DeliveryFailure:
        archive.close()
        raise


def _named_members(objects) -> dict:
    """Every archive member Document.xml names -> 'object NAME (property)'."""
    named = {}
    for obj in objects:
        if obj.shape_file:
            named.setdefault(obj.shape_file, f"object {obj.name!r} (Shape)")
        for prop, member in obj.files.items():
            named.setdefault(member, f"object {obj.name!r} ({prop})")
    return named


def _document(path: str, archive: zipfile.ZipFile, root) -> Document:
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
        if obj is not None:
            _read_properties(obj, el)
    for obj in objects.values():
        if not obj.deps:
            # Before 0.18 there is no ObjectDeps: the links are the dependencies.
            obj.deps = sorted({t.name for ts in obj.links.values() for t in ts if not t.file})
    fcstd_archive.check_named_members(path, archive, _named_members(objects.values()))
    gui = _gui_visibility(archive)
    for name, flag in (gui or {}).items():
        if name in objects:
            objects[name].gui_visibility = flag
    return Document(
        path=path,
        program_version=root.attrib.get("ProgramVersion", ""),
        objects=list(objects.values()),
        archive=archive,
        has_gui_document=gui is not None,
    )
