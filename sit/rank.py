"""Threshold and rank scored pairs into issues (pure functions)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Iterable

from .records import Issue


def rank_issues(candidates: Iterable[Issue], *, threshold: float = 0.0, top_k: int = 3) -> list[Issue]:
    """Keep candidates with distance > ``threshold``; per group (relation and kind, see
    :attr:`Issue.group`) and source sentence rank them by distance (descending), ties by the
    shorter perturbed translation, then the perturbed text; keep the top ``top_k`` (``top_k <= 0``
    keeps all). Returns issues ordered by group (a relation's own findings before its other
    kinds), then source id, then rank."""
    groups: dict[tuple[str, int], list[Issue]] = defaultdict(list)
    for c in candidates:
        if c.distance > threshold:
            groups[(c.group, c.pair.source_id)].append(c)
    out: list[Issue] = []
    for key in sorted(groups, key=lambda k: (k[0].count("."), k[0], k[1])):
        ranked = sorted(
            groups[key],
            key=lambda i: (-i.distance, len(i.perturbed_translation), i.pair.perturbed),
        )
        if top_k > 0:
            ranked = ranked[:top_k]
        out.extend(replace(issue, rank=n) for n, issue in enumerate(ranked, start=1))
    return out


def worst_first(issues: Iterable[Issue]) -> list[Issue]:
    """``issues`` as a run directory keeps them (``issues.jsonl``): the groups in the order given;
    within a group, sentences worst first (their largest distance, then source id), each
    sentence's issues by rank. The reports show them in this order."""
    issues = list(issues)
    order = {g: n for n, g in enumerate(dict.fromkeys(i.group for i in issues))}
    worst: dict[tuple[str, int], float] = {}
    for i in issues:
        key = (i.group, i.pair.source_id)
        worst[key] = max(worst.get(key, i.distance), i.distance)
    return sorted(issues, key=lambda i: (order[i.group], -worst[(i.group, i.pair.source_id)], i.pair.source_id,
                                         i.rank))
