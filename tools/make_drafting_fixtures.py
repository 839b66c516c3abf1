# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes tests/data/drafting/: drawings of one task by several "drafters" (issue 13).

Run it in its own venv with ezdxf (never the project's .venv):

    python3 -m venv /work/venvs/drafting && /work/venvs/drafting/bin/pip install ezdxf==1.4.5
    /work/venvs/drafting/bin/python tools/make_drafting_fixtures.py tests/data/drafting [NAME.dxf...]

Floor plan (mm): a 12000 x 8000 building, exterior walls 200 thick, an interior wall 120
thick at x = 6000 with a door; a south door, a north window, a stair of nine treads at
240; 300 x 300 columns on a 3 x 3 grid (A B C at x = 100, 6000, 11900; 1 2 3 at
y = 100, 4000, 7900). Every drafter draws the same part geometry (PLAN_LENGTH, STAIR_LENGTH
below); they differ in annotation only: grid overhang and bubbles (text in a circle, MTEXT,
a block with an attribute, one end or both), dimension chains (south, north, offsets),
room names, the title, leaders, hatch. Variants: whole drawing moved to another origin,
DIMLFAC 100 (ezdxf's EZDXF style as shipped), every dimension sharing one empty block, the
stair's treads half a tread off, and a file with a stray line (unparseable).

Part drawing (mm): a 120 x 80 plate, four holes Ø10 and a bore Ø30, front view with centre
lines, a section with the bore and hatching; drafters differ in centre-line overhang,
dimension placement, hatch pattern, a balloon.
"""

import math
import os
import sys

import ezdxf
from ezdxf.enums import TextEntityAlignment
from ezdxf.math import Matrix44

WALLS = [
    # exterior, outer face (door gap x 2000-2900 south, window gap x 8000-9800 north)
    ((0, 0), (2000, 0)),
    ((2900, 0), (12000, 0)),
    ((12000, 0), (12000, 8000)),
    ((12000, 8000), (9800, 8000)),
    ((8000, 8000), (0, 8000)),
    ((0, 8000), (0, 0)),
    # exterior, inner face (broken where the interior wall meets it)
    ((200, 200), (2000, 200)),
    ((2900, 200), (5940, 200)),
    ((6060, 200), (11800, 200)),
    ((11800, 200), (11800, 7800)),
    ((11800, 7800), (9800, 7800)),
    ((8000, 7800), (6060, 7800)),
    ((5940, 7800), (200, 7800)),
    ((200, 7800), (200, 200)),
    # jambs of the door and the window
    ((2000, 0), (2000, 200)),
    ((2900, 0), (2900, 200)),
    ((8000, 7800), (8000, 8000)),
    ((9800, 7800), (9800, 8000)),
    # interior wall with its door opening y 3000-3900
    ((5940, 200), (5940, 3000)),
    ((5940, 3900), (5940, 7800)),
    ((6060, 200), (6060, 3000)),
    ((6060, 3900), (6060, 7800)),
    ((5940, 3000), (6060, 3000)),
    ((5940, 3900), (6060, 3900)),
]
# Chains for drafters who draw walls as polylines (same lines, other segmentation).
WALL_CHAINS = [
    [(2900, 0), (12000, 0), (12000, 8000), (9800, 8000)],
    [(8000, 8000), (0, 8000), (0, 0), (2000, 0)],
    [(6060, 200), (11800, 200), (11800, 7800), (9800, 7800)],
    [(5940, 7800), (200, 7800), (200, 200), (2000, 200)],
]
GRID_X = {"A": 100, "B": 6000, "C": 11900}
GRID_Y = {"1": 100, "2": 4000, "3": 7900}
COLUMN = 300
STAIR = (8800, 2500, 11200, 3700)
TREAD = 240
STAIR_LENGTH = 2 * (2400 + 1200) + 9 * 1200
DOOR_LENGTH = 2 * 900 + 2 * (math.pi / 2) * 900
WINDOW_LENGTH = 2 * 1800
WALL_LENGTH = sum(math.dist(a, b) for a, b in WALLS)
COLUMN_LENGTH = 9 * 4 * COLUMN
PLAN_LENGTH = WALL_LENGTH + DOOR_LENGTH + WINDOW_LENGTH + STAIR_LENGTH + COLUMN_LENGTH

LAYERS = ("A-WALL", "A-DOOR", "A-GLAZ", "A-STAIR", "A-COLS", "A-GRID", "A-DIMS", "A-TEXT")

DRAFTERS = {
    # overhang: grid line beyond the building; ends: bubbles at "both" or "start" ends;
    # label: how the bubble text is written; dims: chain side and offset; rooms: shift of
    # the room names; title: where the title goes.
    "a": dict(
        overhang=1500,
        ends="both",
        label="text",
        dims=("south", 800),
        rooms=(0, 0),
        title=(0, -3000),
        walls="lines",
        extra=False,
    ),
    "b": dict(
        overhang=2500,
        ends="start",
        label="mtext",
        dims=("south", 1300),
        rooms=(250, -180),
        title=(0, 10400),
        walls="chains",
        extra=False,
    ),
    "c": dict(
        overhang=1000,
        ends="both",
        label="block",
        dims=("north", 700),
        rooms=(-400, 300),
        title=(6000, -2400),
        walls="lines",
        extra=True,
    ),
    # JIS A 0150 makes the circle round a grid symbol conditional: plain labels past the
    # line's ends.
    "d": dict(
        overhang=1800,
        ends="both",
        label="plain",
        dims=("south", 1000),
        rooms=(150, 150),
        title=(0, -3400),
        walls="chains",
        extra=False,
    ),
}


def _new(dimlfac_default: bool):
    doc = ezdxf.new("R2010", setup=dimlfac_default)
    doc.header["$INSUNITS"] = 4
    for name in LAYERS:
        doc.layers.add(name)
    if not dimlfac_default:
        doc.dimstyles.new(
            "CB",
            dxfattribs={
                "dimlfac": 1.0,
                "dimtxt": 250,
                "dimasz": 150,
                "dimexo": 100,
                "dimexe": 100,
                "dimdec": 0,
                "dimgap": 60,
            },
        )
    return doc


def _bubble_block(doc):
    block = doc.blocks.new("GRIDBUBBLE")
    block.add_circle((0, 0), 400)
    block.add_attdef("LABEL", (0, 0), dxfattribs={"height": 350}).set_placement(
        (0, 0), align=TextEntityAlignment.MIDDLE_CENTER
    )


def _label(msp, how, text, centre):
    layer = {"layer": "A-GRID"}
    if how == "text":
        msp.add_text(text, dxfattribs=dict(layer, height=350)).set_placement(
            centre, align=TextEntityAlignment.MIDDLE_CENTER
        )
    elif how == "mtext":
        msp.add_mtext(text, dxfattribs=dict(layer, char_height=350)).set_location(
            centre, attachment_point=5
        )


def _grid(doc, msp, drafter):
    overhang, ends, how = drafter["overhang"], drafter["ends"], drafter["label"]
    axes = [(name, (x, -overhang), (x, 8000 + overhang)) for name, x in GRID_X.items()]
    axes += [(name, (-overhang, y), (12000 + overhang, y)) for name, y in GRID_Y.items()]
    for name, start, end in axes:
        msp.add_line(start, end, dxfattribs={"layer": "A-GRID"})
        tips = [(start, end)] + ([(end, start)] if ends == "both" else [])
        for tip, other in tips:
            dx, dy = tip[0] - other[0], tip[1] - other[1]
            norm = math.hypot(dx, dy)
            centre = (tip[0] + 400 * dx / norm, tip[1] + 400 * dy / norm)
            if how == "block":
                ref = msp.add_blockref("GRIDBUBBLE", centre, dxfattribs={"layer": "A-GRID"})
                ref.add_auto_attribs({"LABEL": name})
            elif how == "plain":
                _label(msp, "text", name, centre)
            else:
                msp.add_circle(centre, 400, dxfattribs={"layer": "A-GRID"})
                _label(msp, how, name, centre)


def _part(msp, drafter, stair_shift=0.0):
    if drafter["walls"] == "chains":
        chained = {seg for chain in WALL_CHAINS for seg in zip(chain[:-1], chain[1:], strict=False)}
        for chain in WALL_CHAINS:
            msp.add_lwpolyline(chain, dxfattribs={"layer": "A-WALL"})
        for a, b in WALLS:
            if (a, b) not in chained:
                msp.add_line(a, b, dxfattribs={"layer": "A-WALL"})
    else:
        for a, b in WALLS:
            msp.add_line(a, b, dxfattribs={"layer": "A-WALL"})
    door = {"layer": "A-DOOR"}
    msp.add_line((2000, 200), (2000, 1100), dxfattribs=door)
    msp.add_arc((2000, 200), 900, 0, 90, dxfattribs=door)
    msp.add_line((6060, 3000), (6960, 3000), dxfattribs=door)
    msp.add_arc((6060, 3000), 900, 0, 90, dxfattribs=door)
    for y in (7880, 7920):
        msp.add_line((8000, y), (9800, y), dxfattribs={"layer": "A-GLAZ"})
    x0, y0, x1, y1 = STAIR
    stair = {"layer": "A-STAIR"}
    msp.add_lwpolyline([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], close=True, dxfattribs=stair)
    for k in range(1, 10):
        x = x0 + k * TREAD + stair_shift
        msp.add_line((x, y0), (x, y1), dxfattribs=stair)
    for gx in GRID_X.values():
        for gy in GRID_Y.values():
            h = COLUMN / 2
            square = [(gx - h, gy - h), (gx + h, gy - h), (gx + h, gy + h), (gx - h, gy + h)]
            msp.add_lwpolyline(square, close=True, dxfattribs={"layer": "A-COLS"})
            hatch = msp.add_hatch(color=8, dxfattribs={"layer": "A-COLS"})
            hatch.paths.add_polyline_path(square, is_closed=True)


def _dimensions(msp, drafter, dimstyle):
    side, offset = drafter["dims"]
    attribs = {"layer": "A-DIMS"}
    override = None if dimstyle == "EZDXF" else {"dimlfac": 1.0}
    found = []
    if side == "south":
        base_y, points = -offset, (0, 2000, 2900, 6000, 12000)
        line_y = 0
    else:
        base_y, points = 8000 + offset, (0, 6000, 8000, 9800, 12000)
        line_y = 8000
    for a, b in zip(points[:-1], points[1:], strict=False):
        found.append(
            msp.add_linear_dim(
                base=((a + b) / 2, base_y),
                p1=(a, line_y),
                p2=(b, line_y),
                dimstyle=dimstyle,
                override=override,
                dxfattribs=attribs,
            )
        )
    overall_y = base_y - 600 if side == "south" else base_y + 600
    found.append(
        msp.add_linear_dim(
            base=(6000, overall_y),
            p1=(0, line_y),
            p2=(12000, line_y),
            dimstyle=dimstyle,
            override=override,
            dxfattribs=attribs,
        )
    )
    for a, b in ((0, 4000), (4000, 8000)):
        found.append(
            msp.add_linear_dim(
                base=(-offset, (a + b) / 2),
                p1=(0, a),
                p2=(0, b),
                angle=90,
                dimstyle=dimstyle,
                override=override,
                dxfattribs=attribs,
            )
        )
    for dim in found:
        dim.render()
    return found


def _texts(msp, drafter):
    dx, dy = drafter["rooms"]
    text = {"layer": "A-TEXT", "height": 300}
    for name, (x, y) in (
        ("LIVING", (3000, 4500)),
        ("BEDROOM", (9000, 5500)),
        ("HALL", (9000, 1200)),
    ):
        msp.add_text(name, dxfattribs=text).set_placement(
            (x + dx, y + dy), align=TextEntityAlignment.MIDDLE_CENTER
        )
    msp.add_text("PLAN T-01  1:100", dxfattribs=dict(text, height=400)).set_placement(
        drafter["title"]
    )


def _extra(doc, msp):
    """Drafter c's additions: a leader with a note, a north sign (a bubble with N)."""
    msp.add_leader([(3000, 7000), (3600, 7600), (4200, 7600)], dxfattribs={"layer": "A-TEXT"})
    msp.add_text("RC WALL", dxfattribs={"layer": "A-TEXT", "height": 250}).set_placement(
        (4250, 7650)
    )
    msp.add_circle((14500, 9500), 500, dxfattribs={"layer": "A-TEXT"})
    msp.add_text("N", dxfattribs={"layer": "A-TEXT", "height": 400}).set_placement(
        (14500, 9500), align=TextEntityAlignment.MIDDLE_CENTER
    )


def plan(
    path,
    drafter_name,
    *,
    dimstyle="CB",
    empty_block=False,
    stair_shift=0.0,
    origin=(0.0, 0.0),
    tiles=1,
):
    """One drafter's drawing of the plan; ``tiles`` > 1 repeats it on a tiles x tiles
    grid 30 m apart (a dense drawing for the bench). Returns the entity count."""
    drafter = DRAFTERS[drafter_name]
    doc = _new(dimstyle == "EZDXF")
    msp = doc.modelspace()
    if drafter["label"] == "block":
        _bubble_block(doc)
    for tile in range(tiles * tiles):
        before = len(msp)
        _part(msp, drafter, stair_shift)
        _grid(doc, msp, drafter)
        dims = _dimensions(msp, drafter, dimstyle)
        if empty_block:
            empty = doc.blocks.new_anonymous_block(type_char="D")
            for dim in dims:
                dim.dimension.dxf.geometry = empty.name
        _texts(msp, drafter)
        if drafter["extra"]:
            _extra(doc, msp)
        row, column = divmod(tile, tiles)
        shift = (origin[0] + 30000.0 * column, origin[1] + 30000.0 * row)
        if shift != (0.0, 0.0):
            matrix = Matrix44.translate(shift[0], shift[1], 0)
            for entity in list(msp)[before:]:
                entity.transform(matrix)
    doc.saveas(path)
    return len(msp)


# ---------------------------------------------------------------- the part drawing

HOLES = [(20, 20), (100, 20), (20, 60), (100, 60)]
BORE = (60, 40, 15)
SECTION_X = (160, 180)
PART_LENGTH = (
    2 * (120 + 80)
    + 4 * 10 * math.pi
    + 30 * math.pi  # front view
    + 2 * (2 * 20 + 25)
    + 2 * 20
    + 2 * 20  # section: two hatched bands, bore edges
)


def part(
    path,
    *,
    overhang=5.0,
    dims_offset=12.0,
    hatch=("ANSI31", 1.0, 0.0),
    balloon=False,
    origin=(0.0, 0.0),
):
    doc = _new(False)
    msp = doc.modelspace()
    for name in ("PART", "CENTRE", "HATCH", "DIMS", "NOTES"):
        doc.layers.add(name)
    outline = {"layer": "PART"}
    msp.add_lwpolyline([(0, 0), (120, 0), (120, 80), (0, 80)], close=True, dxfattribs=outline)
    for x, y in HOLES:
        msp.add_circle((x, y), 5, dxfattribs=outline)
    msp.add_circle(BORE[:2], BORE[2], dxfattribs=outline)
    centre = {"layer": "CENTRE"}
    for x, y in HOLES:  # centre marks crossing each hole, free ends
        msp.add_line((x - 5 - overhang / 2, y), (x + 5 + overhang / 2, y), dxfattribs=centre)
        msp.add_line((x, y - 5 - overhang / 2), (x, y + 5 + overhang / 2), dxfattribs=centre)
    msp.add_line((-overhang, 40), (120 + overhang, 40), dxfattribs=centre)
    msp.add_line((60, -overhang), (60, 80 + overhang), dxfattribs=centre)
    x0, x1 = SECTION_X
    for low, high in ((0, 25), (55, 80)):
        band = [(x0, low), (x1, low), (x1, high), (x0, high)]
        msp.add_lwpolyline(band, close=True, dxfattribs=outline)
        name, scale, angle = hatch
        h = msp.add_hatch(dxfattribs={"layer": "HATCH"})
        h.set_pattern_fill(name, scale=scale, angle=angle)
        h.paths.add_polyline_path(band, is_closed=True)
    dims = {"layer": "DIMS"}
    style = {"dimlfac": 1.0, "dimtxt": 3.5, "dimasz": 2.5, "dimexo": 1, "dimexe": 1.5}
    for dim in (
        msp.add_linear_dim(
            base=(60, -dims_offset), p1=(0, 0), p2=(120, 0), override=style, dxfattribs=dims
        ),
        msp.add_linear_dim(
            base=(-dims_offset, 40),
            p1=(0, 0),
            p2=(0, 80),
            angle=90,
            override=style,
            dxfattribs=dims,
        ),
        msp.add_diameter_dim(BORE[:2], radius=BORE[2], angle=30, override=style, dxfattribs=dims),
        msp.add_linear_dim(
            base=(170, 80 + dims_offset), p1=(x0, 80), p2=(x1, 80), override=style, dxfattribs=dims
        ),
    ):
        dim.render()
    notes = {"layer": "NOTES", "height": 5}
    msp.add_text("PLATE P-7", dxfattribs=notes).set_placement((0, 100))
    msp.add_text("A-A", dxfattribs=notes).set_placement((165, -15))
    if balloon:
        msp.add_circle((140, 110), 5, dxfattribs={"layer": "NOTES"})
        msp.add_text("1", dxfattribs={"layer": "NOTES", "height": 5}).set_placement(
            (140, 110), align=TextEntityAlignment.MIDDLE_CENTER
        )
        msp.add_leader([(110, 70), (136, 107)], dxfattribs={"layer": "NOTES"})
    if origin != (0.0, 0.0):
        matrix = Matrix44.translate(origin[0], origin[1], 0)
        for entity in msp:
            entity.transform(matrix)
    doc.saveas(path)


def _stray_line(source, target):
    """seed 003: one stray '0' line among thousands kills the whole file."""
    with open(source, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    where = lines.index("ENTITIES") + 1
    lines.insert(where + 4, "0")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))


def main(out: str, only: list[str]) -> None:
    """Write every fixture, or those named in ``only`` (regenerating one file leaves the
    others' bytes alone)."""
    os.makedirs(out, exist_ok=True)
    made = {
        "plan_gold.dxf": lambda p: plan(p, "a"),
        "plan_b.dxf": lambda p: plan(p, "b"),
        "plan_c.dxf": lambda p: plan(p, "c"),
        "plan_d.dxf": lambda p: plan(p, "d"),
        "plan_a_moved.dxf": lambda p: plan(p, "a", origin=(30000.0, 15000.0)),
        "plan_b_x100.dxf": lambda p: plan(p, "b", dimstyle="EZDXF"),
        "plan_c_x100.dxf": lambda p: plan(p, "c", dimstyle="EZDXF"),
        "plan_b_empty_block.dxf": lambda p: plan(p, "b", empty_block=True),
        "plan_c_stair_off.dxf": lambda p: plan(p, "c", stair_shift=TREAD / 2),
        "part_gold.dxf": lambda p: part(p),
        "part_b.dxf": lambda p: part(
            p, overhang=9, dims_offset=18, hatch=("ANSI37", 0.5, 15), balloon=True
        ),
        "part_b_moved.dxf": lambda p: part(
            p,
            overhang=9,
            dims_offset=18,
            hatch=("ANSI37", 0.5, 15),
            balloon=True,
            origin=(-400.0, 250.0),
        ),
    }
    for name, write in made.items():
        if only and name not in only:
            continue
        write(os.path.join(out, name))
        print(f"{name:28} {os.path.getsize(os.path.join(out, name)):>8} B")
    if not only or "plan_unparseable.dxf" in only:
        gold = os.path.join(out, "plan_gold.dxf")
        _stray_line(gold, os.path.join(out, "plan_unparseable.dxf"))
    print(
        f"PLAN_LENGTH {PLAN_LENGTH:.3f}  STAIR_LENGTH {STAIR_LENGTH}  PART_LENGTH {PART_LENGTH:.3f}"
    )


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else os.path.join("tests", "data", "drafting"),
        sys.argv[2:],
    )
