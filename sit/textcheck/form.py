"""The form of a translation against its source, as a localisation gate checks it (Xbench, Okapi
CheckMate, pofilter; issue 48, docs/check.md): brackets and quotation marks left unpaired where
the source pairs them, leading and trailing whitespace and line breaks that differ from the
source's (gettext's ``msgfmt -c`` refuses a message whose leading or trailing newline differs),
two spaces in a row the source does not write, and a word written twice back to back.

Every function takes the source and the translation and returns what is wrong, empty when
nothing is; none of them reads a language's data.
"""

from __future__ import annotations

import re
from collections import Counter

#: brackets by pair, opening first (angle brackets are comparisons and metavariables: left alone)
BRACKETS = ("()", "[]", "{}")
#: double quotation marks of every style: a pair writes two of them, in any language's style
#: (English “ ”, German „ “, French « », straight "); single ones are apostrophes too often
DOUBLE_QUOTES = "\"“”„«»"


def unpaired_brackets(source: str, translation: str) -> list[str]:
    """The brackets whose balance (openings less closings) in ``translation`` differs from that in
    ``source``: each pair as written (``()``), with the two balances (``()`` 0 -> 1)."""
    out = []
    if not _letters(source):  # a bracket or a quotation mark alone is translated as a mark
        return out
    for pair in BRACKETS:
        want, got = _balance(source, pair), _balance(translation, pair)
        if want != got:
            out.append(f"{pair} {want:+d} -> {got:+d}")
    return out


def _balance(text: str, pair: str) -> int:
    return text.count(pair[0]) - text.count(pair[1])


def unpaired_quotes(source: str, translation: str) -> bool:
    """Whether ``translation`` writes an odd number of double quotation marks (of any style)
    where ``source`` writes an even number: a quotation opened and not closed."""
    return _letters(source) and _quotes(source) % 2 == 0 and _quotes(translation) % 2 == 1


def _letters(text: str) -> bool:
    return any(c.isalpha() for c in text)


def _quotes(text: str) -> int:
    return sum(text.count(c) for c in DOUBLE_QUOTES)


def edge_whitespace(source: str, translation: str, *, spaces: bool = False, lines: bool = False) -> list[str]:
    """How the whitespace at the start and at the end of ``translation`` differs from the
    source's: ``start`` / ``end`` with both as written (``end '\\n' -> ''``). By default a line
    break there or none, as gettext's ``msgfmt -c`` compares them; with ``lines``, line breaks by
    number and spaces or tabs at the start by presence (a blank line lost, a text indented), not
    spaces at the end, which nothing shows; with ``spaces``, spaces and tabs at the end too
    (``Directory   `` may be ``Directorio  ``: a column's padding adapts to the word it pads)."""
    out = []
    for edge, pattern in (("start", r"^\s*"), ("end", r"\s*$")):
        want = re.search(pattern, source).group()
        got = re.search(pattern, translation).group()
        blanks = spaces or (lines and edge == "start")
        if _shape(want, blanks, lines or spaces) != _shape(got, blanks, lines or spaces):
            out.append(f"{edge} {want!r} -> {got!r}")
    return out


def _shape(space: str, spaces: bool, lines: bool) -> tuple:
    """What of the whitespace ``space`` at an edge is compared: line breaks by number (``lines``)
    or by presence, spaces and tabs by presence (``spaces``) or not at all."""
    breaks = space.count("\n") if lines else ("\n" in space or "\r" in space)
    return breaks, spaces and bool(space.replace("\r", "").replace("\n", ""))


def line_breaks(source: str, translation: str) -> tuple[int, int]:
    """The line breaks of ``source`` and of ``translation`` where their numbers differ, else (0, 0)."""
    want, got = source.count("\n"), translation.count("\n")
    return (want, got) if want != got else (0, 0)


#: two spaces or more between two marks that are not spaces, on one line, but after the end of a
#: sentence (two spaces there are GNU's convention: "directory.  If N")
_DOUBLE = re.compile(r"(?<=[^\s.!?])[ \u00a0]{2,}(?=\S)")


def double_spaces(source: str, translation: str) -> list[str]:
    """Stretches of ``translation`` with two spaces in a row (a word either side, not after a
    sentence's end), where the source writes none and aligns nothing with tabs (a help text that
    aligns its columns with spaces or tabs does)."""
    if _DOUBLE.search(source) or "\t" in source:
        return []
    return [translation[max(0, m.start() - 12):m.end() + 12] for m in _DOUBLE.finditer(translation)]


#: a word written twice back to back, one space between (not across a line break, a comma or a
#: column's padding), a compound's last part too (``Paket-Infodatei Infodatei``); case aside, but a
#: word against its capitals (``o O``, ``fichero FICHERO``) is two
_REPEATED = re.compile(r"(?<![\w'’])([^\W\d_]+)[ \u00a0](\1)(?!\w|['’]\w)", re.IGNORECASE)
#: words that a language writes twice by its grammar, by language: German "die die", "auf das das"
#: (a relative pronoun and an article), "ordnen Sie sie"; French "nous nous"; "que que" is not Spanish
GRAMMATICAL_DOUBLES = {"de": frozenset({"die", "der", "das", "dem", "den", "des", "sie"}),
                       "fr": frozenset({"nous", "vous"}),
                       "nl": frozenset({"die", "dat"}),
                       "en": frozenset({"that", "had"})}


def repeated_words(source: str, translation: str, lang: str) -> list[str]:
    """Words ``translation`` writes twice back to back that the source does not double (``the
    the``, ``de de``), each once; of words the target language doubles by its grammar
    (:data:`GRAMMATICAL_DOUBLES`), none; nor two compounds that share a part (``MI-FICHERO
    FICHERO-ANTIGUO``); nor an option's letter before the same word (``-o o -f``); nor a noun
    before a capitalised word where the source names a metavariable the translation translates
    (``den Wert Wert`` for ``VALUE``: the noun, then the metavariable)."""
    doubled = Counter(m.group(1).lower() for m in _REPEATED.finditer(source))
    allowed = GRAMMATICAL_DOUBLES.get(lang.split("-")[0].lower(), frozenset())
    metavariables = any(m.group(m.lastindex) not in translation for m in _METAVARIABLE.finditer(source))
    found = [m.group(1) for m in _REPEATED.finditer(translation)
             if m.group(1).lower() not in allowed and m.group(1).lower() not in doubled
             and not (translation[m.start() - 1:m.start()] == "-" and translation[m.end():m.end() + 1] == "-")
             and not re.search(r"(?:^|\s)--?$", translation[:m.start()])
             and not (metavariables and m.group(2)[:1].isupper())
             and (m.group(1)[1:] == m.group(2)[1:] and m.group(2)[:1] in (m.group(1)[:1], m.group(1)[:1].lower()))]
    return list(dict.fromkeys(found))


#: a metavariable in running text: a word of capitals (three or more) between words in lower case
#: (``give it VALUE``), not a heading or an abbreviation alone
_METAVARIABLE = re.compile(r"(?<=[a-z] )([A-Z]{3,})\b|\b([A-Z]{3,})(?= [a-z])")


__all__ = ["BRACKETS", "DOUBLE_QUOTES", "GRAMMATICAL_DOUBLES", "double_spaces", "edge_whitespace", "line_breaks",
           "repeated_words", "unpaired_brackets", "unpaired_quotes"]
