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
from array import array
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Sequence

from ..records import Issue, stable_hash
from ..rundir import read_at
from ..text import quoted
from ..words import letter_words as words, word_key  # noqa: F401 (words: importable here as before)

#: the file a run directory keeps its clusters in
CLUSTERS_FILE = "clusters.jsonl"

#: the precision a group no label measured is ranked with
UNMEASURED = 0.5
#: the severity of a group whose relation declares none
DEFAULT_SEVERITY = 1.5


class Members(Sequence[Issue]):
    """The findings of one cluster: their positions in the run's findings (``source``: a list,
    or a :class:`sit.rundir.IssueFile` that reads them from issues.jsonl when asked), never the
    findings themselves."""

    __slots__ = ("source", "positions")  # thousands in a large run

    def __init__(self, source: Sequence[Issue], positions: Iterable[int]):
        self.source = source
        self.positions = positions if isinstance(positions, array) else array("q", positions)

    def __len__(self) -> int:
        return len(self.positions)

    def __iter__(self) -> Iterator[Issue]:
        return read_at(self.source, self.positions)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(read_at(self.source, self.positions[index]))
        return next(read_at(self.source, (self.positions[index],)))

    def __repr__(self) -> str:
        return f"Members({len(self)} of {self.source!r})"


@dataclass(frozen=True, slots=True)
class ClusterFacts:
    """What a cluster's findings say of it, gathered as they are read (one pass over the run's
    findings): so a cluster ranks, names and writes itself without holding its findings."""

    groups: tuple[str, ...]
    relations: tuple[str, ...]
    sentences: int
    issue_ids: tuple[str, ...]
    #: the measured precision of each finding's group (those measured, in the findings' order)
    known: tuple[float, ...] = ()
    #: the position of its example among the run's findings (-1: not known)
    example: int = -1


@dataclass(frozen=True, slots=True)
class Cluster:
    """One root cause: its key (what the bug is), its title, and the findings that show it
    (``issues``: a sequence, read from the run's findings when iterated: :class:`Members`)."""

    key: tuple[str, ...]
    title: str
    issues: Sequence[Issue]
    precision: Optional[float] = None  # the measured precision of its findings' groups (None: unmeasured)
    severity: float = DEFAULT_SEVERITY
    score: float = 0.0
    rank: int = 0
    #: the id of its example where it was read from ``clusters.jsonl`` ("": worked out)
    example_id: str = ""
    #: what its findings say of it, where gathered as they were read (None: read from ``issues``)
    facts: Optional[ClusterFacts] = field(default=None, compare=False, repr=False)

    @property
    def cluster_id(self) -> str:
        """A hash of the key: the same bug has the same id in every run."""
        return cluster_id(self.key)

    @property
    def groups(self) -> list[str]:
        if self.facts is not None:
            return list(self.facts.groups)
        return list(dict.fromkeys(i.group for i in self.issues))

    @property
    def relations(self) -> list[str]:
        if self.facts is not None:
            return list(self.facts.relations)
        return list(dict.fromkeys(i.relation for i in self.issues))

    @property
    def sentences(self) -> int:
        if self.facts is not None:
            return self.facts.sentences
        return len({i.pair.source_id for i in self.issues})

    @property
    def issue_ids(self) -> list[str]:
        if self.facts is not None:
            return list(self.facts.issue_ids)
        return [i.issue_id for i in self.issues]

    @property
    def example(self) -> Issue:
        """The finding that shows the bug best: of the most precise group, the largest distance,
        then the shortest source."""
        if self.facts is not None and self.facts.example >= 0 and isinstance(self.issues, Members):
            return next(read_at(self.issues.source, (self.facts.example,)))
        if self.example_id:
            return next(i for i in self.issues if i.issue_id == self.example_id)
        return min(self.issues, key=_example_key)

    def to_dict(self) -> dict[str, Any]:
        """The cluster as ``clusters.jsonl`` holds it."""
        ex = self.example
        return {
            "cluster_id": self.cluster_id, "rank": self.rank, "title": self.title, "key": list(self.key),
            "relations": self.relations, "groups": self.groups,
            "findings": len(self.issues), "sentences": self.sentences,
            "precision": None if self.precision is None else round(self.precision, 4),
            "severity": self.severity, "score": round(self.score, 4),
            "issue_ids": self.issue_ids,
            "example": {"issue_id": ex.issue_id, "group": ex.group, "source_id": ex.pair.source_id,
                        "original": ex.pair.original, "perturbed": ex.pair.perturbed,
                        "original_translation": ex.original_translation,
                        "perturbed_translation": ex.perturbed_translation},
        }


def _example_key(issue: Issue) -> tuple:
    """How well ``issue`` shows its cluster's bug, the best least (:attr:`Cluster.example`)."""
    return _example_rank(_precision(issue.group, 0.0), issue.distance, len(issue.pair.perturbed), issue.pair.source_id,
                         issue.rank)


