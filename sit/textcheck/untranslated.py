"""The untranslated-word rule, one copy shared by the ``sit`` relation (a substitute left as it
was) and the ``language`` relation (source words copied verbatim): a word standing verbatim in a
translation is left untranslated unless it is the target language's own word, judged by wordfreq's
Zipf frequencies in the target and the source language (:func:`target_language_word`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import Callable, Iterable, Mapping, Optional

from ..records import Edit, package_versions
from ..words import COPY_CANDIDATE, RUN

#: a Zipf lookup: (word, language) -> wordfreq's Zipf frequency of the lower-cased word, or None
#: without wordfreq or data for the language (:func:`zipf_of`, or a run's :class:`Frequencies`)
ZipfLookup = Callable[[str, str], Optional[float]]

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
UNTRANSLATED_RULES = ("source-ratio", "floor", "as-written")
#: the "as-written" rule (the ``language`` relation's default): a word the target language uses at
#: least this often (Zipf 2: once in ten million words) ...
WRITTEN_ZIPF = 2.0
#: ... and at most this much less than the source language (1.5: about thirty times rarer) is its
#: own; MQM annotators take "molecular", "cortisol", "aggressive" in Spanish or German texts as
#: translated, German writes "Output", "separate", "miserable" (3.33 / 4.43, 3.44 / 4.83, 2.79 / 4.07
#: in German / English), Spanish sports writing "quarterback" and "touchdowns" (2.70 / 3.95, 2.15 / 3.58);
#: an English word a German or Spanish text only quotes is rarer ("prosecutors" 0 in Spanish,
#: "rainfall" 1.03, "bricks" 2.14 in German against 3.81). Stop 42, docs/precision.md
WRITTEN_GAP = 1.5
#: ... and a word it uses at least this often (Zipf 3: once in a million words) is its own however
#: common it is in the source language (German "Dollars" 3.26)
WRITTEN_COMMON_ZIPF = 3.0


def verbatim_count(word: str, text: str) -> int:
    """How often ``word`` stands as a whole word in ``text`` (case-insensitive)."""
    if word.isalpha():  # a substitute or a slot's word: count it among the text's words, read once
        return _words_of(text).get(word.lower(), 0)
    return len(_whole_word(word).findall(text))


@lru_cache(maxsize=4096)
def _words_of(text: str) -> Mapping[str, int]:
    # the lower-cased whole words (sit.words.RUN) of a translation, which a run asks about many times;
    # read-only, since the cache hands the same one to every caller
    return MappingProxyType(Counter(w.lower() for w in RUN.findall(text)))


@lru_cache(maxsize=8192)
def _whole_word(word: str) -> re.Pattern:
    # compiled once per word: a run asks for thousands of words, far more than re's own cache holds
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", flags=re.IGNORECASE)


def left_untranslated(edit: Edit, translation: str, perturbed_translation: str, target_lang: str,
                      source_lang: str = "en", rule: str = "source-ratio", *, zipf: Optional[ZipfLookup] = None) -> int:
    """How many more times the substitute ``edit.after`` stands verbatim in the perturbed
    translation than in the original's (0: it was translated); a word of the target language
    itself (:func:`target_language_word`) never counts."""
    extra = verbatim_count(edit.after, perturbed_translation) - verbatim_count(edit.after, translation)
    if extra <= 0 or target_language_word(edit.after, source_lang, target_lang, rule, zipf=zipf):
        return 0
    return extra


def target_language_word(word: str, source_lang: str, target_lang: str, rule: str = "source-ratio", *,
                         zipf: Optional[ZipfLookup] = None) -> bool:
    """Whether ``word`` standing verbatim in a translation is the target language's own word (so
    standing there is no sign it was left untranslated), by wordfreq's Zipf frequencies: common in
    the target language (``COMMON_TARGET_ZIPF``), or at least ``TARGET_WORD_ZIPF`` there and at most
    ``LOAN_ZIPF_GAP`` rarer there than in the source language; with ``rule="floor"``, at least
    ``TARGET_WORD_ZIPF`` in the target language (also where the source language has no data); with
    ``rule="as-written"``, at least ``WRITTEN_ZIPF`` there and at most ``WRITTEN_GAP`` rarer than in
    the source language (or ``WRITTEN_COMMON_ZIPF`` common there).
    False where wordfreq or its data for the target language is missing. ``zipf``: where the
    frequencies come from (default :func:`zipf_of`, wordfreq itself)."""
    zipf = zipf or zipf_of
    target = zipf(word, target_lang)
    if rule == "as-written":
        source = zipf(word, source_lang)
        return target is not None and target >= WRITTEN_ZIPF and (
            target >= WRITTEN_COMMON_ZIPF or source is None or source - target <= WRITTEN_GAP)
    if target is None or target < TARGET_WORD_ZIPF:
        return False
    if rule == "floor" or target >= COMMON_TARGET_ZIPF:
        return True
    source = zipf(word, source_lang)
    return source is None or source - target <= LOAN_ZIPF_GAP


def source_language_gap(word: str, source_lang: str, target_lang: str, *, zipf: Optional[ZipfLookup] = None) -> float:
    """How much more common ``word`` is in the source language than in the target (wordfreq Zipf,
    source minus target; 0 where either is unknown): how surely a word standing verbatim in a
    translation was left untranslated rather than being the target language's own."""
    zipf = zipf or zipf_of
    source, target = zipf(word, source_lang), zipf(word, target_lang)
    return 0.0 if source is None or target is None else source - target


