# SPDX-License-Identifier: LGPL-2.1-or-later
"""cadbench info: versions, FreeCAD location and the fingerprints in force."""

import json

from cadbench_wb import __version__
from cadbench_wb.results import fingerprint
from cadbench_wb.runtime import freecad_env

HELP = "show versions, where FreeCAD was found, and the metric fingerprint"


def add_arguments(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print as JSON")


def run(args) -> int:

    freecad = freecad_env.import_freecad()
    info = {
        "cadbench": __version__,
        "freecad": freecad_env.freecad_version(),
        "freecadLib": freecad_env.FreeCAD_lib(freecad),
        "metricFingerprint": fingerprint.metric_fingerprint(),
        "drawingFingerprint": fingerprint.drawing_fingerprint(),
    }
    if args.json:
        print(json.dumps(info, indent=2, sort_keys=True))
    else:
        for key, value in info.items():
            print(f"{key:20} {value}")
    return 0
