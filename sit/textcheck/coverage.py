"""Lexical coverage of a translation: which content words of the source no translation of theirs
covers in the target, and which content words of the target no source word accounts for
(MQM Accuracy/Omission, Addition, Mistranslation), read through Apertium's own compiled
dictionaries (Debian's ``apertium-eng-spa``, ``apertium-eng-cat``): each side's morphological
analyser gives every lemma of a word, the bilingual dictionary every translation of a lemma
(``lt-proc -b``), both ways.

A source word is covered where one of its translations is a lemma or a form of the target, where
a target lemma's translations back hold its lemma, where it stands in the target as written (names,
numbers, loans), or where a target word is its cognate (:func:`cognates`: ``rebel``/``rebelde``).
A target word is covered the same ways from the other side. On Apertium's own output the lexicon
is the translator's, so nearly every word is covered by construction: the check is for other
translators (neural, LLM, cloud, human translations).
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from difflib import SequenceMatcher
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

from ..errors import MissingDependencyError

#: where Debian's Apertium packages put their data
DATADIR = Path("/usr/share/apertium")
#: ISO 639-1 -> the three-letter codes of Apertium's English pairs (apertium-eng-spa, -eng-cat)
ISO3 = {"en": "eng", "es": "spa", "ca": "cat"}
#: the first tag of an analysis that makes a word a content word: nouns, lexical verbs, adjectives,
#: numerals, proper nouns
CONTENT_TAGS = frozenset({"n", "vblex", "adj", "num", "np"})
#: first tags that make a word a function word whatever its other readings ("have" is vbhaver
#: and vblex, "after" a preposition and an adverb)
FUNCTION_TAGS = frozenset({"det", "prn", "pr", "cnjcoo", "cnjsub", "cnjadv", "rel", "preadv", "predet",
                           "vbser", "vbhaver", "vbmod", "vaux", "vbdo", "ij", "sent", "cm", "lpar", "rpar",
                           "lquest", "apos", "guio", "quot", "itg", "detnt", "prnt"})
#: two words are cognates where their letters (case and accents aside) match this much (difflib's
#: ratio) and both have at least :data:`COGNATE_LETTERS` letters: ``rebel``/``rebelde`` 0.83,
#: ``negotiation``/``negociación`` 0.82, ``house``/``hoy`` no
COGNATE_RATIO = 0.8
COGNATE_LETTERS = 4
#: or where they share their first this many letters (``presentation``/``presentar``)
COGNATE_PREFIX = 6
#: a target lemma ending in a translation of at least this many letters is made from it with a
#: prefix (``recortar`` from ``cortar``, ``exministro`` from ``ministro``)
AFFIXED_STEM = 5

#: an English lemma and its Apertium tag -> the lemmas of its WordNet synonyms (the same part of
#: speech): words the bilingual dictionary lacks reached through one it has (``lawmaker`` through
#: ``legislator``, ``cut`` through ``reduce``)
Synonyms = Callable[[str, str], Iterable[str]]
#: Apertium's first tags -> WordNet's parts of speech
WORDNET_POS = {"n": "n", "vblex": "v", "adj": "a"}

_UNIT = re.compile(r"\^((?:[^$\\]|\\.)*)\$")
_SPECIAL = re.compile(r"([\^$/<>\[\]{}\\@*+#])")


@dataclass(frozen=True)
class Word:
    """One word of a text as Apertium's analyser reads it: as written, its readings (lemma,
    first tag; an unknown word's reading is itself with tag ``?``) and the full analyses (what
    the bilingual dictionary is asked)."""

    surface: str
    readings: tuple[tuple[str, str], ...]
    analyses: tuple[str, ...] = ()
    #: part of a number expression ("year" and "old" of "35-year-old"): no content word of its own
    bound: bool = False

    @property
    def content(self) -> bool:
        """A content word: some reading is a noun, verb, adjective, numeral or name, none a function
        word's; an unknown word counts where it has letters (a name, a word the dictionary lacks)."""
        tags = {t for _, t in self.readings}
        if self.bound or any(c.isdigit() for c in self.surface):  # a number in figures: the numbers relation's
            return False
        if tags == {"?"}:
            return any(c.isalpha() for c in self.surface) and len(self.surface) > 1
        return bool(tags & CONTENT_TAGS) and not tags & FUNCTION_TAGS

    @cached_property
    def lemmas(self) -> frozenset[str]:
        """Its lemmas and itself, folded, and the words of a multiword one (``in cash``: ``in``, ``cash``)."""
        whole = {fold(lemma) for lemma, _ in self.readings} | {fold(self.surface)}
        return frozenset(whole | {part for w in whole if " " in w for part in w.split()})


