"""Typography of a translation: its quotation marks against the target language's own (CLDR's
delimiters, committed in ``sit/data/cldr_quotes.json`` by ``scripts/cldr_quotes.py``), and its
spaces (two in a row, one before a comma or a period).

A straight quote ``"`` is the typewriter's stand-in for English-style marks (“ ”): a language whose
CLDR marks are those (English, Spanish, Chinese ...) takes it in plain text, one that writes others
(German „ “, French « », Russian « », Japanese 「 」) does not, and a translation that keeps the
source's straight quotes there carries the source's convention over. So does an English opening
mark “ where the target language opens a quotation with neither of its marks.
"""

from __future__ import annotations

import re

from .cldr import by_locale
from .tokens import TOKEN as PASS_THROUGH

#: an English opening mark: at the start or after a space or an opening bracket, before a non-space
_OPENING = re.compile(r"(?:^|(?<=[\s(\[{]))“(?=\S)")


def quote_marks(lang: str) -> str:
    """``lang``'s four CLDR quotation marks: start, end, alternate start, alternate end."""
    return str(by_locale("cldr_quotes", lang))


def foreign_quotes(translation: str, lang: str) -> list[str]:
    """The quotation marks of ``translation`` that are not ``lang``'s own (see the module): ``"``
    where the language's marks are not “ ”, ``“`` opening a quotation where it opens with
    neither of its marks; each mark once, in order of first use."""
    marks = quote_marks(lang)
    text = PASS_THROUGH.sub(" ", translation)  # a URL's or a tag's quotes are the markup's
    found = []
    if marks[0] != "“" and '"' in text:
        found.append('"')
    if "“" not in (marks[0], marks[2]) and _OPENING.search(text):
        found.append("“")
    return found


#: typographic double quotation marks a source may quote with: English's and German's curly ones,
#: guillemets, the CJK corner brackets
_TYPOGRAPHIC_QUOTES = re.compile("[“”„«»‹›「」『』]")


def straightened_quotes(source: str, translation: str, lang: str) -> list[str]:
    """``['"']`` where ``source`` quotes with typographic marks (“ ”, „ “, « », 「 」) and
    ``translation`` with the typewriter's ``"`` in a language whose CLDR marks are “ ” (where they
    are not, :func:`foreign_quotes` names every ``"``): the translation dropped the marks the
    source had; else ``[]``. A URL's or a tag's quotes are the markup's."""
    if quote_marks(lang)[0] != "“" or not _TYPOGRAPHIC_QUOTES.search(PASS_THROUGH.sub(" ", source)):
        return []
    return ['"'] if '"' in PASS_THROUGH.sub(" ", translation) else []


#: what may close a text after its last mark: quotes, brackets, spaces
_CLOSING = "\"'”’»)]}」』 \t\n"
#: marks a text may end with that close or pause it: sentence marks of any script, a colon, a
#: semicolon, a comma, an ellipsis, a dash
_ENDING_MARKS = frozenset(".。!！?？;；:：,，、…—–-।؟")


def added_period(source: str, translation: str) -> list[str]:
    """``["."]`` where ``translation`` ends with a period (closing quotes and brackets aside) and
    ``source`` with no mark at all (a headline, a title, a label: "四大行降低存款利率" -> "Four banks
    cut deposit rates."), the final mark pofilter's ``endpunc`` compares; else ``[]``."""
    src, out = source.rstrip(_CLOSING), translation.rstrip(_CLOSING)
    if not src or not out or src[-1] in _ENDING_MARKS or not src[-1].isalnum():
        return []
    return ["."] if out.endswith(".") and not out.endswith("..") else []


#: the punctuation of CJK text: ideographic marks (、。「」『』【】〈〉《》) and the full-width forms
#: of ASCII's marks (，：；！？（）)
_WIDE = re.compile(r"[\u3001-\u3003\u3008-\u3011\u3014-\u301f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")
#: the languages written with those marks
WIDE_MARK_LANGUAGES = frozenset({"zh", "ja", "ko", "yue", "wuu"})


def wide_marks(translation: str, lang: str) -> list[str]:
    """The ideographic and full-width marks of ``translation`` (a Chinese source's ``，`` and
    ``。`` kept) where the target language is not written with them, each once."""
    if lang.split("-")[0].split("_")[0].lower() in WIDE_MARK_LANGUAGES:
        return []
    return list(dict.fromkeys(_WIDE.findall(PASS_THROUGH.sub(" ", translation))))


#: a hyphen standing for a dash: a space on each side, between two words or numbers ("Einstein - und")
_SPACED_HYPHEN = re.compile(r"(?<=[\w,.;:!?\"”“»«)]) -{1,2} (?=[\w\"„“«»(])")


def hyphen_dashes(translation: str) -> list[str]:
    """The hyphens of ``translation`` that stand for a dash (a space on each side: " - " or the
    typewriter's " -- "), each with its neighbouring words: every language's typography writes a
    dash there (– or —), whatever the source's typewriter did."""
    text = PASS_THROUGH.sub(" ", translation)
    return list(dict.fromkeys(_around(text, m.start(), m.end()) for m in _SPACED_HYPHEN.finditer(text)))


#: two spaces or more between two words or marks; a space before a comma, a period or a
#: closing bracket; a space after an opening bracket or a quotation mark that opens
_SPACES = re.compile(r"(?<=\S)[ \u00a0]{2,}(?=\S)|(?<=[^\W\d_]) [,.)](?!\w)|(?:^|(?<= ))[\"(] (?=\w)")


def bad_spaces(source: str, translation: str, lang: str) -> list[str]:
    """The stretches of ``translation`` spaced against the rules every Latin-script language keeps
    (two spaces in a row, a space before ``,`` ``.`` ``)`` or after ``(`` and an opening
    ``"``), each with its neighbouring words, where the source has no such space; French and the
    languages that space before ``;`` ``:`` ``?`` ``!`` are spaced so by their own rule, which
    these stretches leave alone."""
    if _SPACES.search(PASS_THROUGH.sub(" ", source)):
        return []  # the source's own spacing (a table, a layout) carried over
    text = PASS_THROUGH.sub(" ", translation)
    return list(dict.fromkeys(_around(text, m.start(), m.end()) for m in _SPACES.finditer(text)))


def _around(text: str, start: int, end: int) -> str:
    # the stretch with the word on each side, as written
    before = re.search(r"\S*\Z", text[:start]).group(0)
    after = re.match(r"\S*", text[end:]).group(0)
    return (before + text[start:end] + after)[:60]
