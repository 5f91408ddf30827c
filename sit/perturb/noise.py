"""The noise catalogue: character-, word-, sentence- and document-level perturbations.

Every perturber here is driven only by the ``random.Random`` passed to
:meth:`~sit.perturb.base.Perturber.perturb` (never the global random state): each input text
draws one 64-bit seed from it and works from its own ``random.Random``, so the same seed and
input give the same output on any machine, and one text's output does not depend on how many
draws the texts before it needed.

A perturbation that cannot apply (a one-letter word, a one-sentence document, only stop words)
returns the input unchanged with the reason in :attr:`Outcome.reason` (and in ``Edit.note``,
with ``Edit.position == -1``), never an unchanged text posing as a perturbation.

Options common to the catalogue (keyword arguments of every constructor, so
``sit run --perturber NAME`` can create any of them):

- ``n``: how many edits per text (default 1); ``rate``: instead of ``n``, the fraction of the
  eligible units to edit (at least one);
- ``num_perturb``: how many distinct perturbed variants per text (default 1);
- which words are eligible: ``skip_stopwords`` (default True; False for ``word_reorder``),
  ``skip_numbers`` (default True), ``skip_entities`` (default False; needs the English spaCy
  pipeline), ``min_word_length`` (default 2), ``protect`` (regular expressions: words overlapping
  a match are never edited).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Optional, Sequence

from ..errors import ConfigError
from ..records import Edit
from ..validate import check_number
from .base import Perturber
from .homoglyphs import HOMOGLYPHS
from ..words import is_noise_stop_word
from .text import DOCUMENT_SEPARATOR, Span, documents, is_number, sentences, words

ALPHABET = "abcdefghijklmnopqrstuvwxyz"


# ---------------------------------------------------------------------------------------------
# records


@dataclass(frozen=True)
class Change:
    """One edit: ``before`` (``original[start:end]``) became ``after`` (``text[new_start:new_end]``).

    ``position`` is the index of the word (word and character levels) or sentence/document
    (reorderings) in the original text."""

    position: int
    before: str
    after: str
    start: int
    end: int
    new_start: int
    new_end: int
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Outcome:
    """A perturbed text and what changed, or the unchanged text and why nothing could change."""

    original: str
    text: str
    changes: tuple[Change, ...] = ()
    reason: str = ""

    @property
    def applied(self) -> bool:
        return bool(self.changes) and self.text != self.original

    def edit(self, perturber: str, level: str) -> Edit:
        """The outcome as one :class:`~sit.records.Edit` (several changes: their covering span)."""
        if not self.applied:
            return Edit(-1, "", "", perturber, -1, -1, level, note=self.reason or "cannot apply")
        cs = self.changes
        if len(cs) == 1:
            c = cs[0]
            return Edit(c.position, c.before, c.after, perturber, c.new_start, c.new_end, level, c.note)
        s, e = min(c.start for c in cs), max(c.end for c in cs)
        ns, ne = min(c.new_start for c in cs), max(c.new_end for c in cs)
        notes = "; ".join(c.note for c in cs if c.note)
        return Edit(
            cs[0].position, self.original[s:e], self.text[ns:ne], perturber, ns, ne, level,
            note=f"{len(cs)} edits" + (f": {notes}" if notes else ""),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "applied": self.applied,
            "reason": "" if self.applied else (self.reason or "cannot apply"),
            "original": self.original,
            "perturbed": self.text,
            "edits": [c.to_dict() for c in self.changes] if self.applied else [],
        }


def not_applied(text: str, reason: str) -> Outcome:
    return Outcome(text, text, (), reason)


def apply_replacements(text: str, repl: Sequence[tuple[int, int, str, int, str]]) -> Outcome:
    """Apply non-overlapping replacements ``(start, end, new, position, note)`` to ``text``."""
    parts: list[str] = []
    changes: list[Change] = []
    pos = 0
    delta = 0
    for start, end, new, position, note in sorted(repl):
        if start < pos:
            raise ValueError("overlapping replacements")
        parts.append(text[pos:start])
        parts.append(new)
        new_start = start + delta
        changes.append(Change(position, text[start:end], new, start, end, new_start, new_start + len(new), note))
        delta += len(new) - (end - start)
        pos = end
    parts.append(text[pos:])
    return Outcome(text, "".join(parts), tuple(changes))


def _permutation(rng: random.Random, items: list[str]) -> Optional[list[int]]:
    """A permutation of ``range(len(items))`` that changes the sequence of items, or None."""
    k = len(items)
    if k < 2 or len(set(items)) < 2:
        return None
    perm = list(range(k))
    for _ in range(100):
        rng.shuffle(perm)
        if [items[p] for p in perm] != items:
            return perm
    return list(range(1, k)) + [0]  # a rotation changes any sequence that is not constant


def _match_case(new: str, like: str) -> str:
    return new.upper() if like.isupper() else new


def draw_seeds(texts: list[str], rng: Optional[random.Random], seeds: Optional[Sequence[int]]) -> list[int]:
    """One seed per text: ``seeds`` as given, else drawn from ``rng`` (default ``Random(0)``)."""
    if seeds is not None:
        if len(seeds) != len(texts):
            raise ValueError(f"{len(seeds)} seed(s) for {len(texts)} text(s)")
        return list(seeds)
    rng = rng if rng is not None else random.Random(0)
    return [rng.getrandbits(64) for _ in texts]


# ---------------------------------------------------------------------------------------------
# the catalogue's base


class NoisePerturber(Perturber):
    """Base of the catalogue. Subclasses implement :meth:`_apply` (one variant of one text)."""

    name = "noise"
    level = "character"
    #: "sentence": edits inside a sentence (a summarizer test applies it to the lead sentence);
    #: "document": rearranges the sentences or documents of a whole text.
    unit = "sentence"
    deterministic = False
    default_skip_stopwords = True
    needs_nlp = False  # whether the English spaCy pipeline is needed whatever the options

    def __init__(
        self,
        *,
        n: Optional[int] = None,
        rate: Optional[float] = None,
        num_perturb: int = 1,
        skip_stopwords: Optional[bool] = None,
        skip_numbers: bool = True,
        skip_entities: bool = False,
        min_word_length: int = 2,
        protect: Sequence[str] | str = (),
        nlp: Any = None,
        cache=None,
        progress: bool = False,
    ):
        super().__init__(cache=cache, progress=progress)
        n = check_number(n, f"{self.name}: n", minimum=1, integer=True, what="edits per text")
        rate = check_number(rate, f"{self.name}: rate", above=0, maximum=1, what="the fraction of eligible units")
        if n is not None and rate is not None:
            raise ConfigError(f"{self.name}: give either n (edits per text) or rate, not both")
        num_perturb = check_number(num_perturb, f"{self.name}: num_perturb", minimum=1, integer=True)
        min_word_length = check_number(min_word_length, f"{self.name}: min_word_length", minimum=1, integer=True)
        self.n = n
        self.rate = rate
        self.num_perturb = num_perturb
        self.skip_stopwords = self.default_skip_stopwords if skip_stopwords is None else bool(skip_stopwords)
        self.skip_numbers = bool(skip_numbers)
        self.skip_entities = bool(skip_entities)
        self.min_word_length = min_word_length
        self.protect = (protect,) if isinstance(protect, str) else tuple(protect)
        try:
            self._protect_res = [re.compile(p) for p in self.protect]
        except re.error as exc:
            raise ConfigError(f"{self.name}: bad protect pattern ({exc}); give Python regular expressions") from exc
        self._nlp = nlp

    # -- identity ------------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "rate": self.rate,
            "num_perturb": self.num_perturb,
            "skip_stopwords": self.skip_stopwords,
            "skip_numbers": self.skip_numbers,
            "skip_entities": self.skip_entities,
            "min_word_length": self.min_word_length,
            "protect": list(self.protect),
        }

    def describe(self) -> str:
        amount = f"rate {self.rate:g}" if self.rate is not None else f"{self.n or 1} edit(s)"
        return f"{self.name} ({self.level}-level noise, {amount} per text)"

    # -- shared machinery ----------------------------------------------------------------------
    @property
    def nlp(self):
        if self._nlp is None:
            from ..resources import load_spacy

            self._nlp = load_spacy("en", disable=("parser",))
        return self._nlp

    def _analyses(self, texts: Sequence[str]) -> list[Any]:
        """Per text, what :meth:`_apply` needs besides the text (spaCy docs where needed)."""
        if self.needs_nlp or (self.skip_entities and self.level in ("character", "word")):
            return list(self.nlp.pipe(texts, batch_size=64))
        return [None] * len(texts)

    def count(self, eligible: int) -> int:
        """How many units to edit out of ``eligible``."""
        if self.rate is not None:
            k = max(1, int(self.rate * eligible + 0.5))
        else:
            k = self.n or 1
        return min(k, eligible)

    def _protected(self, text: str) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for rx in self._protect_res for m in rx.finditer(text) if m.end() > m.start()]

    def eligible_words(self, text: str, doc: Any = None) -> tuple[list[Span], str]:
        """The words this perturber may edit, and (when there is none) why."""
        ws = words(text)
        if not ws:
            return [], "no words in the text"
        protected = self._protected(text)
        entities = (
            [(e.start_char, e.end_char) for e in doc.ents] if (doc is not None and self.skip_entities) else []
        )
        keep: list[Span] = []
        why: Counter = Counter()
        for w in ws:
            if len(w.text) < self.min_word_length:
                why[f"shorter than {self.min_word_length} characters"] += 1
            elif self.skip_numbers and is_number(w.text):
                why["numbers"] += 1
            elif self.skip_stopwords and is_noise_stop_word(w.text):
                why["stop words"] += 1
            elif any(s < w.end and w.start < e for s, e in protected):
                why["protected"] += 1
            elif any(s < w.end and w.start < e for s, e in entities):
                why["named entities"] += 1
            else:
                problem = self._word_problem(w, doc)
                if problem:
                    why[problem] += 1
                else:
                    keep.append(w)
        reason = "" if keep else "no eligible word (" + ", ".join(f"{k}: {v}" for k, v in why.items()) + ")"
        return keep, reason

    def _word_problem(self, word: Span, doc: Any) -> str:
        """Why this perturber cannot edit ``word`` ("" when it can)."""
        return ""

    # -- the public face -----------------------------------------------------------------------
    def perturb_detailed(
        self, texts: Sequence[str], rng: Optional[random.Random] = None, *, seeds: Optional[Sequence[int]] = None
    ) -> list[list[Outcome]]:
        """For each text, up to ``num_perturb`` distinct outcomes (from at most ``3 * num_perturb``
        draws) (one not-applied outcome when the perturbation cannot apply), with every change's
        offsets. Text ``i`` is drawn with ``random.Random(seeds[i])``; without ``seeds`` they are
        drawn from ``rng`` (one 64-bit number per text, in order)."""
        texts = list(texts)
        seeds = draw_seeds(texts, rng, seeds)
        todo = [i for i, t in enumerate(texts) if t.strip()]
        analyses = self._analyses([texts[i] for i in todo]) if todo else []
        by_index = dict(zip(todo, analyses))
        out: list[list[Outcome]] = []
        for i, text in enumerate(texts):
            if i not in by_index:
                out.append([not_applied(text, "empty text")])
                continue
            out.append(self._variants(text, by_index[i], random.Random(seeds[i])))
        return out

    def _variants(self, text: str, analysis: Any, rng: random.Random) -> list[Outcome]:
        outcomes: list[Outcome] = []
        seen: set[str] = set()
        for _ in range(3 * self.num_perturb):  # a few more draws make up for duplicates
            if len(outcomes) == self.num_perturb:
                break
            o = self._apply(text, analysis, rng)
            if not o.applied:
                return outcomes or [o if o.reason else not_applied(text, "the perturbation left the text unchanged")]
            if o.text not in seen:
                seen.add(o.text)
                outcomes.append(o)
        return outcomes

    def _perturb_seeded(self, sentences: list[str], seeds: list[int]) -> list[list[tuple[str, Edit]]]:
        return [
            [(o.text, o.edit(self.name, self.level)) for o in outs]
            for outs in self.perturb_detailed(sentences, seeds=seeds)
        ]

    def _apply(self, text: str, analysis: Any, rng: random.Random) -> Outcome:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# character level


class CharacterPerturber(NoisePerturber):
    """Edits one character in each of ``n`` distinct eligible words."""

    level = "character"

    def _letters(self, word: str) -> list[int]:
        return [i for i, ch in enumerate(word) if ch.isalpha()]

    def _word_problem(self, word: Span, doc: Any) -> str:
        return "" if self._sites(word.text) else self.no_site

    no_site = "no letter to edit"

    def _sites(self, word: str) -> list[int]:
        return self._letters(word)

    def _edit_word(self, word: str, rng: random.Random) -> tuple[str, str]:
        raise NotImplementedError

    def _apply(self, text: str, doc: Any, rng: random.Random) -> Outcome:
        eligible, reason = self.eligible_words(text, doc)
        if not eligible:
            return not_applied(text, reason)
        chosen = sorted(rng.sample(eligible, self.count(len(eligible))), key=lambda w: w.index)
        repl = []
        for w in chosen:
            new, note = self._edit_word(w.text, rng)
            repl.append((w.start, w.end, new, w.index, note))
        return apply_replacements(text, repl)


class CharacterSwap(CharacterPerturber):
    """Swap two adjacent (different) letters of a word: "house" -> "hosue"."""

    name = "character_swap"
    no_site = "no two adjacent different letters"

    def _sites(self, word: str) -> list[int]:
        return [
            i for i in range(len(word) - 1)
            if word[i].isalpha() and word[i + 1].isalpha() and word[i] != word[i + 1]
        ]

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :], f"swapped characters {i} and {i + 1}"


class CharacterDelete(CharacterPerturber):
    """Delete one letter of a word of at least two letters: "house" -> "hose"."""

    name = "character_delete"
    no_site = "fewer than two letters"

    def _sites(self, word: str) -> list[int]:
        letters = self._letters(word)
        return letters if len(letters) >= 2 else []

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[:i] + word[i + 1 :], f"deleted {word[i]!r} at character {i}"


class _AlphabetMixin:
    """The ``alphabet`` option of the perturbers that write new letters."""

    def __init__(self, *, alphabet: str = ALPHABET, **options):
        super().__init__(**options)
        if not alphabet or len(set(alphabet)) < 2:
            raise ConfigError(f"{self.name}: alphabet needs at least two different characters")
        self.alphabet = "".join(dict.fromkeys(alphabet))

    def options(self):
        return {**super().options(), "alphabet": self.alphabet}


class CharacterInsert(_AlphabetMixin, CharacterPerturber):
    """Insert a random letter (from ``alphabet``) into a word: "house" -> "houkse"."""

    name = "character_insert"

    def _edit_word(self, word, rng):
        i = rng.randrange(len(word) + 1)
        ch = _match_case(rng.choice(self.alphabet), word)
        return word[:i] + ch + word[i:], f"inserted {ch!r} at character {i}"


class CharacterReplace(_AlphabetMixin, CharacterPerturber):
    """Replace a letter with a different random one (case kept): "house" -> "hovse"."""

    name = "character_replace"

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        old = word[i]
        ch = rng.choice([c for c in self.alphabet if c != old.lower() and c != old])
        ch = ch.upper() if old.isupper() else ch
        return word[:i] + ch + word[i + 1 :], f"replaced {old!r} with {ch!r} at character {i}"


class CharacterRepeat(CharacterPerturber):
    """Repeat one letter of a word: "house" -> "housse"."""

    name = "character_repeat"

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[: i + 1] + word[i] + word[i + 1 :], f"repeated {word[i]!r} at character {i}"


def _glyph_note(ch: str) -> str:
    import unicodedata

    g = HOMOGLYPHS[ch]
    return f"{ch!r} -> U+{ord(g):04X} {unicodedata.name(g)}"


class Homoglyph(CharacterPerturber):
    """Replace one Latin letter of a word with a look-alike Cyrillic or Greek code point (see
    :data:`sit.perturb.homoglyphs.HOMOGLYPH_TABLE`): it looks the same and is another string."""

    name = "homoglyph"
    no_site = "no letter with a look-alike"

    def _sites(self, word: str) -> list[int]:
        return [i for i, ch in enumerate(word) if ch in HOMOGLYPHS]

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[:i] + HOMOGLYPHS[word[i]] + word[i + 1 :], f"character {i}: {_glyph_note(word[i])}"


# ---------------------------------------------------------------------------------------------
# word level


class WordHomograph(Homoglyph):
    """Rewrite whole words with look-alike code points: a visual homograph of each word."""

    name = "word_homograph"
    level = "word"

    def _edit_word(self, word, rng):
        sites = self._sites(word)
        new = "".join(HOMOGLYPHS.get(ch, ch) for ch in word)
        return new, f"{len(sites)} of {len(word)} characters replaced by look-alikes"


class WordDelete(NoisePerturber):
    """Delete ``n`` eligible words (with one side's whitespace); at least one word remains."""

    name = "word_delete"
    level = "word"

    def _apply(self, text: str, doc: Any, rng: random.Random) -> Outcome:
        total = len(words(text))
        if total < 2:
            return not_applied(text, "a one-word text: deleting its word would leave none")
        eligible, reason = self.eligible_words(text, doc)
        if not eligible:
            return not_applied(text, reason)
        k = min(self.count(len(eligible)), total - 1)
        chosen = sorted(rng.sample(eligible, k), key=lambda w: w.index)
        spans: list[list[Any]] = []  # [start, end, first word index, words]
        n = len(text)
        for w in chosen:
            after = w.end
            while after < n and text[after].isspace():
                after += 1
            before = w.start
            while before > 0 and text[before - 1].isspace():
                before -= 1
            if after > w.end and after < n and (text[after].isalnum() or text[after] in "\"'“‘(["):
                s, e = w.start, after  # the word and the space after it
            elif before < w.start:
                s, e = before, w.end  # the space before it and the word (before punctuation or the end)
            else:
                s, e = w.start, after
            if spans and s < spans[-1][1]:  # adjacent deletions overlap: merge them
                spans[-1][1] = max(spans[-1][1], e)
                spans[-1][3].append(w.text)
            else:
                spans.append([s, e, w.index, [w.text]])
        repl = [(s, e, "", idx, "deleted " + ", ".join(repr(x) for x in ws)) for s, e, idx, ws in spans]
        return apply_replacements(text, repl)


class WordReorder(NoisePerturber):
    """Swap ``n`` pairs of adjacent words (separated only by whitespace)."""

    name = "word_reorder"
    level = "word"
    default_skip_stopwords = False

    def _apply(self, text: str, doc: Any, rng: random.Random) -> Outcome:
        eligible, reason = self.eligible_words(text, doc)
        if not eligible:
            return not_applied(text, reason)
        ok = {w.index for w in eligible}
        ws = words(text)
        pairs = [
            (a, b) for a, b in zip(ws, ws[1:])
            if a.index in ok and b.index in ok and a.text != b.text and not text[a.end : b.start].strip()
        ]
        if not pairs:
            return not_applied(text, "no two adjacent different eligible words")
        k = self.count(len(pairs))
        taken: set[int] = set()
        chosen = []
        for a, b in rng.sample(pairs, len(pairs)):
            if len(chosen) == k:
                break
            if a.index in taken or b.index in taken:
                continue
            taken.update((a.index, b.index))
            chosen.append((a, b))
        repl = [
            (a.start, b.end, b.text + text[a.end : b.start] + a.text, a.index,
             f"swapped words {a.index} and {b.index}")
            for a, b in chosen
        ]
        return apply_replacements(text, repl)


class WordSynonym(NoisePerturber):
    """Replace ``n`` words with a WordNet synonym of the same part of speech.

    Nouns (NN, NNS: plurals re-inflected), base-form verbs (VB, VBP), adjectives (JJ) and adverbs
    (RB) are tagged by the English spaCy pipeline; synonyms are the single-word lemmas of the
    word's ``senses`` most frequent WordNet senses (default 1), in WordNet's order."""

    name = "word_synonym"
    level = "word"
    needs_nlp = True
    _WN_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
    _TAGS = {"NOUN": ("NN", "NNS"), "VERB": ("VB", "VBP"), "ADJ": ("JJ",), "ADV": ("RB",)}

    def __init__(self, *, senses: int = 1, wordnet_root: Optional[str] = None, **options):
        super().__init__(**options)
        senses = check_number(senses, f"{self.name}: senses", minimum=1, integer=True)
        from .wordnet import WordNetLexicon

        self.senses = senses
        self.lexicon = WordNetLexicon(wordnet_root)  # raises with an install hint when missing
        self._memo: dict[tuple[str, str, str], list[str]] = {}

    def model_id(self) -> str:
        return f"wordnet-{self.lexicon.version}"

    def options(self):
        return {**super().options(), "senses": self.senses}

    def synonyms(self, word: str, lemma: str, pos: str, tag: str) -> list[str]:
        """Same-POS WordNet synonyms of ``word`` (inflected and cased like it), WordNet's order."""
        key = (word, lemma, tag)
        if key not in self._memo:
            out: list[str] = []
            for name in self.lexicon.synonyms(lemma, self._WN_POS[pos], self.senses):
                new = self.lexicon.plural(name) if tag == "NNS" else name
                if word[:1].isupper():
                    new = new[:1].upper() + new[1:]
                if new.lower() != word.lower() and new not in out:
                    out.append(new)
            self._memo[key] = out
        return self._memo[key]

    def _token(self, word: Span, doc: Any):
        for tok in doc:
            if tok.idx == word.start and tok.idx + len(tok.text) == word.end:
                return tok
        return None

    def _candidates(self, word: Span, doc: Any) -> list[str]:
        tok = self._token(word, doc)
        if tok is None or tok.pos_ not in self._TAGS or tok.tag_ not in self._TAGS[tok.pos_]:
            return []
        return self.synonyms(word.text, (tok.lemma_ or word.text).lower(), tok.pos_, tok.tag_)

    def _word_problem(self, word: Span, doc: Any) -> str:
        return "" if self._candidates(word, doc) else "no same-POS WordNet synonym"

    def _apply(self, text: str, doc: Any, rng: random.Random) -> Outcome:
        eligible, reason = self.eligible_words(text, doc)
        if not eligible:
            return not_applied(text, reason)
        chosen = sorted(rng.sample(eligible, self.count(len(eligible))), key=lambda w: w.index)
        repl = []
        for w in chosen:
            new = rng.choice(self._candidates(w, doc))
            tok = self._token(w, doc)
            repl.append((w.start, w.end, new, w.index, f"WordNet synonym ({tok.pos_}/{tok.tag_})"))
        return apply_replacements(text, repl)


# ---------------------------------------------------------------------------------------------
# sentence and document level


#: the options that choose which words a word- or character-level perturber edits
WORD_SELECTION = frozenset({"n", "rate", "skip_stopwords", "skip_numbers", "skip_entities", "min_word_length", "protect"})


class _Reorder(NoisePerturber):
    unit = "document"
    default_skip_stopwords = False
    ignored_options = WORD_SELECTION

    def __init__(self, *, separator: str = DOCUMENT_SEPARATOR, **options):
        super().__init__(**options)
        self.separator = separator

    def options(self):
        return {"num_perturb": self.num_perturb, "separator": self.separator}

    def describe(self) -> str:
        return f"{self.name} ({self.level}-level: a random order of the {self.level}s)"

    def _reorder(self, text: str, spans: list[Span], rng: random.Random, what: str) -> Optional[list]:
        perm = _permutation(rng, [s.text for s in spans])
        if perm is None:
            return None
        return [
            (spans[i].start, spans[i].end, spans[p].text, spans[p].index, f"{what} {spans[p].index} moved to position {i}")
            for i, p in enumerate(perm)
            if p != i and spans[p].text != spans[i].text
        ]


class SentenceReorder(_Reorder):
    """Shuffle the sentences within each document of a text (so the lead sentence moves, with
    probability (k-1)/k for k sentences); documents joined by ``separator`` stay in place."""

    name = "sentence_reorder"
    level = "sentence"

    def _apply(self, text: str, analysis: Any, rng: random.Random) -> Outcome:
        repl = []
        offset = 0
        for doc in documents(text, self.separator):
            sents = sentences(doc.text)
            spans = [Span(offset + s.index, doc.start + s.start, doc.start + s.end, s.text) for s in sents]
            offset += len(sents)
            r = self._reorder(text, spans, rng, "sentence")
            if r:
                repl.extend(r)
        if not repl:
            if offset < 2:
                why = "a one-sentence document"
            elif offset == len(documents(text, self.separator)):
                why = "every document has one sentence"
            else:
                why = "no document has two different sentences to reorder"
            return not_applied(text, why)
        return apply_replacements(text, repl)


class DocumentReorder(_Reorder):
    """Shuffle the documents of a multi-document text (joined by ``separator``, multi_news's
    ``|||||`` by default)."""

    name = "document_reorder"
    level = "document"

    def _apply(self, text: str, analysis: Any, rng: random.Random) -> Outcome:
        docs = documents(text, self.separator)
        if len(docs) < 2:
            return not_applied(text, f"a single document (no {self.separator!r} separator between documents)")
        repl = self._reorder(text, docs, rng, "document")
        if not repl:
            return not_applied(text, "all documents are identical")
        return apply_replacements(text, repl)