def zipf_of(word: str, lang: str) -> Optional[float]:
    """wordfreq's Zipf frequency of the lower-cased ``word``; None without wordfreq or data for ``lang``."""
    try:
        from wordfreq import zipf_frequency

        return zipf_frequency(word.lower(), lang)
    except (ImportError, LookupError, ValueError):
        return None


class Frequencies:
    """The Zipf lookup of one run (a :data:`ZipfLookup`: ``frequencies(word, lang)``), read through
    the cache. :meth:`prefetch` gives it a batch of words: their values are read from the cache in
    one query, the others asked of wordfreq and cached, so that a re-run answered from the cache
    never loads wordfreq's lists (English and Spanish: 0.3 s and 70 MB). A word not prefetched is
    asked of wordfreq (not cached). Values are kept per wordfreq version; none without wordfreq."""

    def __init__(self, cache=None):
        version = package_versions(("wordfreq",)).get("wordfreq") if cache is not None else None
        self._store = cache.store("zipf", {"wordfreq": version, "wordlist": "best"}) if version else None
        self._known: dict[tuple[str, str], Optional[float]] = {}

    def __call__(self, word: str, lang: str) -> Optional[float]:
        key = (word.lower(), lang)
        if key not in self._known:
            self._known[key] = zipf_of(word, lang)
        return self._known[key]

    def prefetch(self, words: Iterable[str], langs: Iterable[str]) -> None:
        """Know the Zipf frequency of each of ``words`` in each of ``langs`` (one cache query; the
        values wordfreq gives for the others are cached)."""
        langs = tuple(langs)
        todo = {f"{lang}:{w}": (w, lang) for w in dict.fromkeys(w.lower() for w in words) for lang in langs
                if (w, lang) not in self._known}
        if not todo:
            return
        for key, value in (self._store.get_many(todo) if self._store is not None else {}).items():
            self._known[todo.pop(key)] = value
        new = []
        for key, (word, lang) in todo.items():
            value = self._known[(word, lang)] = zipf_of(word, lang)
            if value is not None:
                new.append((key, value))
        if self._store is not None and new:
            self._store.put_many(new)


def shared_words(source: str, translation: str) -> set[str]:
    """The lower-cased words of ``source`` (as written and case-folded) that stand somewhere in
    ``translation`` (case aside): the words whose frequencies the untranslated-word rules may ask
    about a pair of texts (what :meth:`Frequencies.prefetch` is given)."""
    there = translation.casefold()
    return {w.lower() for text in (source, source.casefold()) for w in _WORD.findall(text) if w.casefold() in there}