@dataclass(frozen=True)
class Coverage:
    """What a lexicon says of one (source, translation) pair: the source's content words no
    target word covers (``uncovered_source``), the target's that no source word accounts for
    (``uncovered_target``), out of how many content words on each side."""

    uncovered_source: tuple[Word, ...]
    uncovered_target: tuple[Word, ...]
    source_content: int
    target_content: int


#: a finding needs at least this many more uncovered content words on its side than on the other:
#: a paraphrase or a term the dictionary lacks leaves words uncovered on both sides, a dropped
#: clause only in the source (docs/precision.md, "Coverage")
MIN_NET = 3
#: ... and that many must be at least this share of its side's content words: a long program help
#: text translated freely leaves a few more words on one side among fifty
MIN_SHARE = 0.2


def unbalanced(coverage: Coverage, min_net: int = MIN_NET, min_share: float = MIN_SHARE,
               dates: frozenset[str] = frozenset()) -> dict[str, tuple[Word, ...]]:
    """The findings a :class:`Coverage` makes: ``omission`` (the uncovered source words) where
    the source has at least ``min_net`` more uncovered content words than the target, and they are
    at least ``min_share`` of its content words; ``addition`` (the uncovered target words) the other
    way round; none where the two nearly balance. Else ``date``: the uncovered source words that
    are among ``dates`` as written (the source language's day and month names: :func:`calendar_names`),
    which a translation never leaves out by paraphrase."""
    lost, added = coverage.uncovered_source, coverage.uncovered_target
    net = len(lost) - len(added)
    if net >= min_net and net >= min_share * coverage.source_content:
        return {"omission": lost}
    if -net >= min_net and -net >= min_share * coverage.target_content:
        return {"addition": added}
    named = tuple(w for w in lost if w.surface in dates)
    return {"date": named} if named else {}


