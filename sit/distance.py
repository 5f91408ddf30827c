"""Distances between the dependency trees of two translations (pure functions)."""

from __future__ import annotations

from collections import Counter
from typing import Callable

from .records import Tree


def relation_counts(tree: Tree) -> Counter:
    return Counter(tree.relations)


def relation_diff(a: Tree, b: Tree) -> dict[str, tuple[int, int]]:
    """Relations whose counts differ: ``{relation: (count in a, count in b)}``."""
    ca, cb = relation_counts(a), relation_counts(b)
    return {rel: (ca[rel], cb[rel]) for rel in sorted(set(ca) | set(cb)) if ca[rel] != cb[rel]}


def relation_distance(a: Tree, b: Tree) -> float:
    """SIT's distance: the sum over relation labels of |count in a - count in b|."""
    ca, cb = relation_counts(a), relation_counts(b)
    return float(sum(abs(ca[r] - cb[r]) for r in set(ca) | set(cb)))


def head_relation_distance(a: Tree, b: Tree) -> float:
    """A finer variant: counts of (relation, relation of the head) pairs differ."""

    def pairs(t: Tree) -> Counter:
        return Counter((rel, t.relations[h - 1] if h else "root") for rel, h in zip(t.relations, t.heads))

    pa, pb = pairs(a), pairs(b)
    return float(sum(abs(pa[k] - pb[k]) for k in set(pa) | set(pb)))


DISTANCES: dict[str, Callable[[Tree, Tree], float]] = {
    "relation": relation_distance,
    "head-relation": head_relation_distance,
}