def _example_rank(precision: float, distance: float, length: int, source_id: int, rank: int) -> tuple:
    """:func:`_example_key` of a finding of these figures (its group's measured precision, 0 where
    unmeasured; its distance, perturbed source's length, source id and rank)."""
    return -precision, -distance, length, source_id, rank


def cluster_id(key: Sequence[str]) -> str:
    """The id of the cluster of ``key`` (a hash: stable across runs)."""
    return "c" + stable_hash("cluster", list(key))[:10]


def _declared(group: str):
    """(what the relation of ``group`` declares, :class:`sit.relations.base.RelationInfo`, or None
    where none of its name loads; the kind)."""
    from ..relations import declared_info

    name, _, kind = group.partition(".")
    return declared_info(name), kind


def measured(group: str) -> Optional[tuple[int, int, str]]:
    """(real bugs, findings labelled, label file) of ``group`` as its relation declares it
    (:attr:`sit.relations.base.RelationInfo.measured`), None where no label measured it."""
    info, kind = _declared(group)
    return info.measured_of(kind) if info is not None else None


def measured_groups() -> dict[str, tuple[int, int, str]]:
    """Every group a relation of this installation declares measured: group -> (bugs, labelled, file)."""
    from ..relations import RELATIONS, declared_info

    return {f"{name}.{kind}" if kind else name: found for name in RELATIONS.names()
            if (info := declared_info(name)) is not None for kind, found in info.measured.items()}


def _precision(group: str, default: Optional[float] = UNMEASURED) -> Optional[float]:
    bugs_labelled = measured(group)
    return bugs_labelled[0] / bugs_labelled[1] if bugs_labelled and bugs_labelled[1] else default


def severity(group: str) -> float:
    """How bad a finding of ``group`` is, as its relation declares it (its kind's, else the
    relation's own: :attr:`sit.relations.base.RelationInfo.severity`), else :data:`DEFAULT_SEVERITY`."""
    info, kind = _declared(group)
    return info.severity_of(kind, DEFAULT_SEVERITY) if info is not None else DEFAULT_SEVERITY


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


class FindingKeys:
    """What clustering keeps of each finding as the findings are read once, in arrays: its
    group and relation (as numbers), source id, distance, perturbed source's length, rank and
    id; a cluster's facts are then gathered from them (:func:`_gather`) without reading again."""

    def __init__(self):
        self.names: dict[str, int] = {}
        self.group, self.relation = array("l"), array("l")
        self.source, self.length, self.rank = array("q"), array("q"), array("q")
        self.distance = array("d")
        self.ids: list[str] = []

    def add(self, issue: Issue) -> None:
        self.group.append(self.names.setdefault(issue.group, len(self.names)))
        self.relation.append(self.names.setdefault(issue.relation, len(self.names)))
        self.source.append(issue.pair.source_id)
        self.length.append(len(issue.pair.perturbed))
        self.rank.append(issue.rank)
        self.distance.append(issue.distance)
        self.ids.append(issue.issue_id)

    def __len__(self) -> int:
        return len(self.ids)


def _choose(issues: Iterable[Issue], stops: frozenset[str] = frozenset(), keys: Optional[FindingKeys] = None,
            watch=None) -> list[tuple[str, ...]]:
    """Each finding's key: of its candidates, the one most findings share (ties: the first); its
    fallback where no candidate is shared with another finding. ``issues`` is read once; what
    is kept of each finding is its keys (one tuple of each key, shared), added to ``keys`` where
    given; ``watch(position, issue)`` is told of each finding as it is read."""
    canon: dict[tuple[str, ...], tuple[str, ...]] = {}
    options = []
    for n, issue in enumerate(issues):
        found, fallback = candidate_keys(issue, stops)
        options.append((tuple(canon.setdefault(k, k) for k in found), canon.setdefault(fallback, fallback)))
        if keys is not None:
            keys.add(issue)
        if watch is not None:
            watch(n, issue)
    support = Counter(k for found, _ in options for k in dict.fromkeys(found))
    chosen = []
    for found, fallback in options:
        shared = [k for k in found if support[k] > 1]
        chosen.append(max(shared, key=lambda k: (support[k], -found.index(k))) if shared else fallback)
    return chosen


# --------------------------------------------------------------------------- titles

def title_of(key: Sequence[str], issues: Sequence[Issue], group_title=None,
             relations: Optional[Sequence[str]] = None) -> str:
    """What the bug of ``key`` is, in words: a word left untranslated, else as a relation of
    ``issues`` titles it (:meth:`sit.relations.base.Relation.cluster_title`), else the group's
    title (``group_title(group)``, the run's titles). ``relations``: those of ``issues``, in
    their order, where known (so they are not read for them)."""
    from ..relations import declared

    if key[0] == "word":
        return f"{quoted(_as_written(key[1], issues))} is left untranslated (in English)"
    for name in relations if relations is not None else dict.fromkeys(i.relation for i in issues):
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

