"""``case``: a sentence in ALL CAPS, in lower case and in Title Case translates to the same text
as the sentence, up to case (mozilla/translations #73 and #129, OPUS-CAT #47). Pass-through
tokens (URLs, placeholders...) keep their case in the variants."""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from ..records import Issue
from ..text import quoted
from ..textcheck.compare import normalized
from ..textcheck.tokens import outside_tokens
from ..words import LETTERS, letter_words, word_key
from .variants import VariantRelation

_CASE_NAMES = {"lower": "lower-case", "title": "Title Case", "upper": "ALL CAPS"}


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
    measured = {"lower": (20, 20, "production-news.jsonl"), "title": (19, 20, "production-news.jsonl"),
                "upper": (20, 20, "production-news.jsonl")}
    severity = {"": 1.0}

    def variants(self, text: str) -> list[tuple[str, str, str, str]]:
        return [("upper", outside_tokens(text, str.upper), "as written", "ALL CAPS"),
                ("lower", outside_tokens(text, str.lower), "as written", "lower case"),
                ("title", outside_tokens(text, title_case), "as written", "Title Case")]

    def key(self, kind: str, translation: str) -> str:
        return normalized(translation).casefold()

    def change(self, kind: str, before: str, after: str) -> str:
        return "case"

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """A source word the variant's translation copies (:func:`copied_words`; words known only
        capitalised, lower-cased, are one bug), a word it has where the sentence's has another
        (:func:`changed_words`, not ``stops``), or the difference itself; else the variant's kind."""
        copied = copied_words(issue)
        changed = [("case-word", w) for w in changed_words(issue, stops) if w not in copied]
        left = [("lower-copied",)] if copied and issue.kind == "lower" else [("word", word_key(w)) for w in copied]
        return left + changed + _case_pairs(issue), (cls.name, issue.kind or "")

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        if key[0] == "lower-copied":
            named = list(dict.fromkeys(w for i in issues for w in copied_words(i)))
            more = f" and {len(named) - 5} more" if len(named) > 5 else ""
            return (f"lower-cased names and days are left untranslated (known only capitalised): "
                    f"{', '.join(quoted(w) for w in named[:5])}{more}")
        if key[0] == "case-word":
            before, after = _case_change(key[1], issues)
            return (f"capitalisation changes the translation: {quoted(after)} where the sentence's translation has "
                    f"{quoted(before) if before else 'nothing'}")
        if key[0] == "case-change":
            return (f"capitalisation changes the translation: {quoted(key[2])} where the sentence's translation has "
                    f"{quoted(key[1])}")
        if key[0] == cls.name:
            return f"the {_CASE_NAMES.get(key[1], key[1])} sentence translates differently (beyond case)"
        return ""


def copied_words(issue: Issue) -> list[str]:
    """The source words the variant's translation copies verbatim where the sentence's own
    translation has none of them ("Said" left in English in the Title Case variant)."""
    kept = letter_words(issue.original_translation) | letter_words(issue.pair.original) - letter_words(issue.pair.perturbed)
    source = letter_words(issue.pair.perturbed)
    out = []
    for w in LETTERS.findall(issue.perturbed_translation or ""):
        low = w.lower()
        if low in source and low not in kept and low not in out:
            out.append(low)
    return out


def changed_words(issue: Issue, stops: frozenset[str] = frozenset()) -> list[str]:
    """The words (three letters or more, not ``stops``) a case variant's translation has in a
    difference (``evidence.difference``: ``[in the sentence's, in the variant's]``) that the
    sentence's own translation lacks there: "OMS" for "quién" (WHO read as the organisation)."""
    out = []
    for part in issue.evidence.get("difference") or []:
        if not (isinstance(part, (list, tuple)) and len(part) == 2):
            continue
        before = letter_words(str(part[0]))
        for w in LETTERS.findall(str(part[1])):
            low = w.lower()
            if len(low) >= 3 and low not in before and low not in stops and low not in out:
                out.append(low)
    return out


def _case_pairs(issue: Issue) -> list[tuple[str, ...]]:
    """The differences of a case variant where both translations have words, as keys
    (``"estuvo" -> "fue"``: a passive read another way in capitals)."""
    out = []
    for part in issue.evidence.get("difference") or []:
        if isinstance(part, (list, tuple)) and len(part) == 2 and str(part[0]).strip() and str(part[1]).strip():
            key = ("case-change", " ".join(str(part[0]).lower().split()), " ".join(str(part[1]).lower().split()))
            if key not in out:
                out.append(key)
    return out


def _case_change(word: str, issues: Sequence[Issue]) -> tuple[str, str]:
    """The most common difference (sentence's, variant's) of ``issues`` whose variant side has ``word``."""
    seen: Counter = Counter()
    for issue in issues:
        for part in issue.evidence.get("difference") or []:
            if isinstance(part, (list, tuple)) and len(part) == 2 and word in letter_words(str(part[1])):
                seen[(str(part[0]), str(part[1]))] += 1
    return seen.most_common(1)[0][0] if seen else ("", word)
