# SPDX-License-Identifier: LGPL-2.1-or-later
"""Text as a drawing shows it: formatting codes removed, symbols unified, mojibake repaired.

MTEXT formatting is parsed by ezdxf's MTextParser, TEXT control codes (%%c, %%d, %%p) by
ezdxf's plain_text; this module only decides what the reader sees.
"""

import re
import unicodedata

from ezdxf.tools.text import MTextParser, TokenType, plain_text

DIAMETER = "Ø"
DEGREE = "°"
PLUS_MINUS = "±"

# Every way a drawing spells the diameter sign, the degree sign and plus-minus.
_SYMBOLS = {
    "\u2300": DIAMETER,  # ⌀ DIAMETER SIGN
    "\u2205": DIAMETER,  # ∅ EMPTY SET (AutoCAD's gdt fonts, ezdxf's uncommon.dxf)
    "\u00f8": DIAMETER,  # ø
    "\u00d8": DIAMETER,  # Ø
    "\u00ba": DEGREE,  # º masculine ordinal, typed for a degree sign
    "\u02da": DEGREE,  # ˚ ring above
    "\u2070": DEGREE,  # ⁰ superscript zero
}
_UNICODE_ESCAPE = re.compile(r"\\[Uu]\+([0-9A-Fa-f]{4})")
_TEXT_CODES = re.compile(r"%%([cCdDpP])")
_TEXT_CODE_CHARS = {"c": DIAMETER, "d": DEGREE, "p": PLUS_MINUS}
# UTF-8 bytes read as cp1252/latin-1 start with one of these (TechDraw writes '135Â°').
# The round trip below fails on genuine text ("pâte"), so a false alarm changes nothing.
_MOJIBAKE_MARKERS = ("Â", "Ã", "â", "Ë", "Î")


def repaired_mojibake(text: str) -> str:
    """UTF-8 text that was decoded as cp1252 or latin-1 ('135Â°' -> '135°')."""
    if not any(marker in text for marker in _MOJIBAKE_MARKERS):
        return text
    for codec in ("cp1252", "latin-1"):
        try:
            return text.encode(codec).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
    return text


def unified_symbols(text: str) -> str:
    r"""Diameter, degree and plus-minus signs spelt one way; %% codes and \U+ escapes
    decoded; compatibility forms (non-breaking spaces, full-width digits) folded."""
    text = _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    text = _TEXT_CODES.sub(lambda m: _TEXT_CODE_CHARS[m.group(1).lower()], text)
    text = repaired_mojibake(text)
    text = "".join(_SYMBOLS.get(char, char) for char in text)
    text = unicodedata.normalize("NFKC", text)
    # NFKC turns the degree sign into itself but 'Ø' stays; the ring operator might not.
    return "".join(_SYMBOLS.get(char, char) for char in text)


def mtext_shown(content: str) -> tuple[str, str]:
    """(main text, tolerance text) an MTEXT string shows. Stacked fractions (the way
    dimension tolerances and limits are drawn) go to the second element as 'upper/lower'."""
    main, stacks = [], []
    for token in MTextParser(content):
        if token.type == TokenType.WORD:
            main.append(token.data)
        elif token.type == TokenType.STACK:
            upper, lower, _kind = token.data
            stacks.append(f"{upper.strip()}/{lower.strip()}")
        elif token.type in (
            TokenType.SPACE,
            TokenType.NBSP,
            TokenType.TABULATOR,
            TokenType.NEW_PARAGRAPH,
            TokenType.NEW_COLUMN,
            TokenType.WRAP_AT_DIMLINE,
        ):
            main.append(" ")
    return collapsed(unified_symbols("".join(main))), " ".join(stacks)


def text_shown(content: str) -> str:
    """What a single-line TEXT (or ATTRIB) string shows: %% control codes decoded."""
    return collapsed(unified_symbols(plain_text(content)))


def collapsed(text: str) -> str:
    return " ".join(text.split())


def normalized_content(text: str) -> str:
    """The key two annotations are compared by: case and spacing ignored, symbols unified."""
    return collapsed(unified_symbols(text)).casefold()
