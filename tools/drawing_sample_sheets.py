# SPDX-License-Identifier: LGPL-2.1-or-later
"""The sample sheets of the README and docs/drawing.md, drawn afresh from public parts.

    .venv/bin/python tools/drawing_sample_sheets.py [OUT_DIR]   (default docs/images)

NIST FTC-08 (270 faces, tests/data/nist) as `cadbench drawing` draws it, and the bundled
case nist_ftc_06 with its targets, whose counterbore depths stand in sections A-A and B-B.
Run it when the drawing chain changes what a sheet shows.
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
DPI = 200


def main(out_dir: str) -> None:
    from cadbench_wb.case_model import cases
    from cadbench_wb.runtime.freecad_env import import_freecad

    import_freecad()
    from cadbench_wb.app.drawing import svg as drawing_svg
    from cadbench_wb.app.drawing import techdraw as drawing
    from cadbench_wb.app.model import loading

    nist = os.path.join(ROOT, "tests", "data", "nist", "nist_ftc_08_asme1_rc.stp")
    case = cases.load_case(os.path.join(ROOT, "cases", "nist_ftc_06"))
    sheets = (
        ("drawing_nist_ftc_08.png", nist, None, "nist_ftc_08_asme1_rc.stp"),
        ("drawing_nist_ftc_06_sections.png", case.reference_path, case, "nist_ftc_06"),
    )
    os.makedirs(out_dir, exist_ok=True)
    for name, path, with_case, title in sheets:
        shape = loading.load_model(path, "reference").shape
        with tempfile.TemporaryDirectory(prefix="cadbench-sheet-") as folder:
            made = drawing.make_drawing(shape, folder, case=with_case, title=title)
            target = os.path.join(out_dir, name)
            drawing_svg.write_png(os.path.join(folder, made["files"]["dxf"]), target, dpi=DPI)
        print(
            f"{target}: {made['sheet']} {made['scale']}, views {', '.join(sorted(made['views']))}"
        )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "images"))
