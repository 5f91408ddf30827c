"""The view model every rendering is made from (HTML page, Markdown, JSONL).

:func:`build_view` turns a loaded run directory (and optional triage labels) into plain,
JSON-serialisable data: the header (signature, counts, timings), the flagged sentences of each
group of findings (``sit``, ``rti``, ...; titled by their relation: :meth:`sit.runmeta.RunMeta.group_title`) worst first with their ranked issues, highlight spans for the substituted word and the word-level
translation diff, a distance histogram and per-relation statistics. The renderers only lay it out.
"""

from __future__ import annotations

import math
from array import array
from collections import defaultdict
from typing import Any, Iterable, Iterator, Optional, Sequence

from ..ignorefile import issue_fingerprint
from ..records import Issue, RunCounts, RunSignature
from ..rundir import RunData, read_at
from ..runmeta import RunMeta
from .diff import edit_spans, word_diff
from .labels import CATEGORIES, Label, LabelKey, for_run, issue_key, match_labels
from .summary import findings_line, group_lines, work_lines
from .precision import precision_by_relation

#: the counts a report's Counts table shows, with their names (defined in docs/report.md, "Counts")
COUNT_NAMES = (
    ("sentences", "sentences"), ("cases", "test cases"), ("perturbations", "perturbations"),
    ("translations", "texts to translate"), ("translated", "translated by the translator"),
    ("translator_calls", "translator calls"), ("cache_hits", "cache hits"),
    ("untranslated", "texts the translator failed"), ("issues", "findings"),
    ("flagged_sentences", "flagged sentences (any finding)"), ("compared", "cases compared"),
    ("perturbation_cache_hits", "perturbation cache hits"), ("parse_cache_hits", "parse cache hits"),
)

#: the signature's names and settings a report's table shows, with their names (the components'
#: options are in the full line: ``num_perturb`` in the perturber's block, ``distance`` in the sit
#: relation's)
SIGNATURE_FIELDS = (
    ("translator", "translator"), ("translator_model", "model"), ("source_lang", "source language"),
    ("target_lang", "target language"), ("perturber", "perturber"), ("perturber_model", "perturber model"),
    ("parser", "parser"), ("parser_model", "parser model"), ("threshold", "threshold"), ("top_k", "top-k"),
    ("seed", "seed"),
)


def by_group(issues: list[Issue]) -> dict[str, list[Issue]]:
    """The issues of each group (``sit``, ``sit.untranslated``, ``rti``, ...), in the run's order."""
    groups: dict[str, list[Issue]] = {}
    for issue in issues:
        groups.setdefault(issue.group, []).append(issue)
    return groups


def relation_changes(diff: dict[str, tuple[int, int]]) -> list[list[Any]]:
    """``[[relation, before, after], ...]`` for the relations whose count changed, biggest change first."""
    rows = [[rel, int(a), int(b)] for rel, (a, b) in diff.items() if int(a) != int(b)]
    rows.sort(key=lambda r: (-abs(r[2] - r[1]), r[0]))
    return rows


def format_relations(rows: list[list[Any]]) -> str:
    """``nsubj 1 -> 2, obj 1 -> 0``."""
    return ", ".join(f"{rel} {a} -> {b}" for rel, a, b in rows)


def _number(value: Any) -> Optional[float]:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if math.isfinite(out) else None


def histogram(distances: list[float], max_bins: int = 24) -> list[dict[str, Any]]:
    """Bins ``{"lo", "hi", "count", "label"}``: one per integer when distances are small integers."""
    values = [d for d in distances if d is not None and math.isfinite(d)]
    if not values:
        return []
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values) and hi - lo < max_bins:
        counts: dict[int, int] = defaultdict(int)
        for v in values:
            counts[int(v)] += 1
        return [{"lo": float(x), "hi": float(x), "count": counts.get(x, 0), "label": f"{x}"}
                for x in range(int(lo), int(hi) + 1)]
    if hi == lo:
        return [{"lo": lo, "hi": hi, "count": len(values), "label": f"{lo:g}"}]
    width = (hi - lo) / max_bins
    bins = [0] * max_bins
    for v in values:
        bins[min(int((v - lo) / width), max_bins - 1)] += 1
    return [{"lo": lo + i * width, "hi": lo + (i + 1) * width, "count": c,
             "label": f"{lo + i * width:.3g}–{lo + (i + 1) * width:.3g}"} for i, c in enumerate(bins)]


