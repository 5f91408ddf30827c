"""Root causes: the findings of a run grouped by what the bug is, ranked worst first.

:func:`cluster_issues` is a pure function of a run's findings (``issues.jsonl``): it gives every
finding exactly one :class:`Cluster`, keyed on what the bug is rather than on where it was seen:

- ``word``: the same source word left untranslated (``sit.untranslated``, ``language.copied``,
  and a case variant whose translation copies a source word the sentence's own translation
  translated), whichever relation saw it;
- ``number``: numbers kept in the source's format, by separator (``40,000``; ``4.25``);
- ``token``: the same class of pass-through token broken (hashtags, placeholders, e-mail
  addresses ...), and ``token-context``: inserting that class changed the rest of the sentence;
- ``structure``: a structure change at the same dependency relation, in the same direction;
- ``case``: a case variant that translates differently for another reason;
- ``group``: a finding no key above describes, with the others of its relation and kind.

A finding that names several words (``language.copied``) joins the word most findings share. A
cluster's id is a hash of its key, so the same bug has the same id in every run (triage marks and
``sit compare`` rely on it). :func:`rank_clusters` orders them across relations, worst first: the
measured precision of their findings' groups (:data:`MEASURED`, from the committed labels), the
severity of the kind (:data:`SEVERITY`) and how many sentences show the bug. ``clusters.jsonl``
holds one cluster a line (:func:`write_clusters`); docs/report.md, "Clusters", defines it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from ..records import Issue, stable_hash

#: the file a run directory keeps its clusters in
CLUSTERS_FILE = "clusters.jsonl"

#: group -> (bugs, labelled, label file under docs/labels/): each group's precision as the committed
#: labels measure it (tests/test_clusters.py recomputes it from those files)
MEASURED: dict[str, tuple[int, int, str]] = {
    "sit": (18, 23, "labels-untranslated-default.jsonl"),
    "numbers.format": (23, 23, "production-news.jsonl"),
    "passthrough.missing": (19, 20, "production-news.jsonl"),
    "passthrough.context": (19, 20, "production-news.jsonl"),
    "case.lower": (20, 20, "production-news.jsonl"),
    "case.title": (19, 20, "production-news.jsonl"),
    "case.upper": (20, 20, "production-news.jsonl"),
    "language.copied": (20, 20, "production-news.jsonl"),
    "rti": (12, 19, "relations-news-rti-all-words.jsonl"),
    "patinv": (2, 17, "labels-patinv.jsonl"),
}
#: the precision a group no label measured is ranked with
UNMEASURED = 0.5

#: how bad a finding of a group (or of every kind of a relation) is, 1 (cosmetic) to 3 (meaning or
#: data lost): a dropped or changed number, a broken placeholder or a wrong language before a
#: title-case change
SEVERITY: dict[str, float] = {
    "numbers": 3.0, "numbers.format": 2.0,
    "passthrough": 3.0, "passthrough.context": 1.5,
    "language": 3.0, "language.copied": 2.0,
    "sit": 2.0, "sit.untranslated": 2.0,
    "case": 1.0,
    "rti": 2.0, "patinv": 2.0,
}
DEFAULT_SEVERITY = 1.5

_WORD = re.compile(r"[^\W\d_]{3,}")
_CASE_NAMES = {"lower": "lower-case", "title": "Title Case", "upper": "ALL CAPS"}


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


def _precision(group: str, default: Optional[float] = UNMEASURED) -> Optional[float]:
    bugs_labelled = MEASURED.get(group)
    return bugs_labelled[0] / bugs_labelled[1] if bugs_labelled and bugs_labelled[1] else default


def severity(group: str) -> float:
    """How bad a finding of ``group`` is (:data:`SEVERITY`: the group's, else its relation's)."""
    return SEVERITY.get(group, SEVERITY.get(group.partition(".")[0], DEFAULT_SEVERITY))


# --------------------------------------------------------------------------- keys

def word_key(word: str) -> str:
    """The key of a word: lower case, an English plural's ``s`` taken off (``shipments`` and
    ``shipment`` are one word left untranslated)."""
    low = word.lower()
    return low[:-1] if len(low) > 4 and low.endswith("s") and not low.endswith(("ss", "us", "is")) else low


def words(text: str) -> set[str]:
    """The lower-cased words (letters only, three or more) of ``text``."""
    return {w.lower() for w in _WORD.findall(text or "")}


def copied_words(issue: Issue) -> list[str]:
    """The source words the variant's translation copies verbatim where the sentence's own
    translation has none of them (``case``: "Said" left in English in the Title Case variant)."""
    kept = words(issue.original_translation) | words(issue.pair.original) - words(issue.pair.perturbed)
    source = words(issue.pair.perturbed)
    out = []
    for w in _WORD.findall(issue.perturbed_translation or ""):
        low = w.lower()
        if low in source and low not in kept and low not in out:
            out.append(low)
    return out


def changed_words(issue: Issue, stops: frozenset[str] = frozenset()) -> list[str]:
    """The words (three letters or more, not ``stops``) a case variant's translation has in a
    difference (``evidence.difference``: ``[in the sentence's, in the variant's]``) that the
    sentence's own translation lacks there: "OMS" for "quién" (WHO read as the organisation)."""
    out = []
    for part in issue.evidence.get("difference") or []:
        if not (isinstance(part, (list, tuple)) and len(part) == 2):
            continue
        before = words(str(part[0]))
        for w in _WORD.findall(str(part[1])):
            low = w.lower()
            if len(low) >= 3 and low not in before and low not in stops and low not in out:
                out.append(low)
    return out


