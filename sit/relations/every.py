"""Every translation of a run through the single-translation checks (issue 33): the production
relations that check one (source, translation) pair by itself (``numbers``, ``passthrough``,
``language``, ``length``, ``punctuation``) check not only the run's sentences and their own cases
but every text the run had translated, the variants of ``sit``, ``rti``, ``patinv`` and the rest
included, at no extra translation.

:func:`text_origins` says where each text of a run came from (the pipeline fills
``RunContext.origins`` with it once every relation has built its cases); :func:`other_texts` gives
a relation the translated texts it has not checked yet; :func:`merged` makes a problem seen in
several texts of one sentence one finding that lists them (``evidence["variants"]``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Optional, Sequence

from ..records import Edit, Issue, Pair
from .base import Relation


@dataclass(frozen=True)
class Origin:
    """Where a source text of a run came from: the sentence it belongs to (-1: none, such as a
    word patinv translates alone), the relation that made it (``""``: the run's own sentence), its
    role (``original``, ``perturbed``, ``container``, ``auxiliary``) and the case that made it."""

    source_id: int
    relation: str = ""
    role: str = "original"
    pair: Optional[Pair] = None


UNKNOWN = Origin(-1, "", "auxiliary")


def text_origins(ids: Sequence[int], texts: Sequence[str], cases: Mapping[str, Sequence[Pair]],
                 sources: Mapping[str, Iterable[str]] = {}) -> dict[str, Origin]:
    """text -> its :class:`Origin`: the run's sentences first, then each relation's cases (both
    texts), then what else a relation has translated (``sources``: relation -> its texts); the
    first origin of a text wins."""
    out: dict[str, Origin] = {t: Origin(sid) for sid, t in zip(ids, texts)}
    for name, pairs in cases.items():
        for p in pairs:
            out.setdefault(p.original, Origin(p.source_id, name, "container", p))
            out.setdefault(p.perturbed, Origin(p.source_id, name, "perturbed", p))
    for name, texts_of in sources.items():
        for t in texts_of:
            out.setdefault(t, Origin(-1, name, "auxiliary"))
    return out


def other_texts(origins: Mapping[str, Origin], translation: Mapping[str, Optional[str]],
                done: Iterable[str]) -> list[tuple[str, str, Origin]]:
    """``(text, its translation, its origin)`` for every text of ``translation`` that was
    translated (not None) and is not in ``done`` (what a relation has checked as its own cases),
    in the run's order."""
    skip = set(done)
    return [(x, y, origins.get(x, UNKNOWN)) for x, y in translation.items()
            if y is not None and x not in skip and x.strip()]


def text_issue(relation: str, text: str, translation: str, origin: Origin, kind: str, distance: float,
               evidence: dict[str, Any]) -> Issue:
    """A finding of ``relation`` on one text of the run by itself (the same text on both sides),
    attributed to the sentence the text belongs to."""
    edit = Edit(0, "", "", relation, level="sentence", note=origin.relation or "original")
    return Issue(Pair(origin.source_id, text, text, edit, relation=relation), translation, translation,
                 float(distance), {}, kind=kind, evidence=evidence)


def merged(issues: Sequence[Issue], origins: Mapping[str, Origin] = {}) -> list[Issue]:
    """``issues`` with those of one kind on one sentence made one: the first (the sentence's own,
    where it has one) keeps its place and lists every text of the group under
    ``evidence["variants"]`` (text, translation, the relation that made the text, the role, the
    finding's evidence there), its distance the largest of the group. Findings on texts of no
    sentence (source id -1, such as the words patinv translates alone) make one finding per kind,
    so that ranking's top-k per sentence keeps them all."""
    groups: dict[tuple, list[Issue]] = {}
    for issue in issues:
        groups.setdefault((issue.pair.source_id, issue.kind), []).append(issue)
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0])
            continue
        first = group[0]
        by_text: dict[str, dict[str, Any]] = {}
        for issue in group:  # each text once, as its first finding tells it
            variant = _variant(issue, origins)
            by_text.setdefault(variant["text"], variant)
        variants = list(by_text.values())
        if len(variants) == 1:  # one text, found twice (a case's own check and the text's by itself)
            out.append(first)
            continue
        evidence = {**first.evidence, "variants": variants, "texts": len(variants)}
        out.append(replace(first, distance=max(i.distance for i in group), evidence=evidence))
    return out


