"""Threshold and rank scored pairs into issues (pure functions)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Callable, Iterable

from .records import Issue

#: a perturbation whose edit's ``naturalness`` is below this is likely unnatural English (the
#: WordNet perturber's ``Naturalness`` check, :mod:`sit.perturb.naturalness`): it never outranks
#: one that is likely natural, or one whose naturalness was not measured
NATURAL = 0.5


def natural_tier(issue: Issue) -> int:
    """0 where the issue's perturbation is likely unnatural English (its edit's ``naturalness``
    below :data:`NATURAL`), else 1 (likely natural, or naturalness not measured). A relation
    whose findings rank so says it in its :meth:`~sit.relations.base.Relation.tier`."""
    score = issue.pair.edit.naturalness
    return 1 if score is None or score >= NATURAL else 0


def declared_tier(issue: Issue) -> int:
    """The tier ``issue``'s relation declares for it (:meth:`sit.relations.base.Relation.tier`);
    1 where no relation of its name loads here."""
    from .relations import declared

    cls = declared(issue.relation)
    return cls.tier(issue) if cls is not None else 1


def rank_issues(candidates: Iterable[Issue], *, threshold: float = 0.0, top_k: int = 3,
                tier: Callable[[Issue], int] = declared_tier) -> list[Issue]:
    """Keep candidates with distance > ``threshold``; per group (relation and kind, see
    :attr:`Issue.group`) and source sentence rank them by ``tier``, higher first (their
    relation's declared tier: sit's likely natural perturbations first), then by distance (descending), ties by the shorter perturbed
    translation, then the perturbed text; keep the top ``top_k`` (``top_k <= 0`` keeps all).
    Returns issues ordered by group (a relation's own findings before its other kinds), then
    source id, then rank."""
    groups: dict[tuple[str, int], list[Issue]] = defaultdict(list)
    for c in candidates:
        if c.distance > threshold:
            groups[(c.group, c.pair.source_id)].append(c)
    out: list[Issue] = []
    for key in sorted(groups, key=lambda k: (k[0].count("."), k[0], k[1])):
        ranked = sorted(
            groups[key],
            key=lambda i: (-tier(i), -i.distance, len(i.perturbed_translation), i.pair.perturbed),
        )
        if top_k > 0:
            ranked = ranked[:top_k]
        out.extend(replace(issue, rank=n) for n, issue in enumerate(ranked, start=1))
    return out


def worst_first(issues: Iterable[Issue], tier: Callable[[Issue], int] = declared_tier) -> list[Issue]:
    """``issues`` as a run directory keeps them (``issues.jsonl``): the groups in the order given;
    within a group, the higher ``tier`` first (their relation's declared tier: sit's likely natural
    perturbations before the likely unnatural ones), and within a tier sentences worst first (their
    largest distance there, then source id), each sentence's issues by rank. The reports show them
    in this order."""
    issues = list(issues)
    tiers = {id(i): tier(i) for i in issues}
    order = {g: n for n, g in enumerate(dict.fromkeys(i.group for i in issues))}
    worst: dict[tuple[str, int, int], float] = {}
    for i in issues:
        key = (i.group, i.pair.source_id, tiers[id(i)])
        worst[key] = max(worst.get(key, i.distance), i.distance)
    return sorted(issues, key=lambda i: (order[i.group], -tiers[id(i)],
                                         -worst[(i.group, i.pair.source_id, tiers[id(i)])], i.pair.source_id,
                                         i.rank))