class RelationTally:
    """Per dependency relation, gathered a finding at a time: the findings where its count
    changed, the total |change|, ups and downs (:meth:`rows`)."""

    def __init__(self):
        self.stats: dict[str, dict[str, Any]] = {}

    def add(self, issue: Issue) -> None:
        for rel, a, b in relation_changes(issue.relation_diff):
            s = self.stats.setdefault(rel, {"relation": rel, "issues": 0, "change": 0, "more": 0, "fewer": 0})
            s["issues"] += 1
            s["change"] += abs(b - a)
            s["more" if b > a else "fewer"] += 1

    def rows(self) -> list[dict[str, Any]]:
        return sorted(self.stats.values(), key=lambda s: (-s["issues"], -s["change"], s["relation"]))


def run_key(meta: RunMeta) -> str:
    """Identifies a run's settings for the browser's saved marks: the signature's digest (not the
    run's time, so marks survive re-running the same command; the marks themselves are keyed on
    each issue's content, :attr:`sit.records.Issue.content_key`)."""
    return meta.signature.digest()


def short_signature(sig: RunSignature) -> str:
    """The short signature line (:meth:`sit.records.RunSignature.format`), or "" if it is damaged."""
    try:
        return sig.format(short=True)
    except (TypeError, ValueError):
        return ""


def count_rows(counts: RunCounts) -> list[list[Any]]:
    """``[[name, value], ...]`` of the Counts table: plain numbers, then each relation's own
    counts and the perturber's dropped candidates as ``name n, ...`` text."""
    rows: list[list[Any]] = [[name, getattr(counts, key)] for key, name in COUNT_NAMES]
    rows += [[f"{name}: its counts", ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in c.to_dict().items()
                                              if isinstance(v, int))]
             for name, c in counts.relations.items()]
    if counts.candidates_dropped:
        rows.append(["candidates dropped", ", ".join(f"{k.replace('_', ' ')} {v:,}"
                                                    for k, v in counts.candidates_dropped.items())])
    return rows


#: how a word's side is told (``evidence.side`` of a finding that names a ``word``)
WORD_SIDES = {"perturbed": "substitute", "original": "original word"}


class WordTally:
    """The findings that name a word (``evidence.word``, such as words left untranslated),
    gathered a finding at a time and grouped by group, word and side, most frequent first
    (:meth:`rows`: ``{"group", "word", "side", "count", "sources"}``)."""

    def __init__(self):
        self.found: dict[tuple[str, str, str], dict[str, Any]] = {}

    def add(self, issue: Issue) -> None:
        word = issue.evidence.get("word")
        if not word:
            return
        side = WORD_SIDES.get(str(issue.evidence.get("side", "perturbed")), str(issue.evidence.get("side")))
        row = self.found.setdefault((issue.group, str(word), side),
                                    {"group": issue.group, "word": str(word), "side": side, "count": 0, "sources": []})
        row["count"] += 1
        if issue.pair.source_id not in row["sources"]:
            row["sources"].append(issue.pair.source_id)

    def rows(self) -> list[dict[str, Any]]:
        return sorted(self.found.values(), key=lambda r: (r["group"], -r["count"], r["word"].lower(), r["side"]))


class GroupFindings:
    """One group's findings as :class:`Findings` keeps them: each one's position in the run's
    findings, source id, rank and distance."""

    def __init__(self):
        self.positions, self.sources, self.ranks = array("q"), array("q"), array("q")
        self.distances = array("d")

    def add(self, position: int, issue: Issue) -> None:
        self.positions.append(position)
        self.sources.append(issue.pair.source_id)
        self.ranks.append(issue.rank)
        self.distances.append(issue.distance)

    def __len__(self) -> int:
        return len(self.positions)

    def sentence_count(self) -> int:
        return len(set(self.sources))

    def sentences(self) -> list[tuple[int, list[int]]]:
        """Its flagged sentences worst first (the largest distance, then source id), each with
        its findings' positions (by rank, then distance)."""
        by_source: dict[int, list[int]] = {}
        for k, sid in enumerate(self.sources):
            by_source.setdefault(sid, []).append(k)
        worst = []
        for sid, ks in by_source.items():
            ks.sort(key=lambda k: (self.ranks[k], -self.distances[k]))
            worst.append((-max(self.distances[k] for k in ks), sid, [self.positions[k] for k in ks]))
        worst.sort(key=lambda w: (w[0], w[1]))
        return [(sid, positions) for _, sid, positions in worst]