def _variant(issue: Issue, origins: Mapping[str, Origin]) -> dict[str, Any]:
    # one text of a merged finding, as its evidence lists it
    about_copy = issue.kind == "changed" or issue.evidence.get("inserted")  # a case's finding on its copy
    text = issue.pair.perturbed if about_copy else issue.pair.original
    origin = origins.get(text, UNKNOWN)
    translation = issue.perturbed_translation if text == issue.pair.perturbed else issue.original_translation
    return {"text": text, "translation": translation, "relation": origin.relation or "original",
            "role": origin.role, "evidence": {k: v for k, v in issue.evidence.items() if k != "variants"}}


class TextsAlone(Relation):
    """A relation with no cases of its own that checks every text the run translated, each by
    itself (``spelling``, ``typography``): nothing to translate, findings merged per sentence and
    kind, each naming the MQM category and severity its kind stands for (:attr:`mqm`)."""

    blockwise = True  # each text by itself, checked once where first met
    sides = ("source", "source")
    severity = {"": 1.0}

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        return []

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        return []

    def finding(self, text: str, translation: str, origin: Origin, kind: str, evidence: dict[str, Any],
                distance: float) -> Issue:
        """A finding of ``kind`` on ``text`` by itself, its evidence naming the kind's MQM category."""
        severity, category = self.mqm[kind]  # the order Relation.mqm declares: (severity, category)
        return text_issue(self.name, text, translation, origin, kind, float(distance),
                          {**evidence, "mqm": category, "mqm_severity": severity})


def merge_untranslated(checked: Mapping[str, Any]) -> None:
    """One finding where ``sit.untranslated`` and ``language.copied`` name the same word of the
    same sentence: a ``sit`` finding that the original word stands untranslated in the sentence's
    own translation (``side`` ``original``) is dropped where the sentence's ``language.copied``
    finding lists that word, which then names the substitutions that showed it
    (``evidence["substitutions"]``); ``sit``'s ``untranslated_issues`` count follows.
    ``checked``: relation -> its :class:`~sit.relations.base.Checked`, changed in place."""
    sit, language = checked.get("sit"), checked.get("language")
    if sit is None or language is None:
        return
    copied = {(i.pair.source_id, w.casefold()): i for i in language.issues if i.kind == "copied"
              for w in i.evidence.get("words", ())}
    kept, shown = [], {}
    for issue in sit.issues:
        word = str(issue.evidence.get("word", "")).casefold()
        found = copied.get((issue.pair.source_id, word)) if issue.kind == "untranslated" \
            and issue.evidence.get("side") == "original" else None
        if found is None:
            kept.append(issue)
        else:
            shown.setdefault(id(found), (found, []))[1].append(issue.pair.perturbed)
    if not shown:
        return
    sit.issues = kept
    sit.counts.own["untranslated_issues"] = sum(1 for i in kept if i.kind)  # both kinds of untranslated
    for n, issue in enumerate(language.issues):
        if id(issue) in shown:
            evidence = {**issue.evidence, "substitutions": shown[id(issue)][1]}
            language.issues[n] = replace(issue, evidence=evidence)


def named_texts(issue: Issue) -> set[str]:
    """Every source text a finding names: its two texts and the texts of its variants."""
    return {issue.pair.original, issue.pair.perturbed,
            *(v.get("text", "") for v in issue.evidence.get("variants", ()) if isinstance(v, Mapping))}


__all__ = ["Origin", "TextsAlone", "UNKNOWN", "merge_untranslated", "merged", "named_texts", "other_texts", "text_issue", "text_origins"]
