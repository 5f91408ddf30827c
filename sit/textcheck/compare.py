"""How two translations are compared by the production relations: their words, and how many of
them differ."""

from __future__ import annotations

import difflib
import re

from ..text import squeeze
from ..words import TOKEN



def normalized(text: str) -> str:
    """``text`` with runs of whitespace made one space and no space before closing punctuation."""
    return re.sub(r"\s+([.,;:!?)\]}»”])", r"\1", squeeze(text))


def words(text: str) -> list[str]:
    """The words and punctuation marks of ``text`` (:data:`sit.words.TOKEN`), in order."""
    return TOKEN.findall(text)


def changed_words(a: str, b: str, *, fold_case: bool = False) -> int:
    """How many words of ``a`` and ``b`` differ (replaced, deleted or inserted; the larger side of
    each change), compared case-folded with ``fold_case``."""
    x, y = words(a), words(b)
    if fold_case:
        x, y = [w.casefold() for w in x], [w.casefold() for w in y]
    ops = difflib.SequenceMatcher(None, x, y, autojunk=False).get_opcodes()
    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")


def difference(a: str, b: str, *, fold_case: bool = False, limit: int = 6) -> list[list[str]]:
    """The changed stretches of words between ``a`` and ``b`` as ``[before, after]`` (at most
    ``limit``), for a finding's evidence."""
    x, y = words(a), words(b)
    key = (lambda w: w.casefold()) if fold_case else (lambda w: w)
    ops = difflib.SequenceMatcher(None, [key(w) for w in x], [key(w) for w in y], autojunk=False).get_opcodes()
    return [[" ".join(x[i1:i2]), " ".join(y[j1:j2])] for tag, i1, i2, j1, j2 in ops if tag != "equal"][:limit]
