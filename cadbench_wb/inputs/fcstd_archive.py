# SPDX-License-Identifier: LGPL-2.1-or-later
"""An FCStd's zip archive checked before anything is extracted from it.

An FCStd is a zip file, and a zip file says what it holds before it is read: how many
members, their names, their sizes once inflated, whether they are encrypted and how they
are compressed. All of that is checked from the central directory alone, so that a zip
bomb (a few MB standing for many GB), a million-member archive, a name no file system can
hold, an encrypted member or a compression FreeCAD cannot read is refused with a named
reason instead of exhausting the scorer's memory or surfacing as an exception from zlib.
Reading a member is then bounded by its declared size (zipfile stops there).

Pure Python: no FreeCAD needed.
"""

import zipfile

from cadbench_wb import standard
from cadbench_wb.errors import DeliveryFailure

# The compressions FreeCAD's own reader (zipios++) understands: what it cannot open is not
# a FreeCAD document, even where Python's zipfile could inflate it (bzip2, lzma).
FREECAD_COMPRESSIONS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}


def _declared_member_count(path: str) -> int | None:
    """The member count the archive's end record declares, read before zipfile builds one
    object per member (a forged count of millions would cost GBs to list)."""
    try:
        with open(path, "rb") as handle:
            end = zipfile._EndRecData(handle)  # the stdlib's own EOCD reader
    except (OSError, AttributeError, zipfile.BadZipFile):
        return None
    if not end:
        return None
    return int(end[zipfile._ECD_ENTRIES_TOTAL])


def _name_problem(name: str) -> str | None:
    if not name:
        return "an empty member name"
    if len(name.encode("utf-8", "surrogateescape")) > standard.FCSTD_MAX_NAME_BYTES:
        return (
            f"a member name of {len(name.encode('utf-8', 'surrogateescape'))} bytes "
            f"(more than {standard.FCSTD_MAX_NAME_BYTES}, longer than a file name can be)"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return f"a member name with control characters ({name[:60]!r})"
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or ":" in parts[0] or ".." in parts:
        return f"a member name that leaves the archive ({name[:60]!r})"
    return None


def opened_archive(path: str) -> zipfile.ZipFile:
    """The FCStd's ZipFile once its central directory passes every check; raises
    DeliveryFailure: unsupported_archive, too_large or unreadable_file."""
    count = _declared_member_count(path)
    if count is not None and count > standard.FCSTD_MAX_MEMBERS:
        raise DeliveryFailure(
            "too_large",
            f"{path}: the archive declares {count} members, more than "
            f"{standard.FCSTD_MAX_MEMBERS} (standard.FCSTD_MAX_MEMBERS)",
        )
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise DeliveryFailure(
            "unreadable_file", f"{path}: not a readable FreeCAD document ({exc})"
        ) from None
    try:
        check_members(path, archive.infolist())
    except DeliveryFailure:
        archive.close()
        raise
    return archive


def check_members(path: str, members: list) -> None:
    """Refuse an archive whose members FreeCAD could not read or whose inflated size is
    beyond standard.FCSTD_MAX_UNCOMPRESSED_BYTES."""
    if len(members) > standard.FCSTD_MAX_MEMBERS:
        raise DeliveryFailure(
            "too_large",
            f"{path}: the archive holds {len(members)} members, more than "
            f"{standard.FCSTD_MAX_MEMBERS} (standard.FCSTD_MAX_MEMBERS)",
        )
    total = 0
    for info in members:
        problem = _name_problem(info.filename)
        if problem:
            raise DeliveryFailure("unsupported_archive", f"{path}: {problem}")
        if info.flag_bits & 0x1:
            raise DeliveryFailure(
                "unsupported_archive",
                f"{path}: member {info.filename!r} is encrypted; FreeCAD documents never are",
            )
        if info.compress_type not in FREECAD_COMPRESSIONS:
            raise DeliveryFailure(
                "unsupported_archive",
                f"{path}: member {info.filename!r} uses zip compression method "
                f"{info.compress_type}; FreeCAD reads stored and deflated members only",
            )
        total += info.file_size
    if total > standard.FCSTD_MAX_UNCOMPRESSED_BYTES:
        raise DeliveryFailure(
            "too_large",
            f"{path}: the archive inflates to {total} bytes, more than "
            f"{standard.FCSTD_MAX_UNCOMPRESSED_BYTES} (standard.FCSTD_MAX_UNCOMPRESSED_BYTES); "
            "refused before extraction",
        )


def check_named_members(path: str, archive: zipfile.ZipFile, named: dict) -> None:
    """Refuse a document whose Document.xml names a member the zip does not hold
    (``named``: member -> the object and property naming it)."""
    present = set(archive.namelist())
    for member, owner in sorted(named.items()):
        if member not in present:
            raise DeliveryFailure(
                "archive_member_missing",
                f"{path}: {owner} names the archive member {member!r}, which the zip does "
                "not hold (a damaged or hand-edited file)",
            )
