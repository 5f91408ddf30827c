"""``length``: a check of every translation the run makes (no cases of its own): repetition loops
(an n-gram repeated back to back far beyond the source: argos-translate #428 and #444,
LibreTranslate #46, #183 and #351), empty or cut-off outputs, and length ratios far outside the
run's own distribution for its language pair.

Findings: ``loop`` (an n-gram of 1 to ``max_n`` words repeated back to back at least
``min_repeats`` times, and at least twice more than any n-gram of that length in the source),
``empty`` (an empty translation of a non-empty text), ``cut`` (the source ends a sentence and the
translation stops without final punctuation), ``ratio`` (the log ratio of translation to source
characters at least ``max_z`` robust standard deviations (median, MAD) from the run's median, among
texts of at least ``min_chars`` characters, where the run has at least ``min_texts`` of them).
Translations of other relations' variants are attributed to the sentence they belong to
(``RunContext.origins``), and one kind of finding on several texts of a sentence is one finding
that lists them (:func:`sit.relations.every.merged`); texts of no sentence have source id -1.
"""

from __future__ import annotations

import math
import re
import statistics
from typing import Any, Mapping, Optional, Sequence

from ..records import Edit, Issue, Pair
from ..textcheck.repeats import longest_repeat, repeat_run, words_of
from .base import Checked, Relation
from .every import merged

_ENDS = re.compile(r"[.!?…][\"'”’»)\]]*\s*$")
#: a translation that ends by closing a bracket or a quotation closed what it began: not cut off
#: ("(normalerweise »index.html«)", "enthält „..“")
_CLOSED = re.compile(r"[)\]\"'”’»«“」』]\s*$")


#: a translation that stops without the source's final mark is cut off where it has fewer than this share
#: of the source's words (a final period or exclamation mark left out of a whole translation is none:
#: gnupg's German "... mit ja beantworten" for "... with yes.", 29 words for 33)
CUT_WORDS = 0.75

#: a source that is a message's key, not its text, whose translation's length says nothing: a dotted
#: key (``pinentry.qualitybar.tooltip``) or gettext's old context prefix (``|pinentry-label|_Yes``)
_MESSAGE_KEY = re.compile(r"\|[^|\n]+\||[A-Za-z_][\w-]*(?:\.[\w-]+)+\s*$")


class LengthRelation(Relation):
    name = "length"
    title = "a translation is looped, empty, cut off or of an outlying length"
    kinds = {"loop": "the translation repeats an n-gram far beyond the source (a loop)",
             "empty": "the translator returned nothing for a non-empty text",
             "cut": "the translation stops where the source goes on to the end of its sentence",
             "ratio": "the translation's length is far outside the run's own ratio to the source"}
    sides = ("source", "source")
    sees_empty = True
    alone = 4
    #: in ``sit check`` (a program's messages) ``ratio`` reports the translations far shorter only:
    #: one far longer is a long text under a short key (gnupg's "TOFU detected a binding conflict")
    #: or a line the translator added (where to report the translation's errors) as often as not
    alone_options = {"longer": False}
    mqm = {"empty": ("critical", "Accuracy/Omission"), "cut": ("major", "Accuracy/Omission"),
           "loop": ("major", "Accuracy/Addition"), "ratio": ("minor", "Accuracy/Omission")}

    def __init__(self, ctx, *, max_n: int = 6, min_repeats: int = 3, max_z: float = 6.0,
                 min_chars: int = 20, min_texts: int = 30, longer: bool = True):
        super().__init__(ctx)
        from ..validate import check_bool, check_number

        self.max_n = check_number(max_n, "length.max_n", integer=True, minimum=1)
        self.min_repeats = check_number(min_repeats, "length.min_repeats", integer=True, minimum=2)
        self.max_z = check_number(max_z, "length.max_z", above=0)
        self.min_chars = check_number(min_chars, "length.min_chars", integer=True, minimum=1)
        self.min_texts = check_number(min_texts, "length.min_texts", integer=True, minimum=3)
        self.longer = check_bool(longer, "length.longer")  # ratio: a translation far longer too
        self._ids: dict[str, int] = {}

    def signature(self) -> dict[str, Any]:
        return {"max_n": self.max_n, "min_repeats": self.min_repeats, "max_z": self.max_z,
                "min_chars": self.min_chars, "min_texts": self.min_texts,
                **({} if self.longer else {"longer": False})}

    def describe(self) -> str:
        return (f"length: loops (an n-gram of up to {self.max_n} repeated {self.min_repeats}+ times), empty and "
                f"cut-off outputs, length ratios {self.max_z:g} robust deviations out, over every translation")

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        self._ids = dict(zip(texts, ids))  # to name the sentence of a finding
        return []

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        return []

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        done = {x: y for x, y in translation.items() if y is not None and x.strip()}
        found = [i for x, y in done.items() for i in self._own(x, y)]
        found.extend(self._ratios(done))
        return self.checked(merged(found, self.ctx.origins), cases=0, compared=len(done), kinds=list(self.kinds))

    def _issue(self, x: str, y: str, kind: str, distance: float, evidence: dict) -> Issue:
        origin = self.ctx.origins.get(x)  # the sentence a variant belongs to, where the run knows it
        pair = Pair(origin.source_id if origin is not None else self._ids.get(x, -1), x, x, Edit(0, "", "", self.name, level="sentence", note=kind),
                    relation=self.name)
        return Issue(pair, y, y, float(distance), {}, kind=kind, evidence=evidence)

    def _own(self, x: str, y: str) -> list[Issue]:
        if not y.strip():
            return [self._issue(x, y, "empty", 100.0, {"source_chars": len(x)})]
        times, n, gram = longest_repeat(y, self.max_n)
        if times >= self.min_repeats:
            before = repeat_run(words_of(x), n)[0]
            if times >= before + 2:
                return [self._issue(x, y, "loop", float(times), {"ngram": gram[:200], "times": times,
                                                                 "source_times": before})]
        if _ENDS.search(x) and not _ENDS.search(y) and not _CLOSED.search(y) \
                and len(y.split()) < CUT_WORDS * len(x.split()):
            return [self._issue(x, y, "cut", 1.0, {"source_end": x.rstrip()[-20:], "translation_end": y.rstrip()[-20:]})]
        return []

    def _ratios(self, done: dict[str, str]) -> list[Issue]:
        """The translations whose log length ratio is ``max_z`` robust deviations from the median
        (below it only, without ``longer``)."""
        logs = {x: math.log(len(y) / len(x)) for x, y in done.items()
                if len(x) >= self.min_chars and y.strip() and not _MESSAGE_KEY.match(x)}
        if len(logs) < self.min_texts:
            return []
        median = statistics.median(logs.values())
        mad = statistics.median(abs(v - median) for v in logs.values()) * 1.4826
        if mad <= 0:
            return []
        out = []
        for x, v in logs.items():
            z = (v - median) / mad
            if z <= -self.max_z or (self.longer and z >= self.max_z):
                out.append(self._issue(x, done[x], "ratio", abs(z), {
                    "ratio": round(len(done[x]) / len(x), 3), "run_median_ratio": round(math.exp(median), 3),
                    "z": round(z, 2)}))
        return out

