# SPDX-License-Identifier: LGPL-2.1-or-later
"""Drawings in the forms QCAD's example drawings take, written here with ezdxf (no tests).

QCAD's examples (example01.dxf, flange.dxf, entities.dxf) are GPL-3.0 and stay out of the
repository (tests/data/realworld/PROVENANCE.md). These stand in for them: the same
dimension families and text forms, every expected value fixed by the construction below.
"""

import ezdxf

# A turned part's half-section, in mm: what each dimension prints (value, text form).
PART_PRINTS = {
    "length": (80.0, "<>"),
    "diameter": (40.0, "%%c<>"),
    "reference": (20.0, "(<>)"),
    "fit": (30.0, "<> h11"),
    "chamfer": (25.0, "<>"),
    # The angle between the chamfer and the Ø30 step's top edge (180° - 45°).
    "angle": (135.0, "<>"),
}


def part_drawing(path) -> str:
    """A stepped shaft's outline, 80 long, Ø40 and Ø30 steps, a 45° chamfer 25 long,
    dimensioned in model space with rendered blocks (what QCAD's example01 holds)."""
    doc = ezdxf.new("R2010", setup=True)
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    # Outline: x from 0 to 80; radius 20 from x=0 to x=50, radius 15 from x=50 to x=80,
    # and a 45° chamfer from (62.3223, 15) to (80, -2.6777): aligned length 25.
    chamfer = 25 / 2**0.5
    start = (80 - chamfer, 15.0)
    end = (80.0, 15.0 - chamfer)
    outline = [(0, -20), (50, -20), (50, -15), (80, -15), end, start, (50, 15), (50, 20), (0, 20)]
    for a, b in zip(outline, outline[1:] + outline[:1], strict=True):
        msp.add_line(a, b)
    msp.add_line((50, -15), (50, 15))
    msp.add_line((0, 0), (20, 0))  # the reference length 20 along the axis
    opts = {"dimstyle": "ISO-25", "override": {"dimlfac": 1.0}}
    dims = [
        msp.add_linear_dim(base=(40, -30), p1=(0, -20), p2=(80, -15), text="<>", **opts),
        msp.add_linear_dim(base=(-10, 0), p1=(0, -20), p2=(0, 20), angle=90, text="%%c<>", **opts),
        msp.add_linear_dim(base=(10, 5), p1=(0, 0), p2=(20, 0), text="(<>)", **opts),
        msp.add_linear_dim(base=(90, 0), p1=(80, -15), p2=start, angle=90, text="<> h11", **opts),
        msp.add_aligned_dim(p1=start, p2=end, distance=5, text="<>", **opts),
        msp.add_angular_dim_2l(
            base=(74, 14),
            line1=(start, end),
            line2=(start, (50, 15)),
            text="<>",
            **opts,
        ),
    ]
    for dim in dims:
        dim.render()
    doc.saveas(path)
    return str(path)


# The flange's six dimensions: family and printed text, from its definition points.
FLANGE_PRINTS = [
    ("diameter", "Ø28"),
    ("linear", "2"),
    ("linear", "42"),
    ("linear", "6"),
    ("linear", "60"),
    ("radius", "R5"),
]


def flange_drawing(path) -> str:
    """A flange plate 60 x 42 x 6 thick (side view) with a Ø28 bore, an R5 corner and a
    2 mm step, whose dimensions store no measurement (group 42 = -1) and no block, as
    QCAD writes them: a reader must measure the definition points itself. One line of
    zero length is drawn too (QCAD's flange has one)."""
    doc = ezdxf.new("R2013", setup=True)
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    msp.add_lwpolyline([(0, 0), (60, 0), (60, 42), (0, 42)], close=True)
    msp.add_circle((30, 21), 14)
    msp.add_arc((5, 5), 5, 180, 270)
    msp.add_lwpolyline([(80, 0), (86, 0), (86, 42), (80, 42)], close=True)  # side view
    msp.add_line((86, 10), (88, 10))  # the 2 mm step
    msp.add_line((40, 40), (40, 40))  # zero length
    opts = {"dimstyle": "ISO-25", "override": {"dimlfac": 1.0, "dimdec": 0}}
    dims = [
        msp.add_linear_dim(base=(30, -10), p1=(0, 0), p2=(60, 0), **opts),
        msp.add_linear_dim(base=(-10, 21), p1=(0, 0), p2=(0, 42), angle=90, **opts),
        msp.add_linear_dim(base=(83, -10), p1=(80, 0), p2=(86, 0), **opts),
        msp.add_linear_dim(base=(87, 14), p1=(86, 10), p2=(88, 10), **opts),
        msp.add_diameter_dim((30, 21), radius=14, angle=30, **opts),
        msp.add_radius_dim((5, 5), radius=5, angle=225, **opts),
    ]
    for dim in dims:
        dim.render()
    for entity in msp.query("DIMENSION"):
        entity.dxf.discard("geometry")
        entity.dxf.actual_measurement = -1.0
    doc.saveas(path)
    return str(path)


def sheet_in_blocks(path, *, copies: int = 2) -> str:
    """A parser test sheet like QCAD's entities.dxf: no units declared, and every dimension
    inside a block that INSERT entities place (``copies`` times). Per block: a 40 x 20
    rectangle dimensioned 40 and 20, and one dimension whose override prints "text"."""
    doc = ezdxf.new("R2010", setup=True)
    doc.header["$INSUNITS"] = 0
    block = doc.blocks.new("SHEET")
    block.add_lwpolyline([(0, 0), (40, 0), (40, 20), (0, 20)], close=True)
    opts = {"dimstyle": "ISO-25", "override": {"dimlfac": 1.0}}
    dims = [
        block.add_linear_dim(base=(20, -5), p1=(0, 0), p2=(40, 0), **opts),
        block.add_linear_dim(base=(-5, 10), p1=(0, 0), p2=(0, 20), angle=90, **opts),
        block.add_linear_dim(base=(20, 25), p1=(0, 20), p2=(40, 20), text="text", **opts),
    ]
    for dim in dims:
        dim.render()
    msp = doc.modelspace()
    for i in range(copies):
        msp.add_blockref("SHEET", (i * 100, 0))
    doc.saveas(path)
    return str(path)
