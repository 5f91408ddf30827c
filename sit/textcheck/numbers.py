"""Numbers, amounts and percentages of a source text, and how the target language writes them.

:func:`numbers_of` finds the numbers of an English text (``1,000``, ``4.34``, ``$1.2``, ``25%``;
a number glued to letters, such as ``1st`` or ``3D``, is no number here); :func:`target_forms`
gives the ways the target language writes one, by Babel's CLDR data (``4.34`` -> ``4,34`` and
``1,000`` -> ``1.000`` or ``1000`` in Spanish). :func:`find` says which form a translation has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation, localcontext
from functools import lru_cache
from typing import Any, Optional

#: a number of the source: an optional currency symbol, digits with optional thousands groups and
#: decimals, an optional percent sign; not glued to a letter, a digit or another separator
#: (glued to a letter of an alphabet, not to a Chinese or Japanese character: ``40000年`` is a number)
_GLUE = r"[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\d_]"
NUMBER = re.compile(
    rf"(?<!{_GLUE}|[.,])(?P<currency>[$€£¥])?(?P<number>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?P<percent>\s?%)?(?!{_GLUE}|[.,]\d)"
)
#: currency symbols and their ISO 4217 codes (for Babel's currency names)
CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2009": " "})


#: Chinese and Japanese number units that multiply the digits before them (25万 = 250,000)
MYRIADS = {"十": 10, "百": 100, "千": 1000, "万": 10 ** 4, "萬": 10 ** 4, "亿": 10 ** 8, "億": 10 ** 8}
#: "more than" between a Chinese number and its unit (500余万, 3多万: over five million, over 30,000)
APPROXIMATE = frozenset("余餘多")


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
        scale = _units(text, m.end("number"))
        if scale != 1:  # 25万 is 250,000: the number is the product, written without decimals
            value, decimals = value * scale, max(0, decimals - len(str(scale)) + 1)
            value = value.quantize(Decimal(1)) if decimals == 0 else value
        out.append(Number(written, value, decimals, m.start("number"), m.end("number"),
                          m.group("currency") or "", bool(m.group("percent"))))
    return out


def _units(text: str, end: int) -> int:
    # the product of the Chinese and Japanese units right after a number (an approximate 余 or 多
    # first allowed): 万 10**4, 万亿 10**12, 千万 10**7; 1 where none follows
    at = end + (text[end:end + 1] in APPROXIMATE and text[end + 1:end + 2] in MYRIADS)
    scale = 1
    while at < len(text) and text[at] in MYRIADS and scale < 10 ** 12:
        scale, at = scale * MYRIADS[text[at]], at + 1
    return scale


@lru_cache(maxsize=64)
def _decimal_symbol(lang: str) -> str:
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(lang)


def target_forms(number: Number, target_lang: str) -> tuple[str, ...]:
    """How ``target_lang`` writes ``number`` (CLDR): with thousands groups and without, the
    source's decimals kept; spaces of any width written as plain spaces. CLDR's own form comes
    first: grouped, unless the target's minimum grouping digits leave the number ungrouped
    (:func:`cldr_grouped`: Spanish ``5000``, German ``5.000``); both forms count as written."""
    return _forms(str(number.value), number.decimals, target_lang)


@lru_cache(maxsize=4096)
def _forms(value: str, decimals: int, target_lang: str) -> tuple[str, ...]:
    # target_forms of a value (as written by Decimal: equal values written apart stay apart); a
    # run asks for the same numbers many times (each sentence's variants)
    tail = "." + "0" * decimals if decimals else ""
    forms = [babel_decimal(Decimal(value), target_lang, pattern + tail) for pattern in ("#,##0", "0")]
    if not cldr_grouped(Decimal(value), target_lang):
        forms.reverse()  # Babel groups Spanish 5000 as 5.000; CLDR does not
    return tuple(dict.fromkeys(f.translate(_SPACES) for f in forms))


def min_grouping_digits(lang: str) -> int:
    """CLDR's ``minimumGroupingDigits`` of ``lang``: the fewest digits before the first group
    separator (1: English and German group ``5,000``/``5.000``; 2: Spanish, Polish, Italian,
    European Portuguese write ``5000`` and group from ``50.000``; 3: Ewe). Babel does not carry
    it (and so groups Spanish ``5.000``); it comes from cldr-json through
    ``sit/data/cldr_min_grouping.json`` (``scripts/cldr_min_grouping.py``), looked up by the locale
    and then by its truncations (``es-MX`` 1, ``es`` 2, an unknown ``es-XX`` as ``es``)."""
    from .cldr import by_locale

    return int(by_locale("cldr_min_grouping", lang))


def cldr_grouped(value: Decimal, lang: str, *, at_least: int = 1) -> bool:
    """Whether CLDR writes the whole part of ``value`` with digit groups in ``lang``: it has at
    least the primary group's size (Babel's decimal pattern, 3) plus the minimum grouping digits
    (:func:`min_grouping_digits`): 1,000 in English and German, 10.000 in Spanish, 100 000 in Ewe.
    ``at_least`` raises the minimum grouping digits (2: four-digit numbers count as grouped nowhere,
    as German and Russian usage leaves many of them where CLDR groups them; docs/precision.md)."""
    digits = len(str(abs(int(value))))
    return digits >= _group_size(lang) + max(min_grouping_digits(lang), at_least)


@lru_cache(maxsize=64)
def _group_size(lang: str) -> int:
    # the primary grouping size of the locale's decimal pattern (Babel); 3 where Babel has none
    from babel import Locale
    from babel.core import UnknownLocaleError

    try:
        return Locale.parse(lang.replace("-", "_")).decimal_formats[None].grouping[0] or 3
    except (UnknownLocaleError, ValueError, KeyError):
        return 3


def find(form: str, translation: str, *, alone: bool = False) -> int:
    """How often ``form`` stands in ``translation`` as a whole number (not inside a longer one);
    with ``alone``, not glued to a letter either, as :data:`NUMBER` reads a source (a program's
    ``GPLv3`` holds no 3)."""
    index = _numbers_in(translation)
    places = index.places(form)
    if not alone:
        return len(places)
    text, glue = index.text, re.compile(_GLUE)
    return sum(1 for at in places
               if not (at and glue.match(text, at - 1)) and not glue.match(text, at + len(form)))


class _NumberIndex:
    r"""Where a translation's numbers start, by their first run of digits: a long line's many
    numbers are each looked up among the places that begin as they do, not searched for through
    the whole line (issue 49: a 135 kB line took 27 s, its numbers times its length). A form
    stands at a place as the pattern ``(?<![\d.,])FORM(?!\d|[.,]\d)`` finds it, from the left,
    without overlaps; forms that begin with no digit are searched for with that pattern."""

    def __init__(self, translation: str):
        self.text = translation.translate(_SPACES)
        self.starts: dict[str, list[int]] = {}
        for m in _DIGIT_RUN.finditer(self.text):
            self.starts.setdefault(m.group(), []).append(m.start())
        self._places: dict[Any, list] = {}  # form -> its places; ("%", form) -> the gaps before its % signs

    def places(self, form: str) -> list[int]:
        if form not in self._places:
            self._places[form] = self._find(form)
        return self._places[form]

    def _find(self, form: str) -> list[int]:
        lead = _LEADING_DIGITS.match(form)
        if lead is None:
            return [m.start() for m in re.finditer(rf"(?<![\d.,]){re.escape(form)}(?!\d|[.,]\d)", self.text)]
        found, end = [], 0
        for at in self.starts.get(lead.group(), ()):
            if at >= end and self.text.startswith(form, at) and not _DIGIT_AFTER.match(self.text, at + len(form)):
                found.append(at)
                end = at + len(form)
        return found


#: a number's digits: not inside a longer number, nor its decimals, but after an abbreviation's
#: period (German ``Unbek.11`` for ``Unknown-11``)
_DIGIT_RUN = re.compile(r"(?<![\d.,])\d+|(?<=[^\W\d_]\.)\d+")
_LEADING_DIGITS = re.compile(r"\d+")
_DIGIT_AFTER = re.compile(r"\d|[.,]\d")


@lru_cache(maxsize=8)
def _numbers_in(translation: str) -> _NumberIndex:
    # one index a translation: each of its source's numbers, and their forms, look it up
    return _NumberIndex(translation)


def misspaced_percent(number: Number, translation: str, target_lang: str) -> str:
    """Where ``translation`` writes the percentage ``number`` with its percent sign only against the
    target language's CLDR percent pattern (Babel: German, Spanish, French ``18 %``; English,
    Chinese ``18%``), the form the target writes; "" where it writes it so once, writes no percent
    sign after it, or CLDR puts the sign first (Turkish ``%18``)."""
    spaced = _percent_spaced(target_lang)
    if spaced is None or not number.percent:
        return ""
    index = _numbers_in(translation)
    gaps = [g for form in target_forms(number, target_lang) for g in _percent_gaps(index, form)]
    if not gaps or any(bool(g) == spaced for g in gaps):
        return ""
    return target_forms(number, target_lang)[0] + (" %" if spaced else "%")


def _percent_gaps(index: _NumberIndex, form: str) -> frozenset[str]:
    r"""What stands between ``form`` and the percent sign after it (``""`` or ``" "``) where the
    pattern ``(?<![\d.,])FORM( ?)%`` finds it (:func:`misspaced_percent`); once a form and
    translation (a line repeats its numbers)."""
    key = ("%", form)
    if key not in index._places:
        index._places[key] = _find_percent(index, form)
    return frozenset(index._places[key])


def _find_percent(index: _NumberIndex, form: str) -> list[str]:
    lead = _LEADING_DIGITS.match(form)
    if lead is None:
        return sorted({m.group(1) for m in re.finditer(rf"(?<![\d.,]){re.escape(form)}( ?)%", index.text)})
    gaps = {m.group(1) for at in index.starts.get(lead.group(), ()) if index.text.startswith(form, at)
            for m in (_PERCENT_AFTER.match(index.text, at + len(form)),) if m}
    return sorted(gaps)


_PERCENT_AFTER = re.compile(r"( ?)%")


@lru_cache(maxsize=64)
def _percent_spaced(lang: str) -> Optional[bool]:
    # whether CLDR's percent pattern of ``lang`` puts a space before a trailing percent sign; None
    # where the sign comes first or Babel does not know the locale
    from babel import Locale
    from babel.core import UnknownLocaleError

    try:
        pattern = Locale.parse(lang.replace("-", "_")).percent_formats[None].pattern.translate(_SPACES)
    except (UnknownLocaleError, ValueError, KeyError):
        return None
    if not re.search(r"[0#]\s?%", pattern):
        return None
    return bool(re.search(r"[0#]\s%", pattern))


def currency_kept(symbol: str, translation: str, target_lang: str) -> bool:
    """Whether ``translation`` keeps the currency ``symbol``: the symbol, its ISO code, or the first
    or last word of its CLDR name in the target language (``dólar`` for ``$`` in Spanish, ``Pfund``
    for ``£`` in German)."""
    if symbol in translation:
        return True
    code = CURRENCIES.get(symbol)
    if code is None:
        return True
    if code in translation:
        return True
    folded = translation.lower()
    return any(word in folded for word in _currency_words(code, target_lang))


@lru_cache(maxsize=64)
def _currency_words(code: str, lang: str) -> tuple[str, ...]:
    # the first and the last word of the currency's name in ``lang`` (Spanish "dólar"
    # estadounidense, German Britisches "Pfund", US-"Dollar"), of three letters or more
    from babel.core import UnknownLocaleError
    from babel.numbers import get_currency_name

    try:
        name = get_currency_name(code, locale=lang)
    except (UnknownLocaleError, ValueError):
        return ()
    if not name or name == code:
        return ()
    words = [w.lower() for w in re.split(r"[\s-]+", name) if len(w) >= 3]
    return tuple(dict.fromkeys(words[:1] + words[-1:]))


def changed_number(number: Number) -> str:
    """``number`` as written with its last digit changed (``52`` -> ``53``, ``1,009`` -> ``1,000``):
    the same length and groups, so the target writes it the same way."""
    digit = int(number.text[-1])
    return number.text[:-1] + str((digit + 1) % 10 if digit != 9 else 8)


#: imperial units a translator may convert (15 feet -> fünf Meter): a number before one of them
#: that is missing from the translation is an adaptation, not an error (annotators ask for it)
IMPERIAL = re.compile(r"\s*-?\s*(?:feet|foot|ft|miles?|mph|inch(?:es)?|yards?|pounds?|lbs?|ounces?|oz|gallons?|"
                      r"acres?|(?:degrees? )?fahrenheit|°f)\b", re.IGNORECASE)
#: words before a number that make it a name, not a quantity: a version, a phase, a figure ...
NAMING = re.compile(r"(?:\b(?:version|release|v|phase|stage|grade|type|level|step|chapter|figure|fig|table|"
                    r"section|article|item|no|number|room|route|model|series|class|ward|box|page|p|[Ss]td|[Ss]tandard)\.?"
                    r"|\b[A-Z][A-Za-z]*[A-Z][A-Za-z]*|\b[A-Za-z]+\d[\w-]*)\s*$")


#: metric units: a source that gives them beside an imperial quantity needs no conversion
METRIC = re.compile(r"\b(?:(?:kilo|centi|milli)?met(?:er|re)s?|km|cm|mm|kilograms?|kg|grams?|litres?|liters?|"
                    r"hectares?|celsius|centigrade|°c)\b", re.IGNORECASE)


def converted_unit(text: str, number: Number) -> bool:
    """Whether ``number`` is an imperial quantity in ``text`` (``15 feet``, ``60-mile``)."""
    return bool(IMPERIAL.match(text, number.end))


def to_convert(text: str, number: Number) -> bool:
    """Whether ``number`` is an imperial quantity that ``text`` gives in no metric unit."""
    return converted_unit(text, number) and not METRIC.search(text)


#: CLDR's metric units of the quantities an imperial unit measures (length, mass, volume, area,
#: speed, temperature), told by their CLDR unit identifiers
_METRIC_UNIT = re.compile(r"(?:length|mass|volume|area|speed|temperature)-.*(?:meter|gram|liter|celsius|hectare|tonne)")


def unconverted(number: Number, text: str, translation: str, target_lang: str) -> str:
    """Where ``number`` is an imperial quantity of ``text`` (``200 feet``) and ``translation`` writes
    the same number with a metric unit of the target language (Babel's ``format_unit``, long or
    short: ``200 Meter``, ``200 m``), that form: the unit was converted and the number was not;
    "" otherwise."""
    if not converted_unit(text, number):
        return ""
    plain = translation.translate(_SPACES)
    for form in _metric_forms(number.value, target_lang):
        if re.search(rf"(?<![\d.,]){re.escape(form)}(?!\w)", plain):
            return form
    return ""


@lru_cache(maxsize=1024)
def _metric_forms(value: Decimal, lang: str) -> tuple[str, ...]:
    # value with each CLDR metric unit of the target language, long and short ("200 Meter", "200 m")
    from babel import Locale
    from babel.core import UnknownLocaleError
    from babel.units import UnknownUnitError, format_unit

    try:
        units = [u for u in Locale.parse(lang.replace("-", "_")).unit_display_names if _METRIC_UNIT.match(u)]
        forms = {format_unit(value, unit, length=width, locale=lang.replace("-", "_")).translate(_SPACES)
                 for unit in units for width in ("long", "short")}
    except (UnknownLocaleError, UnknownUnitError, ValueError):
        return ()
    return tuple(sorted(forms, key=len, reverse=True))


#: the territories that measure in US units (CLDR's supplemental measurementData: US, Liberia, Myanmar)
US_MEASURE = frozenset({"US", "LR", "MM"})


def metric_target(target_lang: str) -> bool:
    """Whether the target language's likely territory (CLDR's likely subtags, through Babel)
    measures in metric units, so that an imperial quantity there is to be converted."""
    from babel.core import get_global

    likely = get_global("likely_subtags").get(target_lang.replace("-", "_"), "")
    return bool(likely) and likely.rsplit("_", 1)[-1] not in US_MEASURE


def naming_number(text: str, number: Number) -> bool:
    """Whether ``number`` names something rather than counting (a version ``SPSS 22.0``, ``phase 2``,
    a standard ``IEEE Std 1003.1``,
    ``figure 3``, a citation ``[12]``, a code glued to a dot and letters ``600884.SH``): such a number may stand as the source writes it, or as a
    Roman numeral."""
    before = text[max(0, number.start - 30):number.start]  # what is read of it: a line's many numbers
    if before.endswith("[") and text[number.end:number.end + 1] in ("]", ","):
        return True
    if re.match(r"\.[A-Za-z]", text[number.end:number.end + 2]):  # a code: 600884.SH, a file 2023.pdf
        return True
    return bool(NAMING.search(before[-30:]))


def product_version(text: str, number: Number) -> bool:
    """Whether ``number`` is a product's version: a number with a decimal part right after a
    capitalised word that opens no sentence (``Cdrom with Ubuntu 10.04``, ``needs Python 3.10``),
    or that opens one where no lower-case word follows the number (``Debian 3.1 'Sarge'``; not
    ``Wait 1.5 seconds``), which a translation keeps as written (German ``Ubuntu 10.04``, not ``10,04``)."""
    if "." not in number.text:
        return False
    m = re.search(r"\b[A-Z][a-z]+\s+$", text[:number.start])
    return m is not None and (bool(re.search(r"[^\s.!?:]\s*$", text[:m.start()]))
                              or not re.match(r"\s*[a-z]", text[number.end:]))


def spelled(number: Number, translation: str, target_lang: str, *, roman: bool = False) -> bool:
    """Whether ``translation`` writes a whole ``number`` (0 to a million) in words of the target
    language, as a cardinal or an ordinal (num2words; ``10`` -> ``zehn``, ``3`` -> ``tres``, Chinese
    ``第5度`` -> ``fifth time``), or with ``roman`` (a number that
    names, :func:`naming_number`: ``phase 2`` -> ``fase II``) as a Roman numeral."""
    if number.decimals or number.value != number.value.to_integral_value() or not 0 <= number.value <= 10 ** 6:
        return False
    return _spelled(int(number.value), translation, target_lang.split("-")[0].split("_")[0], roman)


@lru_cache(maxsize=4096)
def _spelled(n: int, translation: str, lang: str, roman: bool) -> bool:
    # spelled() once a value and translation (a long line repeats its numbers); a stem that is
    # not in the text at all is not searched for with the pattern (a line's many numbers)
    if roman and 1 <= n <= 50 and re.search(rf"(?<![\w.]){_roman(n)}(?![\w.])", translation):
        return True
    folded = _folded(translation)
    for word in (_spelled_word(n, lang), _ordinal_word(n, lang)):
        stem = word[:max(3, len(word) - 1)]
        if word and stem in folded and re.search(rf"(?<!\w){re.escape(stem)}", folded):
            return True
    return False


@lru_cache(maxsize=8)
def _folded(translation: str) -> str:
    # a translation case-folded once, for every number of its source
    return translation.casefold()


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + letters, n - value
    return out


def month_of(text: str, number: Number, source_lang: str) -> int:
    """The month (1-12) that ``number`` names where ``text`` writes a month the way CLDR's month
    names of ``source_lang`` do with digits (Chinese and Japanese ``2月``, Korean ``2월``, spaces
    aside), or the month of an ISO 8601 date (``2023-02-11``); 0 where it names none (English
    month names have no digits)."""
    # (the 6 characters before the number: the pattern reads no further back, and a line's many
    # numbers each searching the whole text before them cost its length squared)
    if re.search(r"(?<!\d)\d{4}-$", text[max(0, number.start - 6):number.start]) \
            and re.match(r"-\d{2}(?!\d)", text[number.end:number.end + 4]) \
            and len(number.text) == 2 and 1 <= int(number.text) <= 12:
        return int(number.text)  # ISO 8601: 2023-02-11
    after = re.sub(r"\s+", "", text[number.start:number.start + 10])  # "9 月" as "9月"
    for month, names in _digit_months(source_lang).items():
        if any(after.startswith(name) and re.sub(r"\D", "", name) == number.text for name in names):
            return month
    return 0


def month_named(month: int, translation: str, target_lang: str) -> bool:
    """Whether ``translation`` names ``month`` in words of ``target_lang`` (CLDR's wide or abbreviated
    month names through Babel, as CLDR writes them or capitalised: ``February``, ``Feb``;
    ``Februar``, ``Feb.``; French ``mai``, ``Mai``)."""
    return any(re.search(rf"(?<!\w)(?:{re.escape(name)}|{re.escape(name[:1].upper() + name[1:])})", translation)
               for name in month_words(target_lang).get(month, ()))


@lru_cache(maxsize=64)
def _month_names(lang: str) -> dict[int, tuple[str, ...]]:
    # CLDR's month names of ``lang`` (wide and abbreviated, format and stand-alone); none for an
    # unknown locale
    from babel.core import UnknownLocaleError
    from babel.dates import get_month_names

    out: dict[int, set] = {}
    try:
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for month, name in get_month_names(width, context, locale=lang.replace("-", "_")).items():
                    out.setdefault(month, set()).add(name)
    except (UnknownLocaleError, ValueError):
        return {}
    return {month: tuple(sorted(names)) for month, names in out.items()}


@lru_cache(maxsize=64)
def _digit_months(lang: str) -> dict[int, tuple[str, ...]]:
    # the month names of ``lang`` written with digits ("2月")
    return {m: tuple(n for n in names if re.search(r"\d", n)) for m, names in _month_names(lang).items()
            if any(re.search(r"\d", n) for n in names)}


@lru_cache(maxsize=64)
def month_words(lang: str) -> dict[int, tuple[str, ...]]:
    """The month names of ``lang`` in letters, as CLDR writes them (English "May", French "mai"),
    without an abbreviation's full stop: month (1-12) -> its names, sorted; none for a locale Babel
    does not know."""
    return {m: tuple(sorted({n.rstrip(".") for n in names if not re.search(r"\d", n)} - {""}))
            for m, names in _month_names(lang).items()}


def ungrouped(number: Number, translation: str, target_lang: str, *, at_least: int = 1) -> bool:
    """Whether ``translation`` writes ``number`` without the digit groups CLDR writes it with in the
    target language (:func:`cldr_grouped`: ``40000`` where English writes ``40,000`` and German
    ``40.000``; ``5000`` in English and German, not in Spanish), in no grouped form, and it is
    no year (:func:`maybe_year`). ``at_least``: as :func:`cldr_grouped`'s."""
    if not cldr_grouped(number.value, target_lang, at_least=at_least):
        return False
    forms = target_forms(number, target_lang)
    grouped, plain = forms[0], forms[-1]
    if grouped == plain or find(grouped, translation) or not find(plain, translation):
        return False
    return not (not number.currency and not number.percent and not _GROUP.search(number.text)
                and maybe_year(plain, translation, target_lang))


