"""``typography``: every translation of the run checked by itself for the target language's
typographic conventions (:mod:`sit.textcheck.typography`): its quotation marks (CLDR) and its
spaces. No cases of its own, nothing to translate.

Findings: ``quotes`` (the translation quotes with marks the target language does not use, the
source's straight quotes kept in German), ``spaces`` (two spaces in a row, a space before a comma
or a period or inside brackets, where the source has none: Apertium leaves two where it drops a
word), ``wide`` (CJK full-width or ideographic marks, a Chinese source's ``，`` kept, in a language
not written with them), ``dash`` (a hyphen with a space on each side standing for a dash), all MQM
``Fluency/Punctuation``, minor.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..records import Pair
from .base import Checked
from .every import TextsAlone, merged, other_texts

#: the severity and MQM category of each kind of finding
MQM = {"quotes": ("minor", "Fluency/Punctuation"), "spaces": ("minor", "Fluency/Punctuation"),
       "wide": ("minor", "Fluency/Punctuation"), "dash": ("minor", "Fluency/Punctuation")}


class TypographyRelation(TextsAlone):
    name = "typography"
    title = "a translation does not follow the target language's typography"
    kinds = {"quotes": "quotation marks the target language does not use (CLDR)",
             "spaces": "two spaces in a row, or a space before a comma or a period, where the source has none",
             "wide": "CJK full-width or ideographic marks in a language not written with them",
             "dash": "a hyphen with a space on each side where a dash belongs (– or —)"}
    mqm = MQM
    #: blind labels of a news run's findings (docs/precision.md, stop 44)
    measured = {"spaces": (15, 15, "labels-blind-spelling-typography-keyed.jsonl")}
    alone = 7
    alone_default = False  # not yet on a program's messages: 82 findings per 1,000 (docs/check.md)
    alone_needs = "CLDR's quotation marks (in sit's package)"

    def signature(self) -> dict[str, Any]:
        return {"quotes": "cldr", "spaces": True, "wide": True, "dash": True}

    def describe(self) -> str:
        return "typography: the quotation marks (CLDR) and the spaces of every translation"

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        from ..textcheck.typography import bad_spaces, foreign_quotes, hyphen_dashes, quote_marks, wide_marks

        lang = self.ctx.target_lang
        done = other_texts(self.ctx.origins, translation, ())
        found = []
        for x, y, origin in done:
            if marks := foreign_quotes(y, lang):
                found.append(self.finding(x, y, origin, "quotes", {"marks": marks, "target_marks": quote_marks(lang)},
                                          len(marks)))
            if spaces := bad_spaces(x, y, lang):
                found.append(self.finding(x, y, origin, "spaces", {"stretches": spaces}, len(spaces)))
            if wide := wide_marks(y, lang):
                found.append(self.finding(x, y, origin, "wide", {"marks": wide}, len(wide)))
            if dashes := hyphen_dashes(y):
                found.append(self.finding(x, y, origin, "dash", {"stretches": dashes}, len(dashes)))
        return self.checked(merged(found, self.ctx.origins), cases=0, compared=len(done), kinds=list(self.kinds))
