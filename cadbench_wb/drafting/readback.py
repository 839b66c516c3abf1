# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a generated drawing displays, read back from its DXF, and the targets it shows.

Seed 003: the number that counts is the one the drawing prints, not the internal
measurement. Each DIMENSION's text comes from drafting/printed.py (the text its drawing
block draws, the same reading `cadbench dxf-check` uses); the value is parsed from that
text. TechDraw names each dimension's block after its document object ('*Dim003'), which
ties a printed text to the view and the plan it came from. A second, independent reading
-- TechDraw's raw measurement formatted with the dimension's FormatSpec -- must agree.
"""

import os

from cadbench_wb.drafting import layout as drawing_layout
from cadbench_wb.drafting import sheet_checks as drawing_checks
from cadbench_wb.drafting.exported_dxf import dxf_document, repaired_text

# Family of a printed text from its sign: what a reader of the sheet sees.
_FAMILY_OF_HINT = {"diameter": "diameter", "radius": "radius", "angular": "angle"}
_FAMILY_OF_DXF = {"diameter": "diameter", "radius": "radius", "angular": "angle"}


def displayed_dimensions(dxf_path: str) -> list:
    """Every dimension the DXF prints: name (TechDraw object), printed text, parsed family
    and value, the text's box on the sheet (readability check)."""
    from cadbench_wb.drafting import printed  # noqa: PLC0415 - heavy: loaded on first use
    from cadbench_wb.drafting.text import text_shown  # noqa: PLC0415 - heavy: loaded on first use

    doc = dxf_document(dxf_path)
    boxes = _text_boxes(doc)
    found = []
    for entry in printed.printed_dimensions(doc):
        shown = text_shown(repaired_text(entry.printed))
        hint, value = printed.parse_printed_value(shown)
        family = _FAMILY_OF_HINT.get(hint) or _FAMILY_OF_DXF.get(entry.family) or "length"
        name = (entry.block or "").lstrip("*") or None
        found.append(
            {
                "name": name,
                "handle": entry.handle,
                "printed": shown,
                "family": family,
                "value": value,
                "box": boxes.get(entry.block),
            }
        )
    return sorted(found, key=lambda d: (d["name"] or "", d["handle"]))


def _text_boxes(doc) -> dict:
    """Block name -> (x0, y0, x1, y1) of the text it prints: where the DXF puts it (the
    alignment point of a centred TEXT), as wide as the layout's font metrics make the
    repaired text, so the check and the layout measure alike."""
    boxes = {}
    for dimension in doc.modelspace().query("DIMENSION"):
        name = dimension.dxf.get("geometry")
        block = doc.blocks.get(name) if name else None
        if block is None:
            continue
        found = []
        for text in block.query("TEXT"):
            centred = text.dxf.get("halign", 0) in (1, 2, 4)
            at = text.dxf.align_point if centred and text.dxf.hasattr("align_point") else None
            at = at if at is not None else text.dxf.insert
            found.append(drawing_layout.text_box((at.x, at.y), repaired_text(text.dxf.text)))
        if found:
            boxes[name] = tuple(
                round(f(b[i] for b in found), 3)
                for f, i in ((min, 0), (min, 1), (max, 2), (max, 3))
            )
    return boxes


def read_back(out_dir: str, made: dict) -> dict:
    """The drawing's displayed dimensions joined to what was drawn: view, role, target,
    and the cross-check against FormatSpec(getRawValue) (disagreements listed)."""
    from cadbench_wb.drafting.text import unified_symbols  # noqa: PLC0415 - heavy: loaded on first use

    displayed = displayed_dimensions(os.path.join(out_dir, made["files"]["dxf"]))
    drawn = {d["name"]: d for d in made["dimensions"]}
    disagreements, missing = [], sorted(set(drawn) - {d["name"] for d in displayed})
    for entry in displayed:
        plan = drawn.get(entry["name"])
        entry["view"] = plan["view"] if plan else None
        entry["target"] = plan["target"] if plan else None
        if plan is None:
            continue
        expected = unified_symbols(plan["expectedText"])
        if unified_symbols(entry["printed"]) != expected:
            disagreements.append(
                {"name": entry["name"], "printed": entry["printed"], "formatted": expected}
            )
    overlaps = drawing_layout.overlapping_labels([d["box"] for d in displayed if d["box"]])
    named = [d["name"] for d in displayed if d["box"]]
    return {
        "displayed": displayed,
        "crossCheck": {
            "method": "FormatSpec applied to getRawValue, against the printed text",
            "agree": not disagreements and not missing,
            "disagreements": disagreements,
            "notPrinted": missing,
        },
        "overlappingLabels": [[named[i], named[j]] for i, j in overlaps],
        "layoutChecks": drawing_checks.sheet_checks(
            os.path.join(out_dir, made["files"]["dxf"]), made
        ),
    }


def target_match(targets: list, displayed: list) -> dict:
    """Share of the targets that the drawing displays: same family (a diameter is read
    from a Ø text, a radius from R, an angle from °), value within the target's tolerance.
    One displayed dimension may show several targets of equal value."""
    details, found = [], 0
    for target in targets:
        tolerance = target.tolerance
        hits = [
            d
            for d in displayed
            if d["family"] == target.kind
            and d["value"] is not None
            and abs(d["value"] - target.value) <= tolerance + 1e-9
        ]
        best = (
            min(hits, key=lambda d: (abs(d["value"] - target.value), d["name"] or ""))
            if hits
            else None
        )
        found += best is not None
        # What the sheet prints nearest the target in its family, shown or not: a reader
        # sees why a target is missed (27.6 printed beside a 27.5 target, tolerance 0.05).
        same = [d for d in displayed if d["family"] == target.kind and d["value"] is not None]
        nearest = min(same, key=lambda d: abs(d["value"] - target.value), default=None)
        details.append(
            {
                "id": target.id,
                "kind": target.kind,
                "target": target.value,
                "tolerance": tolerance,
                "found": best is not None,
                "displayed": best["printed"] if best else None,
                "parsed": best["value"] if best else None,
                "view": best["view"] if best else None,
                "dimension": best["name"] if best else None,
                "nearestPrinted": nearest["printed"] if nearest else None,
            }
        )
    value = found / len(targets) if targets else None
    return {"value": value, "found": found, "of": len(targets), "dimensions": details}
