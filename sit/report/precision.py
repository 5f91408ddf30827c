"""Top-k precision of a run from triage labels (the SIT paper's measure), per relation.

Each group of findings (``sit``, ``sit.untranslated``, ``rti``, ``patinv``: see
:attr:`sit.records.Issue.group`) is ranked apart, so its precision is measured apart
(:func:`precision_by_relation`). For each flagged source sentence of a group, its top-k is a hit when any of its ``k`` best-ranked issues is
labelled a bug; top-k precision is the share of flagged sentences whose top-k is a hit. Issues
without a label count as not bugs (so the figure is a lower bound until every top-k issue is
labelled); ``judged`` counts the sentences whose top-k is decided anyway (a bug, or every issue
labelled), and ``precision_judged`` is the precision over those alone.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

from ..errors import InputError
from ..records import Issue
from .labels import CATEGORIES, Label, LabelKey, LabelMatch, for_run, issue_key, matched_labels


@dataclass(frozen=True)
class PrecisionAtK:
    k: int
    hits: int  # flagged sentences with a bug among their top-k issues
    sentences: int  # flagged sentences
    judged: int  # sentences whose top-k holds a bug or is fully labelled
    unlabelled: int  # top-k issues without a label

    @property
    def precision(self) -> Optional[float]:
        return self.hits / self.sentences if self.sentences else None

    @property
    def precision_judged(self) -> Optional[float]:
        return self.hits / self.judged if self.judged else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k, "hits": self.hits, "sentences": self.sentences, "judged": self.judged,
            "unlabelled": self.unlabelled, "precision": self.precision,
            "precision_judged": self.precision_judged,
        }


@dataclass(frozen=True)
class PrecisionResult:
    at_k: tuple[PrecisionAtK, ...]
    issues: int
    labelled: int
    bugs: int
    not_bugs: int
    categories: dict[str, int]  # category key (or "uncategorised") -> bugs
    unknown_labels: int = 0  # labels naming no issue of the run
    mismatched_labels: int = 0  # labels whose perturbed sentence differs from the run's
    top_k: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "top_k": self.top_k,
            "precision": [p.to_dict() for p in self.at_k],
            "issues": self.issues,
            "labelled": self.labelled,
            "unlabelled": self.issues - self.labelled,
            "bugs": self.bugs,
            "not_bugs": self.not_bugs,
            "categories": dict(self.categories),
            "unknown_labels": self.unknown_labels,
            "mismatched_labels": self.mismatched_labels,
        }

    def format(self) -> str:
        """A plain-text table, as ``sit precision`` prints it."""
        lines = ["top-k precision (a flagged sentence counts when a bug is among its top-k issues)",
                 f"{'k':>3}  {'precision':>9}  {'hits':>5}  {'sentences':>9}  {'judged':>6}  "
                 f"{'judged prec.':>12}  {'unlabelled':>10}"]
        for p in self.at_k:
            lines.append(
                f"{p.k:>3}  {_pct(p.precision):>9}  {p.hits:>5}  {p.sentences:>9}  {p.judged:>6}  "
                f"{_pct(p.precision_judged):>12}  {p.unlabelled:>10}"
            )
        lines.append(
            f"labels: {self.labelled} of {self.issues} issues labelled "
            f"({self.bugs} bug, {self.not_bugs} not a bug, {self.issues - self.labelled} unlabelled)"
        )
        if self.bugs:
            lines.append("bugs per error category:")
            width = max(len(name) for name in list(CATEGORIES.values()) + ["uncategorised"])
            for key, count in self.categories.items():
                lines.append(f"  {CATEGORIES.get(key, key):<{width}}  {count}")
        if self.unknown_labels or self.mismatched_labels:
            lines.append(
                f"ignored labels: {self.unknown_labels} naming no issue of this run, "
                f"{self.mismatched_labels} for a different perturbed sentence"
            )
        lines.extend(self.notes)
        return "\n".join(lines) + "\n"


def _pct(value: Optional[float]) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def compute_precision(
    issues: Iterable[Issue],
    labels: dict[LabelKey, Label],
    top_k: Optional[int] = None,
    *,
    strict: bool = True,
) -> PrecisionResult:
    """Top-k precision for k = 1..top_k over the flagged sentences of ``issues`` (a sentence of
    each group apart; pass one group's issues for one relation's figure).

    ``top_k`` defaults to the largest number of issues of any sentence. With ``strict``, labels
    that name no issue of the run raise :class:`~sit.errors.InputError` when none matches.
    """
    found: dict[LabelKey, str] = {}  # the labelled findings' perturbed sources
    groups: dict[tuple[str, int], list[tuple[int, LabelKey]]] = defaultdict(list)
    count = 0
    for issue in issues:  # one pass, holding each finding's key and rank (``issues`` may be a file read as it goes)
        key = issue_key(issue)
        groups[(issue.group, issue.pair.source_id)].append((issue.rank, key))
        if key in labels:
            found[key] = issue.pair.perturbed
        count += 1
    match: LabelMatch = matched_labels(found, labels) if strict else LabelMatch(
        {k: v for k, v in labels.items()}, (), ())
    kept = match.labels
    for group in groups.values():
        group.sort(key=lambda ranked: ranked[0])
    if top_k is None or top_k <= 0:
        top_k = max((len(g) for g in groups.values()), default=1)
    at_k = []
    for k in range(1, top_k + 1):
        hits = judged = unlabelled = 0
        for group in groups.values():
            top = [kept.get(key) for _, key in group[:k]]
            missing = sum(1 for lab in top if lab is None)
            hit = any(lab is not None and lab.is_bug for lab in top)
            hits += hit
            judged += hit or missing == 0
            unlabelled += missing
        at_k.append(PrecisionAtK(k, hits, len(groups), judged, unlabelled))
    labelled = [lab for key, lab in kept.items() if key in found]
    bugs = [lab for lab in labelled if lab.is_bug]
    counts = Counter(lab.category or "uncategorised" for lab in bugs)
    categories = {key: counts[key] for key in list(CATEGORIES) + ["uncategorised"] if counts.get(key)}
    notes = []
    if any(p.unlabelled for p in at_k):
        notes.append("note: unlabelled top-k issues count as not bugs; 'judged prec.' leaves out "
                     "sentences whose top-k is undecided")
    return PrecisionResult(
        at_k=tuple(at_k),
        issues=count,
        labelled=len(labelled),
        bugs=len(bugs),
        not_bugs=len(labelled) - len(bugs),
        categories=categories,
        unknown_labels=len(match.unknown),
        mismatched_labels=len(match.mismatched),
        top_k=top_k,
        notes=tuple(notes),
    )


def _run_top_k(run) -> Optional[int]:
    try:
        return int(run.meta.signature.top_k or 0) or None
    except (TypeError, ValueError):
        return None


def run_precision(run, labels: dict[LabelKey, Label], top_k: Optional[int] = None) -> PrecisionResult:
    """:func:`compute_precision` over all of a loaded run's issues, with ``top_k`` from its
    signature by default (use :func:`precision_by_relation` for a run of several relations)."""
    return compute_precision(run.issues, for_run(labels, run.meta), top_k if top_k is not None else _run_top_k(run))


def precision_by_relation(
    run, labels: dict[LabelKey, Label], top_k: Optional[int] = None, relations: Optional[list[str]] = None,
) -> dict[str, PrecisionResult]:
    """Precision of each group of ``run`` (in the run's order): those in ``relations``, by default
    every group that ``labels`` judges. Raises :class:`InputError` when a named group has no
    findings in the run, or when no label names a group of the run."""
    labels = for_run(labels, run.meta)
    groups = list(dict.fromkeys(i.group for i in run.issues))
    if relations:
        missing = [g for g in relations if g not in groups]
        if missing:
            raise InputError(f"the run has no {', '.join(map(repr, missing))} findings; "
                             f"its groups: {', '.join(groups) or 'none'}")
        chosen = list(relations)
    else:
        labelled = {lab.group for lab in labels.values()}
        chosen = [g for g in groups if g in labelled]
        if labels and not chosen:
            raise InputError(f"none of the {len(labels)} labels judges a finding of this run "
                             f"(labels for {', '.join(sorted(labelled))}; the run's groups: "
                             f"{', '.join(groups) or 'none'}); were they exported from this run's report.html?")
    top_k = top_k if top_k is not None else _run_top_k(run)
    # one pass over the run's findings for each group chosen, each holding only its keys
    return {g: compute_precision((i for i in run.issues if i.group == g),
                                 {k: lab for k, lab in labels.items() if lab.group == g}, top_k)
            for g in chosen}


def format_by_relation(results: dict[str, PrecisionResult], title_of: Optional[Callable[[str], str]] = None) -> str:
    """The plain-text tables of :func:`precision_by_relation`, one section per group, titled by
    ``title_of(group)`` where given."""
    parts = []
    for group, result in results.items():
        title = title_of(group) if title_of else None
        parts.append(f"== {group}{': ' + title if title else ''} ==\n{result.format()}")
    return "\n".join(parts)