#: a group separator between digits (the source wrote the number grouped: an amount, no year)
_GROUP = re.compile(r"\d[,.\s\u00a0\u202f']\d{3}(?!\d)")
#: the years a four-digit number may be: CLDR writes a year without groups (its ``y`` pattern)
YEARS = range(1000, 2100)


def maybe_year(digits: str, translation: str, target_lang: str) -> bool:
    """Whether the whole number ``digits``, as ``translation`` writes it, may be a year (written
    without groups by CLDR's ``y``): four digits from 1000 to 2099, and nowhere followed by a unit
    or a currency of the target language (CLDR's unit patterns and currency names through Babel:
    ``1080 days``, ``5000 yuan``, ``2000 EUR`` are amounts, ``in 2022`` may be a year)."""
    if not (digits.isdigit() and len(digits) == 4 and int(digits) in YEARS):
        return False
    amount = _amount(target_lang)
    return amount is None or digits not in amount.findall(translation.translate(_SPACES))


@lru_cache(maxsize=64)
def _amount(lang: str) -> Optional[re.Pattern]:
    # a four-digit number followed by a unit or a currency of ``lang`` (the number its group)
    units = _quantity_words(lang)
    return re.compile(rf"(?<![\d.,])(\d{{4}})(?!\d|[.,]\d)\s?(?:{units})") if units else None


