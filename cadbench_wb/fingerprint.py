# SPDX-License-Identifier: LGPL-2.1-or-later
"""Content-stable hashes that seal the scoring standard (seed 000's metric fingerprint).

The hash covers the source of every module that computes a figure plus the parameters in
standard.py. Line endings are normalised and files are taken in sorted order of their path
inside the package, so the stamp is the same on every checkout and machine, and changes
with any change of the standard.
"""

import hashlib
import json
import os

from cadbench_wb import standard

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# Modules that make up the metric chain. Folders are taken whole.
METRIC_SOURCES = (
    "standard.py",
    "formats.py",
    "fcstd_data.py",
    "fcstd_rule.py",
    "metrics",
    "app/loading.py",
    "app/fcstd_shapes.py",
    "app/alignment.py",
    "app/meshing.py",
    "app/shape_fidelity.py",
    "app/scoring.py",
    "app/spectrum.py",
    "app/dimension_stage.py",
    "app/dimension_location.py",
    "app/measured_geometry.py",
    "app/features.py",
    "app/feature_regions.py",
    "app/brep_graph.py",
    "app/feature_stage.py",
    "app/threads.py",
    "app/thread_flanks.py",
    "app/thread_stage.py",
    # Thread tables: a cosmetic 'M8' takes its pitch from them.
    "../resources/data/iso_metric_threads.csv",
    "../resources/data/freecad_hole_threads.csv",
    "cases.py",
    "dimensions.py",
)
# The drawing chain (generation, export, read-back) has its own stamp.
DRAWING_SOURCES = (
    "drawing",
    "app/drawing.py",
    "app/drawing_pose.py",
    "app/drawing_plan.py",
    "app/drawing_layout.py",
    "app/drawing_sheets.py",
    "app/drawing_checks.py",
    "app/drawing_circles.py",
    "app/drawing_section.py",
    "app/drawing_svg.py",
    "app/drawing_readback.py",
    "app/drawing_stage.py",
    "drafting",
    "../resources/templates/A3_Landscape_ISO7200TD.svg",
)


def _files(sources) -> list[str]:
    found = []
    for source in sources:
        path = os.path.join(PACKAGE_DIR, source)
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                found += [os.path.join(root, f) for f in files if f.endswith(".py")]
        elif os.path.isfile(path):
            found.append(path)
    return sorted(set(found), key=lambda p: os.path.relpath(p, PACKAGE_DIR).replace(os.sep, "/"))


def _digest(sources, parameters: dict) -> str:
    hasher = hashlib.sha256()
    for path in _files(sources):
        rel = os.path.relpath(path, PACKAGE_DIR).replace(os.sep, "/")
        with open(path, "rb") as handle:
            content = handle.read().replace(b"\r\n", b"\n")
        hasher.update(rel.encode() + b"\0" + hashlib.sha256(content).digest())
    hasher.update(json.dumps(parameters, sort_keys=True).encode())
    return hasher.hexdigest()[:16]


def metric_fingerprint(options: dict | None = None) -> str:
    """16 hex digits over the metric code, the standard and the options that change figures."""
    return _digest(METRIC_SOURCES, {"standard": standard.as_dict(), "options": options or {}})


# The drawing chain's own options, with their defaults: other options (--only, --spectrum)
# do not change a drawing, so they must not change its stamp either.
DRAWING_OPTIONS = {"projection": "first"}


def drawing_fingerprint(options: dict | None = None) -> str:
    """16 hex digits over the drawing chain's code and its own options (defaults filled in),
    so `cadbench info`, the drawing stage and a campaign all print the same stamp."""
    chosen = {k: (options or {}).get(k, v) for k, v in DRAWING_OPTIONS.items()}
    return _digest(DRAWING_SOURCES, {"options": chosen, "standard": standard.DRAWING})