def untranslated(edit: Edit, translation: str, perturbed_translation: str, target_lang: str,
                 source_lang: str = "en", rule: str = "source-ratio", *, zipf: Optional[ZipfLookup] = None):
    """The word of the edit one translation left as it was: (word, which side, how many more
    times), the substitute in the perturbed translation first, else the original word in the
    original's translation (the substitute then only un-hid that error); None if both were
    translated. ``source_lang`` and ``rule`` as in :func:`target_language_word`."""
    count = left_untranslated(edit, translation, perturbed_translation, target_lang, source_lang, rule, zipf=zipf)
    if count:
        return edit.after, "perturbed", count
    swapped = replace(edit, after=edit.before)
    count = left_untranslated(swapped, perturbed_translation, translation, target_lang, source_lang, rule, zipf=zipf)
    return (edit.before, "original", count) if count else None


def written_as(word: str, translation: str) -> bool:
    """Whether the lower-case ``word`` stands in ``translation`` as the source writes it: in lower
    case, or capitalised where a sentence starts (a German ``Animation`` or ``Input`` mid-sentence
    is the target language's noun, written its way)."""
    if word not in translation and word.capitalize() not in translation:
        return False  # what is found must be one of the two: most words are not there, no pattern compiled
    for m in _whole_word(word).finditer(translation):
        found = m.group()
        if found == word or (found == word.capitalize() and _opens_sentence(translation, m.start())):
            return True
    return False


def _standing(word: str, translation: str, source: str) -> bool:
    # the "as-written" rule's reading of "copied": the word stands in the translation in any case
    # (German "Blowflies"; the rule itself judges whether the target language uses it), but a
    # capitalised one only where the source never writes the word capitalised mid-sentence: there
    # the source has it in a name ("National Firearms Act"), which a translation may keep
    if written_as(word, translation):
        return True
    if verbatim_count(word, translation) == 0:
        return False
    return not any(m.group() != word and not _opens_sentence(source, m.start())
                   for m in _whole_word(word).finditer(source))


def _opens_sentence(text: str, at: int) -> bool:
    # whether text[at:] starts a sentence (or a quotation), where any word is capitalised
    return bool(re.search(r"(?:^|[.!?:]\s+|[\"“«„]\s*)$", text[:at]))


#: a source word copied verbatim counts only if it is at least this common in the source language
#: (a word of the language, not a name or a code)
SOURCE_WORD_ZIPF = 3.0


def copied_words(source: str, translation: str, source_lang: str, target_lang: str, *,
                 min_zipf: float = SOURCE_WORD_ZIPF, rule: str = "source-ratio",
                 zipf: Optional[ZipfLookup] = None) -> list[str]:
    """The words of ``source`` that stand verbatim in ``translation`` (:func:`written_as`) although the target language
    has its own word for them: lower-case alphabetic words of three letters or more (a capitalised
    word may be a name), at least ``min_zipf`` common in the source language, and no word of the
    target language by :func:`target_language_word`. Each word once, in the source's order.

    With ``rule="as-written"`` a word counts in whatever case it stands (German capitalises the
    English nouns it leaves: "Bricks", "Blowflies"; the rule itself says whether the target language
    uses the word; capitalised, only where the source has it in no name), and a source word rarer than ``min_zipf`` counts too where the target
    language's word list does not know it at all (wordfreq: Zipf 0) and the source language's does
    (a word of the language, not a Latin name: English "blowflies" 1.52, "anther" 2.29 in German)."""
    zipf, out = zipf or zipf_of, []
    for word in dict.fromkeys(COPY_CANDIDATE.findall(source)):
        if not (_standing(word, translation, source) if rule == "as-written" else written_as(word, translation)):
            continue
        common = zipf(word, source_lang)
        if common is None or (common < min_zipf and not (
                rule == "as-written" and common > 0 and zipf(word, target_lang) == 0)):
            continue
        if not target_language_word(word, source_lang, target_lang, rule, zipf=zipf):
            out.append(word)
    return out


#: a text that comes back as it was is untranslated where one of its words is at least this much
#: more common in the source language than in the target (Zipf is log10: 1.0 is ten times);
#: "the" 7.73 in English, 5.42 in Spanish; "plan" 5.29 / 5.18 and "hospital" are both languages'
RETURNED_ZIPF_GAP = 1.0