def _case_pairs(issue: Issue) -> list[tuple[str, ...]]:
    """The differences of a case variant where both translations have words, as keys
    (``"estuvo" -> "fue"``: a passive read another way in capitals)."""
    out = []
    for part in issue.evidence.get("difference") or []:
        if isinstance(part, (list, tuple)) and len(part) == 2 and str(part[0]).strip() and str(part[1]).strip():
            key = ("case-change", " ".join(str(part[0]).lower().split()), " ".join(str(part[1]).lower().split()))
            if key not in out:
                out.append(key)
    return out


def _structure_key(issue: Issue) -> tuple[str, ...]:
    rows = [(rel, int(a), int(b)) for rel, (a, b) in issue.relation_diff.items() if int(a) != int(b)]
    if not rows:
        return ("group", issue.group)
    rel, a, b = min(rows, key=lambda r: (-abs(r[2] - r[1]), r[0]))
    return ("structure", rel.split(":")[0], "more" if b > a else "fewer")


def _number_key(issue: Issue) -> tuple[str, ...]:
    numbers = issue.evidence.get("numbers") or []
    text = str(numbers[0].get("number", "")) if numbers and isinstance(numbers[0], dict) else ""
    seps = "".join(dict.fromkeys(c for c in text.strip("$€£¥%+-") if not c.isdigit()))
    # one bug whatever the separator: the translator does not write numbers the target's way
    # (a thousands comma and a decimal point kept are one fault, not two)
    return ("number", issue.kind) if seps else ("group", issue.group)


def _token_kinds(issue: Issue) -> list[str]:
    tokens = issue.evidence.get("tokens") or []
    return [str(t.get("type")) for t in tokens if isinstance(t, dict) and t.get("type")]


def _token_context_kind(issue: Issue) -> Optional[str]:
    from ..textcheck.tokens import tokens_of

    found = tokens_of(str(issue.evidence.get("token") or ""))
    return found[0].kind if found else None


def candidate_keys(issue: Issue, stops: frozenset[str] = frozenset()) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    """(the keys ``issue`` may join, most specific first; the key it takes when none of them is
    shared with another finding). ``stops``: the target language's function words."""
    group = issue.group
    fallback = ("group", group)
    if group in ("sit.untranslated", "sit.untranslated_substitute") and issue.evidence.get("word"):
        key = ("word", word_key(str(issue.evidence["word"])))
        return [key], key
    if group == "language.copied":
        named = [("word", word_key(str(w))) for w in issue.evidence.get("words") or []]
        return named, named[0] if named else fallback
    if issue.relation == "case":
        copied = copied_words(issue)
        changed = [("case-word", w) for w in changed_words(issue, stops) if w not in copied]
        # words the translator knows only capitalised ("monday", "europe" left in English once
        # lower-cased) are one bug, whichever word shows it
        left = [("lower-copied",)] if copied and issue.kind == "lower" else [("word", word_key(w)) for w in copied]
        return left + changed + _case_pairs(issue), ("case", issue.kind or "")
    if group == "sit":
        edit = issue.pair.edit
        slot = ("slot", str(issue.pair.source_id), edit.before.lower())
        return [slot, ("substitute", edit.after.lower())], _structure_key(issue)
    if issue.relation == "numbers" and issue.kind == "format":
        return [], _number_key(issue)
    if group in ("rti", "patinv"):  # the same phrase, or the same change of meaning, wherever it stands
        edit = issue.pair.edit
        return [], (group, edit.before.lower(), edit.after.lower() if group == "patinv" else "")
    if group == "passthrough.missing":
        kinds = [("token", k) for k in _token_kinds(issue)]
        return kinds, kinds[0] if kinds else fallback
    if group == "passthrough.context":
        kind = _token_context_kind(issue)
        return [], ("token-context", kind) if kind else fallback
    return [], fallback


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

def _quote(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split())
    return "“" + (text if len(text) <= limit else text[:limit - 1] + "…") + "”"