@lru_cache(maxsize=16)
def calendar_names(lang: str) -> frozenset[str]:
    """CLDR's wide day and month names of ``lang`` as written (Babel; English ``Monday``, ``March``,
    Spanish ``lunes``); none for a language CLDR does not know."""
    from babel.core import UnknownLocaleError
    from babel.dates import get_day_names, get_month_names

    try:
        names = {n for get in (get_day_names, get_month_names) for n in get("wide", locale=lang.replace("-", "_")).values()}
    except (UnknownLocaleError, ValueError):
        return frozenset()
    return frozenset(names)


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """``word`` case-folded without accents (``Acción`` -> ``accion``)."""
    decomposed = unicodedata.normalize("NFD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def cognates(a: str, b: str) -> bool:
    """Whether two words (any case or accents) look alike enough to be one word in two languages."""
    a, b = fold(a), fold(b)
    if min(len(a), len(b)) < COGNATE_LETTERS:
        return a == b
    if len(a) >= COGNATE_PREFIX and a[:COGNATE_PREFIX] == b[:COGNATE_PREFIX]:
        return True
    matcher = SequenceMatcher(None, a, b)
    return matcher.real_quick_ratio() >= COGNATE_RATIO and matcher.quick_ratio() >= COGNATE_RATIO \
        and matcher.ratio() >= COGNATE_RATIO


def pair_files(source_lang: str, target_lang: str, datadir: Path = DATADIR) -> Optional[dict[str, Path]]:
    """The four compiled dictionaries a pair needs (each language's analyser, the bilingual
    dictionary both ways), or None where Apertium has no such English pair installed."""
    src, tgt = ISO3.get(source_lang.split("-")[0]), ISO3.get(target_lang.split("-")[0])
    if src is None or tgt is None or src == tgt:
        return None
    package = datadir / f"apertium-{'-'.join(sorted((src, tgt), key=lambda c: c != 'eng'))}"
    files = {"source_morph": package / f"{src}-{tgt}.automorf.bin", "target_morph": package / f"{tgt}-{src}.automorf.bin",
             "forward": package / f"{src}-{tgt}.autobil.bin", "backward": package / f"{tgt}-{src}.autobil.bin"}
    return files if all(p.is_file() for p in files.values()) else None


def dictionaries_hash(source_lang: str, target_lang: str, datadir: Path = DATADIR) -> str:
    """The first 12 hex digits of the sha256 of the pair's four dictionaries (:func:`pair_files`),
    in a run's signature: other dictionaries, other findings; "" where the pair has none."""
    import hashlib

    files = pair_files(source_lang, target_lang, datadir)
    if files is None:
        return ""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(files[name].read_bytes())
    return "sha256-" + digest.hexdigest()[:12]


class Lexicon:
    """Apertium's dictionaries of one language pair, asked through ``lt-proc``: one process per
    batch of texts, the bilingual dictionary's answers kept per lemma for the lexicon's life."""

    def __init__(self, source_lang: str, target_lang: str, datadir: Path = DATADIR, *,
                 synonyms: Optional[Synonyms] = None):
        files = pair_files(source_lang, target_lang, datadir)
        if files is None:
            raise MissingDependencyError(f"no Apertium dictionaries for {source_lang}-{target_lang} under {datadir} "
                                         "(the coverage check reads apertium-eng-spa or apertium-eng-cat's)")
        self.files = files
        #: the source language's synonyms (English WordNet), asked for a source word nothing covers
        #: and for the English translations of a target word nothing covers
        self.synonyms = synonyms
        self._translations: dict[tuple[str, str], set[str]] = {}
        self._synonyms: dict[str, frozenset[str]] = {}

    def analyse(self, texts: Sequence[str], side: str) -> list[list[Word]]:
        """Each text's words as the ``source`` or ``target`` language's analyser reads them."""
        lines = _run(["lt-proc", "-w", str(self.files[f"{side}_morph"])],
                     "\n".join(_SPECIAL.sub(r"\\\1", " ".join(_read(t).split())) for t in texts) + "\n")
        out = [_bound([_word(unit) for unit in _UNIT.findall(line)]) for line in lines.split("\n")]
        return (out + [[] for _ in texts])[:len(texts)]

    def translations(self, words: Iterable[Word], direction: str) -> None:
        """Look up every analysis of ``words`` not yet known in the ``forward`` or ``backward``
        bilingual dictionary (one process for all)."""
        todo = sorted({a for w in words for a in w.analyses if (direction, a) not in self._translations})
        if not todo:
            return
        answer = _run(["lt-proc", "-b", str(self.files[direction])], "\n".join(f"^{a}$" for a in todo) + "\n")
        for analysis, unit in zip(todo, _UNIT.findall(answer)):
            parts = _split(unit)[1:]
            self._translations[(direction, analysis)] = {
                fold(lemma) for p in parts if not p.startswith(("@", "#")) for lemma in _lemmas(p)}

    def translated(self, word: Word, direction: str) -> set[str]:
        """Every translation (folded lemma) the bilingual dictionary gives any analysis of ``word``."""
        return set().union(*(self._translations.get((direction, a), set()) for a in word.analyses))

    def cover(self, pairs: Sequence[tuple[str, str]]) -> list[Coverage]:
        """The :class:`Coverage` of each (source, translation) pair."""
        sources = self.analyse([s for s, _ in pairs], "source")
        targets = self.analyse([t for _, t in pairs], "target")
        self.translations((w for ws in sources for w in ws if w.content or w.bound), "forward")
        self.translations((w for ws in targets for w in ws if w.content), "backward")
        first = [self._one(s, t) for s, t in zip(sources, targets)]
        if self.synonyms is None:
            return first
        # synonyms only widen what covers: a text covered both ways stays so, the others are read again
        widened = {id(w): _widened(w, self.synonyms) for c in first for w in c.uncovered_source}
        self.translations(widened.values(), "forward")
        return [self._one(s, t, widened) if c.uncovered_source or c.uncovered_target else c
                for s, t, c in zip(sources, targets, first)]

    def _one(self, source: list[Word], target: list[Word], widened: Optional[dict] = None) -> Coverage:
        # widened: a source word nothing covered -> the word with its WordNet synonyms' readings
        src = [w for w in source if w.content]
        tgt = [w for w in target if w.content]
        target_words = set().union(*(w.lemmas for w in target))
        source_words = set().union(*(w.lemmas for w in source))
        forward = {id(w): self.translated(w, "forward") for w in src}
        for w in src if widened else ():
            if id(w) in widened:
                forward[id(w)] |= self.translated(widened[id(w)], "forward")
        backward = {id(w): self.translated(w, "backward") for w in tgt}
        if widened is not None:  # a target word's English translations widened by their synonyms
            backward = {k: english | self._synonyms_of(english) for k, english in backward.items()}
        covered_back = set().union(*backward.values())
        # the words a cognate may be among: content words and multiword units ("sin incidentes")
        near_target = [w for w in target if w.content or " " in w.surface]
        near_source = [w for w in source if w.content or " " in w.surface]
        covered_forward = set().union(*forward.values(), *(self.translated(w, "forward") for w in source if w.bound))
        lost = tuple(w for w in src if not (_meets(forward[id(w)], target_words) or w.lemmas & covered_back
                                            or w.lemmas & target_words or _any_cognate(w, near_target)))
        added = tuple(w for w in tgt if not (_meets(covered_forward, w.lemmas) or backward[id(w)] & source_words
                                             or w.lemmas & source_words or _any_cognate(w, near_source)))
        return Coverage(_once(lost), _once(added), len(src), len(tgt))


    def _synonyms_of(self, english: set[str]) -> set[str]:
        # the folded WordNet synonyms, in any part of speech, of English lemmas
        return set().union(*(self._all_synonyms(lemma) for lemma in english))

    def _all_synonyms(self, lemma: str) -> frozenset[str]:
        if lemma not in self._synonyms:
            self._synonyms[lemma] = frozenset(fold(s) for tag in WORDNET_POS for s in self.synonyms(lemma, tag))
        return self._synonyms[lemma]


def _widened(word: Word, synonyms: Synonyms) -> Word:
    # the word with its synonyms' readings for the bilingual dictionary (their lemmas as its own)
    asked = [(lemma, tag) for lemma, tag in word.readings if tag in WORDNET_POS]
    if not asked and {t for _, t in word.readings} == {"?"}:  # a word Apertium lacks: WordNet's own lemmatiser
        asked = [(word.surface.lower(), tag) for tag in WORDNET_POS]
    readings = {(fold(s), tag) for lemma, tag in asked for s in synonyms(lemma, tag) if fold(s) != fold(lemma)}
    return Word(word.surface, tuple(sorted(readings)), tuple(f"{_escape(s)}<{t}>" for s, t in sorted(readings)))


def _escape(lemma: str) -> str:
    return _SPECIAL.sub(lambda m: "\\" + m.group(1), lemma)


def _meets(translations: set[str], lemmas: set[str]) -> bool:
    # whether a translation is one of the lemmas, or the end of one made from it with a prefix
    # (``cortar``: ``recortar``; ``ministro``: ``exministro``)
    if translations & lemmas:
        return True
    longer = [lemma for lemma in lemmas if len(lemma) > AFFIXED_STEM and " " not in lemma]
    return bool(longer) and any(lemma.endswith(t) for t in translations if len(t) >= AFFIXED_STEM for lemma in longer)


def _once(words: tuple[Word, ...]) -> tuple[Word, ...]:
    # each word once (a loop repeats its words), as first written
    first: dict[str, Word] = {}
    for w in words:
        first.setdefault(fold(w.surface), w)
    return tuple(first.values())


def _read(text: str) -> str:
    # a text as the analysers read it: in lower case where it is in capitals (they know "carta",
    # not "CARTA")
    letters = [c for c in text if c.isalpha()]
    return text.lower() if letters and sum(c.isupper() for c in letters) > 0.8 * len(letters) else text


def _bound(words: list[Word]) -> list[Word]:
    # words joined by hyphens to a number make one number expression with it ("35-year-old",
    # "12-month"), which a translation writes its own way ("de 35 años"): they cover target words
    # but are not asked for themselves
    out = list(words)
    for i in range(2, len(out)):
        before = out[i - 2]
        if out[i - 1].surface == "-" and (before.bound or any(c.isdigit() for c in before.surface)):
            out[i] = replace(out[i], bound=True)
    return out


def _any_cognate(word: Word, others: Sequence[Word]) -> bool:
    return any(cognates(a, b) for other in others for a in word.lemmas for b in other.lemmas)


def _run(argv: list[str], text: str) -> str:
    try:
        done = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=600)
    except FileNotFoundError as e:
        from .. import hints

        raise MissingDependencyError(f"the coverage check needs Apertium's lt-proc ({hints.APERTIUM})") from e
    if done.returncode != 0:
        raise MissingDependencyError(f"{argv[0]} failed on {argv[-1]}: {done.stderr.strip()[:200]}")
    return done.stdout