def cluster_issues(issues: Iterable[Issue], group_title=None, target_lang: str = "", watch=None) -> list[Cluster]:
    """Every finding in exactly one cluster, ranked worst first (:func:`rank_clusters`).
    ``group_title(group)`` names the clusters of findings no key describes (the run's titles);
    ``target_lang``'s function words never key a cluster. ``issues`` (a list, or a
    :class:`sit.rundir.IssueFile`) is read once, keeping only each finding's keys
    (:class:`FindingKeys`); a cluster's findings are read again where its title or example needs
    them. ``watch(position, issue)`` is told of each finding as it is read (another report's pass)."""
    from ..words import stop_words

    issues = issues if isinstance(issues, Sequence) else list(issues)  # a generator: held, to be read again
    stops = stop_words(target_lang) if target_lang else frozenset()
    keys = FindingKeys()
    positions: dict[tuple[str, ...], array] = {}
    for n, key in enumerate(_choose(issues, stops, keys, watch)):
        positions.setdefault(key, array("q")).append(n)
    facts = _gather(keys, positions)
    clusters = []
    for (key, at), found in zip(positions.items(), facts):
        members = Members(issues, at)
        clusters.append(Cluster(key, title_of(key, members, group_title, found.relations), members, facts=found))
    return rank_clusters(clusters)


def _gather(keys: FindingKeys, positions: dict[Any, Sequence[int]], ranking: bool = True) -> list[ClusterFacts]:
    """The facts of each cluster (``positions``: key -> its findings' positions, in order) from
    its findings' ``keys``; without ``ranking`` (clusters read from ``clusters.jsonl``, ranked
    already), no precision and no example, so no relation is loaded."""
    names = list(keys.names)
    precision = {n: _precision(name, None) for n, name in enumerate(names)} if ranking else {}
    out = []
    for at in positions.values():
        known = [precision[keys.group[n]] for n in at if precision.get(keys.group[n]) is not None]
        example = min(at, key=lambda n: _example_rank(precision[keys.group[n]] or 0.0, keys.distance[n], keys.length[n],
                                                      keys.source[n], keys.rank[n])) if ranking and len(at) else -1
        out.append(ClusterFacts(tuple(names[g] for g in dict.fromkeys(keys.group[n] for n in at)),
                                tuple(names[r] for r in dict.fromkeys(keys.relation[n] for n in at)),
                                len({keys.source[n] for n in at}), tuple(keys.ids[n] for n in at),
                                tuple(known), example))
    return out


def rank_clusters(clusters: Iterable[Cluster]) -> list[Cluster]:
    """``clusters`` worst first, each with its precision, severity, score and rank. Score: the
    precision of its findings' groups (their mean, by finding; :data:`UNMEASURED` for a group no
    label measured) x the worst severity among them x (1 + log2 of the sentences that show it);
    ties: more findings first, then the id."""
    scored = []
    for c in clusters:
        if c.facts is not None:
            known = list(c.facts.known)
        else:
            known = [p for p in (_precision(i.group, None) for i in c.issues) if p is not None]
        precision = sum(known) / len(known) if known else None
        sev = max(severity(g) for g in c.groups)
        score = (precision if precision is not None else UNMEASURED) * sev * (1 + math.log2(c.sentences))
        scored.append((c, precision, sev, score))
    scored.sort(key=lambda s: (-round(s[3], 9), -len(s[0].issues), s[0].cluster_id))
    return [replace(c, precision=precision, severity=sev, score=score, rank=n, example_id="")  # one copy each
            for n, (c, precision, sev, score) in enumerate(scored, 1)]


def run_clusters(run) -> list[Cluster]:
    """The clusters of a loaded run directory (:class:`sit.rundir.RunData`): those its
    ``clusters.jsonl`` holds (written with the run, by its relations' declarations, so that a
    report needs no relation's code), else worked out now (:func:`cluster_issues`). Kept on the
    run (``derived``) once found, for the other reports of the same run."""
    derived = getattr(run, "derived", None)
    if derived is not None and "clusters" in derived:
        return derived["clusters"]
    clusters = saved_clusters(run) or cluster_issues(run.issues, run.meta.group_title, run.signature.target_lang or "")
    if derived is not None:
        derived["clusters"] = clusters
    return clusters


