"""``typography``: every translation of the run checked by itself for the target language's
typographic conventions (:mod:`sit.textcheck.typography`): its quotation marks (CLDR) and its
spaces. No cases of its own, nothing to translate.

Findings: ``quotes`` (the translation quotes with marks the target language does not use, the
source's straight quotes kept in German), ``spaces`` (two spaces in a row, a space before a comma
or a period or inside brackets, where the source has none: Apertium leaves two where it drops a
word), ``wide`` (CJK full-width or ideographic marks, a Chinese source's ``，`` kept, in a language
not written with them), ``dash`` (a hyphen with a space on each side standing for a dash),
``straight`` (the typewriter's ``"`` where the source quotes with typographic marks, “ ” or 「 」, and
the target language's CLDR marks are “ ”; only with ``--relation-option typography.straight=true``: a
blind labeller took none of 20 in English translations for an error), ``period`` (a final period where the source ends with no
mark: a headline or a label made a sentence; MQM annotators of WMT23 zh->en call it punctuation in 64
of the 88 development paragraphs it fires on, addition in 38), all MQM ``Fluency/Punctuation``, minor.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..records import Pair
from .base import Checked
from .every import TextsAlone, merged, other_texts
from .verdicts import Verdicts

#: the severity and MQM category of each kind of finding
MQM = {"quotes": ("minor", "Fluency/Punctuation"), "spaces": ("minor", "Fluency/Punctuation"),
       "wide": ("minor", "Fluency/Punctuation"), "dash": ("minor", "Fluency/Punctuation"),
       "straight": ("minor", "Fluency/Punctuation"), "period": ("minor", "Fluency/Punctuation")}


class TypographyRelation(TextsAlone):
    name = "typography"
    title = "a translation does not follow the target language's typography"
    kinds = {"quotes": "quotation marks the target language does not use (CLDR)",
             "spaces": "two spaces in a row, or a space before a comma or a period, where the source has none",
             "wide": "CJK full-width or ideographic marks in a language not written with them",
             "dash": "a hyphen with a space on each side where a dash belongs (– or —)",
             "straight": "the typewriter's straight quotes where the source quotes with typographic marks",
             "period": "a final period where the source ends with no mark"}
    mqm = MQM
    #: blind labels of a news run's findings (docs/precision.md, stop 44)
    measured = {"spaces": (15, 15, "labels-blind-spelling-typography-keyed.jsonl")}
    alone = 7
    alone_default = False  # not yet on a program's messages: 82 findings per 1,000 (docs/check.md)
    alone_needs = "CLDR's quotation marks (in sit's package)"

    def __init__(self, ctx, *, straight: bool = False):
        super().__init__(ctx)
        from ..validate import check_bool

        # blind labels (docs/precision.md, stop 46): 0 of 20 English translations' straight quotes an error
        # a reviser would mend, so asked for with ``--relation-option typography.straight=true``
        self.straight = check_bool(straight, "typography.straight")
        #: each text's marks and stretches by kind, through the run's cache
        self.verdicts = Verdicts(ctx.cache, self.name, self.signature(), ctx.source_lang, ctx.target_lang,
                                 (type(self).__module__,))

    def signature(self) -> dict[str, Any]:
        return {"quotes": "cldr", "spaces": True, "wide": True, "dash": True, "period": True,
                **({"straight": True} if self.straight else {})}

    def describe(self) -> str:
        return "typography: the quotation marks (CLDR) and the spaces of every translation"

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        from ..textcheck.typography import quote_marks

        done = other_texts(self.ctx.origins, translation, ())
        verdicts = self.verdicts.many(((x, y) for x, y, _ in done), self._verdicts)
        found = []
        for x, y, origin in done:
            for kind, seen in verdicts[(x, y)].items():
                key = "stretches" if kind in ("spaces", "dash") else "marks"
                quoted = {"target_marks": quote_marks(self.ctx.target_lang)} if kind in ("quotes", "straight") else {}
                found.append(self.finding(x, y, origin, kind, {key: seen, **quoted}, 1 if kind == "period" else len(seen)))
        return self.checked(merged(found, self.ctx.origins), cases=0, compared=len(done), kinds=list(self.kinds))

    def _verdicts(self, pairs: list[tuple[str, str]]) -> list[dict[str, list[str]]]:
        """Each (text, translation)'s marks or stretches by kind (``quotes``, ``spaces``, ``wide``,
        ``straight`` where asked for, ``period``, ``dash``, in that order; a kind with none left out), for
        the pairs the cache lacks."""
        from ..textcheck.typography import (added_period, bad_spaces, foreign_quotes, hyphen_dashes, straightened_quotes,
                                            wide_marks)

        lang = self.ctx.target_lang
        out = []
        for x, y in pairs:
            by_kind = {"quotes": foreign_quotes(y, lang), "spaces": bad_spaces(x, y, lang), "wide": wide_marks(y, lang),
                       "straight": straightened_quotes(x, y, lang) if self.straight else [],
                       "period": added_period(x, y), "dash": hyphen_dashes(y)}
            out.append({kind: seen for kind, seen in by_kind.items() if seen})
        return out
