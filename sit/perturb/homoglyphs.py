"""Latin letters and the Cyrillic or Greek code points that look like them.

Each row is (Latin letter, look-alike, the look-alike's Unicode name); the names are checked
against :mod:`unicodedata` by the tests, so the table says exactly what it inserts. Only
single code points that render like the Latin letter in common fonts are listed.
"""

from __future__ import annotations

HOMOGLYPH_TABLE: tuple[tuple[str, str, str], ...] = (
    ("a", "\u0430", "CYRILLIC SMALL LETTER A"),
    ("c", "\u0441", "CYRILLIC SMALL LETTER ES"),
    ("d", "\u0501", "CYRILLIC SMALL LETTER KOMI DE"),
    ("e", "\u0435", "CYRILLIC SMALL LETTER IE"),
    ("h", "\u04bb", "CYRILLIC SMALL LETTER SHHA"),
    ("i", "\u0456", "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ("j", "\u0458", "CYRILLIC SMALL LETTER JE"),
    ("o", "\u043e", "CYRILLIC SMALL LETTER O"),
    ("p", "\u0440", "CYRILLIC SMALL LETTER ER"),
    ("q", "\u051b", "CYRILLIC SMALL LETTER QA"),
    ("s", "\u0455", "CYRILLIC SMALL LETTER DZE"),
    ("u", "\u03c5", "GREEK SMALL LETTER UPSILON"),
    ("v", "\u03bd", "GREEK SMALL LETTER NU"),
    ("w", "\u051d", "CYRILLIC SMALL LETTER WE"),
    ("x", "\u0445", "CYRILLIC SMALL LETTER HA"),
    ("y", "\u0443", "CYRILLIC SMALL LETTER U"),
    ("A", "\u0410", "CYRILLIC CAPITAL LETTER A"),
    ("B", "\u0412", "CYRILLIC CAPITAL LETTER VE"),
    ("C", "\u0421", "CYRILLIC CAPITAL LETTER ES"),
    ("E", "\u0415", "CYRILLIC CAPITAL LETTER IE"),
    ("H", "\u041d", "CYRILLIC CAPITAL LETTER EN"),
    ("I", "\u0406", "CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ("J", "\u0408", "CYRILLIC CAPITAL LETTER JE"),
    ("K", "\u041a", "CYRILLIC CAPITAL LETTER KA"),
    ("M", "\u041c", "CYRILLIC CAPITAL LETTER EM"),
    ("N", "\u039d", "GREEK CAPITAL LETTER NU"),
    ("O", "\u041e", "CYRILLIC CAPITAL LETTER O"),
    ("P", "\u0420", "CYRILLIC CAPITAL LETTER ER"),
    ("S", "\u0405", "CYRILLIC CAPITAL LETTER DZE"),
    ("T", "\u0422", "CYRILLIC CAPITAL LETTER TE"),
    ("X", "\u0425", "CYRILLIC CAPITAL LETTER HA"),
    ("Y", "\u04ae", "CYRILLIC CAPITAL LETTER STRAIGHT U"),
    ("Z", "\u0396", "GREEK CAPITAL LETTER ZETA"),
)

#: Latin letter -> look-alike
HOMOGLYPHS: dict[str, str] = {latin: glyph for latin, glyph, _ in HOMOGLYPH_TABLE}
#: look-alike -> Latin letter
LATIN_OF: dict[str, str] = {glyph: latin for latin, glyph, _ in HOMOGLYPH_TABLE}
_FOLD = str.maketrans(LATIN_OF)


def fold(text: str) -> str:
    """``text`` with every look-alike in the table turned back into its Latin letter."""
    return text.translate(_FOLD)