#: CLDR's units of quantities a year is not followed by (not "items", "parts", "dots", "light")
_QUANTITY_UNIT = re.compile(r"(?:length|mass|volume|area|duration|temperature|energy|power|digital-.*byte)-(?!light)")


@lru_cache(maxsize=64)
def _quantity_words(lang: str) -> str:
    # an alternation of the words that follow a number in ``lang``'s CLDR unit patterns (long
    # names only: short ones such as English "in" for inches are common words; "days", German
    # "Tage") and of its currency names' last words and codes ("yuan", "dollars", "EUR"); "" for a
    # locale Babel does not know
    from babel import Locale
    from babel.core import UnknownLocaleError
    from babel.numbers import get_currency_name
    from babel.units import UnknownUnitError, format_unit

    try:
        locale = Locale.parse(lang.replace("-", "_"))
        words = {_unit_word(format_unit(Decimal(1080), unit, length="long", locale=locale))
                 for unit in locale.unit_display_names if _QUANTITY_UNIT.match(unit)}
        for code in _tender():  # plural names: a four-digit amount is many ("5000 yuan", "2000 euros")
            words.update((code, re.split(r"\s+", get_currency_name(code, count=2, locale=locale))[-1]))
    except (UnknownLocaleError, UnknownUnitError, ValueError):
        return ""
    words = {v for w in words if len(w) >= 2 and not w.isdigit() for v in (w, w[:1].upper() + w[1:])}  # "Days" in a title
    return "|".join(rf"{re.escape(w)}(?!\w)" if w[-1].isascii() or w[-1].isalpha() and ord(w[-1]) < 0x2E80
                    else re.escape(w) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _tender() -> frozenset[str]:
    # the currencies some territory uses today (CLDR's territory currencies through Babel; not
    # the German mark or the peseta)
    from babel import Locale
    from babel.numbers import get_territory_currencies

    return frozenset(c for t in Locale("en").territories for c in get_territory_currencies(t, tender=True))


def _unit_word(formatted: str) -> str:
    # what stands after the number in a formatted unit ("1,080 days" -> "days", "1080天" -> "天"); "" if it comes first
    match = re.match(r"[\d.,\s\u00a0\u202f']*\d(?:\s|\u00a0|\u202f)?(.+)$", formatted)
    return match.group(1).strip() if match else ""


#: the rest of a range after its first number, before a scale word both share: a dash or one short
#: word ("to", "bis", "à") and the second number, perhaps with its currency ("12 to 14 million" for
#: 1200万至1400万, "S$13.8 to S$14.3 billion")
RANGE = r"(?:\s*[-–]\s*|\s+[^\W\d_]{1,4}\s+)[^\s\d]{0,3}\d[\d.,]*"
#: the scales a translation may write a large number with ("26 trillion", "14 billion", "250 thousand")
SCALES = (10 ** 12, 10 ** 9, 10 ** 6, 10 ** 3)


def scaled(number: Number, translation: str, target_lang: str) -> bool:
    """Whether ``translation`` writes ``number`` as a smaller number and a scale word of the target
    language (num2words' word for a thousand, a million, a billion): ``14 billion`` for
    14,000,000,000, ``2,5 Millionen`` for 2,500,000."""
    lang = target_lang.split("-")[0].split("_")[0]
    for scale in SCALES:
        if number.value < scale:
            continue
        head = number.value / scale
        word = _scale_word(scale, lang)
        if not word or head != head.quantize(Decimal("0.01")):
            continue
        forms = {_format(str(head), lang), str(head.normalize())}
        if head == head.to_integral_value() and head <= 1000:
            forms.add(_spelled_word(int(head), lang))  # "fourteen billion"
        folded = _folded(translation)
        if word[:5] not in folded:  # no scale word in the text: nothing to search for
            continue
        for form in forms - {""}:  # "12 million", or a range sharing the scale word: "12 to 14 million"
            if re.search(rf"(?<![\d.,]){re.escape(form)}(?:{RANGE})?\s*{re.escape(word[:5])}", folded):
                return True
    return False


@lru_cache(maxsize=4096)
def _format(value: str, lang: str) -> str:
    # Babel's decimal format of a value (as Decimal writes it) in ``lang``, once per run
    return babel_decimal(Decimal(value), lang)


def babel_decimal(value: Decimal, lang: str, pattern: Optional[str] = None) -> str:
    """Babel's ``format_decimal`` of ``value`` in ``lang`` (``pattern``: Babel's, else the
    locale's), with the decimal precision the value's digits need: Babel rounds through the
    context's precision, 28 digits by default, and a longer run of digits (a neural model's loop
    writes ``1111...`` to its length bound) raised decimal.InvalidOperation."""
    from babel.numbers import format_decimal

    with localcontext() as ctx:  # this thread's context, for this call alone
        ctx.prec = max(ctx.prec, len(value.as_tuple().digits) + 4)
        return format_decimal(value, format=pattern, locale=lang)


@lru_cache(maxsize=4096)
def _spelled_word(n: int, lang: str) -> str:
    # num2words' words for n, case-folded; "" where it has no such language
    try:
        from num2words import num2words

        return num2words(n, lang=lang).casefold()
    except (ImportError, NotImplementedError, KeyError, OverflowError):
        return ""


@lru_cache(maxsize=4096)
def _ordinal_word(n: int, lang: str) -> str:
    # num2words' ordinal for n ("fifth", "fünfte"), case-folded; "" where it has none for ``lang``
    try:
        from num2words import num2words

        return num2words(n, lang=lang, to="ordinal").casefold()
    except (ImportError, NotImplementedError, KeyError, OverflowError, TypeError, ValueError):
        return ""


@lru_cache(maxsize=64)
def _scale_word(scale: int, lang: str) -> str:
    # the last word of the scale's name, case-folded ("billion", "millionen" -> "million")
    try:
        from num2words import num2words

        return num2words(scale, lang=lang).split()[-1].casefold()
    except (ImportError, NotImplementedError, KeyError, OverflowError):
        return ""


_PLAIN = re.compile(r"(?<![\w.,])\d{4,}(?!\w|[.,]\d)")


def ungrouped_in(translation: str, source: str, target_lang: str, *, at_least: int = 1) -> list[tuple[str, str]]:
    """(as written, as the target groups it) for the whole numbers of four digits or more that
    ``translation`` writes without the digit groups CLDR writes them with in the target language
    (:func:`cldr_grouped`; four-digit years aside, :func:`maybe_year`) and that ``source`` does
    not write so itself (a code, a postcode): ``20000`` in English for the source's 两万.
    ``at_least``: as :func:`cldr_grouped`'s."""
    out = []
    for m in _PLAIN.finditer(translation):
        digits = m.group()
        if digits in source or digits.startswith("0") or not cldr_grouped(Decimal(digits), target_lang, at_least=at_least):
            continue
        if maybe_year(digits, translation, target_lang):
            continue
        grouped = babel_decimal(Decimal(digits), target_lang, "#,##0").translate(_SPACES)
        if grouped != digits:
            out.append((digits, grouped))
    return out
