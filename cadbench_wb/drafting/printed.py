# SPDX-License-Identifier: LGPL-2.1-or-later
"""What each DIMENSION of a DXF drawing prints, and what its own definition points measure.

Seed 003: tools that read a dimension's internal measurement gave full marks to drawings
that printed every number 100 times too large (ezdxf's EZDXF style ships DIMLFAC = 100).
What counts is the text the drawing shows. In order of authority:

1. the TEXT/MTEXT inside the dimension's anonymous drawing block (that is what a CAD
   program displays and plots);
2. without a block (QCAD and others leave it to the reader to regenerate), the text a
   CAD program would generate: the text override, "<>" replaced by the formatted
   measurement; else the measurement x DIMLFAC, rounded per DIMRND/DIMDEC, units per
   DIMLUNIT, zeros per DIMZIN, separator DIMDSEP, prefix/suffix per DIMPOST.

Style values come from the entity's overrides, then its DIMSTYLE record (both through
ezdxf's DimStyleOverride), then the header's $DIM variables, then AutoCAD's defaults.
"""

import dataclasses
import math
import re

from ezdxf.entities import DimStyleOverride
from ezdxf.lldxf.const import DXFTableEntryError
from ezdxf.math import Vec3
from ezdxf.render.dim_base import format_text

from cadbench_wb import standard
from cadbench_wb.drafting.text import DEGREE, DIAMETER, mtext_shown, text_shown, unified_symbols

DIMENSION_TYPES = ("DIMENSION", "ARC_DIMENSION", "LARGE_RADIAL_DIMENSION")
FAMILIES = ("linear", "aligned", "angular", "diameter", "radius", "ordinate", "arc")
_FAMILY_OF_DIMTYPE = {
    0: "linear",
    1: "aligned",
    2: "angular",
    3: "diameter",
    4: "radius",
    5: "angular",
    6: "ordinate",
    8: "arc",
}
# AutoCAD's defaults for a style value found neither on the entity, its style nor the header.
_STYLE_DEFAULTS = {
    "dimlfac": 1.0,
    "dimdec": 4,
    "dimadec": 0,
    "dimzin": 0,
    "dimazin": 0,
    "dimlunit": 2,
    "dimaunit": 0,
    "dimdsep": ".",
    "dimpost": "",
    "dimapost": "",
    "dimrnd": 0.0,
}
_MAX_BLOCK_DEPTH = 16


@dataclasses.dataclass
class PrintedDimension:
    """One dimension as the drawing prints it. ``measured`` is in drawing units (degrees for
    angles) from the definition points; ``printed_value`` is parsed from ``printed``."""

    handle: str
    family: str
    printed: str
    printed_value: float | None
    measured: float | None
    dimlfac: float
    override: bool
    ok: bool
    reason: str | None
    text_position: tuple[float, float] | None
    block_entity_count: int | None
    detail: str = ""
    block: str | None = None
    tolerance_text: str = ""
    family_hint: str | None = None
    layout: str = ""
    insert_path: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        data = dataclasses.asdict(self)
        data["insert_path"] = list(self.insert_path)
        data["text_position"] = list(self.text_position) if self.text_position else None
        return data


# ---------------------------------------------------------------- reading printed text

