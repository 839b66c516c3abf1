# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hostile FCStd archives, refused from the zip's central directory before anything is
extracted: a zip bomb, a member Document.xml names that the zip lacks, an over-long
member name, encryption, a compression FreeCAD cannot read; and the limits of
standard.py at their boundaries. Every archive is generated here from a real FreeCAD
document (no stored bombs)."""

import os
import zipfile

import pytest
from inputs_support import cli, json_of, refused

from cadbench_wb import standard
from cadbench_wb.errors import DeliveryFailure
from cadbench_wb.inputs import fcstd_archive

LIMIT = ("--timeout", "120")


@pytest.fixture(scope="module")
def box_fcstd(fc, tmp_path_factory):
    """A FreeCAD document holding one 10 x 20 x 30 box, saved by FreeCAD itself."""
    folder = tmp_path_factory.mktemp("fcstd")
    doc = fc.newDocument("hostile_box")
    box = doc.addObject("Part::Box", "Box")
    box.Length, box.Width, box.Height = 10, 20, 30
    doc.recompute()
    path = str(folder / "box.FCStd")
    doc.saveAs(path)
    fc.closeDocument(doc.Name)
    return path


def _rewritten(source: str, target: str, drop=(), add=(), compression=None) -> str:
    """source's members (less ``drop``) plus ``add`` [(name, bytes)], as a new zip."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            if info.filename in drop:
                continue
            kind = compression if compression is not None else info.compress_type
            new.writestr(info.filename, old.read(info), compress_type=kind)
        for name, data in add:
            new.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return target


def _encrypted(source: str, target: str) -> str:
    """source with the 'encrypted' flag set on every member (central directory and local
    headers), as a zip tool writing a password-protected file marks them."""
    data = bytearray(open(source, "rb").read())
    for signature, flag_at in ((b"PK\x01\x02", 8), (b"PK\x03\x04", 6)):
        start = data.find(signature)
        while start >= 0:
            data[start + flag_at] |= 0x1
            start = data.find(signature, start + 4)
    with open(target, "wb") as handle:
        handle.write(data)
    return target


