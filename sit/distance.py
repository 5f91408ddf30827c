"""Distances between the dependency trees of two translations (pure functions).

Every distance takes ``discount``: with it, the arcs of tokens that one translation replaced by
another one-for-one (the translated substitute, usually) are left out of the counts, so that a
parser labelling just the new word differently is not a structure change; without it, SIT's
plain counts over every token.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Callable

from .records import Tree


def substituted(a: Tree, b: Tree) -> tuple[frozenset[int], frozenset[int]]:
    """0-based indices of the tokens of ``a`` and of ``b`` that replace each other one-for-one
    (a same-length ``replace`` block of a word-level alignment)."""
    return _substituted(a.tokens, b.tokens)


@lru_cache(maxsize=64)
def _opcodes(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[tuple[str, int, int, int, int], ...]:
    # the word-level alignment of two token sequences: the sit relation asks for a pair's distance,
    # its differing relations and its surface change right after another; one alignment for all
    # three (a few recent pairs kept, so memory stays flat)
    return tuple(SequenceMatcher(None, a, b, autojunk=False).get_opcodes())


@lru_cache(maxsize=64)
def _substituted(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[frozenset[int], frozenset[int]]:
    ia, ib = set(), set()
    for op, a0, a1, b0, b1 in _opcodes(a, b):
        if op == "replace" and a1 - a0 == b1 - b0:
            ia.update(range(a0, a1))
            ib.update(range(b0, b1))
    return frozenset(ia), frozenset(ib)


def _skips(a: Tree, b: Tree, discount: bool) -> tuple[frozenset[int], frozenset[int]]:
    return substituted(a, b) if discount else (frozenset(), frozenset())


def relation_counts(tree: Tree, skip: frozenset[int] = frozenset()) -> Counter:
    return Counter(rel for i, rel in enumerate(tree.relations) if i not in skip)


def relation_diff(a: Tree, b: Tree, *, discount: bool = False) -> dict[str, tuple[int, int]]:
    """Relations whose counts differ: ``{relation: (count in a, count in b)}``."""
    return dict(_relation_diff(a, b, discount))


@lru_cache(maxsize=64)
def _relation_diff(a: Tree, b: Tree, discount: bool) -> tuple[tuple[str, tuple[int, int]], ...]:
    # kept for a few recent pairs: the sit relation asks for a pair's distance, then for its diff
    sa, sb = _skips(a, b, discount)
    ca, cb = relation_counts(a, sa), relation_counts(b, sb)
    return tuple((rel, (ca[rel], cb[rel])) for rel in sorted(set(ca) | set(cb)) if ca[rel] != cb[rel])


def relation_distance(a: Tree, b: Tree, *, discount: bool = False) -> float:
    """SIT's distance: the sum over relation labels of |count in a - count in b|."""
    return float(sum(abs(x - y) for x, y in relation_diff(a, b, discount=discount).values()))


def head_relation_distance(a: Tree, b: Tree, *, discount: bool = False) -> float:
    """A finer variant: counts of (relation, relation of the head) pairs differ."""
    sa, sb = _skips(a, b, discount)

    def pairs(t: Tree, skip: frozenset[int]) -> Counter:
        return Counter(
            (rel, t.relations[h - 1] if h else "root")
            for i, (rel, h) in enumerate(zip(t.relations, t.heads)) if i not in skip
        )

    pa, pb = pairs(a, sa), pairs(b, sb)
    return float(sum(abs(pa[k] - pb[k]) for k in set(pa) | set(pb)))


DISTANCES: dict[str, Callable[..., float]] = {
    "relation": relation_distance,
    "head-relation": head_relation_distance,
}


# -- the surface gate ------------------------------------------------------------------------
#: the longest hunk (in tokens, either side) that can be the translated substitute itself
SUBSTITUTE_HUNK = 3


