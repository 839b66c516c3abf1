# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a drawing says in words and numbers: standalone text, and dimensions.

Seed 001: a TEXT/MTEXT that is a dimension callout ("R5", "Ø10", "2xR1.4", "45°", "12,5")
counts as a dimension, so manual drafting is equivalent to native DIMENSION entities; the
rest (notes, titles, MULTILEADER text) is standalone annotation.
"""

import dataclasses
import re

from cadbench_wb.drafting.printed import block_holds, parsed_printed, printed_dimensions
from cadbench_wb.drafting.text import DEGREE, DIAMETER, mtext_shown, normalized_content, text_shown

_MAX_DEPTH = 16
_NUMBER = r"(?:\d+(?:[.,]\d+)?|[.,]\d+)"
# A whole text that is nothing but a dimension: multiplicity, symbol, value, angle parts,
# and a tolerance or fit after it.
_CALLOUT = re.compile(
    rf"^\(?(?:\d+\s*[xX×]\s*)?(?:S?R|S?{DIAMETER}|M)?\s*{_NUMBER}"
    rf"(?:\s*{DEGREE}(?:\s*{_NUMBER}')?(?:\s*{_NUMBER}\")?)?"
    rf"(?:\s*[xX×]\s*{_NUMBER}\s*{DEGREE}?)?"
    rf"(?:\s*(?:±\s*{_NUMBER}|[+-]\s*{_NUMBER}(?:\s*/\s*[+-]?\s*{_NUMBER})?|[A-Za-z]{{1,2}}\d{{1,2}}))?"
    r"\)?$"
)
# Families that measure the same kind of thing (a horizontal distance may be drafted as a
# linear or an aligned dimension, or by hand as a plain number).
MATCH_CLASS = {
    "linear": "length",
    "aligned": "length",
    "arc": "arc",
    "radius": "radius",
    "diameter": "diameter",
    "angular": "angular",
    "ordinate": "ordinate",
}


@dataclasses.dataclass
class Shown:
    """One dimension or one piece of standalone text as the sheet shows it."""

    kind: str  # DIMENSION, TEXT, MTEXT, ATTRIB, MULTILEADER
    family: str | None  # dimensions: the family; text: None
    text: str
    value: float | None
    resolution: float
    position: tuple[float, float] | None
    key: str = ""
    matchable: bool = True  # False: a dimension whose block is empty or shared


def callout_of(text: str) -> tuple[str, float, float] | None:
    """(family, value, resolution) when a text is nothing but a dimension callout."""
    if not text or not _CALLOUT.match(text):
        return None
    hint, value, resolution = parsed_printed(text)
    if value is None:
        return None
    if hint is None and DEGREE in text and not re.search(r"[xX×]", text):
        hint = "angular"
    return hint or "linear", value, resolution


def _shown_text(entity) -> tuple[str, tuple[float, float] | None] | None:
    kind = entity.dxftype()
    if kind == "MTEXT":
        main, tolerance = mtext_shown(entity.text)
        text = f"{main} {tolerance}".strip()
        position = entity.dxf.insert
    elif kind in ("TEXT", "ATTRIB"):
        if kind == "ATTRIB" and entity.is_invisible:
            return None
        text = text_shown(entity.dxf.text)
        align = entity.dxf.get("align_point", None)
        halign, valign = entity.dxf.get("halign", 0), entity.dxf.get("valign", 0)
        position = align if (align is not None and (halign or valign)) else entity.dxf.insert
    elif kind == "MULTILEADER":
        main, tolerance = mtext_shown(entity.get_mtext_content())
        text = f"{main} {tolerance}".strip()
        position = entity.context.mtext.insert if entity.context.mtext else None
    else:
        return None
    if not text:
        return None
    return text, (float(position[0]), float(position[1])) if position is not None else None


_TEXT_TYPES = ("TEXT", "MTEXT", "MULTILEADER")


def _texts(doc, layout) -> list[tuple[str, str, tuple | None]]:
    """(kind, text, position) of every text the layout shows, INSERT content and visible
    attributes placed by their block references."""
    found = []
    holds_text = block_holds(doc, _TEXT_TYPES)

    def walk(entities, depth):
        for entity in entities:
            kind = entity.dxftype()
            if kind == "INSERT" and depth < _MAX_DEPTH:
                for attrib in entity.attribs:
                    shown = _shown_text(attrib)
                    if shown:
                        found.append(("ATTRIB", *shown))
                if not holds_text(entity.dxf.name):
                    continue
                for placed in entity.multi_insert() if entity.mcount > 1 else (entity,):
                    try:
                        walk(list(placed.virtual_entities()), depth + 1)
                    except Exception:  # a block that cannot be placed shows nothing
                        continue
            elif kind in _TEXT_TYPES:
                shown = _shown_text(entity)
                if shown:
                    found.append((kind, *shown))

    walk(layout, 0)
    return found


# Dimensions read from a block that draws nothing, or from one block several dimensions
# share (seed 003): the sheet shows nothing at their place.
_DRAWS_NOTHING = ("empty_block", "shared_block")


def annotations_of(doc, labels=(), tolerance: float = 1e-6) -> tuple[list[Shown], list[Shown]]:
    """(dimensions, standalone texts) of a drawing's model space. ``labels`` are the
    (anchor, content) of bubble labels (classify.py): they stay text, never dimensions,
    found by their anchor within ``tolerance`` and their content."""
    dimensions = []
    for dim in printed_dimensions(doc, each_insert=True):
        _hint, _value, resolution = parsed_printed(dim.printed)
        dimensions.append(
            Shown(
                "DIMENSION",
                dim.family,
                dim.printed,
                dim.printed_value,
                resolution,
                dim.text_position,
                normalized_content(dim.printed),
                matchable=dim.reason not in _DRAWS_NOTHING,
            )
        )
    label_keys = {}
    for anchor, content in labels:
        label_keys.setdefault(normalized_content(content), []).append(anchor)
    texts = []
    for kind, text, position in _texts(doc, doc.modelspace()):
        key = normalized_content(text)
        if position is not None and any(
            abs(position[0] - x) <= tolerance and abs(position[1] - y) <= tolerance
            for x, y in label_keys.get(key, ())
        ):
            texts.append(Shown("LABEL", None, text, None, 0.0, position, key))
            continue
        callout = callout_of(text)
        if callout is not None:
            family, value, resolution = callout
            dimensions.append(Shown(kind, family, text, value, resolution, position, key))
        else:
            texts.append(Shown(kind, None, text, None, 0.0, position, key))
    return dimensions, texts
