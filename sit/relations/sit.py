"""``sit``: substituting one noun or adjective by a similar word should keep the structure of the
translation (Structure-Invariant Testing, ICSE 2020).

Cases are the run's substitution pairs; both translations are parsed in the target language and
compared by relation counts (:mod:`sit.distance`). With ``surface`` (the default), a pair is a
structure finding only if the translations also differ on the surface beyond the substitute's own
translation and agreement (:func:`sit.distance.surface_change`): parallel translations that the
parser labels differently are parser noise, counted as ``parallel``. A substitute the translator left as it was
(the word itself in the translation where the original's translation did not have it, and no
word of the target language by its frequencies there and in the source language: option
``untranslated``, :func:`target_language_word`), or an
original word left as it was where the substitute was translated, is an ``untranslated`` finding
of its own: useful, but not a structure violation, so it never takes a
place in the structure ranking.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import Any, Mapping, Optional, Sequence

from ..bags import stop_words
from ..distance import DISTANCES, relation_diff, surface_change
from ..errors import ConfigError
from ..rank import rank_issues
from ..records import Edit, Issue, Pair
from .base import Checked, Relation

#: below this Zipf frequency in the target language a word is not the target language's own
TARGET_WORD_ZIPF = 3.0
#: from this Zipf up, a word is the target language's own however common it is in the source
#: language too ("hotel" 4.8, "online" 4.75, "marketing" 4.19 in Spanish)
COMMON_TARGET_ZIPF = 3.7
#: between the two, a word counts as the target language's own only if it is at most this much
#: rarer there than in the source language (Zipf is log10: 0.3 is half as frequent); English names
#: and words that only leak into the target language's texts are rarer ("harper" 3.41 in Spanish,
#: 4.04 in English; "fowler" 3.04 / 3.63; "gaming" 3.22 / 4.36)
LOAN_ZIPF_GAP = 0.3
#: how a substitute standing verbatim is judged: "source-ratio" (the frequencies above) or "floor"
#: (the word's target-language Zipf alone against TARGET_WORD_ZIPF, the rule before)
UNTRANSLATED_RULES = ("source-ratio", "floor")


def verbatim_count(word: str, text: str) -> int:
    """How often ``word`` stands as a whole word in ``text`` (case-insensitive)."""
    if word.isalpha():  # a substitute or a slot's word: count it among the text's words, read once
        return _words_of(text).get(word.lower(), 0)
    return len(_whole_word(word).findall(text))


@lru_cache(maxsize=4096)
def _words_of(text: str) -> Counter:
    # the lower-cased whole words (runs of \w) of a translation, which a run asks about many times
    return Counter(w.lower() for w in re.findall(r"\w+", text))


@lru_cache(maxsize=8192)
def _whole_word(word: str) -> re.Pattern:
    # compiled once per word: a run asks for thousands of words, far more than re's own cache holds
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", flags=re.IGNORECASE)


def left_untranslated(edit: Edit, translation: str, perturbed_translation: str, target_lang: str,
                      source_lang: str = "en", rule: str = "source-ratio") -> int:
    """How many more times the substitute ``edit.after`` stands verbatim in the perturbed
    translation than in the original's (0: it was translated); a word of the target language
    itself (:func:`target_language_word`) never counts."""
    extra = verbatim_count(edit.after, perturbed_translation) - verbatim_count(edit.after, translation)
    if extra <= 0 or target_language_word(edit.after, source_lang, target_lang, rule):
        return 0
    return extra


def target_language_word(word: str, source_lang: str, target_lang: str, rule: str = "source-ratio") -> bool:
    """Whether ``word`` standing verbatim in a translation is the target language's own word (so
    standing there is no sign it was left untranslated), by wordfreq's Zipf frequencies: common in
    the target language (``COMMON_TARGET_ZIPF``), or at least ``TARGET_WORD_ZIPF`` there and at most
    ``LOAN_ZIPF_GAP`` rarer there than in the source language; with ``rule="floor"``, at least
    ``TARGET_WORD_ZIPF`` in the target language (also where the source language has no data).
    False where wordfreq or its data for the target language is missing."""
    target = _zipf(word, target_lang)
    if target is None or target < TARGET_WORD_ZIPF:
        return False
    if rule == "floor" or target >= COMMON_TARGET_ZIPF:
        return True
    source = _zipf(word, source_lang)
    return source is None or source - target <= LOAN_ZIPF_GAP


def _zipf(word: str, lang: str) -> Optional[float]:
    # wordfreq's Zipf frequency of the lower-cased word; None without wordfreq or data for ``lang``
    try:
        from wordfreq import zipf_frequency

        return zipf_frequency(word.lower(), lang)
    except (ImportError, LookupError, ValueError):
        return None


def untranslated(edit: Edit, translation: str, perturbed_translation: str, target_lang: str,
                 source_lang: str = "en", rule: str = "source-ratio"):
    """The word of the edit one translation left as it was: (word, which side, how many more
    times), the substitute in the perturbed translation first, else the original word in the
    original's translation (the substitute then only un-hid that error); None if both were
    translated. ``source_lang`` and ``rule`` as in :func:`target_language_word`."""
    count = left_untranslated(edit, translation, perturbed_translation, target_lang, source_lang, rule)
    if count:
        return edit.after, "perturbed", count
    swapped = replace(edit, after=edit.before)
    count = left_untranslated(swapped, perturbed_translation, translation, target_lang, source_lang, rule)
    return (edit.before, "original", count) if count else None


class SitRelation(Relation):
    name = "sit"
    title = "the structure of the translation changed under a similar word"
    kinds = {"untranslated": "a word was left untranslated"}
    run_options = ("distance", "discount")
    translates_substitutions = True  # its cases are the run's substitution pairs

    def __init__(self, ctx, *, distance: str = "relation", discount: bool = True, surface: bool = True,
                 untranslated: str = "source-ratio"):
        super().__init__(ctx)
        from ..validate import check_bool

        self.surface = check_bool(surface, "sit.surface")
        if untranslated not in UNTRANSLATED_RULES:
            raise ConfigError(f"unknown sit.untranslated rule {untranslated!r}; choose one of: "
                              f"{', '.join(UNTRANSLATED_RULES)}")
        self.untranslated = untranslated
        if distance not in DISTANCES:
            raise ConfigError(f"unknown distance {distance!r}; choose one of: {', '.join(DISTANCES)}")
        self.distance = distance
        self.discount = discount
        ctx.perturber()  # build before any work: a missing model or WordNet fails now
        ctx.parser()

    def signature(self) -> dict[str, Any]:
        return {"distance": self.distance, "discount": self.discount, "surface": self.surface,
                "untranslated": self.untranslated}

    def describe(self) -> str:
        return (f"sit: {self.distance} distance"
                + (", the substituted token's own arc discounted" if self.discount else ", plain counts")
                + (", parallel translations are no finding" if self.surface else ""))

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        return self.ctx.substitutions(ids, texts)

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        done = [t for t in dict.fromkeys(translation.get(x) for p in cases for x in (p.original, p.perturbed)) if t]
        trees = dict(zip(done, self.ctx.parse(done)))
        distance_fn = DISTANCES[self.distance]
        stops = stop_words(self.ctx.target_lang)  # agreement and function words of the surface check
        compared: list[Issue] = []
        for pair in cases:
            y, y2 = translation.get(pair.original), translation.get(pair.perturbed)
            if y is None or y2 is None:
                continue
            a, b = trees.get(y), trees.get(y2)
            if a is None or b is None:  # an empty translation: nothing to parse
                continue
            d = distance_fn(a, b, discount=self.discount)
            missing = untranslated(pair.edit, y, y2, self.ctx.target_lang, self.ctx.source_lang, self.untranslated)
            if missing:
                word, side, count = missing
                compared.append(Issue(pair, y, y2, float(count), {}, kind="untranslated",
                                      evidence={"word": word, "side": side, "structure_distance": d}))
            else:
                compared.append(self._structure(pair, y, y2, a, b, d, stops))
        parallel = [c for c in compared if self._parallel(c)]
        keep = [c for c in compared if not self._parallel(c)]
        issues = rank_issues(keep, threshold=self.ctx.threshold, top_k=self.ctx.top_k)
        teapot, issues = _teapot(compared, issues, self.ctx.cache)
        structure = [i for i in issues if not i.kind]
        counts = {
            "cases": len(cases),
            "compared": len(compared),
            "untranslated_pairs": sum(1 for c in compared if c.kind),
            "parallel_pairs": sum(1 for c in parallel if c.distance > self.ctx.threshold),
            "issues": len(structure),
            "untranslated_issues": len(issues) - len(structure),
            "flagged_sentences": len({i.pair.source_id for i in structure}),
        }
        return Checked(issues, counts, {"teapot": teapot})

    def _structure(self, pair: Pair, y: str, y2: str, a, b, d: float, stops: frozenset[str]) -> Issue:
        """The structure comparison of one pair; ``evidence["surface"]`` lists how the two
        translations differ beyond the substitute (empty: parallel)."""
        evidence = {"surface": surface_change(a.tokens, b.tokens, stops)} if self.surface else {}
        return Issue(pair, y, y2, d, relation_diff(a, b, discount=self.discount), evidence=evidence)

    def _parallel(self, issue: Issue) -> bool:
        """A structure comparison whose translations do not differ on the surface (parser noise)."""
        return self.surface and not issue.kind and not issue.evidence.get("surface")


def _teapot(compared: list[Issue], issues: list[Issue], cache=None):
    """TEAPOT's reference-less scores: s_src (chrF of the perturbed vs the original source) and
    s_tgt (chrF of the two translations) on every compared pair, attached to the issues; scores
    are kept in ``cache`` so a re-run only reads them."""
    from ..eval import reference_less_scores

    if not compared:
        return {"n": 0, "success_rate": None}, issues
    res = reference_less_scores(
        [c.pair.original for c in compared],
        [c.pair.perturbed for c in compared],
        [c.original_translation for c in compared],
        [c.perturbed_translation for c in compared],
        cache=cache,
    )
    by_key = {
        (c.pair.source_id, c.pair.perturbed): (s, t) for c, s, t in zip(compared, res["s_src"], res["s_tgt"])
    }
    scored = []
    for issue in issues:
        s, t = by_key[(issue.pair.source_id, issue.pair.perturbed)]
        scored.append(replace(issue, scores={**issue.scores, "s_src": s, "s_tgt": t}))
    return res["summary"], scored