_NUMBER = r"(?:\d+(?:[.,]\d+)?|[.,]\d+)"
_CHAMFER = re.compile(rf"^({_NUMBER})\s*[xX×]\s*({_NUMBER})\s*{DEGREE}$")
_MULTIPLICITY = re.compile(r"^\d+\s*[xX×]\s*(?=\S)")
_FEET_INCH = re.compile(rf"(\d+)'\s*-?\s*(?:({_NUMBER})(?:\s+(\d+)/(\d+))?|(\d+)/(\d+))?\s*\"?")
_FRACTION = re.compile(r"(\d+)\s+(\d+)/(\d+)|(\d+)/(\d+)")
_DMS = re.compile(rf"({_NUMBER})\s*{DEGREE}(?:\s*({_NUMBER})')?(?:\s*({_NUMBER})\")?")
_FIRST_NUMBER = re.compile(_NUMBER)


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def parsed_printed(text: str) -> tuple[str | None, float | None, float]:
    """(family hint, value, resolution) of a printed dimension text. The resolution is one
    unit of the last printed digit (a printed '10' cannot tell 10.4 from 10)."""
    text = " ".join(unified_symbols(text or "").split())
    chamfer = _CHAMFER.match(text)
    if chamfer:  # '1.5x45°': a chamfer's length, the angle is its note
        return None, _number(chamfer.group(1)), _resolution(chamfer.group(1))
    multiplicity = _MULTIPLICITY.match(text)
    if multiplicity:  # '2xR1.4', '4x Ø6.5'
        text = text[multiplicity.end() :]
    feet = None if DEGREE in text else _FEET_INCH.search(text)
    if feet and "'" in feet.group(0):
        inches = _number(feet.group(2)) if feet.group(2) else 0.0
        if feet.group(3):
            inches += int(feet.group(3)) / int(feet.group(4))
        elif feet.group(5):
            inches += int(feet.group(5)) / int(feet.group(6))
        return None, int(feet.group(1)) * 12 + inches, 1 / 64
    found = _FIRST_NUMBER.search(text)
    if not found:
        return None, None, 0.0
    before = text[: found.start()].rstrip(" ([").upper()
    hint = None
    if before.endswith("R"):
        hint = "radius"
    elif before.endswith(DIAMETER.upper()) or before.endswith("M"):
        hint = "diameter"
    fraction = _FRACTION.match(text, found.start())
    if fraction:
        if fraction.group(1):
            value = int(fraction.group(1)) + int(fraction.group(2)) / int(fraction.group(3))
            return hint, value, 1 / int(fraction.group(3))
        return hint, int(fraction.group(4)) / int(fraction.group(5)), 1 / int(fraction.group(5))
    dms = _DMS.match(text, found.start())
    if dms:
        value = _number(dms.group(1))
        resolution = _resolution(dms.group(1))
        if dms.group(2):
            value += _number(dms.group(2)) / 60
            resolution = _resolution(dms.group(2)) / 60
        if dms.group(3):
            value += _number(dms.group(3)) / 3600
            resolution = _resolution(dms.group(3)) / 3600
        return "angular", value, resolution
    return hint, _number(found.group(0)), _resolution(found.group(0))


def _resolution(number: str) -> float:
    digits = re.split(r"[.,]", number)
    return 10.0 ** -(len(digits[1]) if len(digits) > 1 else 0)


def parse_printed_value(text: str) -> tuple[str | None, float | None]:
    """(family hint, value) read from a printed dimension text or callout: decimal commas,
    Ø/%%c/⌀, R, °, '2x' prefixes; tolerances and fits after the value are ignored."""
    hint, value, _resolution = parsed_printed(text)
    return hint, value


# ---------------------------------------------------------------- measuring the lines


def _angle_of(vector) -> float:
    return math.degrees(math.atan2(vector[1], vector[0]))


def _ccw(start_deg: float, end_deg: float) -> float:
    return (end_deg - start_deg) % 360.0


def _three_point_angle(center, first, second, location) -> float | None:
    """The angle an arc at ``location`` spans between rays centre->first, centre->second."""
    a, b = Vec3(first) - Vec3(center), Vec3(second) - Vec3(center)
    if a.is_null or b.is_null:
        return None
    sweep = _ccw(_angle_of(a), _angle_of(b))
    if location is not None and not (Vec3(location) - Vec3(center)).is_null:
        inside = _ccw(_angle_of(a), _angle_of(Vec3(location) - Vec3(center))) <= sweep
        return sweep if inside else 360.0 - sweep
    return min(sweep, 360.0 - sweep)


def _two_line_angle(dxf) -> float | None:
    """Angle between lines p2-p3 and p4-p1 on the side where the dimension arc (p5) lies."""
    p1, p2, p3, p4 = (Vec3(dxf.get(n)) for n in ("defpoint", "defpoint2", "defpoint3", "defpoint4"))
    d1, d2 = p3 - p2, p1 - p4
    cross = d1.x * d2.y - d1.y * d2.x
    if d1.is_null or d2.is_null or abs(cross) < 1e-12 * d1.magnitude * d2.magnitude:
        return None
    t = ((p4.x - p2.x) * d2.y - (p4.y - p2.y) * d2.x) / cross
    center = p2 + d1 * t
    between = _ccw(_angle_of(d1), _angle_of(d2)) % 180.0
    location = Vec3(dxf.get("defpoint5", p3)) - center
    if location.is_null:
        return between
    offset = _ccw(_angle_of(d1), _angle_of(location)) % 180.0
    return between if offset <= between else 180.0 - between


