# SPDX-License-Identifier: LGPL-2.1-or-later
"""The length unit a STEP file declares, read from its text before OpenCASCADE reads it.

OpenCASCADE converts every STEP model to millimetres by the unit its representation context
declares, so the unit itself never reaches the figures; but a model in the wrong unit is
the most common error of AI CAD generators, and the declared unit says which side of the
mix-up a file is on. A prefix STEP does not know (``SI_UNIT(.FOO.,.METRE.)``) is read as
metres without a word: here it becomes a note. Pure standard library.
"""

import re

# ISO 10303-41 si_prefix, and what a length in metres with that prefix is written as.
SI_PREFIXES = {
    "EXA": "Em", "PETA": "Pm", "TERA": "Tm", "GIGA": "Gm", "MEGA": "Mm", "KILO": "km",
    "HECTO": "hm", "DECA": "dam", "DECI": "dm", "CENTI": "cm", "MILLI": "mm", "MICRO": "um",
    "NANO": "nm", "PICO": "pm", "FEMTO": "fm", "ATTO": "am",
}  # fmt: skip
_SI_LENGTH = re.compile(rb"SI_UNIT\s*\(\s*(\$|\*|\.[A-Za-z_]*\.)\s*,\s*\.METRE\.\s*\)")
_CONVERTED_LENGTH = re.compile(
    rb"CONVERSION_BASED_UNIT\s*\(\s*'([^']{0,80})'\s*,\s*#\d+\s*\)\s*LENGTH_UNIT"
)
CHUNK = 1 << 22
OVERLAP = 256  # longer than any match: one cut in two is found whole in the next block


def declared_units(path: str) -> list[str]:
    """Every length unit the file declares ('mm', 'inch', ...; an unknown SI prefix as
    '.FOO. (unknown prefix)'), sorted, each once. A unit converted from another ('INCH'
    as 25.4 mm) is given without the SI unit it is defined by."""
    found, converted, tail = set(), set(), b""
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            block = tail + chunk
            for prefix in _SI_LENGTH.findall(block):
                name = prefix.decode("ascii", "replace").strip(".")
                if name in ("$", "*"):
                    found.add("m")
                else:
                    found.add(SI_PREFIXES.get(name.upper()) or f".{name}. (unknown prefix)")
            for name in _CONVERTED_LENGTH.findall(block):
                converted.add(name.decode("latin-1").strip().lower() or "(unnamed conversion)")
            tail = block[-OVERLAP:]
    unknown = {u for u in found if u.endswith("(unknown prefix)")}
    return sorted(converted | unknown) if converted else sorted(found)


def length_unit(path: str) -> tuple[str | None, list[str]]:
    """(the declared length unit, or None when the file declares none; notes): several
    different units are given joined ('inch+mm'), an unknown prefix gets a note saying
    that OpenCASCADE reads the model in metres."""
    units = declared_units(path)
    notes = [
        f"declares the length unit prefix {u.split(' ')[0]}, which STEP does not know: "
        "OpenCASCADE reads the model as metres"
        for u in units
        if u.endswith("(unknown prefix)")
    ]
    if not units:
        return None, notes
    return "+".join(u.split(" ")[0] for u in units), notes
