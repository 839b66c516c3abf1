# SPDX-License-Identifier: LGPL-2.1-or-later
"""Third-party FCStd documents (FreeCAD 0.14 to 1.0): cadbench scores what FreeCAD shows.

The truth in tests/data/fcstd/truth.json was taken by FreeCAD itself (tools/fcstd_truth.py:
the GUI of FreeCAD 0.20.2 and of 1.0.0 opening each document in a throw-away process and
reporting the solids its 3D view displays). cadbench reads the same files as data.
"""

import json
import os
import re
import zipfile

import pytest

from cadbench_wb.app.model import fcstd_shapes
from cadbench_wb.app.model.loading import load_model
from cadbench_wb.errors import DeliveryFailure

CORPUS = os.path.join(os.path.dirname(__file__), "..", "data", "fcstd")
with open(os.path.join(CORPUS, "truth.json")) as _handle:
    MANIFEST = json.load(_handle)


def judge_of(relpath: str) -> str:
    """The FreeCAD that reads a document without a downgrade: 1.0 for documents written
    by 0.21 and later (0.20 drops their newer object types), 0.20 for older ones."""
    with zipfile.ZipFile(os.path.join(CORPUS, relpath)) as archive:
        head = archive.read("Document.xml")[:600].decode("utf-8", "replace")
    found = re.search(r'ProgramVersion="(\d+)\.(\d+)', head)
    major, minor = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    return "freecad_1_0" if (major, minor) >= (0, 21) else "freecad_0_20"


def truth_of(relpath: str) -> dict:
    """The judging FreeCAD's truth; the other one's where that FreeCAD could not open it."""
    entry = MANIFEST[relpath]
    judge = judge_of(relpath)
    other = "freecad_0_20" if judge == "freecad_1_0" else "freecad_1_0"
    return entry[judge] if "solids" in entry.get(judge, {}) else entry[other]


def stores_any_shape(relpath: str) -> bool:
    with zipfile.ZipFile(os.path.join(CORPUS, relpath)) as archive:
        return any(
            i.file_size > 0 and i.filename.endswith((".brp", ".bin")) for i in archive.infolist()
        )


def reading_of(relpath: str):
    """(solids, exact volume summed over the scored solids) or the delivery failure.

    The solids cadbench selects and places, before the multi-solid fusion that scoring adds
    (slow on 49-solid assemblies, and not what is checked here)."""
    path = os.path.join(CORPUS, relpath)
    try:
        shapes, _, _, scored = fcstd_shapes.document_shapes(path)
        solids = [s for shape in shapes for s in shape.Solids]
        if not solids or not all(s.isValid() for s in solids):
            load_model(path)  # the delivery failure that scoring would report
    except DeliveryFailure as failure:
        return failure
    return len(solids), sum(o["volume"] for o in scored)


def test_corpus_spans_freecad_versions():
    versions = {judge_of(p) for p in MANIFEST}
    assert versions == {"freecad_0_20", "freecad_1_0"}
    assert len(MANIFEST) >= 30


def test_corpus_reads_the_solids_freecad_displays(fc):
    """Every document but the named ambiguous ones: FreeCAD's solid count, and the exact
    volume of those solids to 1e-6 relative (boolean-free: summed solid by solid)."""
    wrong = []
    for relpath, entry in sorted(MANIFEST.items()):
        if "ambiguous" in entry:
            continue
        truth = truth_of(relpath)
        found = reading_of(relpath)
        if truth["solids"] == 0:
            expected = "empty_model" if not stores_any_shape(relpath) else "no_solid"
            if not isinstance(found, DeliveryFailure) or found.reason != expected:
                wrong.append((relpath, "expected " + expected, found))
            continue
        if isinstance(found, DeliveryFailure):
            wrong.append((relpath, truth["solids"], found.one_line()))
            continue
        solids, volume = found
        if solids != truth["solids"] or volume != pytest.approx(truth["volume_sum"], rel=1e-6):
            wrong.append((relpath, (truth["solids"], truth["volume_sum"]), found))
    assert wrong == []


def test_ambiguous_documents_still_read_without_a_traceback(fc):
    for relpath, entry in sorted(MANIFEST.items()):
        if "ambiguous" in entry:
            found = reading_of(relpath)
            assert isinstance(found, (tuple, DeliveryFailure))
            assert entry["ambiguous"]  # each one says why it is ambiguous
