# SPDX-License-Identifier: LGPL-2.1-or-later
"""The drawing page as SVG, without FreeCAD's GUI.

FreeCAD 0.20 has no headless page SVG writer (TechDraw.writeSVGPage does not exist): the
page is assembled from the filled template (DrawSVGTemplate.PageResult), each view as
TechDraw.viewPartAsSvg draws it, and the dimensions exactly as the DXF export holds them
(their blocks' lines, arrows and text), so the SVG shows what the DXF prints.
"""

import html
import math

from cadbench_wb.drafting.exported_dxf import dxf_document, repaired_text


def write_svg(path: str, template, items: dict, dxf_path: str) -> None:
    """The page as SVG: the filled template, each view as TechDraw.viewPartAsSvg draws it,
    and the dimensions exactly as the DXF holds them (their blocks' lines, arrows, text)."""
    import TechDraw  # noqa: PLC0415 - FreeCAD-only

    with open(template.PageResult, encoding="utf-8") as handle:
        page = handle.read()
    height = float(template.Height)
    parts = []
    for name, item in items.items():
        x, y = _absolute(item)
        parts.append(
            f'<g id="view-{name}" transform="translate({x:.4f},{height - y:.4f})">'
            f"{TechDraw.viewPartAsSvg(item)}</g>"
        )
    parts.append(_dimensions_svg(dxf_path, height))
    closing = page.rfind("</svg>")
    page = page[:closing] + "\n".join(parts) + "\n" + page[closing:]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(page)


def _absolute(item) -> tuple:
    x, y = float(item.X), float(item.Y)
    for parent in item.InList:
        if parent.TypeId == "TechDraw::DrawProjGroup":
            x, y = x + float(parent.X), y + float(parent.Y)
    return x, y


def _dimensions_svg(dxf_path: str, height: float) -> str:
    from cadbench_wb.drafting import text as drafting_text  # noqa: PLC0415 - heavy: loaded on first use

    doc = dxf_document(dxf_path)
    out = ['<g id="dimensions" stroke="#000000" stroke-width="0.25" fill="none">']
    for dimension in doc.modelspace().query("DIMENSION"):
        block = doc.blocks.get(dimension.dxf.geometry)
        if block is None:
            continue
        for entity in block:
            kind = entity.dxftype()
            if kind == "LINE":
                s, e = entity.dxf.start, entity.dxf.end
                out.append(
                    f'<line x1="{s.x:.4f}" y1="{height - s.y:.4f}" '
                    f'x2="{e.x:.4f}" y2="{height - e.y:.4f}"/>'
                )
            elif kind == "SOLID":
                points = [entity.dxf.get(f"vtx{i}") for i in range(4)]
                coords = " ".join(f"{p.x:.4f},{height - p.y:.4f}" for p in points if p)
                out.append(f'<polygon points="{coords}" fill="#000000" stroke="none"/>')
            elif kind == "TEXT":
                at = entity.dxf.align_point if entity.dxf.get("halign", 0) else entity.dxf.insert
                shown = html.escape(drafting_text.text_shown(repaired_text(entity.dxf.text)))
                out.append(
                    f'<text x="{at.x:.4f}" y="{height - at.y:.4f}" '
                    f'font-size="{entity.dxf.height:.3f}" font-family="osifont, sans-serif" '
                    f'text-anchor="middle" fill="#000000" stroke="none">{shown}</text>'
                )
            elif kind == "ARC":
                out.append(_arc_svg(entity, height))
    out.append("</g>")
    return "\n".join(out)


def _arc_svg(arc, height: float) -> str:
    c, r = arc.dxf.center, arc.dxf.radius
    a0, a1 = math.radians(arc.dxf.start_angle), math.radians(arc.dxf.end_angle)
    sweep = (a1 - a0) % (2 * math.pi)
    x0, y0 = c.x + r * math.cos(a0), c.y + r * math.sin(a0)
    x1, y1 = c.x + r * math.cos(a1), c.y + r * math.sin(a1)
    large = 1 if sweep > math.pi else 0
    return (
        f'<path d="M {x0:.4f} {height - y0:.4f} A {r:.4f} {r:.4f} 0 {large} 0 '
        f'{x1:.4f} {height - y1:.4f}"/>'
    )


def write_png(dxf_path: str, png_path: str, dpi: int = 100) -> None:
    """The DXF as a PNG, black on white, to look at (ezdxf's drawing add-on with its
    matplotlib back end: what the read-back reads, not the assembled SVG)."""
    import matplotlib  # noqa: PLC0415 - heavy: loaded on first use

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - heavy: loaded on first use
    from ezdxf.addons.drawing import Frontend, RenderContext  # noqa: PLC0415 - heavy: loaded on first use
    from ezdxf.addons.drawing.config import (  # noqa: PLC0415 - heavy: loaded on first use
        BackgroundPolicy,
        ColorPolicy,
        Configuration,
    )
    from ezdxf.addons.drawing.matplotlib import MatplotlibBackend  # noqa: PLC0415 - heavy: loaded on first use

    doc = dxf_document(dxf_path)
    # TechDraw's UTF-8 read as cp1252 ('âŒ€10'): shown repaired, as the read-back reads it
    # (repairing is idempotent, so the shared document stays right for the read-back).
    for block in doc.blocks:
        for text in block.query("TEXT"):
            text.dxf.text = repaired_text(text.dxf.text)
    config = Configuration(background_policy=BackgroundPolicy.WHITE, color_policy=ColorPolicy.BLACK)
    figure = plt.figure()
    axes = figure.add_axes([0, 0, 1, 1])
    Frontend(RenderContext(doc), MatplotlibBackend(axes), config=config).draw_layout(
        doc.modelspace(), finalize=True, filter_func=_drawable
    )
    figure.savefig(png_path, dpi=dpi)
    plt.close(figure)


def _drawable(entity) -> bool:
    """TechDraw writes a spline whose knots are all equal for a degenerate curve: ezdxf's
    renderer divides by the knot range; it has no extent to draw anyway."""
    if entity.dxftype() != "SPLINE":
        return True
    knots = list(entity.knots)
    return not knots or max(knots) > min(knots)