def family_and_measurement(dim) -> tuple[str, float | None]:
    """The dimension's family and what its definition points measure (drawing units);
    None when they measure nothing (coincident points: TechDraw writes its diameters so)."""
    family, value = _family_and_raw_measurement(dim)
    if value is not None and family != "ordinate" and abs(value) <= _DEGENERATE:
        value = None
    return family, value


_DEGENERATE = 1e-9


def _family_and_raw_measurement(dim) -> tuple[str, float | None]:
    dxf = dim.dxf
    kind = dim.dxftype()
    try:
        if kind == "ARC_DIMENSION":
            angle = _three_point_angle(dxf.defpoint4, dxf.defpoint2, dxf.defpoint3, dxf.defpoint)
            radius = (Vec3(dxf.defpoint2) - Vec3(dxf.defpoint4)).magnitude
            return "arc", None if angle is None else math.radians(angle) * radius
        if kind == "LARGE_RADIAL_DIMENSION":
            # ezdxf 1.4 names group code 15 "jog_point", but it is the point on the arc:
            # its distance from the centre is AutoCAD's stored measurement (uncommon.dxf).
            return "radius", (Vec3(dxf.jog_point) - Vec3(dxf.defpoint)).magnitude
        dimtype = dim.dimtype
        family = _FAMILY_OF_DIMTYPE.get(dimtype, "linear")
        if dimtype == 2:
            return family, _two_line_angle(dxf)
        if dimtype == 5:
            angle = _three_point_angle(dxf.defpoint4, dxf.defpoint2, dxf.defpoint3, dxf.defpoint)
            return family, angle
        if dimtype == 6:
            location = Vec3(dxf.defpoint2) - Vec3(dxf.defpoint)
            return family, abs(location.x if dxf.dimtype & 64 else location.y)
        if dimtype in (0, 1, 3, 4):
            return family, float(dim.get_measurement())
        return family, None
    except Exception:  # a malformed entity measures nothing, it is reported
        return _FAMILY_OF_DIMTYPE.get(getattr(dim, "dimtype", 0), "linear"), None


# ---------------------------------------------------------------- formatting like CAD


class _Style:
    """DIM* values for one dimension: entity override, DIMSTYLE record, header, default."""

    def __init__(self, dim):
        try:
            self.override = DimStyleOverride(dim)
        except DXFTableEntryError:  # the named DIMSTYLE is missing: header and defaults
            self.override = None
        self.header = dim.doc.header if dim.doc is not None else {}

    def get(self, name: str):
        value = self.override.get(name, None) if self.override is not None else None
        if value is None:
            value = self.header.get(f"${name.upper()}", None)
        if value is None:
            value = _STYLE_DEFAULTS.get(name)
        if name in ("dimdsep",) and isinstance(value, int):
            value = chr(value) if value else "."
        return value


def _suppression(dimzin: int) -> int:
    return int(dimzin or 0) & 12  # bits 4 and 8: leading and trailing zeros


def _fraction_text(value: float, dimdec: int) -> str:
    denominator = 2 ** max(0, min(int(dimdec), 8))
    sixteenths = round(abs(value) * denominator)
    whole, rest = divmod(sixteenths, denominator)
    sign = "-" if value < 0 else ""
    if rest == 0:
        return f"{sign}{whole}"
    divisor = math.gcd(rest, denominator)
    fraction = f"{rest // divisor}/{denominator // divisor}"
    return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"


def _length_text(value: float, style: _Style) -> str:
    unit = int(style.get("dimlunit") or 2)
    dimdec = int(style.get("dimdec"))
    rounding = float(style.get("dimrnd") or 0.0) or None
    if rounding:
        value = round(value / rounding) * rounding
    if unit == 1:
        return f"{value:.{dimdec}E}"
    if unit == 5:
        return _fraction_text(value, dimdec)
    if unit in (3, 4):
        feet, inches = divmod(abs(value), 12.0)
        sign = "-" if value < 0 else ""
        shown = _fraction_text(inches, dimdec) if unit == 4 else f"{inches:.{dimdec}f}"
        return f"{sign}{int(feet)}'-{shown}\""
    return format_text(value, None, dimdec, _suppression(style.get("dimzin")), style.get("dimdsep"))