def _variant(x: str, y: str, stops: frozenset[str]) -> bool:
    """Two tokens that differ only by agreement or function words: both stop words (el/la,
    del/de), or the same stem (atacado/atacada, nuevo/nuevos: a shared prefix of 4 characters,
    or of all but one character for shorter words)."""
    x, y = x.lower(), y.lower()
    if x == y or (x in stops and y in stops):
        return True
    n = min(len(x), len(y))
    need = 4 if n >= 5 else max(n - 1, 2)
    return n >= 2 and x[:need] == y[:need]


def _hunk_kind(a: list[str], b: list[str], stops: frozenset[str]) -> str:
    """``agreement`` (function words and inflections only), ``substitute`` (a short block of
    other words, none of them moved from the other side) or ``structure``. A hunk that would be
    ``structure`` is judged again without the agreement around it (:func:`_around`): the
    function words that open it on both sides (``de la`` / ``del``, ``al`` / ``a los``:
    contractions and articles) and the inflected words that close or open it in pairs
    (``cortada`` / ``cortado``)."""
    kind = _plain_kind(a, b, stops)
    if kind != "structure":
        return kind
    inner_a, inner_b = _around(a, b, stops)
    if (inner_a, inner_b) == (a, b):
        return kind
    if not inner_a and not inner_b:
        return "agreement"
    if not inner_a or not inner_b or any(_variant(x, y, frozenset()) for x in inner_a for y in inner_b):
        return "structure"  # words dropped or inserted, or an inflected word inside: more than one change
    return _plain_kind(inner_a, inner_b, stops)


def _plain_kind(a: list[str], b: list[str], stops: frozenset[str]) -> str:
    if len(a) == len(b) and all(_variant(x, y, stops) for x, y in zip(a, b)):
        return "agreement"
    if all(t.lower() in stops for t in a + b):
        return "agreement"
    moved = {t.lower() for t in a if t.lower() not in stops} & {t.lower() for t in b if t.lower() not in stops}
    if moved or max(len(a), len(b)) > SUBSTITUTE_HUNK or not a or not b:
        return "structure"
    return "substitute"


def _around(a: list[str], b: list[str], stops: frozenset[str]) -> tuple[list[str], list[str]]:
    """``a`` and ``b`` without the agreement at their edges: leading runs of function words where
    both sides open with some, and pairs of inflections of one stem at either end."""
    def lead_stops(x: list[str]) -> int:
        n = 0
        while n < len(x) and x[n].lower() in stops:
            n += 1
        return n

    na, nb = lead_stops(a), lead_stops(b)
    if na and nb:
        a, b = a[na:], b[nb:]
    while a and b and _variant(a[0], b[0], frozenset()) and a[0].lower() not in stops:
        a, b = a[1:], b[1:]
    while a and b and _variant(a[-1], b[-1], frozenset()) and a[-1].lower() not in stops:
        a, b = a[:-1], b[:-1]
    return a, b


def surface_change(a: tuple[str, ...], b: tuple[str, ...], stops: frozenset[str] = frozenset()) -> list[str]:
    """How the token sequences of two translations differ beyond the translated substitute.

    The word-level alignment of ``a`` and ``b`` is split into hunks; hunks of agreement or
    function words (``stops``) are allowed anywhere, and one short hunk of other words (at most
    :data:`SUBSTITUTE_HUNK` tokens a side, no word moved) is the substitute's own translation.
    Returns a description of every other hunk (words inserted, dropped, moved, or a second
    content change); empty when the two translations are parallel, so a structure difference the
    parser reports is the parser's, not the translator's."""
    found, substitutes = [], 0
    for op, a0, a1, b0, b1 in _opcodes(tuple(a), tuple(b)):
        if op == "equal":
            continue
        ha, hb = list(a[a0:a1]), list(b[b0:b1])
        kind = _hunk_kind(ha, hb, stops)
        if kind == "agreement":
            continue
        if kind == "substitute" and substitutes == 0:
            substitutes += 1
            continue
        found.append(f"{' '.join(ha) or '∅'} → {' '.join(hb) or '∅'}")
    return found
