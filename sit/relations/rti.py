"""``rti``: a noun phrase should be translated the same alone and inside the text that contains it
(referential transparency; Purity, ICSE 2021).

Phrases come from the English dependency parse (spaCy, offline): the subtree of every noun that
spans 2 to ``max_words`` words with more than two words that are not stop words, as the authors'
constituency noun phrases do. Each phrase is paired with its container: the nearest larger such
phrase around it, else the sentence. A pair is a finding when the phrase's translation has words
(characters for Chinese and Japanese) that the container's translation lacks, counted as bags;
``compare`` decides what a word is (see :func:`sit.bags.target_bag`).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..bags import COMPARES, as_written, missing_from, target_bag
from ..errors import ConfigError
from ..records import Edit, Issue, Pair
from ..text import quoted
from .base import Checked, Relation


def noun_phrases(doc, *, max_words: int = 9) -> list[tuple[int, int]]:
    """``(start, end)`` token spans of the noun phrases of ``doc`` worth testing, outermost first."""
    spans = set()
    for tok in doc:
        if tok.pos_ not in ("NOUN", "PROPN"):
            continue
        start, end = tok.left_edge.i, tok.right_edge.i + 1
        while start < end and (doc[start].is_punct or doc[start].is_space):
            start += 1
        while end > start and (doc[end - 1].is_punct or doc[end - 1].is_space):
            end -= 1
        words = [t for t in doc[start:end] if not t.is_punct]
        content = [t for t in words if not t.is_stop]
        if 2 <= len(words) <= max_words and len(content) > 2 and (start, end) != (0, len(doc)):
            spans.add((start, end))
    return sorted(spans, key=lambda s: (s[0], -(s[1] - s[0])))


def containers(spans: list[tuple[int, int]]) -> dict[tuple[int, int], Optional[tuple[int, int]]]:
    """For each span, the smallest other span strictly around it (None: the sentence)."""
    out = {}
    for s in spans:
        around = [c for c in spans if c != s and c[0] <= s[0] and s[1] <= c[1]]
        out[s] = min(around, key=lambda c: c[1] - c[0]) if around else None
    return out


class RtiRelation(Relation):
    name = "rti"
    title = "a noun phrase is translated differently alone than in its container"
    sides = ("container", "phrase")
    kind = "phrase"
    measured = {"": (12, 19, "relations-news-rti-all-words.jsonl")}
    severity = {"": 2.0}
    first_is_sentence = False  # a case's first text contains its phrase: several of one source differ

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """The same phrase, wherever it stands."""
        return None if issue.kind else ([], (cls.name, issue.pair.edit.before.lower(), ""))

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        return f"the phrase {quoted(key[1])} translates differently alone and in its sentence" if key[0] == cls.name else ""

    def __init__(self, ctx, *, max_words: int = 9, compare: str = "words"):
        super().__init__(ctx)
        if compare not in COMPARES:
            raise ConfigError(f"unknown rti compare {compare!r}; choose one of: {', '.join(COMPARES)}")
        self.max_words = int(max_words)
        self.compare = compare

    def signature(self) -> dict[str, Any]:
        return {"max_words": self.max_words, "compare": self.compare}

    def describe(self) -> str:
        return f"rti: noun phrases of 2-{self.max_words} words vs their containers, {self.compare} compared"

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        cases = []
        for sid, text, doc in zip(ids, texts, self.ctx.english(texts)):
            spans = noun_phrases(doc, max_words=self.max_words)
            for span, around in containers(spans).items():
                phrase = doc[span[0]:span[1]]
                if around is None:
                    container, offset = text, 0
                else:
                    outer = doc[around[0]:around[1]]
                    container, offset = outer.text, outer.start_char
                start = phrase.start_char - offset
                edit = Edit(position=span[0], before=phrase.text, after=phrase.text, perturber="rti",
                            char_start=start, char_end=start + len(phrase.text), level="phrase")
                cases.append(Pair(sid, container, phrase.text, edit, relation="rti"))
        return cases

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        lang = self.ctx.target_lang
        found = []
        for pair in cases:
            outer, inner = translation.get(pair.original), translation.get(pair.perturbed)
            if not outer or not inner:
                continue
            missing = missing_from(target_bag(inner, lang, self.compare), target_bag(outer, lang, self.compare))
            found.append(Issue(pair, outer, inner, float(sum(missing.values())), {},
                               evidence={"missing": sorted(missing.elements()),
                                         "missing_as_written": as_written(inner, missing)}))
        return self.checked(found, cases=len(cases), compared=len(found))
