"""``punctuation``: adding or removing the final period, straight versus curly quotes, a trailing
space: the translation changes by that mark only (mozilla/translations #177)."""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional, Sequence

from ..records import Pair
from ..textcheck.compare import normalized
from .base import Checked
from .every import merged, other_texts, text_issue
from .variants import VariantRelation

#: curly quotes and apostrophes, and the straight marks they stand for
CURLY = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'"})
_FINAL = re.compile(r"[\s.。]+$")
#: sentence-final marks of any script, by what they mark
FINAL_MARKS = {"?": "?", "？": "?", "؟": "?", "!": "!", "！": "!", ".": ".", "。": ".", "।": "."}
_AFTER_FINAL = "\"'”’»)]}」』 \t\n"  # what may follow a final mark


def final_mark(text: str) -> str:
    """What ``text``'s last mark is (``?``, ``!`` or ``.``, whatever the script), closing quotes
    and brackets aside; "" where it ends otherwise."""
    return FINAL_MARKS.get(text.rstrip(_AFTER_FINAL)[-1:], "")


def final_changed(source: str, translation: str) -> Optional[tuple[str, str]]:
    """(source's mark, translation's) where a question or an exclamation does not end as one, or
    a statement ends as a question or an exclamation; None where the final mark is kept (a
    translation that stops without one is ``length``'s ``cut``)."""
    a, b = final_mark(source), final_mark(translation)
    if a in "?!" and b != a and not source.rstrip().endswith(")"):  # a prompt's answers after it: "? (s/n)",
        # or the argument it asks about moved after the mark with them: "%04lo? (%s) (s/n)"
        b = final_mark(re.sub(r"(?:\s*\([^()\n]{1,12}\))+\s*$", "", translation)) or b
    if (a in "?!" and a and b != a) or (a == "." and b in "?!" and b):
        return a, b
    return None


#: a single quote that closes a quotation: after a word or mark, before no letter
_CLOSING = re.compile(r"(?<=\S)'(?![^\W\d_])")


def curled(text: str) -> str:
    """``text`` with straight quotes made curly: ``"`` opening and closing by position; ``'`` an
    opening quote (``‘``) only where it opens a quotation (at a word's start, before a letter, and
    closed later), else an apostrophe or closing quote (``’``, U+2019: "the mayor’s", "the
    ’90s", "’em")."""
    out, opening = [], True
    for i, ch in enumerate(text):
        if ch == '"':
            out.append("“" if opening else "”")
            opening = not opening
        elif ch == "'":
            out.append("‘" if _opens_quote(text, i) else "’")
        else:
            out.append(ch)
    return "".join(out)


def _opens_quote(text: str, i: int) -> bool:
    """Whether the ``'`` at ``i`` opens a quotation rather than standing for left-out letters."""
    if i and not (text[i - 1].isspace() or text[i - 1] in "([{\"“—–-"):
        return False
    return text[i + 1:i + 2].isalpha() and _CLOSING.search(text, i + 2) is not None


def straightened(text: str) -> str:
    return text.translate(CURLY)


class PunctuationRelation(VariantRelation):
    name = "punctuation"
    title = "the translation changed with a punctuation mark of the source beyond that mark"
    kinds = {"period": "adding or removing the final period changed the translation",
             "quotes": "straight versus curly quotes changed the translation",
             "space": "a trailing space changed the translation",
             "final": "the translation does not end as the source does (a question, an exclamation, a statement)"}
    variant_names = ("period", "quotes", "space")
    alone = 5
    alone_options = {"software": True}
    mqm = {"final": ("minor", "Fluency/Punctuation"), "": ("minor", "Fluency/Punctuation")}

    def __init__(self, ctx, *, variants: Any = None, software: bool = False):
        super().__init__(ctx, variants=variants)
        from ..validate import check_bool

        #: read texts as a program's messages, whose final marks are the target language's prompts and
        #: requests ("Su elección: " for "Your selection? ") and the translator's tone (gnupg's German
        #: warnings end with "." where English has "!"): only a question that ends as a statement is a
        #: ``final`` finding there (of 13 others on message catalogues, none was an error: docs/check.md)
        self.software = check_bool(software, "punctuation.software")

    def signature(self) -> dict[str, Any]:
        return {**super().signature(), **({"software": True} if self.software else {})}

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

    def change(self, kind: str, before: str, after: str) -> str:
        if kind == "period":
            return "removal" if after == "(removed)" else "insertion"
        return "insertion" if kind == "space" else "substitution"

    def key(self, kind: str, translation: str) -> str:
        text = normalized(translation)
        if kind == "period":
            text = _FINAL.sub("", text)
        elif kind == "quotes":
            text = straightened(text)
        return text.strip()

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        """The variants' findings, and every translation of the run checked by itself: the final
        mark of a question, an exclamation or a statement kept (``final``)."""
        base = super().check(cases, translation)
        final = []
        for x, y, origin in other_texts(self.ctx.origins, translation, ()):
            marks = final_changed(x, y)
            if marks and (not self.software or marks == ("?", ".")):
                final.append(text_issue(self.name, x, y, origin, "final", 1.0,
                                        {"source_mark": marks[0], "translation_mark": marks[1] or "(none)"}))
        return self.checked([*base.issues, *merged(final, self.ctx.origins)], cases=base.counts.cases,
                            compared=base.counts.compared, kinds=[*self.chosen, "final"])