def _angle_text(degrees: float, style: _Style) -> str:
    decimals = int(style.get("dimadec"))
    if decimals < 0:
        decimals = int(style.get("dimdec"))
    azin = int(style.get("dimazin") or 0)
    zin = (4 if azin & 1 else 0) | (8 if azin & 2 else 0)
    unit = int(style.get("dimaunit") or 0)
    dsep = style.get("dimdsep")
    if unit == 1:
        whole = int(degrees)
        minutes = (degrees - whole) * 60
        return f"{whole}{DEGREE}{int(minutes)}'{(minutes - int(minutes)) * 60:.0f}\""
    if unit == 2:
        return format_text(degrees * 400 / 360, None, decimals, zin, dsep) + "g"
    if unit == 3:
        return format_text(math.radians(degrees), None, decimals, zin, dsep) + "r"
    return format_text(degrees, None, decimals, zin, dsep) + DEGREE


def _with_post(text: str, post: str) -> str:
    if not post:
        return text
    return post.replace("<>", text, 1) if "<>" in post else text + post


_PREFIX = {"diameter": DIAMETER, "radius": "R"}


def generated_text(dim, family: str, measured: float | None, style: _Style) -> str:
    """The raw text (MTEXT codes included) a CAD program generates for this dimension."""
    stored = dim.dxf.get("text", "") or ""
    if stored == " ":  # a single space suppresses the text
        return ""
    if stored and "<>" not in stored:
        return stored
    if measured is None:
        number = "?"
    elif family == "angular":
        number = _with_post(_angle_text(measured, style), style.get("dimapost") or "")
    else:
        value = measured * float(style.get("dimlfac"))
        number = _with_post(_length_text(value, style), style.get("dimpost") or "")
    prefix = _PREFIX.get(family, "")
    if not stored:
        return prefix + number
    before = unified_symbols(stored.split("<>", 1)[0]).rstrip().upper()
    if prefix and before.endswith(prefix.upper()):
        prefix = ""
    return stored.replace("<>", prefix + number, 1)


# ---------------------------------------------------------------- one dimension


def _block_text(block) -> tuple[str, str, int] | None:
    """(main text, tolerance text, entities) drawn by a dimension block; None if absent."""
    if block is None:
        return None
    mains, tolerances = [], []
    for entity in block:
        kind = entity.dxftype()
        if kind == "MTEXT":
            main, tolerance = mtext_shown(entity.text)
        elif kind in ("TEXT", "ATTRIB"):
            main, tolerance = text_shown(entity.dxf.text), ""
        else:
            continue
        mains.append(main)
        if tolerance:
            tolerances.append(tolerance)
    return " ".join(m for m in mains if m), " ".join(tolerances), len(block)


def _draws_something(block) -> bool:
    # POINTs at the definition points sit on DEFPOINTS and never plot.
    return any(entity.dxftype() != "POINT" for entity in block)


def value_tolerance(family: str, value: float, resolution: float = 0.0) -> float:
    """Seed 001's tolerance, widened to half a unit of the last printed digit."""
    if family == "angular":
        return max(standard.ANGULAR_TOLERANCE_DEG, resolution / 2)
    return max(
        standard.LINEAR_TOLERANCE_ABS_MM,
        standard.LINEAR_TOLERANCE_REL * abs(value),
        resolution / 2,
    )


def _dimlfac_applies(family: str) -> bool:
    return family != "angular"


