"""The catalogue's sentence and document level: the sentences of each document, or the documents
of a multi-document text, in a random order."""

from __future__ import annotations

import random
from typing import Any, Optional

from ..text import DOCUMENT_SEPARATOR, Span, documents, sentences
from .base import WORD_SELECTION, NoisePerturber
from .outcome import Outcome, not_applied


def _permutation(rng: random.Random, items: list[str]) -> Optional[list[int]]:
    """A permutation of ``range(len(items))`` that changes the sequence of items, or None."""
    k = len(items)
    if k < 2 or len(set(items)) < 2:
        return None
    perm = list(range(k))
    for _ in range(100):
        rng.shuffle(perm)
        if [items[p] for p in perm] != items:
            return perm
    return list(range(1, k)) + [0]  # a rotation changes any sequence that is not constant


class _Reorder(NoisePerturber):
    unit = "document"
    default_skip_stopwords = False
    ignored_options = WORD_SELECTION

    def __init__(self, *, separator: str = DOCUMENT_SEPARATOR, **options):
        super().__init__(**options)
        self.separator = separator

    def options(self):
        return {"num_perturb": self.num_perturb, "separator": self.separator}

    def describe(self) -> str:
        return f"{self.name} ({self.level}-level: a random order of the {self.level}s)"

    def _reorder(self, text: str, spans: list[Span], rng: random.Random, what: str) -> Optional[list]:
        perm = _permutation(rng, [s.text for s in spans])
        if perm is None:
            return None
        return [
            (spans[i].start, spans[i].end, spans[p].text, spans[p].index, f"{what} {spans[p].index} moved to position {i}")
            for i, p in enumerate(perm)
            if p != i and spans[p].text != spans[i].text
        ]


class SentenceReorder(_Reorder):
    """Shuffle the sentences within each document of a text (so the lead sentence moves, with
    probability (k-1)/k for k sentences); documents joined by ``separator`` stay in place."""

    name = "sentence_reorder"
    level = "sentence"

    def _apply(self, text: str, analysis: Any, rng: random.Random) -> Outcome:
        repl = []
        offset = 0
        for doc in documents(text, self.separator):
            sents = sentences(doc.text)
            spans = [Span(offset + s.index, doc.start + s.start, doc.start + s.end, s.text) for s in sents]
            offset += len(sents)
            r = self._reorder(text, spans, rng, "sentence")
            if r:
                repl.extend(r)
        if not repl:
            if offset < 2:
                why = "a one-sentence document"
            elif offset == len(documents(text, self.separator)):
                why = "every document has one sentence"
            else:
                why = "no document has two different sentences to reorder"
            return not_applied(text, why)
        return self._replaced(text, repl)


class DocumentReorder(_Reorder):
    """Shuffle the documents of a multi-document text (joined by ``separator``, multi_news's
    ``|||||`` by default)."""

    name = "document_reorder"
    level = "document"

    def _apply(self, text: str, analysis: Any, rng: random.Random) -> Outcome:
        docs = documents(text, self.separator)
        if len(docs) < 2:
            return not_applied(text, f"a single document (no {self.separator!r} separator between documents)")
        repl = self._reorder(text, docs, rng, "document")
        if not repl:
            return not_applied(text, "all documents are identical")
        return self._replaced(text, repl)