def _bomb(source: str, target: str) -> str:
    """source plus one member that inflates to 1 MiB more than the standard allows: a few
    MB on disk (deflated zeros), streamed so the test never holds it in memory."""
    _rewritten(source, target)
    chunk = bytes(1 << 20)
    with zipfile.ZipFile(target, "a", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open("Thumbnails/Thumbnail.png", "w", force_zip64=True) as handle:
            for _ in range(standard.FCSTD_MAX_UNCOMPRESSED_BYTES // len(chunk) + 1):
                handle.write(chunk)
    return target


def _score(reference: str, candidate: str, *extra) -> dict:
    status, out, err = cli("score", reference, candidate, "--only", "shape", "--json", "-", *extra)
    assert status == 0 and "Traceback" not in err, err
    return json_of(out)


def test_the_generated_document_scores_as_its_box(models, box_fcstd, tmp_path):
    # The control: rewritten without a change, the archive is a good candidate.
    same = _rewritten(box_fcstd, str(tmp_path / "same.FCStd"))
    result = _score(same, box_fcstd, *LIMIT)
    assert result["delivered"] is True and result["shapeIoU"] == 1.0


@pytest.mark.parametrize(
    "kind,reason,words",
    [
        ("member_missing", "archive_member_missing", ".brp"),
        ("long_name", "unsupported_archive", "member name of 300 bytes"),
        ("encrypted", "unsupported_archive", "encrypted"),
        ("bzip2", "unsupported_archive", "compression method 12"),
    ],
)
def test_a_broken_archive_gets_its_named_reason(box_fcstd, tmp_path, kind, reason, words):
    target = str(tmp_path / f"{kind}.FCStd")
    if kind == "member_missing":
        # The shape member Document.xml names (PartShape.brp on 0.20, another name on 1.0).
        with zipfile.ZipFile(box_fcstd) as archive:
            shape = next(n for n in archive.namelist() if n.endswith(".brp"))
        _rewritten(box_fcstd, target, drop=(shape,))
        words = shape
    elif kind == "long_name":
        _rewritten(box_fcstd, target, add=[("x" * 296 + ".brp", b"")])
    elif kind == "encrypted":
        _encrypted(box_fcstd, target)
    else:
        _rewritten(box_fcstd, target, compression=zipfile.ZIP_BZIP2)
    result = _score(box_fcstd, target, *LIMIT)
    assert result["delivered"] is False and result["shapeIoU"] == 0.0
    assert result["failure"]["reason"] == reason
    assert words in result["failure"]["detail"]


def test_a_zip_bomb_is_refused_before_extraction_in_every_front_door(box_fcstd, tmp_path):
    bomb = _bomb(box_fcstd, str(tmp_path / "bomb.FCStd"))
    assert os.path.getsize(bomb) < 16 << 20  # a few MB standing for more than a GiB
    # Less memory than the bomb inflates to: a refusal that extracted it would die.
    result = _score(box_fcstd, bomb, *LIMIT, "--memory-mb", "1024")
    assert result["failure"]["reason"] == "too_large"
    assert "refused before extraction" in result["failure"]["detail"]
    status, out, err = cli("score", bomb, box_fcstd, "--json", "-", *LIMIT)
    refused(status, err, 4, "reference_invalid", "score")
    assert "reference too_large" in err and out == b""
    status, out, err = cli("drawing", bomb, "--out", str(tmp_path / "drawn"))
    refused(status, err, 2, "too_large", "drawing")


def _members(count: int, size: int = 0, name: str = "PartShape.brp") -> list:
    members = []
    for index in range(count):
        info = zipfile.ZipInfo(f"{index}{name}" if count > 1 else name)
        info.file_size = size
        members.append(info)
    return members


def test_member_count_limit_at_its_boundary():
    fcstd_archive.check_members("a.FCStd", _members(standard.FCSTD_MAX_MEMBERS))
    with pytest.raises(DeliveryFailure) as refusal:
        fcstd_archive.check_members("a.FCStd", _members(standard.FCSTD_MAX_MEMBERS + 1))
    assert refusal.value.reason == "too_large"


def test_inflated_size_limit_at_its_boundary():
    fcstd_archive.check_members("a.FCStd", _members(1, standard.FCSTD_MAX_UNCOMPRESSED_BYTES))
    two = _members(2, standard.FCSTD_MAX_UNCOMPRESSED_BYTES // 2)
    two[1].file_size += 1
    with pytest.raises(DeliveryFailure) as refusal:
        fcstd_archive.check_members("a.FCStd", two)
    assert refusal.value.reason == "too_large"


def test_member_name_length_limit_at_its_boundary():
    longest = "n" * (standard.FCSTD_MAX_NAME_BYTES - 4) + ".brp"
    fcstd_archive.check_members("a.FCStd", _members(1, name=longest))
    with pytest.raises(DeliveryFailure) as refusal:
        fcstd_archive.check_members("a.FCStd", _members(1, name="n" + longest))
    assert refusal.value.reason == "unsupported_archive"


@pytest.mark.parametrize("name", ["../PartShape.brp", "/etc/PartShape.brp", "Part\x01.brp"])
def test_a_member_name_leaving_the_archive_is_refused(name):
    with pytest.raises(DeliveryFailure) as refusal:
        fcstd_archive.check_members("a.FCStd", _members(1, name=name))
    assert refusal.value.reason == "unsupported_archive"


def test_the_member_count_is_read_from_the_end_record(box_fcstd):
    # Before zipfile lists one object per member: what a forged count is refused from.
    with zipfile.ZipFile(box_fcstd) as archive:
        listed = len(archive.infolist())
    assert fcstd_archive._declared_member_count(box_fcstd) == listed > 1
