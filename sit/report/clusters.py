"""Root causes: the findings of a run grouped by what the bug is, ranked worst first.

:func:`cluster_issues` is a pure function of a run's findings (``issues.jsonl``): it gives every
finding exactly one :class:`Cluster`, keyed on what the bug is rather than on where it was seen.
Each relation declares the keys of its findings and titles them
(:meth:`sit.relations.base.Relation.cluster_keys`, ``cluster_title``); a key may be shared across
relations:

- ``word``: the same source word left untranslated (``sit.untranslated``, ``language.copied``,
  and a case variant whose translation copies a source word the sentence's own translation
  translated), whichever relation saw it; titled here;
- relations' own keys: ``number`` (numbers kept in the source's format), ``token`` and
  ``token-context`` (a class of pass-through token broken, or inserting it changed the
  sentence), ``structure``, ``slot`` and ``substitute`` (sit's structure changes), the case
  variants' keys, rti's phrase, patinv's change of meaning;
- ``group``: a finding no key describes (or whose relation does not load here), with the others
  of its relation and kind.

A finding that names several words (``language.copied``) joins the word most findings share. A
cluster's id is a hash of its key, so the same bug has the same id in every run (triage marks and
``sit compare`` rely on it). :func:`rank_clusters` orders them across relations, worst first: the
measured precision of their findings' groups (each relation's ``measured``, from the committed
labels), the severity of the kind (its ``severity``) and how many sentences show the bug. ``clusters.jsonl``
holds one cluster a line (:func:`write_clusters`); docs/report.md, "Clusters", defines it.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from ..records import Issue, stable_hash
from ..text import quoted
from ..words import letter_words as words, word_key  # noqa: F401 (words: importable here as before)

#: the file a run directory keeps its clusters in
CLUSTERS_FILE = "clusters.jsonl"

#: the precision a group no label measured is ranked with
UNMEASURED = 0.5
#: the severity of a group whose relation declares none
DEFAULT_SEVERITY = 1.5


@dataclass(frozen=True)
class Cluster:
    """One root cause: its key (what the bug is), its title, and the findings that show it."""

    key: tuple[str, ...]
    title: str
    issues: tuple[Issue, ...]
    precision: Optional[float] = None  # the measured precision of its findings' groups (None: unmeasured)
    severity: float = DEFAULT_SEVERITY
    score: float = 0.0
    rank: int = 0
    #: the id of its example where it was read from ``clusters.jsonl`` ("": worked out)
    example_id: str = ""

    @property
    def cluster_id(self) -> str:
        """A hash of the key: the same bug has the same id in every run."""
        return cluster_id(self.key)

    @property
    def groups(self) -> list[str]:
        return list(dict.fromkeys(i.group for i in self.issues))

    @property
    def relations(self) -> list[str]:
        return list(dict.fromkeys(i.relation for i in self.issues))

    @property
    def sentences(self) -> int:
        return len({i.pair.source_id for i in self.issues})

    @property
    def example(self) -> Issue:
        """The finding that shows the bug best: of the most precise group, the largest distance,
        then the shortest source."""
        if self.example_id:
            return next(i for i in self.issues if i.issue_id == self.example_id)
        return min(self.issues, key=lambda i: (-_precision(i.group, 0.0), -i.distance, len(i.pair.perturbed),
                                               i.pair.source_id, i.rank))

    def to_dict(self) -> dict[str, Any]:
        """The cluster as ``clusters.jsonl`` holds it."""
        ex = self.example
        return {
            "cluster_id": self.cluster_id, "rank": self.rank, "title": self.title, "key": list(self.key),
            "relations": self.relations, "groups": self.groups,
            "findings": len(self.issues), "sentences": self.sentences,
            "precision": None if self.precision is None else round(self.precision, 4),
            "severity": self.severity, "score": round(self.score, 4),
            "issue_ids": [i.issue_id for i in self.issues],
            "example": {"issue_id": ex.issue_id, "group": ex.group, "source_id": ex.pair.source_id,
                        "original": ex.pair.original, "perturbed": ex.pair.perturbed,
                        "original_translation": ex.original_translation,
                        "perturbed_translation": ex.perturbed_translation},
        }


def cluster_id(key: Sequence[str]) -> str:
    """The id of the cluster of ``key`` (a hash: stable across runs)."""
    return "c" + stable_hash("cluster", list(key))[:10]


def _declared(group: str):
    """(the class of the relation of ``group``, or None where none of its name loads; the kind)."""
    from ..relations import declared

    name, _, kind = group.partition(".")
    return declared(name), kind


def measured(group: str) -> Optional[tuple[int, int, str]]:
    """(real bugs, findings labelled, label file) of ``group`` as its relation declares it
    (:attr:`sit.relations.base.Relation.measured`), None where no label measured it."""
    cls, kind = _declared(group)
    return cls.measured.get(kind) if cls is not None else None


def measured_groups() -> dict[str, tuple[int, int, str]]:
    """Every group a relation of this installation declares measured: group -> (bugs, labelled, file)."""
    from ..relations import RELATIONS, declared

    return {f"{name}.{kind}" if kind else name: found for name in RELATIONS.names()
            if (cls := declared(name)) is not None for kind, found in cls.measured.items()}


def _precision(group: str, default: Optional[float] = UNMEASURED) -> Optional[float]:
    bugs_labelled = measured(group)
    return bugs_labelled[0] / bugs_labelled[1] if bugs_labelled and bugs_labelled[1] else default


def severity(group: str) -> float:
    """How bad a finding of ``group`` is, as its relation declares it (its kind's, else the
    relation's own: :attr:`sit.relations.base.Relation.severity`), else :data:`DEFAULT_SEVERITY`."""
    cls, kind = _declared(group)
    levels = cls.severity if cls is not None else {}
    return levels.get(kind, levels.get("", DEFAULT_SEVERITY))


# --------------------------------------------------------------------------- keys

def candidate_keys(issue: Issue, stops: frozenset[str] = frozenset()) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    """(the keys ``issue`` may join, most specific first; the key it takes when none of them is
    shared with another finding), as its relation declares them
    (:meth:`sit.relations.base.Relation.cluster_keys`); a finding whose relation declares none
    joins the others of its group. ``stops``: the target language's function words."""
    from ..relations import declared

    cls = declared(issue.relation)
    keys = cls.cluster_keys(issue, stops) if cls is not None else None
    return keys if keys is not None else ([], ("group", issue.group))


def _choose(issues: Sequence[Issue], stops: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
    """Each finding's key: of its candidates, the one most findings share (ties: the first); its
    fallback where no candidate is shared with another finding."""
    options = [candidate_keys(i, stops) for i in issues]
    support = Counter(k for keys, _ in options for k in dict.fromkeys(keys))
    chosen = []
    for keys, fallback in options:
        shared = [k for k in keys if support[k] > 1]
        chosen.append(max(shared, key=lambda k: (support[k], -keys.index(k))) if shared else fallback)
    return chosen


# --------------------------------------------------------------------------- titles

def title_of(key: Sequence[str], issues: Sequence[Issue], group_title=None) -> str:
    """What the bug of ``key`` is, in words: a word left untranslated, else as a relation of
    ``issues`` titles it (:meth:`sit.relations.base.Relation.cluster_title`), else the group's
    title (``group_title(group)``, the run's titles)."""
    from ..relations import declared

    if key[0] == "word":
        return f"{quoted(_as_written(key[1], issues))} is left untranslated (in English)"
    for name in dict.fromkeys(i.relation for i in issues):
        cls = declared(name)
        title = cls.cluster_title(key, issues) if cls is not None else ""
        if title:
            return title
    return (group_title(key[1]) if group_title else "") or f"{key[1]} findings"


def _as_written(key: str, issues: Sequence[Issue]) -> str:
    """The word of ``key`` as the findings write it, lower-cased (the key takes a plural's ``s``
    off: "mosquitoes", not "mosquitoe"); the commonest spelling, the key where none is found."""
    seen = Counter()
    for issue in issues:
        named = [issue.evidence.get("word")] + list(issue.evidence.get("words") or [])
        seen.update(str(w).lower() for w in named if w and word_key(str(w)) == key)
    return seen.most_common(1)[0][0] if seen else key


# --------------------------------------------------------------------------- clusters and ranking

def cluster_issues(issues: Iterable[Issue], group_title=None, target_lang: str = "") -> list[Cluster]:
    """Every finding in exactly one cluster, ranked worst first (:func:`rank_clusters`).
    ``group_title(group)`` names the clusters of findings no key describes (the run's titles);
    ``target_lang``'s function words never key a cluster."""
    from ..words import stop_words

    issues = list(issues)
    stops = stop_words(target_lang) if target_lang else frozenset()
    members: dict[tuple[str, ...], list[Issue]] = {}
    for issue, key in zip(issues, _choose(issues, stops)):
        members.setdefault(key, []).append(issue)
    return rank_clusters([Cluster(key, title_of(key, found, group_title), tuple(found))
                          for key, found in members.items()])


def rank_clusters(clusters: Iterable[Cluster]) -> list[Cluster]:
    """``clusters`` worst first, each with its precision, severity, score and rank. Score: the
    precision of its findings' groups (their mean, by finding; :data:`UNMEASURED` for a group no
    label measured) x the worst severity among them x (1 + log2 of the sentences that show it);
    ties: more findings first, then the id."""
    scored = []
    for c in clusters:
        measured = [_precision(i.group, None) for i in c.issues]
        known = [p for p in measured if p is not None]
        precision = sum(known) / len(known) if known else None
        sev = max(severity(g) for g in c.groups)
        score = (precision if precision is not None else UNMEASURED) * sev * (1 + math.log2(c.sentences))
        scored.append(Cluster(c.key, c.title, c.issues, precision, sev, score))
    scored.sort(key=lambda c: (-round(c.score, 9), -len(c.issues), c.cluster_id))
    return [Cluster(c.key, c.title, c.issues, c.precision, c.severity, c.score, n)
            for n, c in enumerate(scored, 1)]


def run_clusters(run) -> list[Cluster]:
    """The clusters of a loaded run directory (:class:`sit.rundir.RunData`): those its
    ``clusters.jsonl`` holds (written with the run, by its relations' declarations, so that a
    report needs no relation's code), else worked out now (:func:`cluster_issues`)."""
    return saved_clusters(run) or cluster_issues(run.issues, run.meta.group_title, run.signature.target_lang or "")


def saved_clusters(run) -> Optional[list[Cluster]]:
    """The clusters the run directory's ``clusters.jsonl`` holds, with the run's findings; None
    where it has none, or holds a line that does not read or findings other than the run's."""
    import json

    path = Path(run.path) / CLUSTERS_FILE
    by_id = {i.issue_id: i for i in run.issues}
    out, seen = [], 0
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                found = tuple(by_id[i] for i in row["issue_ids"])
                seen += len(found)
                out.append(Cluster(tuple(row["key"]), str(row["title"]), found, row["precision"], row["severity"],
                                   row["score"], row["rank"], row["example"]["issue_id"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return out if out and seen == len(by_id) and all(c.example_id in by_id for c in out) else None


def write_clusters(run, fresh: bool = True) -> Path:
    """Write ``clusters.jsonl`` into the run's directory (one :meth:`Cluster.to_dict` a line,
    worst first): worked out from its findings (``fresh``: as a run writes them), else those
    :func:`run_clusters` reads."""
    from ..rundir import write_jsonl_atomic

    path = Path(run.path) / CLUSTERS_FILE
    clusters = cluster_issues(run.issues, run.meta.group_title, run.signature.target_lang or "") if fresh \
        else run_clusters(run)
    write_jsonl_atomic(path, (c.to_dict() for c in clusters))
    return path


def cluster_rows(clusters: Sequence[Cluster], marks: Optional[dict[str, dict]] = None) -> list[dict[str, Any]]:
    """The clusters as the reports list them (the view model's ``clusters``), with each one's
    triage mark (``cluster_id -> {"label", "category"}``) where given."""
    marks = marks or {}
    rows = []
    for c in clusters:
        row = c.to_dict()
        mark = marks.get(c.cluster_id) or {}
        row["label"] = mark.get("label")
        row["category"] = mark.get("category")
        rows.append(row)
    return rows


def clusters_text(rows: Sequence[dict[str, Any]], limit: int = 0) -> list[str]:
    """The plain-text list of clusters (report.txt, ``sit`` on a terminal): rank, findings,
    sentences, precision, title, the groups that saw it and its example; ``limit`` 0: all."""
    shown = rows[:limit] if limit else rows
    lines = [f"bugs by root cause, worst first: {len(rows):,} cluster(s) of "
             f"{sum(r['findings'] for r in rows):,} finding(s)"]
    for r in shown:
        mark = f" [marked {r['label']}]" if r.get("label") else ""
        prec = "unmeasured" if r["precision"] is None else f"{100 * r['precision']:.0f}% real"
        lines.append(f"  {r['rank']:>3}. {r['title']}{mark}")
        lines.append(f"       {r['findings']} finding(s) in {r['sentences']} sentence(s); {', '.join(r['groups'])}; "
                     f"{prec}; id {r['cluster_id']}")
        ex = r["example"]
        lines.append(f"       e.g. [{ex['source_id']}] {ex['perturbed']}")
        lines.append(f"            -> {ex['perturbed_translation']}")
    if len(shown) < len(rows):
        lines.append(f"  ... {len(rows) - len(shown):,} more in clusters.jsonl")
    return lines


__all__ = ["CLUSTERS_FILE", "Cluster", "candidate_keys", "cluster_id", "cluster_rows", "clusters_text",
           "cluster_issues", "measured", "measured_groups", "rank_clusters", "run_clusters", "saved_clusters", "severity", "title_of",
           "write_clusters"]