def returned_words(source: str, translation: str, source_lang: str, target_lang: str, *,
                   min_zipf: float = SOURCE_WORD_ZIPF, gap: float = RETURNED_ZIPF_GAP,
                   zipf: Optional[ZipfLookup] = None, names: bool = True, terms: bool = True) -> list[str]:
    """Where ``translation`` is ``source`` as it was (up to case and spacing), the words of
    ``source`` (three letters or more, in any case) that show it untranslated: at least ``min_zipf`` common
    in the source language and at least ``gap`` more common there than in the target language.
    Empty where the translation differs, or every word could be the target language's own. With
    ``names=False`` (a program's message) a word the source capitalises mid-sentence is part of a
    name ("Free Software Foundation", kept in any language) and does not count, nor does a single
    word that stands alone among no other word of the source language, not opening a sentence
    ("(pipe)", "pgrp pipe": a program's terms), unless ``terms`` is false (the word says something
    of the code before it: "fake_fork() failed")."""
    if " ".join(source.casefold().split()) != " ".join(translation.casefold().split()):
        return []
    if not names:
        source = re.sub(r"(?<=[\w,;)] )[A-Z]\w*", " ", source)
    zipf, out = zipf or zipf_of, []
    for word in dict.fromkeys(COPY_CANDIDATE.findall(source.casefold())):  # a name is as common in both
        common, there = zipf(word, source_lang), zipf(word, target_lang)
        if common is not None and there is not None and common >= min_zipf and common - there >= gap:
            out.append(word)
    if not names and terms and len(out) == 1 and not re.match(r"\W*[A-Z]", source) and \
            sum(1 for w in _WORD.findall(source) if (zipf(w, source_lang) or 0) >= min_zipf) == 1:
        return []  # a lone lower-case term kept ("(pipe)", "slave %s: %s", "pgrp pipe"): a program's term
    return out


#: a stretch of this many source words or more standing in a translation as they were is left
#: untranslated (MQM's "Untranslated text": "This is just one example" in a German translation)
COPIED_RUN = 3
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def copied_runs(source: str, translation: str, source_lang: str, target_lang: str, *,
                min_words: int = COPIED_RUN, min_zipf: float = SOURCE_WORD_ZIPF,
                zipf: Optional[ZipfLookup] = None) -> list[str]:
    """The longest stretches of at least ``min_words`` consecutive words of ``source`` that stand in
    ``translation`` in the same order (case aside), each with a word the source writes in lower
    case that is a common source-language word (``min_zipf``) and no target-language word by the
    "as-written" rule, or with two lower-case words each ten times more common in the source
    language than in the target, standing as the source writes them ("to the Republicans"; one
    such word inside a name, "Department of Homeland Security", is not enough, nor "High School in"
    for the source's "high school in"), so that a name, "New York Times", a Latin name or "in Long
    Beach" in a German text is no such stretch; as the source writes them."""
    zipf = zipf or zipf_of
    src = [(m.group(), m.group().casefold()) for m in _WORD.finditer(source)]
    tgt = [m.group().casefold() for m in _WORD.finditer(translation)]
    if len(src) < min_words or len(tgt) < min_words:
        return []
    grams = {tuple(tgt[i:i + min_words]) for i in range(len(tgt) - min_words + 1)}
    out, i = [], 0
    while i + min_words <= len(src):
        if tuple(f for _, f in src[i:i + min_words]) not in grams:
            i += 1
            continue
        j = i + min_words
        while j < len(src) and _contains(tgt, [f for _, f in src[i:j + 1]]):
            j += 1
        words = [w for w, _ in src[i:j]]
        if any(w.islower() and (zipf(w, source_lang) or 0) >= min_zipf
               and not target_language_word(w, source_lang, target_lang, "as-written", zipf=zipf) for w in words) \
                or (sum(_source_function_word(w, source_lang, target_lang, min_zipf, zipf) for w in words) >= 2
                    and re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, words)) + r"(?!\w)", translation)):
            out.append(" ".join(words))
        i = j
    return out


def _source_function_word(word: str, source_lang: str, target_lang: str, min_zipf: float, zipf: ZipfLookup) -> bool:
    # a lower-case word at least ten times more common in the source language than in the target
    # (RETURNED_ZIPF_GAP): "the", "to", "it", which wordfreq counts in German and Spanish texts
    # too (English quoted there), so that the as-written rule takes them for the target's own
    if not word.islower():
        return False
    source, target = zipf(word, source_lang), zipf(word, target_lang)
    return source is not None and target is not None and source >= min_zipf and source - target >= RETURNED_ZIPF_GAP


