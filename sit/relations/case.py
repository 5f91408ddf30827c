"""``case``: a sentence in ALL CAPS, in lower case and in Title Case translates to the same text
as the sentence, up to case (mozilla/translations #73 and #129, OPUS-CAT #47). Pass-through
tokens (URLs, placeholders...) keep their case in the variants."""

from __future__ import annotations

import re

from ..textcheck.compare import normalized
from ..textcheck.tokens import outside_tokens
from .variants import VariantRelation


def title_case(text: str) -> str:
    """Each word's first letter upper-cased, the rest kept (``str.title`` would lower-case
    ``NASA`` and split ``don't``)."""
    return re.sub(r"(?<![\w'’])(\w)", lambda m: m.group(1).upper(), text)


class CaseRelation(VariantRelation):
    name = "case"
    title = "the translation changed with the case of the source"
    kinds = {"upper": "the ALL CAPS sentence translates differently (beyond case)",
             "lower": "the lower-case sentence translates differently (beyond case)",
             "title": "the Title Case sentence translates differently (beyond case)"}
    variant_names = ("upper", "lower", "title")

    def variants(self, text: str) -> list[tuple[str, str, str, str]]:
        return [("upper", outside_tokens(text, str.upper), "as written", "ALL CAPS"),
                ("lower", outside_tokens(text, str.lower), "as written", "lower case"),
                ("title", outside_tokens(text, title_case), "as written", "Title Case")]

    def key(self, kind: str, translation: str) -> str:
        return normalized(translation).casefold()

    def change(self, kind: str, before: str, after: str) -> str:
        return "case"
