"""Word-level diff of two texts, as character spans to highlight on each side.

Words are runs of letters/digits; punctuation marks are words of their own; CJK ideographs,
kana and Hangul syllables are one word per character (those scripts put no spaces between
words, and a per-character diff is what a reader of them expects). Whitespace is never a word,
so a change in spacing alone is no difference.

Spans are ``(start, end)`` offsets in Python string indices (code points) of the given text,
merged where adjacent changed words are only separated by whitespace.
"""

from __future__ import annotations

import difflib
import re
from typing import NamedTuple

# One-character words: CJK ideographs (with extensions and compatibility), kana, Hangul, and
# fullwidth/CJK punctuation.
_CJK = (
    "\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f"
)
# Combining marks (and whole Indic/Thai blocks, whose vowel signs are marks) stay inside words.
_MARKS = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed"
    "\u0900-\u0963\u0966-\u0eff\u1ab0-\u1aff\u1dc0-\u1dff\u200c\u200d\u20d0-\u20ff\ufe20-\ufe2f"
)
_TOKEN = re.compile(rf"[{_CJK}]|(?:[^\W{_CJK}]|[{_MARKS}])+|[^\w\s]", re.UNICODE)

Span = tuple[int, int]


class Token(NamedTuple):
    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Words of ``text`` with their character spans (whitespace dropped)."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _merge(spans: list[Span], text: str) -> list[Span]:
    merged: list[Span] = []
    for start, end in spans:
        if merged and not text[merged[-1][1]:start].strip():
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


class WordDiff(NamedTuple):
    """Changed spans of ``a`` (removed or replaced) and of ``b`` (inserted or replacing)."""

    a: list[Span]
    b: list[Span]

    @property
    def changed(self) -> bool:
        return bool(self.a or self.b)


def word_diff(a: str, b: str) -> WordDiff:
    """The words that differ between ``a`` and ``b`` (difflib's matching of word sequences)."""
    if a == b:  # a finding on one text by itself: the same translation on both sides
        return WordDiff([], [])
    # the words' matches, not Tokens: a span is made only for a word that changed
    ta, tb = list(_TOKEN.finditer(a or "")), list(_TOKEN.finditer(b or ""))
    matcher = difflib.SequenceMatcher(None, [m.group() for m in ta], [m.group() for m in tb], autojunk=False)
    spans_a: list[Span] = []
    spans_b: list[Span] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        spans_a.extend(m.span() for m in ta[i1:i2])
        spans_b.extend(m.span() for m in tb[j1:j2])
    return WordDiff(_merge(spans_a, a or ""), _merge(spans_b, b or ""))


def edit_spans(original: str, perturbed: str, before: str, after: str,
               char_start: int = -1, char_end: int = -1) -> WordDiff:
    """Where a perturbation's substituted word sits in the original and the perturbed source.

    Uses the edit's character span in the perturbed text when it is known and consistent
    (the text there is ``after``); otherwise falls back to the word diff of the two sources.
    """
    if 0 <= char_start < char_end <= len(perturbed) and perturbed[char_start:char_end] == after:
        span_b = [(char_start, char_end)]
        # The original has ``before`` at the same offset when the prefix is unchanged.
        if original[:char_start] == perturbed[:char_start] and before and \
                original[char_start:char_start + len(before)] == before:
            return WordDiff([(char_start, char_start + len(before))], span_b)
        return WordDiff(word_diff(original, perturbed).a, span_b)
    return word_diff(original, perturbed)


def segments(text: str, spans: list[Span]) -> list[tuple[str, bool]]:
    """``text`` cut into ``(piece, highlighted)`` segments, for renderers."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for start, end in sorted(spans):
        start, end = max(start, pos), min(end, len(text))
        if start >= end:
            continue
        if start > pos:
            out.append((text[pos:start], False))
        out.append((text[start:end], True))
        pos = end
    if pos < len(text):
        out.append((text[pos:], False))
    return out
