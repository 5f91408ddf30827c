"""Threshold and rank scored pairs into issues (pure functions)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

from ..records import Issue

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
    from . import declared

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
    for key in sorted(groups, key=lambda k: (*group_key(k[0]), k[1])):
        ranked = sorted(
            groups[key],
            key=lambda i: (-tier(i), -i.distance, len(i.perturbed_translation), i.pair.perturbed),
        )
        if top_k > 0:
            ranked = ranked[:top_k]
        out.extend(replace(issue, rank=n) for n, issue in enumerate(ranked, start=1))
    return out


def group_key(group: str) -> tuple[int, str]:
    """Where ``group`` stands among its relation's groups (:func:`rank_issues`' order): the
    relation's own findings (``sit``) before its kinds (``sit.untranslated``), then by name."""
    return group.count("."), group


def worst_first(issues: Iterable[Issue], tier: Callable[[Issue], int] = declared_tier) -> list[Issue]:
    """``issues`` as a run directory keeps them (``issues.jsonl``): the groups in the order given;
    within a group, the higher ``tier`` first (their relation's declared tier: sit's likely natural
    perturbations before the likely unnatural ones), and within a tier sentences worst first (their
    largest distance there, then source id), each sentence's issues by rank. The reports show them
    in this order."""
    issues = list(issues)
    keys = [(i.group, tier(i), i.distance, i.pair.source_id, i.rank) for i in issues]
    return [issues[n] for n in worst_first_order(keys)]


def worst_first_order(keys: Sequence[Sequence[Any]], order: Optional[Mapping[str, int]] = None) -> list[int]:
    """The positions of the findings whose keys (group, tier, distance, source id, rank, and
    anything after: not read) are ``keys``, in :func:`worst_first`'s order; ``order``: group -> its
    place (default: the order the groups first come in ``keys``)."""
    if order is None:
        order = {g: n for n, g in enumerate(dict.fromkeys(k[0] for k in keys))}
    worst: dict[tuple[str, int, int], float] = {}
    for group, tier, distance, source_id, *_ in keys:
        worst[(group, source_id, tier)] = max(worst.get((group, source_id, tier), distance), distance)
    return sorted(range(len(keys)), key=lambda n: (order[keys[n][0]], -keys[n][1],
                                                   -worst[(keys[n][0], keys[n][3], keys[n][1])], keys[n][3],
                                                   keys[n][4]))
