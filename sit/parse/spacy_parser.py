"""Dependency parsing with spaCy pipelines (offline where the pipeline is pip-installed)."""

from __future__ import annotations

from typing import Optional

from ..records import Tree
from ..resources import find_spacy_model, load_spacy
from .base import Parser, segment_chinese


def doc_to_tree(doc) -> Tree:
    """A spaCy ``Doc`` as a :class:`Tree` (whitespace tokens dropped; heads 1-based, 0 = root)."""
    keep = [t for t in doc if not t.is_space]
    index = {t.i: n for n, t in enumerate(keep, start=1)}
    heads, rels = [], []
    for t in keep:
        if t.head.i == t.i or t.dep_.lower() == "root":
            heads.append(0)
            rels.append("root")
        else:
            heads.append(index.get(t.head.i, 0))
            rels.append(t.dep_.lower() or "dep")
    return Tree(tuple(t.text for t in keep), tuple(heads), tuple(rels))


class SpacyParser(Parser):
    name = "spacy"

    def __init__(self, lang: str, *, model: Optional[str] = None, **kwargs):
        super().__init__(lang, model=model or find_spacy_model(lang), **kwargs)
        disable = ("ner", "lemmatizer", "textcat")
        self.nlp = load_spacy(lang, self.model, disable=disable)  # raises with an install hint
        self.model = self.model or self.nlp.meta.get("name")

    def model_id(self) -> str:
        meta = self.nlp.meta
        return f"{meta.get('lang', self.lang)}_{meta.get('name', self.model)}-{meta.get('version', '')}"

    def _parse_batch(self, texts: list[str]) -> list[Tree]:
        if self.lang == "zh":
            from spacy.tokens import Doc

            inputs = [Doc(self.nlp.vocab, words=segment_chinese(t) or [t]) for t in texts]
        else:
            inputs = texts
        return [doc_to_tree(doc) for doc in self.nlp.pipe(inputs, batch_size=self.batch_size)]
