# SPDX-License-Identifier: LGPL-2.1-or-later
"""The third-party files in tests/data/realworld: unchanged, listed, and accounted for."""

import hashlib
import os

from conftest import REALWORLD, ROOT

PAPERWORK = {"PROVENANCE.md", "SHA256SUMS", "NOTICE"}


def data_files() -> set[str]:
    found = set()
    for folder, _, names in os.walk(REALWORLD):
        for name in names:
            relative = os.path.relpath(os.path.join(folder, name), REALWORLD)
            if relative not in PAPERWORK and not relative.startswith("LICENSES"):
                found.add(relative)
    return found


def listed_sums() -> dict[str, str]:
    with open(os.path.join(REALWORLD, "SHA256SUMS"), encoding="utf-8") as handle:
        pairs = (line.split() for line in handle if line.strip())
        return {path.removeprefix("./"): digest for digest, path in pairs}


def test_realworld_lives_inside_the_repository():
    assert os.path.commonpath([REALWORLD, ROOT]) == ROOT


def test_every_file_is_listed_and_unchanged():
    sums = listed_sums()
    assert set(sums) == data_files()
    for relative, digest in sums.items():
        with open(os.path.join(REALWORLD, relative), "rb") as handle:
            assert hashlib.sha256(handle.read()).hexdigest() == digest, relative


def test_every_file_has_its_provenance_and_licence():
    with open(os.path.join(REALWORLD, "PROVENANCE.md"), encoding="utf-8") as handle:
        provenance = handle.read()
    with open(os.path.join(REALWORLD, "NOTICE"), encoding="utf-8") as handle:
        notice = handle.read()
    for relative in data_files():
        assert f"`{relative}`" in provenance, relative
        assert os.path.dirname(relative) + "/" in notice or relative in notice, relative
    for name in os.listdir(os.path.join(REALWORLD, "LICENSES")):
        assert f"LICENSES/{name}" in notice, name
