# SPDX-License-Identifier: LGPL-2.1-or-later
"""The placed shapes of an FCStd document's scored parts, read from its stored BREP data.

fcstd_rule decides which stored shapes FreeCAD displays and under which placements;
this module reads those BREP members and places them. No document is opened in
FreeCAD and nothing from the file runs.
"""

import os
import tempfile

import FreeCAD
import Part

from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.inputs import fcstd_data, fcstd_rule


def document_shapes(path: str):
    """(shapes, notes, objects, scored) of an FCStd file; scored describes each part."""
    document = fcstd_data.read_document(path)
    with document.archive:
        parts, notes, broken = fcstd_rule.scored_parts(document)
        if not parts:
            raise _nothing_scored(document, broken)
        notes = list(notes)
        if broken:
            notes.append("not followed: " + "; ".join(broken))
        shapes, scored = [], []
        try:
            for part in parts:
                shape = _placed(part)
                shapes.append(shape)
                scored.append(_summary(part, shape, document))
        finally:
            for sibling in {id(p.document): p.document for p in parts}.values():
                if sibling is not document:
                    sibling.archive.close()
    names = ", ".join(
        s["name"] + (f" ({s['document']})" if "document" in s else "") for s in scored
    )
    notes.insert(0, "scored objects: " + names)
    return shapes, notes, document.objects, scored


def _nothing_scored(document, broken) -> DeliveryFailure:
    """The true reason a document yields no scored part."""
    path = document.path
    if broken:
        return DeliveryFailure("unresolved_link", f"{path}: " + "; ".join(broken))
    stored = [o for o in document.objects if document.has_shape(o)]
    if not stored:
        return DeliveryFailure("empty_model", f"{path}: the document stores no shape at all")
    kinds = sorted({o.type.split("::")[-1] for o in stored})
    return DeliveryFailure(
        "no_solid",
        f"{path}: only reference geometry holds shapes ({', '.join(kinds)}): no part body",
    )


def _placed(part):
    try:
        data = part.document.archive.read(part.member)
    except fcstd_data.MEMBER_READ_ERRORS as exc:
        raise DeliveryFailure(
            "unreadable_file",
            f"{part.document.path}: archive member {part.member} is damaged ({exc})",
        ) from None
    shape = brep_from_bytes(data, part.member, part.document.path)
    if not part.chain:
        return shape
    total = FreeCAD.Placement()
    for values, inverse in part.chain:
        x, y, z, q0, q1, q2, q3 = values
        step = FreeCAD.Placement(FreeCAD.Vector(x, y, z), FreeCAD.Rotation(q0, q1, q2, q3))
        total = total.multiply(step.inverse() if inverse else step)
    shape = shape.copy()
    shape.Placement = total.multiply(shape.Placement)
    return shape


def _summary(part, shape, document) -> dict:
    obj = part.obj
    found = {
        "name": obj.name,
        "label": obj.label or obj.name,
        "type": obj.type,
        "solids": len(shape.Solids),
        "volume": float(sum(s.Volume for s in shape.Solids)),
    }
    if part.document is not document:
        found["document"] = os.path.relpath(
            part.document.path, os.path.dirname(os.path.abspath(document.path))
        )
    if part.via:
        found["via"] = part.via.rstrip("/")
    return found


def brep_from_bytes(data: bytes, member: str, path: str):
    """A stored shape (BREP text, or OCCT binary '.bin' as LinkStage3 writes) as a Shape."""
    shape = Part.Shape()
    with tempfile.TemporaryDirectory(prefix="cadbench-") as tmp:
        target = os.path.join(tmp, os.path.basename(member))
        with open(target, "wb") as handle:
            handle.write(data)
        try:
            if member.endswith(".bin"):
                shape.importBinary(target)
            else:
                shape.importBrep(target)
        except Exception as exc:
            raise DeliveryFailure(
                "unreadable_file", f"{path}: stored shape {member} is unreadable ({exc})"
            )
    return shape
