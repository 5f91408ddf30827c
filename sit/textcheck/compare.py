"""How two translations are compared by the production relations: their words, and how many of
them differ."""

from __future__ import annotations

import difflib
import re
from typing import Callable

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


def written_difference(a: str, b: str, key: Callable[[str], str] = lambda w: w, *, limit: int = 6) -> list[list[str]]:
    """The changed stretches between ``a`` and ``b`` as ``[before, after]`` (at most ``limit``),
    each as written in its text (its own case, spacing and marks: "de EE.UU.", not "de ee . uu ."):
    the words (:data:`sit.words.TOKEN`) are compared by ``key`` (``str.casefold`` where case does
    not count), and a stretch whose two sides are the same under ``key`` is no change."""
    x, y = list(TOKEN.finditer(a)), list(TOKEN.finditer(b))
    kx, ky = [key(m.group()) for m in x], [key(m.group()) for m in y]
    spans: list[list[int]] = []  # [i1, i2, j1, j2] of each change, those one mark apart joined
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, kx, ky, autojunk=False).get_opcodes():
        if tag != "equal" and "".join(kx[i1:i2]) != "".join(ky[j1:j2]):
            if spans and i1 - spans[-1][1] <= 1 and not any(c.isalnum() for c in "".join(kx[spans[-1][1]:i1])):
                spans[-1][1], spans[-1][3] = i2, j2  # "la ONU" -> "U" "." "N.": one change, "U.N."
            else:
                spans.append([i1, i2, j1, j2])

    def written(text: str, ms: list, start: int, end: int) -> str:
        return text[ms[start].start():ms[end - 1].end()] if end > start else ""

    return [[written(a, x, i1, i2), written(b, y, j1, j2)] for i1, i2, j1, j2 in spans][:limit]
