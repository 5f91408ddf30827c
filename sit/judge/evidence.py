"""What a translation keeps of its source that a sentence encoder barely sees: its numbers, its
negations and its names. Each check counts how far a translation is from its source
(:func:`distances`); a judge compares two translations' counts, check by check, before it asks its
encoder (:func:`worse_by_evidence`).

- ``numbers``: the runs of digits (so "1,000" and "1.000" read alike), as a multiset: the numbers
  of the source a translation lacks plus those it adds.
- ``negation``: how many negation words (a list per language, :data:`NEGATIONS`) a translation
  has more or fewer than its source. Languages without a list are not checked.
- ``names``: capitalised words of a Latin-script source (not its first word) that a translation
  in a Latin-script language lacks verbatim.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Optional

CHECKS = ("numbers", "negation", "names")
#: negation words per language (lower case); a language not here is not checked for negation
NEGATIONS = {
    "en": ("not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "n't", "cannot"),
    "es": ("no", "nunca", "jamás", "nadie", "nada", "ninguno", "ninguna", "ningún", "ni", "tampoco"),
    "ca": ("no", "mai", "ningú", "res", "cap", "ni", "tampoc"),
    "de": ("nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals", "niemand",
           "nichts", "weder"),
    "fr": ("ne", "n'", "jamais", "aucun", "aucune", "personne", "rien", "ni"),
    "it": ("non", "mai", "nessuno", "nessuna", "niente", "nulla", "né"),
    "pt": ("não", "nunca", "jamais", "ninguém", "nada", "nenhum", "nenhuma", "nem"),
    "zh": ("不", "没", "沒", "未", "无", "無", "别", "非", "勿"),
}
#: a Chinese negation: the characters of NEGATIONS["zh"], except in the common words where they
#: negate nothing (不过 "but", 不断 "continually", 不同 "different", 不少 "many", 未来 "future",
#: 别人 "others", 无论 "whatever", 非常 "very", 并非 stays a negation)
ZH_NEGATION = re.compile(r"不(?![过断同少])|没|沒|未(?!来)|无(?!论)|無(?!論)|别(?!人)|非(?!常)|勿")
#: languages written in Latin script (where a name stands verbatim in a translation)
LATIN = frozenset("en es ca de fr it pt nl gl eo sv da no fi pl cs sk sl hr ro hu tr id vi et lv lt".split())
_DIGITS = re.compile(r"\d+")
_NAME = re.compile(r"(?<=\s)[A-Z][a-z]+(?:[A-Z][a-z]+)*\b")


def _lang(code: str) -> str:
    return code.split("-")[0].lower()


def numbers(text: str) -> Counter:
    return Counter(m.lstrip("0") or "0" for m in _DIGITS.findall(text))


def negations(text: str, lang: str) -> Optional[int]:
    """How many negation words ``text`` has (None where ``lang`` has no list)."""
    words = NEGATIONS.get(_lang(lang))
    if words is None:
        return None
    if _lang(lang) == "zh":
        return len(ZH_NEGATION.findall(text))
    lower = text.lower().replace("’", "'")
    count = sum(1 for w in re.findall(r"[^\W\d_]+", lower) if w in words)
    return count + lower.count("n't") * ("n't" in words) + len(re.findall(r"\bn'", lower)) * ("n'" in words)


def names(source: str) -> list[str]:
    """The capitalised words of ``source`` after its first word, each once."""
    return list(dict.fromkeys(_NAME.findall(source)))


def distances(source: str, translation: str, source_lang: str, target_lang: str) -> dict[str, int]:
    """How far ``translation`` is from ``source`` by each check that applies (see the module)."""
    out: dict[str, int] = {}
    src, tgt = numbers(source), numbers(translation)
    out["numbers"] = sum(((src - tgt) + (tgt - src)).values())
    neg_src, neg_tgt = negations(source, source_lang), negations(translation, target_lang)
    if neg_src is not None and neg_tgt is not None:
        out["negation"] = abs(neg_src - neg_tgt)
    if _lang(source_lang) in LATIN and _lang(target_lang) in LATIN:
        out["names"] = sum(1 for n in names(source) if not re.search(rf"\b{re.escape(n)}\b", translation))
    return out


def worse_by_evidence(source: str, a: str, b: str, source_lang: str, target_lang: str,
                      checks: tuple[str, ...] = CHECKS) -> tuple[str, str]:
    """("a" or "b", the check) where the first of ``checks`` on which the two translations differ
    finds one further from the source; ("", "") where none does."""
    da = distances(source, a, source_lang, target_lang)
    db = distances(source, b, source_lang, target_lang)
    for check in checks:
        if check in da and check in db and da[check] != db[check]:
            return ("a" if da[check] > db[check] else "b"), check
    return "", ""
