"""The shape shared by relations whose cases are variants of each sentence that should translate
the same up to the variant's own change (``case``, ``punctuation``): :class:`VariantRelation`."""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..records import Edit, Issue, Pair
from ..textcheck.compare import changed_words, difference, written_difference
from .base import Checked, Relation


def sentence_edit(relation: str, kind: str, before: str, after: str, change: str = "") -> Edit:
    """The edit of a variant of a whole sentence: ``kind`` names the variant (``Edit.note``),
    ``change`` what it changed (``Edit.change``: case, insertion, substitution, removal)."""
    return Edit(0, before, after, relation, level="sentence", note=kind, change=change)


class VariantRelation(Relation):
    """Each sentence's variants (:meth:`variants`) should translate as the sentence does, up to
    what :meth:`key` forgets; a variant whose translation differs beyond it is a finding of the
    variant's kind, its distance the number of words that differ."""

    sides = ("source", "variant")
    blockwise = True  # a sentence's variants alone (punctuation's every other text: once, where first met)
    #: the variants this relation makes, in order (its ``kinds``' keys)
    variant_names: tuple[str, ...] = ()
    fold_case = False

    def __init__(self, ctx, *, variants: Any = None):
        super().__init__(ctx)
        from ..validate import names_list

        chosen = self.variant_names if variants is None else names_list(variants, f"{self.name}.variants")
        unknown = [v for v in chosen if v not in self.variant_names]
        if unknown or not chosen:
            from ..errors import ConfigError

            raise ConfigError(f"{self.name}.variants: choose among {', '.join(self.variant_names)} "
                              f"(got {', '.join(chosen) or 'none'})")
        self.chosen = tuple(chosen)

    def signature(self) -> dict[str, Any]:
        return {"variants": list(self.chosen)}

    def describe(self) -> str:
        return f"{self.name}: {', '.join(self.chosen)} variants of each sentence"

    def variants(self, text: str) -> list[tuple[str, str, str, str]]:
        """``(kind, variant, before, after)`` for ``text``: the chosen variants that differ from it."""
        raise NotImplementedError

    def key(self, kind: str, translation: str) -> str:
        """What of a translation must not change under a variant of ``kind``."""
        raise NotImplementedError

    def change(self, kind: str, before: str, after: str) -> str:
        """What a variant of ``kind`` changes in the sentence (``Edit.change``)."""
        return "substitution"

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        out = []
        for sid, text in zip(ids, texts):
            for kind, variant, before, after in self.variants(text):
                if variant != text and kind in self.chosen:
                    edit = sentence_edit(self.name, kind, before, after, self.change(kind, before, after))
                    out.append(Pair(sid, text, variant, edit, relation=self.name))
        return out

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        done = self.translated(cases, translation)
        found = []
        for pair, y, y2 in done:
            kind = pair.edit.note
            a, b = self.key(kind, y), self.key(kind, y2)
            if a != b:
                written = written_difference(y, y2, lambda w, kind=kind: self.key(kind, w)) or difference(a, b)
                found.append(Issue(pair, y, y2, float(max(1, changed_words(a, b))), {}, kind=kind,
                                   evidence={"difference": written, "difference_tokens": difference(a, b)}))
        return self.checked(found, cases=len(cases), compared=len(done), kinds=list(self.chosen))
