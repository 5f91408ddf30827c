"""Bags of target-language words, and what one bag has that another lacks (pure functions).

Used by the relations that compare translations without a target parser (``rti``), so they work
for any target language: Chinese and Japanese compare characters, other languages lower-cased
words; punctuation and the target language's stop words (articles, prepositions, the Chinese
particles 的/了) are left out, so a mere article change is no difference.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

from .words import BAG_WORD, stop_words

#: ways to make a bag: ``words`` (stop words and numbers dropped), ``all-words`` (every word, as
#: the paper counts them)
COMPARES = ("words", "all-words")
CHARACTER_LANGS = ("zh", "ja")
CJK_STOP = frozenset("的了“”，·、。：；！？（）《》")


def _words(text: str) -> list[str]:
    return [w.lower() for w in BAG_WORD.findall(text)]


def as_written(text: str, terms) -> list[str]:
    """``terms`` of a bag of ``text`` (lower-cased words, or characters) as they stand in
    ``text``: each word in its first spelling there, in the order they come."""
    wanted = set(terms)
    seen: dict[str, str] = {}
    for token in BAG_WORD.findall(text) if not all(len(t) == 1 for t in wanted) else list(text):
        key = token.lower()
        if key in wanted and key not in seen:
            seen[key] = token
    return list(seen.values())


def target_bag(text: str, lang: str, compare: str = "words") -> Counter:
    """The bag of ``text`` in language ``lang`` (see :data:`COMPARES`)."""
    if lang in CHARACTER_LANGS:
        return Counter(c for c in text if not c.isspace() and c not in CJK_STOP
                       and not unicodedata.category(c).startswith("P"))
    words = _words(text)
    if compare == "all-words":
        return Counter(words)
    stops = stop_words(lang)
    return Counter(w for w in words if w not in stops and not w.isdigit())


def missing_from(inner: Counter, outer: Counter) -> Counter:
    """What ``inner`` has more of than ``outer`` (the Purity bag distance's terms)."""
    return Counter({k: n - outer.get(k, 0) for k, n in inner.items() if n > outer.get(k, 0)})
