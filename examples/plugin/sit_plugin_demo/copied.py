"""``copied``: a translation should not be its source copied through. One case per sentence; a
finding where the translation keeps at least ``share`` of the source's words verbatim. Its run-level
figures (how many sentences came through copied) are titled rows that every report shows."""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence

from sit.records import Edit, Issue, Pair
from sit.relations import Checked, Relation
from sit.runmeta import Figure, FigureTable


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


class CopiedRelation(Relation):
    name = "copied"
    title = "most of the source came through untranslated"
    kinds = {"copied": "most of the source came through untranslated"}
    sides = ("source", "source")

    def __init__(self, ctx, *, share: float = 0.5):
        super().__init__(ctx)
        self.share = float(share)

    def signature(self) -> dict[str, Any]:
        return {"share": self.share}

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        return [Pair(sid, text, text, Edit(0, "", "", "copied", level="sentence"), relation=self.name)
                for sid, text in zip(ids, texts)]

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        return [p.original for p in cases]

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        issues = []
        for pair in cases:
            out = translation.get(pair.original)
            source = _words(pair.original)
            if not out or not source:
                continue
            kept = sum(1 for w in _words(out) if w in set(source)) / len(source)
            if kept >= self.share:
                issues.append(Issue(pair, out, out, kept, {}, kind="copied", evidence={"kept": round(kept, 3)}))
        checked = self.checked(issues, cases=len(cases), compared=len(cases), kinds=list(self.kinds))
        checked.extra["copied_share"] = {"sentences": len(cases), "copied": len(checked.issues), "share": self.share}
        return checked

    @classmethod
    def figures(cls, extra: Mapping[str, Any]) -> list[FigureTable]:
        """``copied_share`` (saved in run.json) as the rows the reports show."""
        fig = extra.get("copied_share")
        if not isinstance(fig, Mapping):
            return []
        rate = fig["copied"] / fig["sentences"] if fig["sentences"] else 0.0
        return [FigureTable("Copied through", (
            Figure("sentences copied", f"{fig['copied']} of {fig['sentences']} ({100 * rate:.1f} %)"),
            Figure("share of words that makes a copy", f"{fig['share']:.2f}"),
        ), note="source words kept verbatim in the translation", key="copied_share")]