class Findings:
    """What the reports need of every finding of a run, gathered in one pass over its findings
    and kept in their place: each group's positions, source ids, ranks and distances (the order
    of its flagged sentences: :class:`GroupFindings`), the words they name (:class:`WordTally`),
    the relations whose counts changed (:class:`RelationTally`) and the distances (the
    histogram). The findings a report shows are then read by position (:func:`sit.rundir.read_at`)."""

    def __init__(self, issues: Iterable[Issue] = ()):
        self.groups: dict[str, GroupFindings] = {}
        self.distances = array("d")
        self.word_tally, self.relation_tally = WordTally(), RelationTally()
        for n, issue in enumerate(issues):
            self.add(n, issue)

    def add(self, position: int, issue: Issue) -> None:
        """Take in the finding at ``position`` of the run's findings (each once, in order)."""
        group = self.groups.get(issue.group)
        if group is None:
            group = self.groups[issue.group] = GroupFindings()
        group.add(position, issue)
        number = _number(issue.distance)
        self.distances.append(math.nan if number is None else number)
        self.word_tally.add(issue)
        self.relation_tally.add(issue)

    @property
    def words(self) -> list[dict[str, Any]]:
        """:meth:`WordTally.rows` of the findings taken in."""
        return self.word_tally.rows()

    @property
    def relations(self) -> list[dict[str, Any]]:
        """:meth:`RelationTally.rows` of the findings taken in."""
        return self.relation_tally.rows()

    def __len__(self) -> int:
        return len(self.distances)


def findings_of(run: RunData) -> Findings:
    """The :class:`Findings` of ``run``, gathered on first use and kept on it (``derived``)."""
    derived = getattr(run, "derived", None)
    if derived is None:
        return Findings(run.issues)
    if "findings" not in derived:
        derived["findings"] = Findings(run.issues)
    return derived["findings"]


def _issue_view(issue: Issue, label: Optional[Label]) -> dict[str, Any]:
    edit = issue.pair.edit
    src = edit_spans(issue.pair.original, issue.pair.perturbed, edit.before, edit.after,
                     edit.char_start, edit.char_end)
    original_translation = issue.original_translation or ""
    tgt = word_diff(original_translation, issue.perturbed_translation or "")
    view = {
        "id": issue.issue_id,
        "key": issue.content_key,
        "fingerprint": issue_fingerprint(issue),  # its .sitignore line's (sit.ignorefile)
        "relation": issue.relation,
        "kind": issue.kind,
        "group": issue.group,
        "evidence": dict(issue.evidence),
        "source_id": issue.pair.source_id,
        "rank": issue.rank,
        "distance": _number(issue.distance),
        "original": issue.pair.original,
        "perturbed": issue.pair.perturbed,
        "before": edit.before,
        "after": edit.after,
        "position": edit.position,
        "perturber": edit.perturber,
        "original_translation": original_translation,
        "perturbed_translation": issue.perturbed_translation or "",
        "source_marks": [[list(s) for s in src.a], [list(s) for s in src.b]],
        "translation_marks": [[list(s) for s in tgt.a], [list(s) for s in tgt.b]],
        "relations": relation_changes(issue.relation_diff),
        "scores": {k: _number(v) for k, v in sorted(issue.scores.items()) if _number(v) is not None},
        "label": label.label if label else None,
        "category": label.category if label else None,
    }
    return view