def _split(unit: str) -> list[str]:
    # a unit's parts at its unescaped slashes
    return [p.replace("\\/", "/") for p in re.split(r"(?<!\\)/", unit)]


def _lemmas(analysis: str) -> list[str]:
    # the lemmas of an analysis (a compound "de<pr>+el<det>" has two), unescaped
    return [re.sub(r"\\(.)", r"\1", part.split("<", 1)[0]).replace("#", "") for part in analysis.split("+")
            if part.split("<", 1)[0]]


def _word(unit: str) -> Word:
    parts = _split(unit)
    surface = re.sub(r"\\(.)", r"\1", parts[0])
    readings, analyses = [], []
    for p in parts[1:]:
        if p.startswith("*"):
            readings.append((surface, "?"))
            continue
        for piece in p.split("+"):
            m = re.match(r"((?:[^<\\]|\\.)*)<([^>]+)>", piece)
            if m:
                readings.append((re.sub(r"\\(.)", r"\1", m.group(1)), m.group(2)))
        analyses.append(p.split("+")[0])
    return Word(surface, tuple(dict.fromkeys(readings)), tuple(dict.fromkeys(analyses)))




class WordNetSynonyms:
    """:data:`Synonyms` from an NLTK WordNet reader (:func:`sit.models.wordnetdb.wordnet`): the
    lemmas of every synset of the word in that part of speech (adjectives with their satellites)
    and of their direct hypernyms and similar adjectives (``lawmaker``: ``legislator``), multiword
    lemmas with spaces, each word's answer kept."""

    def __init__(self, reader):
        self.reader = reader
        self._known: dict[tuple[str, str], tuple[str, ...]] = {}

    def __call__(self, lemma: str, tag: str) -> tuple[str, ...]:
        key = (lemma, tag)
        if key not in self._known:
            pos = WORDNET_POS.get(tag)
            synsets = self.reader.synsets(lemma.replace(" ", "_"), pos) if pos else []
            if pos == "a":
                synsets += self.reader.synsets(lemma.replace(" ", "_"), "s")
            near = synsets + [h for s in synsets for h in s.hypernyms() + s.similar_tos()]
            self._known[key] = tuple(dict.fromkeys(n.replace("_", " ") for s in near for n in s.lemma_names()))
        return self._known[key]


__all__ = ["COGNATE_RATIO", "CONTENT_TAGS", "Coverage", "Lexicon", "MIN_NET", "MIN_SHARE", "calendar_names", "unbalanced", "Synonyms", "Word", "WordNetSynonyms", "cognates", "dictionaries_hash", "fold",
           "pair_files"]
