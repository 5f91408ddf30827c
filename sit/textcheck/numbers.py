"""Numbers, amounts and percentages of a source text, and how the target language writes them.

:func:`numbers_of` finds the numbers of an English text (``1,000``, ``4.34``, ``$1.2``, ``25%``;
a number glued to letters, such as ``1st`` or ``3D``, is no number here); :func:`target_forms`
gives the ways the target language writes one, by Babel's CLDR data (``4.34`` -> ``4,34`` and
``1,000`` -> ``1.000`` or ``1000`` in Spanish). :func:`find` says which form a translation has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Optional

#: a number of the source: an optional currency symbol, digits with optional thousands groups and
#: decimals, an optional percent sign; not glued to a letter, a digit or another separator
NUMBER = re.compile(
    r"(?<![\w.,])(?P<currency>[$€£¥])?(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<percent>\s?%)?(?!\w|[.,]\d)"
)
#: currency symbols and their ISO 4217 codes (for Babel's currency names)
CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2009": " "})


@dataclass(frozen=True)
class Number:
    """One number of a source text: as written, its value, where it stands, its currency."""

    text: str
    value: Decimal
    decimals: int
    start: int
    end: int
    currency: str = ""
    percent: bool = False


def numbers_of(text: str, source_lang: str = "en") -> list[Number]:
    """The numbers of ``text`` (written the ``source_lang`` way), in order."""
    from babel.numbers import NumberFormatError, parse_decimal

    out = []
    for m in NUMBER.finditer(text):
        written = m.group("number")
        try:
            value = parse_decimal(written, locale=source_lang, strict=True)
        except (NumberFormatError, InvalidOperation, ValueError):
            continue
        decimals = len(written.rpartition(_decimal_symbol(source_lang))[2]) if _decimal_symbol(source_lang) in written else 0
        out.append(Number(written, value, decimals, m.start("number"), m.end("number"),
                          m.group("currency") or "", bool(m.group("percent"))))
    return out


@lru_cache(maxsize=64)
def _decimal_symbol(lang: str) -> str:
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(lang)


def target_forms(number: Number, target_lang: str) -> tuple[str, ...]:
    """How ``target_lang`` writes ``number`` (CLDR): with thousands groups and without, the
    source's decimals kept; spaces of any width written as plain spaces."""
    from babel.numbers import format_decimal

    tail = "." + "0" * number.decimals if number.decimals else ""
    forms = [format_decimal(number.value, format=pattern + tail, locale=target_lang)
             for pattern in ("#,##0", "0")]
    return tuple(dict.fromkeys(f.translate(_SPACES) for f in forms))


def find(form: str, translation: str) -> int:
    """How often ``form`` stands in ``translation`` as a whole number (not inside a longer one)."""
    pattern = rf"(?<![\d.,]){re.escape(form)}(?!\d|[.,]\d)"
    return len(re.findall(pattern, translation.translate(_SPACES)))


def currency_kept(symbol: str, translation: str, target_lang: str) -> bool:
    """Whether ``translation`` keeps the currency ``symbol``: the symbol, its ISO code, or a word
    of its CLDR name in the target language (``dólar`` for ``$`` in Spanish)."""
    if symbol in translation:
        return True
    code = CURRENCIES.get(symbol)
    if code is None:
        return True
    if code in translation:
        return True
    name = _currency_word(code, target_lang)
    return bool(name) and name in translation.lower()


@lru_cache(maxsize=64)
def _currency_word(code: str, lang: str) -> Optional[str]:
    # the first word of the currency's name in ``lang``, without its plural ending ("dólar")
    from babel.core import UnknownLocaleError
    from babel.numbers import get_currency_name

    try:
        name = get_currency_name(code, locale=lang)
    except (UnknownLocaleError, ValueError):
        return None
    return name.split()[0].lower() if name and name != code else None


def changed_number(number: Number) -> str:
    """``number`` as written with its last digit changed (``52`` -> ``53``, ``1,009`` -> ``1,000``):
    the same length and groups, so the target writes it the same way."""
    digit = int(number.text[-1])
    return number.text[:-1] + str((digit + 1) % 10 if digit != 9 else 8)