def _contains(tokens: list[str], run: list[str]) -> bool:
    n = len(run)
    return any(tokens[k:k + n] == run for k in range(len(tokens) - n + 1))


#: the Unicode character-name words of each ISO 15924 script a target language may be written in
#: (CLDR's likely script through Babel); Latin is never flagged (names and brands stand in Latin in
#: any script's texts, and copied Latin words are :func:`copied_words`' business)
SCRIPT_NAMES = {"Cyrl": ("CYRILLIC",), "Grek": ("GREEK",), "Arab": ("ARABIC",), "Hebr": ("HEBREW",),
                "Deva": ("DEVANAGARI",), "Thai": ("THAI",), "Hans": ("CJK",), "Hant": ("CJK",),
                "Hani": ("CJK",), "Jpan": ("CJK", "HIRAGANA", "KATAKANA"), "Kore": ("HANGUL", "CJK"),
                "Latn": ()}
_LETTERS = re.compile(r"[^\W\d_]{2,}")


def foreign_script_runs(source: str, translation: str, target_lang: str) -> list[str]:
    """The stretches of two letters or more of ``source`` that stand in ``translation`` in a script
    the target language is not written in (CLDR's likely script for ``target_lang``: Chinese
    characters left in an English translation, ``经济观察网``); Latin letters never count. Empty
    where Babel does not know the target's script."""
    allowed = _target_script(target_lang)
    if allowed is None:
        return []
    out = []
    for m in _LETTERS.finditer(translation):
        if m.group().isascii():  # Latin letters: never foreign
            continue
        for run in re.findall(r"(?:(?!\d)\w){2,}", "".join(c if _foreign(c, allowed) else " " for c in m.group())):
            if run in source and run not in out:
                out.append(run)
    return out


def _foreign(char: str, allowed: tuple) -> bool:
    script = _script(char)
    return bool(script) and script != "LATIN" and script not in allowed


@lru_cache(maxsize=8192)
def _script(char: str) -> str:
    # the first word of the character's Unicode name: its script, near enough ("CJK", "LATIN")
    import unicodedata

    return unicodedata.name(char, "").split(" ")[0]


@lru_cache(maxsize=64)
def _target_script(lang: str) -> Optional[tuple]:
    # the character-name words of the target language's likely script; None where unknown
    from babel.core import get_global

    likely = get_global("likely_subtags").get(lang.replace("-", "_"), "")
    parts = likely.split("_")
    return SCRIPT_NAMES.get(parts[1]) if len(parts) >= 2 else None


def calendar_words(source: str, translation: str, source_lang: str, target_lang: str) -> list[str]:
    """The source language's names of days and months (CLDR's wide names through Babel: ``Friday``,
    ``February``) that stand in ``source`` and, as written there, in ``translation``, where the
    target language names them otherwise (German ``Freitag``; ``April`` is German too); none where
    Babel does not know the target language."""
    return _names_left(source, translation, _calendar_names(source_lang),
                       _not_theirs(_calendar_names, source_lang, target_lang))


def place_names(source: str, translation: str, source_lang: str, target_lang: str) -> list[str]:
    """The source language's names of countries and regions (CLDR's territory names through Babel:
    ``Türkiye``, ``Kazakhstan``) that stand in ``source`` and, as written there, in ``translation``,
    where the target language names them otherwise (German ``Türkei``, ``Kasachstan``; ``China`` is
    German too), not inside a longer name (``Georgia Tech``, ``Michael Jordan``); none where Babel
    does not know the target language."""
    return _names_left(source, translation, _territory_names(source_lang),
                       _not_theirs(_territory_names, source_lang, target_lang))


@lru_cache(maxsize=64)
def _not_theirs(names_of: Callable[[str], tuple], source_lang: str, target_lang: str) -> tuple:
    # the source language's names (``names_of``) that are none of the target language's; none where
    # the target is a language CLDR does not know (nothing to tell its names from the source's)
    theirs = set(names_of(target_lang))
    return tuple(name for name in names_of(source_lang) if name not in theirs) if theirs else ()


