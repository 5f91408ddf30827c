"""Distances between the dependency trees of two translations (pure functions).

Every distance takes ``discount``: with it, the arcs of tokens that one translation replaced by
another one-for-one (the translated substitute, usually) are left out of the counts, so that a
parser labelling just the new word differently is not a structure change; without it, SIT's
plain counts over every token.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from typing import Callable

from .records import Tree


def substituted(a: Tree, b: Tree) -> tuple[frozenset[int], frozenset[int]]:
    """0-based indices of the tokens of ``a`` and of ``b`` that replace each other one-for-one
    (a same-length ``replace`` block of a word-level alignment)."""
    ia, ib = set(), set()
    for op, a0, a1, b0, b1 in SequenceMatcher(None, a.tokens, b.tokens, autojunk=False).get_opcodes():
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
    sa, sb = _skips(a, b, discount)
    ca, cb = relation_counts(a, sa), relation_counts(b, sb)
    return {rel: (ca[rel], cb[rel]) for rel in sorted(set(ca) | set(cb)) if ca[rel] != cb[rel]}


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
