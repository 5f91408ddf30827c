"""``coverage``: every translation of the run checked by itself for content the source has and the
translation lacks, or the other way round (MQM Accuracy/Omission, Accuracy/Addition), through
Apertium's compiled dictionaries of the pair (:mod:`sit.textcheck.coverage`): the content words of
each side that no dictionary translation, WordNet synonym's translation, copy or cognate on the
other side covers. A paraphrase leaves words uncovered on both sides; a finding needs at least
``min_net`` more on one side than on the other, and at least ``min_share`` of that side's content words. No cases of its own, nothing to
translate.

Pairs: those whose Apertium package Debian ships with both analysers and both bilingual
dictionaries (``apertium-eng-spa``: en-es, es-en; ``apertium-eng-cat``: en-ca, ca-en); WordNet
synonyms widen an English source. On Apertium's own output the lexicon is the translator's: the
check is meant for other translators (neural, LLM, cloud, human).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..records import Pair
from .base import Checked
from .every import TextsAlone, merged, other_texts

#: (severity, MQM category) of each kind of finding
MQM = {"omission": ("major", "Accuracy/Omission"), "addition": ("major", "Accuracy/Addition"),
       "date": ("major", "Accuracy/Omission")}


class CoverageRelation(TextsAlone):
    name = "coverage"
    title = "a translation lacks content of the source, or adds content of its own (bilingual lexicon)"
    kinds = {"omission": "source content words nothing in the translation covers (Apertium's bilingual dictionary)",
             "addition": "translation content words no source word accounts for (Apertium's bilingual dictionary)",
             "date": "a day or month name of the source nothing in the translation covers"}
    mqm = MQM
    severity = {"": 3.0}
    alone = 15
    alone_default = False  # opt-in until its blind precision is measured at 90% or more
    alone_needs = "Apertium's dictionaries of the pair (apt: apertium-eng-spa or apertium-eng-cat) and lt-proc"

    def __init__(self, ctx, *, min_net: int = 3, min_share: float = 0.2, synonyms: bool = True,
                 similarity: float = 0.0):
        super().__init__(ctx)
        from ..validate import check_bool, check_number

        #: a finding stands only where the multilingual encoder (the offline judge's, ``use``) puts
        #: source and translation below this cosine; 0: no encoder (docs/precision.md, "Coverage")
        self.similarity = check_number(similarity, "coverage.similarity", minimum=0, maximum=1)
        self._encoder = None
        self.min_net = check_number(min_net, "coverage.min_net", integer=True, minimum=1)
        self.min_share = check_number(min_share, "coverage.min_share", minimum=0, maximum=1)
        self.synonyms = check_bool(synonyms, "coverage.synonyms")
        #: why nothing is checked (no Apertium dictionaries for the pair), or ""
        self.missing = self.usable(ctx.source_lang, ctx.target_lang)
        self._lexicon = None

    @classmethod
    def usable(cls, source_lang: str, target_lang: str) -> str:
        import shutil

        from .. import hints
        from ..textcheck.coverage import pair_files

        if shutil.which("lt-proc") is None:
            return f"coverage left out: it reads Apertium's dictionaries with lt-proc ({hints.APERTIUM})"
        if pair_files(source_lang, target_lang) is None:
            return (f"coverage left out: no Apertium dictionaries for {source_lang}-{target_lang} "
                    f"(en-es, es-en, en-ca, ca-en: {hints.APERTIUM})")
        return ""

    def signature(self) -> dict[str, Any]:
        from ..textcheck.coverage import dictionaries_hash

        return {"min_net": self.min_net, "min_share": self.min_share, "similarity": self.similarity, "synonyms": "wordnet" if self._wordnet() else "none",
                "lexicon": "" if self.missing else dictionaries_hash(self.ctx.source_lang, self.ctx.target_lang)}

    def describe(self) -> str:
        if self.missing:
            return f"coverage: nothing checked ({self.missing.removeprefix('coverage left out: ')})"
        return (f"coverage: content words against Apertium's {self.ctx.source_lang}-{self.ctx.target_lang} dictionaries, "
                f"{self.min_net} more uncovered on one side than the other, {self.min_share:g} of its content words")

    def _wordnet(self) -> bool:
        # whether WordNet synonyms widen the source: asked for, an English source, WordNet installed
        if not self.synonyms or self.ctx.source_lang.split("-")[0] != "en":
            return False
        from ..errors import MissingDependencyError
        from ..models import wordnet_root

        try:
            wordnet_root()
        except MissingDependencyError:
            return False
        return True

    def _lexicon_of_run(self):
        if self._lexicon is None:
            from ..textcheck.coverage import Lexicon, WordNetSynonyms

            synonyms = None
            if self._wordnet():
                from ..models import wordnet

                synonyms = WordNetSynonyms(wordnet())
            self._lexicon = Lexicon(self.ctx.source_lang, self.ctx.target_lang, synonyms=synonyms)
        return self._lexicon

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        if self.missing:
            return self.checked([], cases=0, compared=0, kinds=list(self.kinds))
        from ..textcheck.coverage import calendar_names, unbalanced

        dates = calendar_names(self.ctx.source_lang)
        done = [(x, y, o) for x, y, o in other_texts(self.ctx.origins, translation, ()) if y.strip()]
        found = []
        for (x, y, origin), coverage in zip(done, self._lexicon_of_run().cover([(x, y) for x, y, _ in done])):
            for kind, words in unbalanced(coverage, self.min_net, self.min_share, dates).items():
                evidence = {"words": [w.surface for w in words], "uncovered_source": len(coverage.uncovered_source),
                            "uncovered_target": len(coverage.uncovered_target),
                            "content_words": [coverage.source_content, coverage.target_content]}
                found.append(self.finding(x, y, origin, kind, evidence, len(words)))
        found = self._hedged(found)
        return self.checked(merged(found, self.ctx.origins), cases=0, compared=len(done), kinds=list(self.kinds))

    def _hedged(self, found: list) -> list:
        # with ``similarity``: the findings whose source and translation the encoder puts below it,
        # each with its cosine in the evidence
        if not self.similarity or not found:
            return found
        from dataclasses import replace

        if self._encoder is None:
            from ..judge import get_judge

            self._encoder = get_judge("use", source_lang=self.ctx.source_lang, target_lang=self.ctx.target_lang,
                                      threads=1)
        vec = self._encoder.vectors([t for i in found for t in (i.pair.original, i.original_translation)])
        out = []
        for issue in found:
            cosine = float(vec[issue.pair.original] @ vec[issue.original_translation])
            if cosine < self.similarity:
                out.append(replace(issue, evidence={**issue.evidence, "similarity": round(cosine, 3)}))
        return out
