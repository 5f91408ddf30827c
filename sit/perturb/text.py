"""Plain-text units the noise catalogue works on: words, sentences and documents.

Everything here is rule-based and dependency-free, so a perturbation gives the same output on
any machine. Offsets are character offsets into the original string, and every split keeps the
text between units (whitespace, punctuation) so that joining the pieces restores the input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..words import WORD

#: multi_news joins the documents of one example with this separator
DOCUMENT_SEPARATOR = "|||||"


@dataclass(frozen=True)
class Span:
    index: int  # position among the units of its kind (word index, sentence index)
    start: int
    end: int
    text: str


def words(text: str) -> list[Span]:
    """The words of ``text`` (:data:`sit.words.WORD`) with their character offsets."""
    return [Span(i, m.start(), m.end(), m.group()) for i, m in enumerate(WORD.finditer(text))]


def is_number(word: str) -> bool:
    return any(ch.isdigit() for ch in word)


# ---------------------------------------------------------------------------------------------
# sentences

ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st mt vs etc inc ltd co corp gen gov sen rep col lt sgt capt cmdr
    adm rev fr no nos vol fig approx dept est jan feb mar apr jun jul aug sep sept oct nov dec
    u.s u.k u.n e.g i.e a.m p.m""".split()
)
_END = re.compile(r"[.!?…]+[\"'”’»)\]]*|[。！？]+")
_OPENERS = "\"'“‘([«¿¡"
_TOKEN_BEFORE = re.compile(r"([^\W_]+(?:\.[^\W_]+)*)$")


def _is_abbreviation(text: str, period_at: int) -> bool:
    m = _TOKEN_BEFORE.search(text, 0, period_at)
    if not m:
        return False
    token = m.group(1)
    return token.lower() in ABBREVIATIONS or (len(token) == 1 and token.isupper())


def sentences(text: str) -> list[Span]:
    """The sentences of ``text``: a sentence ends at ``.``, ``!``, ``?`` or ``…`` (with closing
    quotes or brackets) followed by whitespace and an upper-case (or caseless) letter, a digit or
    an opening quote, unless the period closes a known abbreviation or an initial; CJK full stops always
    end a sentence. Spans exclude surrounding whitespace."""
    spans: list[tuple[int, int]] = []
    start = 0
    n = len(text)
    for m in _END.finditer(text):
        end = m.end()
        mark = m.group()
        if mark[0] not in "。！？":
            j = end
            while j < n and text[j].isspace():
                j += 1
            if j == end or j >= n:
                continue  # no whitespace after it, or the end of the text
            nxt = text[j]
            if not (nxt.isupper() or nxt.isdigit() or nxt in _OPENERS or (nxt.isalpha() and not nxt.islower())):
                continue
            if mark.startswith(".") and mark.count(".") == 1 and _is_abbreviation(text, m.start()):
                continue
        if text[start:end].strip():
            spans.append((start, end))
        start = end
    if text[start:].strip():
        spans.append((start, n))
    out = []
    for i, (s, e) in enumerate(spans):
        chunk = text[s:e]
        s2 = s + (len(chunk) - len(chunk.lstrip()))
        e2 = e - (len(chunk) - len(chunk.rstrip()))
        out.append(Span(i, s2, e2, text[s2:e2]))
    return out


def documents(text: str, separator: str = DOCUMENT_SEPARATOR) -> list[Span]:
    """The documents of a multi-document text joined by ``separator`` (whitespace trimmed);
    a text without the separator is one document."""
    out = []
    pos = 0
    for part in text.split(separator) if separator else [text]:
        s = pos + (len(part) - len(part.lstrip()))
        e = pos + len(part.rstrip())
        if e > s:
            out.append(Span(len(out), s, e, text[s:e]))
        pos += len(part) + len(separator)
    return out
