"""``batch``: a text translated alone and inside batches of different neighbours gets the same
translation (browsermt/marian-dev #104).

The run's own translation of each sentence is the reference; the relation translates the
sentences again in ``arrangements`` shuffles of the run's sentences cut into batches of ``size``
(each batch one call, in that order) through the translator's ``translate_in_batch``, whose cache
keys name the neighbourhood, so these re-translations are never answered by the plain translation
(and a re-run answers them from the cache). Findings: ``changed`` (the translation in a batch
differs from the run's), its distance the words that differ.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Optional, Sequence

from ..errors import ConfigError
from ..records import Edit, Issue, Pair, stable_hash
from ..textcheck.compare import changed_words, difference, normalized
from .base import Checked, Relation


class BatchRelation(Relation):
    name = "batch"
    title = "a text is translated differently depending on its batch neighbours"
    kinds = {"changed": "the translation changed with the text's batch neighbours"}
    sides = ("source", "in another batch")

    def __init__(self, ctx, *, size: int = 8, arrangements: int = 2):
        super().__init__(ctx)
        from ..validate import check_number

        self.size = check_number(size, "batch.size", integer=True, minimum=2)
        self.arrangements = check_number(arrangements, "batch.arrangements", integer=True, minimum=1)
        if ctx.translator is None or not hasattr(ctx.translator, "translate_in_batch"):
            raise ConfigError("the batch relation needs a translator that can translate a chosen batch "
                              "(Translator.translate_in_batch)")

    def signature(self) -> dict[str, Any]:
        return {"size": self.size, "arrangements": self.arrangements}

    def describe(self) -> str:
        return f"batch: each sentence again in {self.arrangements} shuffled batch(es) of {self.size}"

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        out = []
        for arrangement in range(self.arrangements):
            order = list(zip(ids, texts))
            random.Random(f"{self.ctx.seed}:{arrangement}").shuffle(order)
            for start in range(0, len(order), self.size):
                for at, (sid, text) in enumerate(order[start:start + self.size]):
                    edit = Edit(at, "", "", self.name, level="sentence", note=f"{arrangement}/{start // self.size}")
                    out.append(Pair(sid, text, text, edit, relation=self.name))
        return out

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        return [p.original for p in cases]

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        batches: dict[str, list[Pair]] = {}
        for pair in cases:
            batches.setdefault(pair.edit.note, []).append(pair)
        found, compared = [], 0
        for members in batches.values():
            texts = [p.original for p in members]
            again = self.ctx.translator.translate_in_batch(texts, f"{len(texts)}:{stable_hash(texts)}")
            for pair, y2 in zip(members, again):
                y = translation.get(pair.original)
                if y is None or y2 is None:
                    continue
                compared += 1
                if normalized(y) != normalized(y2):
                    others = [t[:80] for t in texts if t != pair.original]
                    found.append(Issue(pair, y, y2, float(max(1, changed_words(y, y2))), {}, kind="changed",
                                       evidence={"position": pair.edit.position, "batch": len(texts),
                                                 "neighbours": others, "difference": difference(y, y2)}))
        stats = self.ctx.translator.batch_stats
        return self.checked(found, cases=len(cases), compared=compared, batches=len(batches),
                            retranslated=stats.translated, retranslation_cache_hits=stats.cache_hits)
