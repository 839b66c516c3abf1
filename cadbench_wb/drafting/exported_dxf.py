# SPDX-License-Identifier: LGPL-2.1-or-later
"""The DXF TechDraw exported, as the drawing chain reads it: the ezdxf document (the last one
kept while its file is unchanged) and its texts with TechDraw's encoding slip repaired. Read
by the read-back, the sheet checks and the SVG assembly alike."""

import os

from cadbench_wb.drafting import reading


def repaired_text(text: str) -> str:
    """TechDraw writes UTF-8 into a DXF that declares ANSI_1252, so ezdxf reads '⌀10' as
    'âŒ€10' and '45°' as '45Â°'. Text that round-trips through cp1252 into valid UTF-8 is
    such a misreading; genuine cp1252 text ('Ø10' as one byte) does not round-trip."""
    try:
        repaired = text.encode("cp1252").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text
    return repaired


_LOADED = {}  # the last DXF read: {(path, mtime, size): ezdxf document}


def dxf_document(dxf_path: str):
    """The ezdxf document of a drawing's DXF. The SVG assembly and the read-back both read
    the file just written: parsing it is the costliest step after hidden-line removal, so
    the last one is kept while the file is unchanged."""
    stat = os.stat(dxf_path)
    key = (os.path.abspath(dxf_path), stat.st_mtime_ns, stat.st_size)
    if key not in _LOADED:
        _LOADED.clear()
        _LOADED[key] = reading.read_drawing(dxf_path, require_model_space=False)
    return _LOADED[key]