def _names_left(source: str, translation: str, ours: tuple, candidates: tuple) -> list[str]:
    # the names of ``candidates`` (those of ``ours`` the target language does not share) standing in
    # the source, not inside a longer name of ``ours``, and in the translation as written
    # a name the source has only inside a longer one stands there by right ("Statistics Norway",
    # "Animal Welfare Board of India" kept in English): the translation is read without those
    out = []
    for name in candidates:
        if name not in translation or name not in source:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        found = [(m, _name_around(source, m.start(), m.end(), ours)) for m in pattern.finditer(source)]
        if not any(span == name and not _in_name(source, m.start(), m.end()) for m, span in found):
            continue
        around = {span for _, span in found}
        rest = translation
        for longer in sorted(set(around) - {name}, key=len, reverse=True):
            rest = rest.replace(longer, " ")
        if pattern.search(rest):
            out.append(name)
    return out


_NAME_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def _name_around(text: str, start: int, end: int, names: tuple) -> str:
    # the longest stretch of capitalised words around the name text[start:end]: spaced, or, before
    # it, joined by one short lower-case word to capitalised ones that are none of ``names``
    # ("Board of India", not "India and Norway"); the name alone where it stands by itself
    # ("immigrated to Norway from", "in Türkiye and China")
    words = list(_NAME_WORD.finditer(text))
    first = next((k for k, m in enumerate(words) if m.start() == start), None)
    last = next((k for k, m in enumerate(words) if m.end() == end), None)
    if first is None or last is None:
        return text[start:end]
    i, j = first, last
    while i > 0 and _joins(text, words[i - 1], words[i]):
        if _capitalised(words[i - 1].group()) and not _opens_sentence(text, words[i - 1].start()):
            i -= 1
        elif _short(words[i - 1]) and i > 1 and _joins(text, words[i - 2], words[i - 1]) and \
                _capitalised(words[i - 2].group()) and not _opens_sentence(text, words[i - 2].start()) and \
                not any(text[:words[i - 2].end()].endswith(n) for n in names):
            i -= 2
        else:
            break
    while j + 1 < len(words) and _joins(text, words[j], words[j + 1]) and _capitalised(words[j + 1].group()):
        j += 1
    return text[words[i].start():words[j].end()]


def _joins(text: str, left: re.Match, right: re.Match) -> bool:
    return text[left.end():right.start()].isspace()


def _short(word: re.Match) -> bool:
    return word.group().islower() and len(word.group()) <= 3


def _in_name(text: str, start: int, end: int) -> bool:
    # whether the word text[start:end] stands beside another capitalised word (not one opening a
    # sentence): part of a name, "Soccer Saturday", "Black Friday", "Friday Night Lights"
    before, after = text[:start].split(), text[end:]
    if before and _capitalised(before[-1]) and len(before) > 1 and not re.search(r"[.!?:;\"“”«»]$", before[-2]):
        return True
    return after[:1].isspace() and bool(after.split()) and _capitalised(after.split()[0])


def _capitalised(token: str) -> bool:
    return token[:1].isupper() and token[-1:].isalpha()


@lru_cache(maxsize=64)
def _calendar_names(lang: str) -> tuple:
    # CLDR's wide day and month names of ``lang`` (format and stand-alone); none for an unknown locale
    from babel.core import UnknownLocaleError
    from babel.dates import get_day_names, get_month_names

    out: dict[str, None] = {}
    try:
        for context in ("format", "stand-alone"):
            for names in (get_day_names("wide", context, locale=lang.replace("-", "_")),
                          get_month_names("wide", context, locale=lang.replace("-", "_"))):
                out.update(dict.fromkeys(names.values()))
    except (UnknownLocaleError, ValueError):
        return ()
    return tuple(out)


@lru_cache(maxsize=64)
def _territory_names(lang: str) -> tuple:
    # CLDR's names of the countries and regions in ``lang`` (not the pseudo-locales' XA, XB, nor
    # names with "&" or brackets, which no text writes so); none for an unknown locale
    from babel import Locale, UnknownLocaleError

    try:
        names = Locale.parse(lang.replace("-", "_")).territories
    except (UnknownLocaleError, ValueError):
        return ()
    return tuple(dict.fromkeys(name for code, name in names.items()
                               if code not in ("XA", "XB") and not re.search(r"[&()]", name)))
