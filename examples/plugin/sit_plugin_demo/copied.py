"""``copied``: a translation should not be its source copied through. One case per sentence; a
finding where the translation keeps at least ``share`` of the source's words verbatim."""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence

from sit.records import Edit, Issue, Pair
from sit.relations import Checked, Relation


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
        return self.checked(issues, cases=len(cases), compared=len(cases), kinds=list(self.kinds))
