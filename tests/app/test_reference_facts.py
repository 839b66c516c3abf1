# SPDX-License-Identifier: LGPL-2.1-or-later
"""What a scoring keeps of the reference alone (app/model/reference_facts.py, issue 11: "a
threaded pair under 10 s") gives the figures measuring it again gives, on a third-party
threaded nut: the kept volume is OpenCASCADE's exact volume of the file, and a damaged
entry, a file that fails its checks or another file never stands in for a measurement."""

import json
import os

import pytest
from conftest import ROOT

from cadbench_wb.app import scoring
from cadbench_wb.app.model import reference_facts
from cadbench_wb.errors import ReferenceInvalid

NUT = os.path.join(ROOT, "tests", "data", "threads", "bd_m8_nut_rh_chamfer.step")
ONLY = ("shape", "features", "threads")


def _figures(result: dict) -> dict:
    """The result without what may differ between two scorings of one pair: timings."""
    return {k: v for k, v in result.items() if k != "timing"}


def _score(cache: str) -> dict:
    return scoring.score_files(NUT, NUT, {"only": ONLY, "reference_cache": cache})


@pytest.fixture(scope="module")
def scored_twice(fc, tmp_path_factory):
    """The nut against itself scored with an empty cache, then again from what it kept."""
    cache = str(tmp_path_factory.mktemp("reference_facts"))
    first = _score(cache)
    entries = os.listdir(cache)
    second = _score(cache)
    return cache, entries, first, second


def test_a_kept_reference_scores_as_a_measured_one(scored_twice):
    _, entries, first, second = scored_twice
    assert len(entries) == 1  # one entry, for the one reference file
    assert _figures(second) == _figures(first)
    assert first["threadMatch"] == 1.0 and first["semanticMatch"] == 1.0


def test_the_kept_volume_is_the_files_exact_volume(scored_twice, part):
    """OpenCASCADE's exact volume of the solid read here, equal to the last bit (JSON keeps
    a float exactly), the same the scoring reports."""
    cache, entries, first, _ = scored_twice
    with open(os.path.join(cache, entries[0]), encoding="utf-8") as handle:
        kept = json.load(handle)
    assert kept == {reference_facts.VOLUMES: [part.read(NUT).Solids[0].Volume]}
    assert first["reference"]["volume"] == pytest.approx(kept[reference_facts.VOLUMES][0])


def test_the_kept_volume_is_the_one_reported(scored_twice, tmp_path):
    """The entry is what the next scoring uses instead of measuring: a volume written into
    it is the reference volume that scoring reports (which is why only a file that passed
    its checks, by its sha256, on this kernel and this code, is ever kept)."""
    cache, entries, first, _ = scored_twice
    with open(os.path.join(cache, entries[0]), encoding="utf-8") as handle:
        kept = json.load(handle)
    kept[reference_facts.VOLUMES] = [2 * kept[reference_facts.VOLUMES][0]]
    with open(tmp_path / entries[0], "w", encoding="utf-8") as handle:
        json.dump(kept, handle)
    again = _score(str(tmp_path))
    assert again["reference"]["volume"] == 2 * first["reference"]["volume"]


def test_a_damaged_entry_is_measured_again_and_rewritten(scored_twice, tmp_path):
    cache, entries, first, _ = scored_twice
    (tmp_path / entries[0]).write_text("{not json", encoding="utf-8")
    again = _score(str(tmp_path))
    assert _figures(again) == _figures(first)
    rewritten = reference_facts.known(str(tmp_path / entries[0]))
    assert rewritten == reference_facts.known(os.path.join(cache, entries[0]))


def test_another_file_or_kernel_or_code_has_another_entry():
    base = {
        "reference": {"sha256": "a" * 64},
        "freecadVersion": "0.20.2",
        "metricFingerprint": "0123456789abcdef",
    }
    options = {"reference_cache": "/cache"}
    entry = reference_facts.cache_file(base, options)
    for key, other in (("freecadVersion", "1.0.0"), ("metricFingerprint", "fedcba9876543210")):
        assert reference_facts.cache_file(dict(base, **{key: other}), options) != entry
    moved = dict(base, reference={"sha256": "b" * 64})
    assert reference_facts.cache_file(moved, options) != entry
    assert reference_facts.cache_file(dict(base, reference={"sha256": None}), options) is None


def test_a_reference_that_fails_its_checks_is_never_kept(fc, part, tmp_path):
    """A box's edges (no face, no solid) are refused as a reference, before and after:
    nothing kept. (An open shell is no longer refused: it is scored on what applies.)"""
    wires = part.Compound(part.makeBox(10, 10, 10).Edges)
    path = str(tmp_path / "box_edges.brep")
    wires.exportBrep(path)
    cache = tmp_path / "cache"
    for _ in range(2):
        with pytest.raises(ReferenceInvalid):
            scoring.score_files(path, NUT, {"only": ONLY, "reference_cache": str(cache)})
    assert not cache.exists() or not os.listdir(cache)