def printed_dimension(dim, shared_by: int = 1, source=None, scale: float = 1.0) -> PrintedDimension:
    """Read one DIMENSION entity. For a virtual copy placed by an INSERT, ``source`` is the
    entity it was copied from: ezdxf's copies keep the transformed definition points but
    not the link to the drawing block, and the style and text belong to the source.
    ``scale`` is the sheet's declared scale factor (2 for a sheet drawn at 1:2): lengths
    should print ``scale`` x what the lines measure."""
    source = source if source is not None else dim
    family, measured = family_and_measurement(dim)
    style = _Style(source)
    dimlfac = float(style.get("dimlfac"))
    stored = source.dxf.get("text", "") or ""
    override = stored not in ("", "<>")
    block_name = source.dxf.get("geometry", None)
    doc = source.doc
    block = doc.blocks.get(block_name) if (doc is not None and block_name) else None
    generated_main, generated_tolerance = mtext_shown(
        generated_text(source, family, measured, style)
    )
    drawn = _block_text(block)
    if drawn is not None and drawn[0]:
        printed, tolerance_text, _count = drawn
    elif drawn is not None:
        printed, tolerance_text = "", ""
    else:
        printed, tolerance_text = generated_main, generated_tolerance
    hint, printed_value, resolution = parsed_printed(printed)
    if family == "ordinate" and printed_value is not None:
        printed_value = abs(printed_value)
    midpoint = dim.dxf.get("text_midpoint", None)
    result = PrintedDimension(
        handle=source.dxf.get("handle", "") or "",
        family=family,
        printed=printed + (f" {tolerance_text}" if tolerance_text else ""),
        printed_value=printed_value,
        measured=measured,
        dimlfac=dimlfac,
        override=override,
        ok=True,
        reason=None,
        text_position=(float(midpoint[0]), float(midpoint[1])) if midpoint else None,
        block_entity_count=drawn[2] if drawn is not None else None,
        block=block_name if block is not None else None,
        tolerance_text=tolerance_text,
        family_hint=hint,
    )
    two_lines = dim.dxftype() == "DIMENSION" and dim.dimtype == 2
    _judge(result, block, shared_by, generated_main, resolution, scale, two_lines)
    if result.reason == "undefined_measurement":
        result.detail += _collapsed(dim)
    return result


def _collapsed(dim) -> str:
    """Where the definition points of a dimension that measures nothing all lie: FreeCAD
    0.20's TechDraw.writeDXFPage writes radius and diameter dimensions collapsed onto the
    circle's centre (definition points and leader), so only their text can be read."""
    points = [dim.dxf.get(name) for name in ("defpoint", "defpoint2", "defpoint3", "defpoint4")]
    points = [p for p in points if p is not None]
    if not points or any((p - points[0]).magnitude > _DEGENERATE for p in points):
        return ""
    x, y = points[0][0], points[0][1]
    return f": every definition point is at ({x:.3f}, {y:.3f}), so the writer collapsed it"


def unreadable_dimension(dim, exc: Exception) -> PrintedDimension:
    """The entry of a DIMENSION whose content ezdxf cannot interpret."""
    return PrintedDimension(
        handle=dim.dxf.get("handle", "") or "",
        family=_FAMILY_OF_DIMTYPE.get(dim.dxf.get("dimtype", 0) & 15, "linear"),
        printed="",
        printed_value=None,
        measured=None,
        dimlfac=1.0,
        override=False,
        ok=False,
        reason="unreadable_dimension",
        text_position=None,
        block_entity_count=None,
        detail=f"{type(exc).__name__}: {exc}",
    )


def _judge(result, block, shared_by, generated, resolution, scale, two_lines) -> None:
    """Set ok/reason/detail: does the printed number match what the lines measure?"""

    def fail(reason: str, detail: str) -> None:
        result.ok, result.reason, result.detail = False, reason, detail

    def close(expected: float) -> bool:
        tolerance = value_tolerance(result.family, expected, resolution)
        return abs(result.printed_value - expected) <= tolerance

    if block is not None and not _draws_something(block):
        return fail("empty_block", f"drawing block {result.block} draws nothing")
    if shared_by > 1:
        return fail(
            "shared_block", f"drawing block {result.block} is shared by {shared_by} dimensions"
        )
    if result.measured is None:
        return fail("undefined_measurement", "the definition points measure nothing")
    if not result.printed.strip():
        return fail("no_text", "the dimension prints no text")
    if result.printed_value is None:
        return fail("not_a_number", f"prints {result.printed!r}, which holds no number")
    lengths = _dimlfac_applies(result.family)
    expected = result.measured * scale if lengths else result.measured
    if close(expected):
        if block is None:
            result.detail = "no drawing block: printed text is what a CAD program regenerates"
        return None
    if two_lines and close(180.0 - expected):
        # Two lines make two angles; writers (TechDraw) put the arc location on the other.
        result.detail = "prints the supplementary angle of the side its arc location marks"
        return None
    shown = f"prints {result.printed_value:g} but its lines measure {result.measured:.6g}"
    if scale != 1.0 and lengths:
        shown += f" (x {scale:g} at the declared scale: {expected:.6g})"
    if lengths and abs(result.dimlfac - scale) > 1e-9 and close(result.measured * result.dimlfac):
        return fail("dimlfac", f"{shown}: the measurement x DIMLFAC {result.dimlfac:g}")
    if result.override:
        return fail("text_override", f"{shown}: a text override")
    if block is not None and generated and parsed_printed(generated)[1] != result.printed_value:
        return fail("block_text", f"{shown}: the drawing block's text was edited")
    return fail("printed_mismatch", shown)


