"""``declension``: every German translation of the run checked by itself for the grammar a text shows
alone (issue 45; :mod:`sit.textcheck.german`): German has no spaCy pipeline that loads offline,
so the forms are Wiktionary's (the ``german-nouns`` package's CSV) and the Hannover Tagger's German
model (``HanTa``). Spanish agreement is ``concord``'s. No cases of its own, nothing to translate.

Findings: ``noun`` (a determiner and its noun that no reading lets agree in gender, number and
case: "ein Pflanze", "mit den Kinder", "des Stress") and ``doubled`` (a word of one to three letters
written twice where the source doubles none and German does not: "ist ist", not "Frauen, die die
Kinder"), both MQM ``Fluency/Grammar``, minor. One finding per text and kind lists its words.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..records import Issue, Pair
from .base import Checked
from .every import TextsAlone, merged, other_texts

#: the MQM category and severity of each kind of finding
MQM = {"noun": ("minor", "Fluency/Grammar"), "doubled": ("minor", "Fluency/Grammar")}
#: the target languages the check reads
LANGS = ("de",)


class DeclensionRelation(TextsAlone):
    name = "declension"
    title = "a German translation's determiner and noun cannot agree, or a short word is doubled"
    kinds = {"noun": "a determiner and its noun that no reading lets agree in gender, number and case",
             "doubled": "a short word written twice back to back where German does not double it"}
    mqm = MQM
    alone = 17
    alone_default = False  # opt-in until blind labels measure its precision (docs/precision.md)
    alone_needs = ("German only: the german-nouns lexicon and the HanTa tagger (pip install hanta==1.2.1; "
                   "pip install --no-deps german-nouns==1.2.5)")

    def __init__(self, ctx, *, nouns: str = ""):
        super().__init__(ctx)
        from pathlib import Path

        from ..errors import ConfigError
        from ..textcheck.german import nouns_file

        if nouns and not Path(nouns).is_file():
            raise ConfigError(f"declension.nouns: {nouns} is not a file; give the path of german-nouns' nouns.csv "
                              "(pip install --no-deps german-nouns==1.2.5)")
        #: why nothing is checked (a target language it does not read, something not installed), or ""
        self.missing = "" if nouns else self.usable(ctx.source_lang, ctx.target_lang)
        self.nouns = str(nouns or nouns_file() or "")
        self._lexicon = None

    @classmethod
    def usable(cls, source_lang: str, target_lang: str) -> str:
        from importlib.util import find_spec

        from .. import hints
        from ..textcheck.german import nouns_file

        lang = target_lang.split("_")[0].split("-")[0]
        if lang not in LANGS:
            return f"declension left out: it reads German only, not {target_lang!r}"
        if find_spec("HanTa") is None:
            return f"declension left out: it tells nominalised adjectives by the HanTa tagger ({hints.HANTA})"
        if nouns_file() is None:
            return f"declension left out: German nouns' genders and forms come from german-nouns ({hints.GERMAN_NOUNS})"
        return ""

    def signature(self) -> dict[str, Any]:
        from pathlib import Path

        return {"nouns": Path(self.nouns).name, "tagger": "HanTa morphmodel_ger", "rules": 1}

    def describe(self) -> str:
        if self.missing:
            return f"declension: nothing checked ({self.missing.removeprefix('declension left out: ')})"
        return f"declension: determiners and nouns of every German translation (german-nouns' {self.nouns}, HanTa)"

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        if self.missing:
            return self.checked([], cases=0, compared=0, kinds=list(self.kinds))
        from ..textcheck.german import GermanNouns, disagreements, doubled

        if self._lexicon is None:
            self._lexicon = GermanNouns(self.nouns)
        done = other_texts(self.ctx.origins, translation, ())
        found: list[Issue] = []
        for x, y, origin in done:
            pairs = [{"words": d.words, "start": d.start, "end": d.end} for d in disagreements(y, self._lexicon)]
            if pairs:
                found.append(self.finding(x, y, origin, "noun", {"pairs": pairs}, len(pairs)))
            if words := doubled(x, y):
                found.append(self.finding(x, y, origin, "doubled", {"words": words}, len(words)))
        return self.checked(merged(found, self.ctx.origins), cases=0, compared=len(done), kinds=list(self.kinds))