class SentenceViews(Sequence[dict[str, Any]]):
    """The view's flagged sentences (:func:`build_view`): each group's (groups in the run's
    order), worst first within a group, each made (its findings read and laid out) when it is
    reached and let go after: iterating never holds more than one sentence's findings."""

    def __init__(self, run: RunData, matched: dict[LabelKey, Label], clusters):
        self.run, self.matched, self.clusters = run, matched, clusters  # clusters: ClusterRows
        self.findings = findings_of(run)

    def __len__(self) -> int:
        return sum(g.sentence_count() for g in self.findings.groups.values())

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for group in self.findings.groups:
            yield from self.of_group(group)

    def __getitem__(self, index):
        positions = range(len(self))[index]
        wanted = set(positions) if isinstance(index, slice) else {positions}
        made = {}
        for n, sentence in zip(range(max(wanted, default=-1) + 1), self):  # read up to the last asked for
            if n in wanted:
                made[n] = sentence
        return [made[n] for n in positions] if isinstance(index, slice) else made[positions]

    def of_group(self, group: str) -> Iterator[dict[str, Any]]:
        """The flagged sentences of ``group``, worst first."""
        position = 0
        for g, found in self.findings.groups.items():
            if g == group:
                break
            position += found.sentence_count()
        for source_id, at in self.findings.groups[group].sentences():
            position += 1
            yield self._sentence(group, source_id, list(read_at(self.run.issues, at)), position, at)

    def _sentence(self, group: str, source_id: int, issues: list[Issue], position: int,
                  at: Sequence[int]) -> dict[str, Any]:
        run = self.run
        translation = issues[0].original_translation
        if translation is None:
            translation = run.source_translation(source_id) or ""
        views = [_issue_view(i, self.matched.get(issue_key(i))) for i in issues]
        seen: dict[str, int] = defaultdict(int)
        for view, found_at in zip(views, at):  # the same finding twice in a run (a repeated input line): keys stay apart
            seen[view["key"]] += 1  # (the same content is the same group and sentence: one sentence's views)
            if seen[view["key"]] > 1:
                view["key"] += f"-{seen[view['key']]}"
            view["cluster"] = self.clusters.cluster_at(found_at, view["id"])
        return {
            "key": f"{group}:{source_id}",
            "group": group,
            "title": run.meta.group_title(group),
            "sides": list(run.meta.sides(issues[0].relation)),
            "source_id": source_id,
            "position": position,
            "source": issues[0].pair.original,
            "translation": translation,
            "max_distance": max((v["distance"] or 0.0) for v in views),
            "issues": views,
        }


def _groups(run: RunData) -> list[dict[str, Any]]:
    """Per group of findings: its name, what it claims, its issues and flagged sentences."""
    return [{"group": g, "title": run.meta.group_title(g), "issues": len(found), "sentences": found.sentence_count()}
            for g, found in findings_of(run).groups.items()]


def _clusters(run: RunData):
    """The rows of the run's clusters worst first (:func:`sit.report.clusters.cluster_table`: read
    as they are listed) with their marks (:mod:`sit.report.clustermarks`); they also tell each
    finding's cluster (an issue view's ``cluster``: :meth:`~sit.report.clusterrows.ClusterRows.cluster_at`)."""
    from ..errors import InputError
    from .clustermarks import load_marks
    from .clusters import cluster_table

    rows = cluster_table(run)
    try:
        marks = load_marks(run.path)
    except InputError:
        marks = {}
    return rows.marked(marks)


def build_view(run: RunData, labels: Optional[dict[LabelKey, Label]] = None) -> dict[str, Any]:
    """Everything a report shows, as plain data (see the module docstring)."""
    meta = run.meta
    labels = for_run(labels, meta) if labels else labels
    matched = match_labels(run.issues, labels).labels if labels else {}
    sig = meta.signature.to_dict()
    clusters = _clusters(run)
    findings = findings_of(run)
    counts = meta.counts
    precision = None
    if labels:
        top_k = sig.get("top_k") if isinstance(sig.get("top_k"), int) and sig.get("top_k") > 0 else None
        precision = {g: r.to_dict() for g, r in precision_by_relation(run, labels, top_k).items()}
    return {
        "title": f"sit report: {sig.get('translator', '?')} {sig.get('source_lang', '?')}→{sig.get('target_lang', '?')}",
        "run_key": run_key(meta),
        "signature": sig,
        "signature_fields": [[key, name, sig[key]] for key, name in SIGNATURE_FIELDS if key in sig],
        "versions": dict(sig.get("versions") or {}),
        "signature_line": meta.signature_line,
        "signature_short": short_signature(meta.signature),
        "source_lang": sig.get("source_lang", ""),
        "target_lang": sig.get("target_lang", ""),
        "summary": {"work": work_lines(counts), "findings": findings_line(counts),
                    "groups": [vars(g) for g in group_lines(meta)]},
        "counts": count_rows(counts),
        "flagged_sentences": counts.flagged_sentences,
        "words": findings.words,
        "timings": [[k, _number(v)] for k, v in meta.timings.items()],
        "perturber_reason": meta.perturber_reason,
        "notes": [list(reason) for reason in meta.reasons()] + ([["input", meta.input]] if meta.input else []),
        "warnings": list(meta.warnings),
        "created": meta.created,
        "command": meta.command,
        "figures": [table.to_dict() for table in meta.figure_tables()],
        "categories": [[k, v] for k, v in CATEGORIES.items()],
        "histogram": histogram(findings.distances),
        "relations": findings.relations,
        "sentences": SentenceViews(run, matched, clusters),  # made as they are read
        "groups": _groups(run),
        "clusters": clusters,
        "issue_count": len(findings),
        "precision": precision,
    }
