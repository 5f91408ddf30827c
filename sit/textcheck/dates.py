"""Dates a translation writes against the target language's CLDR date patterns.

:func:`misformatted_dates` finds the dates of a translation written with a day number and a month
name of the target language (``31 January``, ``February 11, 2023``) or as an ISO 8601 date
(``2023-02-11``), and keeps those that none of the target language's CLDR date patterns writes
(Babel: the four date formats and the date skeletons of days, months and years): in English (CLDR
``en``: ``MMMM d, y``) ``31 January 2023`` and ``2023-02-11``, in German (``d. MMMM y``)
``Februar 11``; British English (``en-GB``: ``d MMMM y``) writes ``31 January 2023`` itself. A day
with an ordinal ending (``February 3rd``) is no date here: CLDR has no pattern for it, and
annotators take it either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Optional

from .numbers import month_words

_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2009": " "})
#: a CLDR pattern's fields: a run of one letter, a quoted literal, or one other character
_FIELD = re.compile(r"'(?:[^']|'')*'|([A-Za-z])\1*|.", re.DOTALL)
#: ISO 8601's calendar date, not inside a longer code, a path or a range of digits
_ISO = re.compile(r"(?<![\w/.-])(\d{4})-(\d{2})-(\d{2})(?![\w/-]|\.\d)")


@dataclass(frozen=True)
class Misdate:
    """A date of a translation that no CLDR pattern of the target language writes: as written,
    and how the target writes it (Babel's ``format_skeleton`` of the same fields)."""

    written: str
    expected: str


def misformatted_dates(translation: str, target_lang: str) -> list[Misdate]:
    """The dates of ``translation`` (a day and a month name of ``target_lang``, a year perhaps, or an
    ISO 8601 date) that none of the target language's CLDR date patterns writes, in order; none
    where Babel does not know the target language."""
    allowed = _allowed(target_lang)
    if not allowed:
        return []
    text = translation.translate(_SPACES)
    out = []
    for written, day, month, year in _candidates(text, target_lang):
        if any(p.fullmatch(written) for p in allowed):
            continue
        expected = _expected(day, month, year, target_lang)
        if expected and expected != written:
            out.append(Misdate(written, expected))
    return out


def _candidates(text: str, lang: str) -> list[tuple[str, int, int, Optional[int]]]:
    # (as written, day, month, year or None) for each day-and-month-name and each ISO date of text
    names = _month_names(lang)
    if not names:
        return []
    out = []
    for form in _forms(lang):
        for m in form.finditer(text):
            day, name = int(m.group("day")), m.group("month").casefold()
            if 1 <= day <= 31 and name in names:
                out.append((m.start(), m.group().rstrip(), day, names[name], int(m.group("year") or 0) or None))
    for m in _ISO.finditer(text):
        y, mo, d = map(int, m.groups())
        if 1 <= mo <= 12 and 1 <= d <= 31:
            out.append((m.start(), m.group(), d, mo, y))
    return [found[1:] for found in sorted(out)]


@lru_cache(maxsize=64)
def _forms(lang: str) -> tuple[re.Pattern, ...]:
    # a day and a month name of ``lang``, a year perhaps, in either order, compiled once a language
    alternatives = "|".join(re.escape(n) for n in sorted(_month_names(lang), key=len, reverse=True))
    month, year = rf"(?P<month>{alternatives})\.?", r"(?:,?\s(?P<year>\d{4})(?![\w.,]\d|\d))?"
    return (re.compile(rf"(?<![\w.,])(?P<day>\d{{1,2}})\.?\s{month}(?!\w){year}", re.IGNORECASE),  # 31 January, 11. Februar
            re.compile(rf"(?<!\w){month}\s(?P<day>\d{{1,2}})(?![\w]|[.,:]\d){year}", re.IGNORECASE))  # January 31, 2023


def _expected(day: int, month: int, year: Optional[int], lang: str) -> str:
    # the same day, month and year as the target language's CLDR writes them with month names
    from babel.dates import format_skeleton

    try:
        when = date(year or 2000, month, day)
    except ValueError:  # 31 February: no date
        return ""
    return format_skeleton("yMMMMd" if year else "MMMMd", when, locale=_locale(lang)).translate(_SPACES)


def _locale(lang: str) -> str:
    return lang.replace("-", "_")


@lru_cache(maxsize=64)
def _month_names(lang: str) -> dict[str, int]:
    # CLDR's month names of ``lang`` in letters (wide and abbreviated, format and stand-alone:
    # :func:`~sit.textcheck.numbers.month_words`), case-folded -> the month
    out: dict[str, int] = {}
    for month, names in month_words(lang).items():
        for name in names:
            out.setdefault(name.casefold(), month)
    return out


@lru_cache(maxsize=64)
def _allowed(lang: str) -> tuple[re.Pattern, ...]:
    # the target language's CLDR date patterns of days, months and years (its four date formats,
    # the weekday left out, and its date skeletons), each as a regular expression
    from babel import Locale
    from babel.core import UnknownLocaleError

    try:
        locale = Locale.parse(_locale(lang))
        patterns = [f.pattern for f in locale.date_formats.values()]
        patterns += [p.pattern for skeleton, p in locale.datetime_skeletons.items()
                     if set(skeleton) <= set("yMd") and "d" in skeleton and "ddd" not in skeleton]
    except (UnknownLocaleError, ValueError):
        return ()
    names = _month_names(lang)
    out = {_regex(p, names) for p in patterns}
    return tuple(re.compile(r, re.IGNORECASE) for r in out if r)


def _regex(pattern: str, names: dict[str, int]) -> str:
    # a CLDR date pattern as a regular expression over dates written with it: d, M and y as digits,
    # MMM and MMMM (L too) as month names with an optional full stop, literals as written, any
    # space as one space; a weekday (E) and what stands between it and the date are left out, and
    # so is a literal after the year (Russian "г.", which a date found here does not take in);
    # "" for a pattern with fields of other kinds
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.sub(r"^E+[^dMLy']*|[^dMLy']*E+$", "", pattern.translate(_SPACES))
    pattern = re.sub(r"(?<=y)(?:\s*'[^']*'|[\s.])+$", "", pattern)  # Russian y 'г'.: the year's word is the text's
    out = []
    for m in _FIELD.finditer(pattern):
        token = m.group()
        letter = m.group(1)
        if letter in ("d", "M", "L") and len(token) <= 2:
            out.append(r"\d{2}" if len(token) == 2 else r"\d{1,2}")
        elif letter in ("M", "L"):
            out.append(rf"(?:{alternatives})\.?")
        elif letter == "y":
            out.append(r"\d{2}" if len(token) == 2 else r"\d{4}")
        elif letter:
            return ""
        elif token.startswith("'"):
            out.append(re.escape(token[1:-1].replace("''", "'")) if token != "''" else "'")
        elif token.isspace():
            out.append(r"\s")
        else:
            out.append(re.escape(token))
    return "".join(out)