def title_of(key: Sequence[str], issues: Sequence[Issue], group_title=None) -> str:
    """What the bug of ``key`` is, in words."""
    kind = key[0]
    if kind == "word":
        return f"{_quote(_as_written(key[1], issues))} is left untranslated (in English)"
    if kind == "number":
        return _number_title(issues)
    if kind == "lower-copied":
        named = list(dict.fromkeys(w for i in issues for w in copied_words(i)))
        more = f" and {len(named) - 5} more" if len(named) > 5 else ""
        return (f"lower-cased names and days are left untranslated (known only capitalised): "
                f"{', '.join(_quote(w) for w in named[:5])}{more}")
    if kind == "token":
        return f"{key[1]} tokens are not carried over verbatim (e.g. {_token_example(issues)})"
    if kind == "token-context":
        return f"inserting a {key[1]} token changes the rest of the sentence's translation"
    if kind == "slot":
        afters = ", ".join(dict.fromkeys(_quote(i.pair.edit.after) for i in issues))
        return (f"{_quote(issues[0].pair.edit.before)} in sentence {key[1]}: every similar word there ({afters}) "
                "changes the translation's structure")
    if kind == "substitute":
        return f"{_quote(issues[0].pair.edit.after)} put for a similar word changes the translation's structure"
    if kind == "structure":
        return (f"a similar word changes the translation's structure: {key[2]} {key[1]} dependents "
                "in the perturbed sentence's translation")
    if kind == "case-word":
        before, after = _case_change(key[1], issues)
        return (f"capitalisation changes the translation: {_quote(after)} where the sentence's translation has "
                f"{_quote(before) if before else 'nothing'}")
    if kind == "case-change":
        return f"capitalisation changes the translation: {_quote(key[2])} where the sentence's translation has {_quote(key[1])}"
    if kind == "rti":
        return f"the phrase {_quote(key[1])} translates differently alone and in its sentence"
    if kind == "patinv":
        return f"{_quote(key[1])} and {_quote(key[2] or '(removed)')} share one translation though they differ in meaning"
    if kind == "case":
        return f"the {_CASE_NAMES.get(key[1], key[1])} sentence translates differently (beyond case)"
    return (group_title(key[1]) if group_title else "") or f"{key[1]} findings"


def _as_written(key: str, issues: Sequence[Issue]) -> str:
    """The word of ``key`` as the findings write it, lower-cased (the key takes a plural's ``s``
    off: "mosquitoes", not "mosquitoe"); the commonest spelling, the key where none is found."""
    seen = Counter()
    for issue in issues:
        named = [issue.evidence.get("word")] + list(issue.evidence.get("words") or [])
        seen.update(str(w).lower() for w in named if w and word_key(str(w)) == key)
    return seen.most_common(1)[0][0] if seen else key


def _number_title(issues: Sequence[Issue]) -> str:
    """The title of a number-format cluster: the separators kept, with an example of each."""
    examples: dict[str, tuple[str, str]] = {}
    for issue in issues:
        for number in issue.evidence.get("numbers") or []:
            if not isinstance(number, dict):
                continue
            text = str(number.get("number", ""))
            for sep in (c for c in text.strip("$€£¥%+-") if not c.isdigit()):
                examples.setdefault(sep, (text, (number.get("expected") or [""])[0]))
    shown = "; ".join(f"{_quote(sep)} in {text}, expected {want}" for sep, (text, want) in sorted(examples.items()))
    return f"numbers keep the source's format instead of the target's ({shown})"


def _case_change(word: str, issues: Sequence[Issue]) -> tuple[str, str]:
    """The most common difference (sentence's, variant's) of ``issues`` whose variant side has ``word``."""
    seen: Counter = Counter()
    for issue in issues:
        for part in issue.evidence.get("difference") or []:
            if isinstance(part, (list, tuple)) and len(part) == 2 and word in words(str(part[1])):
                seen[(str(part[0]), str(part[1]))] += 1
    return seen.most_common(1)[0][0] if seen else ("", word)


def _token_example(issues: Sequence[Issue]) -> str:
    for issue in issues:
        for token in issue.evidence.get("tokens") or []:
            if isinstance(token, dict) and token.get("token"):
                return str(token["token"])[:40]
    return "?"


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
    """The clusters of a loaded run directory (:class:`sit.rundir.RunData`), titled by its relations."""
    return cluster_issues(run.issues, run.meta.group_title, run.signature.target_lang or "")


def write_clusters(run) -> Path:
    """Write ``clusters.jsonl`` into the run's directory (one :meth:`Cluster.to_dict` a line, worst first)."""
    from ..rundir import write_jsonl_atomic

    path = Path(run.path) / CLUSTERS_FILE
    write_jsonl_atomic(path, (c.to_dict() for c in run_clusters(run)))
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


__all__ = ["CLUSTERS_FILE", "Cluster", "MEASURED", "SEVERITY", "candidate_keys", "cluster_id", "cluster_rows", "clusters_text",
           "cluster_issues", "copied_words", "rank_clusters", "run_clusters", "severity", "title_of",
           "write_clusters"]
