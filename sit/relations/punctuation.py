"""``punctuation``: adding or removing the final period, straight versus curly quotes, a trailing
space: the translation changes by that mark only (mozilla/translations #177)."""

from __future__ import annotations

import re

from ..textcheck.compare import normalized
from .variants import VariantRelation

#: curly quotes and apostrophes, and the straight marks they stand for
CURLY = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'"})
_FINAL = re.compile(r"[\s.。]+$")


def curled(text: str) -> str:
    """``text`` with straight quotes made curly: ``"`` opening and closing by position, ``'``
    as an apostrophe or closing quote (``’``) unless it opens a word."""
    out, opening = [], True
    for i, ch in enumerate(text):
        if ch == '"':
            out.append("“" if opening else "”")
            opening = not opening
        elif ch == "'":
            out.append("‘" if (i == 0 or text[i - 1].isspace()) else "’")
        else:
            out.append(ch)
    return "".join(out)


def straightened(text: str) -> str:
    return text.translate(CURLY)


class PunctuationRelation(VariantRelation):
    name = "punctuation"
    title = "the translation changed with a punctuation mark of the source beyond that mark"
    kinds = {"period": "adding or removing the final period changed the translation",
             "quotes": "straight versus curly quotes changed the translation",
             "space": "a trailing space changed the translation"}
    variant_names = ("period", "quotes", "space")

    def variants(self, text: str) -> list[tuple[str, str, str, str]]:
        out = []
        if text.endswith("."):
            out.append(("period", text[:-1], ".", "(removed)"))
        elif text[-1:].isalnum():
            out.append(("period", text + ".", "(none)", "."))
        if straightened(text) != text:
            out.append(("quotes", straightened(text), "curly quotes", "straight quotes"))
        elif "'" in text or '"' in text:
            out.append(("quotes", curled(text), "straight quotes", "curly quotes"))
        out.append(("space", text + " ", "(none)", "trailing space"))
        return out

    def key(self, kind: str, translation: str) -> str:
        text = normalized(translation)
        if kind == "period":
            text = _FINAL.sub("", text)
        elif kind == "quotes":
            text = straightened(text)
        return text.strip()
