"""Threshold and rank scored pairs into issues (pure functions)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Iterable

from .records import Issue

#: a perturbation whose edit's ``naturalness`` is below this is likely unnatural English (the
#: WordNet perturber's ``Naturalness`` check, :mod:`sit.perturb.naturalness`): it never outranks
#: one that is likely natural, or one whose naturalness was not measured
NATURAL = 0.5


def natural_tier(issue: Issue) -> int:
    """0 where the issue is a ``sit`` structure finding whose perturbation is likely unnatural
    English, else 1 (likely natural, naturalness not measured, or another group: ``sit``'s
    untranslated findings and the other relations keep their own order)."""
    score = issue.pair.edit.naturalness
    if score is None or issue.pair.relation != "sit" or issue.kind:
        return 1
    return 0 if score < NATURAL else 1


def rank_issues(candidates: Iterable[Issue], *, threshold: float = 0.0, top_k: int = 3) -> list[Issue]:
    """Keep candidates with distance > ``threshold``; per group (relation and kind, see
    :attr:`Issue.group`) and source sentence rank them likely natural perturbations first
    (:func:`natural_tier`), then by distance (descending), ties by the shorter perturbed
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
            key=lambda i: (-natural_tier(i), -i.distance, len(i.perturbed_translation), i.pair.perturbed),
        )
        if top_k > 0:
            ranked = ranked[:top_k]
        out.extend(replace(issue, rank=n) for n, issue in enumerate(ranked, start=1))
    return out


def worst_first(issues: Iterable[Issue]) -> list[Issue]:
    """``issues`` as a run directory keeps them (``issues.jsonl``): the groups in the order given;
    within a group, the likely natural perturbations before the likely unnatural ones
    (:func:`natural_tier`; where no edit measured naturalness, all are of one tier), and within a
    tier sentences worst first (their largest distance there, then source id), each sentence's
    issues by rank. The reports show them in this order."""
    issues = list(issues)
    order = {g: n for n, g in enumerate(dict.fromkeys(i.group for i in issues))}
    worst: dict[tuple[str, int, int], float] = {}
    for i in issues:
        key = (i.group, i.pair.source_id, natural_tier(i))
        worst[key] = max(worst.get(key, i.distance), i.distance)
    return sorted(issues, key=lambda i: (order[i.group], -natural_tier(i),
                                         -worst[(i.group, i.pair.source_id, natural_tier(i))], i.pair.source_id,
                                         i.rank))
