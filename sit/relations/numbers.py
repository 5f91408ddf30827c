"""``numbers``: the numbers, amounts and percentages of a source come out in the translation,
written the way the target language writes them (Babel's CLDR data: ``4.34`` -> ``4,34`` and
``1,000`` -> ``1.000`` in Spanish), with their currency; and a copy of the sentence with one number
changed changes exactly that number in its translation (mozilla/translations #1080).

One case per sentence that has a number: the sentence and its copy with the first number's last
digit changed (:func:`sit.textcheck.numbers.changed_number`). Findings on the sentence's own
translation: ``missing`` (a number in no form), ``format`` (only in the source's form, where the
target writes it otherwise), ``currency`` (the currency dropped); on the copy: ``changed`` (its
translation is not the sentence's with that one number changed).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence

from ..records import Edit, Issue, Pair
from ..textcheck.compare import normalized
from ..textcheck.numbers import changed_number, currency_kept, find, numbers_of, target_forms
from .base import Checked, Relation
from .every import Origin, merged, other_texts, text_issue


class NumbersRelation(Relation):
    name = "numbers"
    title = "a number of the source is wrong in the translation"
    kinds = {"missing": "a number of the source is missing from the translation",
             "format": "a number is written the source language's way, not the target's",
             "currency": "the currency of an amount was dropped",
             "changed": "changing one number of the source changed more than that number in the translation"}
    sides = ("source", "number_changed")

    def __init__(self, ctx, *, changed: bool = True):
        super().__init__(ctx)
        from ..validate import check_bool

        self.changed = check_bool(changed, "numbers.changed")

    def signature(self) -> dict[str, Any]:
        return {"changed": self.changed}

    def describe(self) -> str:
        return ("numbers: kept and written the target's way (Babel/CLDR)"
                + (", one number changed changes only it" if self.changed else ""))

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        out = []
        for sid, text in zip(ids, texts):
            found = numbers_of(text, self.ctx.source_lang)
            if not found:
                continue
            first = found[0]
            new = changed_number(first)
            copy = text[:first.start] + new + text[first.end:] if self.changed else text
            edit = Edit(0, first.text, new if self.changed else first.text, self.name, first.start,
                        first.start + len(new), note="changed")
            out.append(Pair(sid, text, copy, edit, relation=self.name))
        return out

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        return [t for p in cases for t in ((p.original, p.perturbed) if self.changed else (p.original,))]

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        found, compared = [], 0
        for pair in cases:
            y, y2 = translation.get(pair.original), translation.get(pair.perturbed)
            if y is None or (self.changed and y2 is None):
                continue
            compared += 1
            found.extend(self._kept(pair.original, y, Origin(pair.source_id)))
            if self.changed:
                found.extend(self._changed(pair, y, y2))
        # every other text the run translated (variants of every relation), each by itself
        for x, y, origin in other_texts(self.ctx.origins, translation, (p.original for p in cases)):
            found.extend(self._kept(x, y, origin))
        return self.checked(merged(found, self.ctx.origins), cases=len(cases), compared=compared,
                            kinds=list(self.kinds))

    def _kept(self, text: str, y: str, origin: Origin) -> list[Issue]:
        """The numbers of ``text`` missing from its translation ``y``, in the source's format, or
        without their currency: one issue per kind, its distance the numbers of that kind."""
        target = self.ctx.target_lang
        by_kind: dict[str, list[dict]] = {}
        for number in numbers_of(text, self.ctx.source_lang):
            forms = target_forms(number, target)
            if any(find(f, y) for f in forms):
                kind = "" if not number.currency or currency_kept(number.currency, y, target) else "currency"
            elif number.text not in forms and find(number.text, y):
                kind = "format"
            else:
                kind = "missing"
            if kind:
                by_kind.setdefault(kind, []).append(
                    {"number": (number.currency or "") + number.text, "expected": list(forms)})
        return [text_issue(self.name, text, y, origin, kind, len(items), {"numbers": items})
                for kind, items in by_kind.items()]

    def _changed(self, pair: Pair, y: str, y2: str) -> list[Issue]:
        """The copy's translation should be the sentence's with the one number changed, written
        in the form the sentence's translation used."""
        old = numbers_of(pair.original, self.ctx.source_lang)[0]
        new = numbers_of(pair.perturbed, self.ctx.source_lang)[0]
        pairs = list(zip(target_forms(old, self.ctx.target_lang), target_forms(new, self.ctx.target_lang)))
        pairs.append((old.text, new.text))
        style = next(((a, b) for a, b in pairs if find(a, y)), None)
        if style is None:  # the number is missing already: a finding of its own
            return []
        expected = _replacements(y, *style)
        if normalized(y2) in {normalized(e) for e in expected}:
            return []
        return [Issue(pair, y, y2, 1.0, {}, kind="changed",
                      evidence={"number": old.text, "to": new.text, "expected": expected[0] if expected else ""})]


def _replacements(text: str, old: str, new: str) -> list[str]:
    """``text`` with each one occurrence of the whole number ``old`` replaced by ``new``."""
    pattern = re.compile(rf"(?<![\d.,]){re.escape(old)}(?!\d|[.,]\d)")
    return [text[:m.start()] + new + text[m.end():] for m in pattern.finditer(text)]


__all__ = ["NumbersRelation"]