def saved_clusters(run) -> Optional[list[Cluster]]:
    """The clusters the run directory's ``clusters.jsonl`` holds, with the run's findings; None
    where it has none, or holds a line that does not read or findings other than the run's.
    Holds each finding's id and position while it reads, and each cluster's facts."""
    import json

    path = Path(run.path) / CLUSTERS_FILE
    if not path.is_file():
        return None
    keys = FindingKeys()
    for issue in run.issues:
        keys.add(issue)
    by_id = {issue_id: n for n, issue_id in enumerate(keys.ids)}
    out, seen = [], 0
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                found = array("q", (by_id[i] for i in row["issue_ids"]))
                seen += len(found)
                out.append(Cluster(tuple(row["key"]), str(row["title"]), Members(run.issues, found), row["precision"],
                                   row["severity"], row["score"], row["rank"], row["example"]["issue_id"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (out and seen == len(by_id) and all(c.example_id in by_id for c in out)):
        return None
    if not _partition(out, len(keys)):  # an id twice: each cluster's facts read from its findings when asked
        return out
    facts = _gather(keys, {n: c.issues.positions for n, c in enumerate(out)}, ranking=False)
    return [replace(c, facts=replace(f, example=by_id[c.example_id])) for c, f in zip(out, facts)]


def _partition(clusters: list[Cluster], size: int) -> bool:
    """Whether ``clusters`` (read from ``clusters.jsonl``) hold each of ``size`` findings once."""
    seen = bytearray(size)
    for c in clusters:
        for position in c.issues.positions:
            if seen[position]:
                return False
            seen[position] = 1
    return all(seen)


def write_clusters(run, fresh: bool = True) -> Path:
    """Write ``clusters.jsonl`` into the run's directory (one :meth:`Cluster.to_dict` a line,
    worst first): worked out from its findings (``fresh``: as a run writes them; their rows kept
    on the run for its reports, :func:`cluster_table`), else those :func:`cluster_table` lists."""
    import json

    from ..rundir import write_lines_atomic

    path = Path(run.path) / CLUSTERS_FILE
    if fresh:
        from .clusterrows import ClusterRows
        from .model import Findings

        findings = Findings()  # the view's facts gathered in the same pass over the findings
        rows = ClusterRows(_drained(cluster_issues(run.issues, run.meta.group_title, run.signature.target_lang or "",
                                                   findings.add)))
        derived = getattr(run, "derived", None)
        if derived is not None:
            derived.pop("clusters", None)
            derived["cluster_rows"] = rows
            derived.setdefault("findings", findings)
    else:
        rows = cluster_table(run)
    write_lines_atomic(path, (json.dumps(row, ensure_ascii=False) + "\n" for row in rows.plain()))
    return path


def _drained(clusters: list[Cluster]) -> Iterator[Cluster]:
    """``clusters`` in their order, each let go of as the next is given (the list is emptied)."""
    clusters.reverse()
    while clusters:
        yield clusters.pop()


def cluster_table(run):
    """The rows of the run's clusters as the reports list them (:class:`sit.report.clusterrows.ClusterRows`:
    read back as listed), made once from :func:`run_clusters` and kept on the run (``derived``)
    in place of the clusters themselves."""
    from .clusterrows import ClusterRows

    derived = getattr(run, "derived", None)
    if derived is not None and "cluster_rows" in derived:
        return derived["cluster_rows"]
    rows = ClusterRows(run_clusters(run))
    if derived is not None:
        derived.pop("clusters", None)  # its rows are what the reports list
        derived["cluster_rows"] = rows
    return rows


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
    return list(cluster_lines(rows, limit))


def cluster_lines(rows: Sequence[dict[str, Any]], limit: int = 0) -> Iterator[str]:
    """:func:`clusters_text` a line at a time, ``rows`` (a list, or
    :class:`sit.report.clusterrows.ClusterRows`) read once."""
    from itertools import islice

    from .clusterrows import total_findings

    yield f"bugs by root cause, worst first: {len(rows):,} cluster(s) of {total_findings(rows):,} finding(s)"
    shown = 0
    for r in islice(rows, limit or None):
        shown += 1
        mark = f" [marked {r['label']}]" if r.get("label") else ""
        prec = "unmeasured" if r["precision"] is None else f"{100 * r['precision']:.0f}% real"
        yield f"  {r['rank']:>3}. {r['title']}{mark}"
        yield (f"       {r['findings']} finding(s) in {r['sentences']} sentence(s); {', '.join(r['groups'])}; "
               f"{prec}; id {r['cluster_id']}")
        ex = r["example"]
        yield f"       e.g. [{ex['source_id']}] {ex['perturbed']}"
        yield f"            -> {ex['perturbed_translation']}"
    if shown < len(rows):
        yield f"  ... {len(rows) - shown:,} more in clusters.jsonl"


__all__ = ["CLUSTERS_FILE", "Cluster", "candidate_keys", "cluster_id", "cluster_lines", "cluster_rows", "cluster_table",
           "clusters_text",
           "cluster_issues", "measured", "measured_groups", "rank_clusters", "run_clusters", "saved_clusters", "severity", "title_of",
           "write_clusters"]