# ---------------------------------------------------------------- whole layouts


def _doc_and_layout(doc_or_layout):
    if hasattr(doc_or_layout, "modelspace"):
        return doc_or_layout, doc_or_layout.modelspace()
    return doc_or_layout.doc, doc_or_layout


def dimension_count_per_block(doc) -> dict[str, int]:
    """How many distinct DIMENSION entities draw themselves with each block."""
    counts: dict[str, int] = {}
    for entity in doc.entitydb.values():
        if entity.dxftype() in DIMENSION_TYPES and entity.is_alive:
            name = entity.dxf.get("geometry", None)
            if name:
                counts[name] = counts.get(name, 0) + 1
    return counts


def block_holds(doc, types: tuple[str, ...]):
    """A test: does a block hold an entity of ``types``, itself or through its INSERTs?
    Lets a walk skip the (costly) virtual copies of blocks with nothing it looks for."""
    memo: dict[str, bool] = {}

    def holds(name: str, depth: int = 0) -> bool:
        if name in memo:
            return memo[name]
        memo[name] = False  # a block that inserts itself holds nothing more
        block = doc.blocks.get(name)
        found = False
        if block is not None and depth < _MAX_BLOCK_DEPTH:
            for entity in block:
                kind = entity.dxftype()
                if kind in types or (kind == "INSERT" and holds(entity.dxf.name, depth + 1)):
                    found = True
                    break
        memo[name] = found
        return found

    return holds


def _layout_name(layout) -> str:
    name = getattr(layout, "name", "")
    return "Model" if name.lower() == "*model_space" else name


def printed_dimensions(
    doc_or_layout, *, each_insert: bool = True, scale: float = 1.0
) -> list[PrintedDimension]:
    """Every dimension a layout prints (a document means its model space).

    ``each_insert=True``: one entry per placement on the sheet, dimensions inside blocks
    transformed by their INSERTs into the layout's coordinates (what the sheet shows).
    ``each_insert=False``: one entry per DIMENSION entity reachable from the layout, in
    its own block's coordinates (what dxf-check audits; each handle once).
    ``scale``: the sheet's declared scale factor (see printed_dimension).
    """
    doc, layout = _doc_and_layout(doc_or_layout)
    shared = dimension_count_per_block(doc)
    found: list[PrintedDimension] = []
    name = _layout_name(layout)

    def record(dim, path, source=None):
        block_name = (source if source is not None else dim).dxf.get("geometry", "")
        try:
            entry = printed_dimension(dim, shared.get(block_name, 1), source, scale)
        except Exception as exc:  # one broken entity, not a broken report
            entry = unreadable_dimension(source if source is not None else dim, exc)
        entry.layout, entry.insert_path = name, tuple(path)
        found.append(entry)

    def walk_definitions(entities, path, seen):
        for entity in entities:
            kind = entity.dxftype()
            if kind in DIMENSION_TYPES:
                record(entity, path)
            elif kind == "INSERT" and len(path) < _MAX_BLOCK_DEPTH:
                block = doc.blocks.get(entity.dxf.name)
                if block is not None and entity.dxf.name not in seen:
                    seen.add(entity.dxf.name)
                    walk_definitions(block, path + [entity.dxf.name], seen)

    def walk_placements(entities, path):
        for entity in entities:
            kind = entity.dxftype()
            if kind in DIMENSION_TYPES:
                record(entity, path, entity.origin_of_copy if entity.is_virtual else None)
            elif (
                kind == "INSERT"
                and len(path) < _MAX_BLOCK_DEPTH
                and holds_dimensions(entity.dxf.name)
            ):
                label = entity.dxf.get("handle") or entity.dxf.name
                for insert in entity.multi_insert():
                    try:
                        walk_placements(list(insert.virtual_entities()), path + [label])
                    except Exception:  # an unplaceable block prints nothing
                        continue

    holds_dimensions = block_holds(doc, DIMENSION_TYPES)
    if each_insert:
        walk_placements(layout, [])
    else:
        walk_definitions(layout, [], set())
    return found
