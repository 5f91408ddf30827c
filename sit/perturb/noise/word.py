"""The catalogue's word level: whole words rewritten with look-alikes, deleted, swapped with a
neighbour, or replaced with a WordNet synonym."""

from __future__ import annotations

import random
from typing import Any, Optional

from ...validate import check_number
from ..homoglyphs import HOMOGLYPHS
from ..text import Span, words
from .base import NoisePerturber, WordEditor
from .character import Homoglyph
from .outcome import Outcome, not_applied


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
        return self._replaced(text, repl)


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
        return self._replaced(text, repl)


class WordSynonym(WordEditor):
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
        from ..wordnet import WordNetLexicon

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

    def _new_word(self, word: Span, doc: Any, rng: random.Random) -> tuple[str, str]:
        tok = self._token(word, doc)
        return rng.choice(self._candidates(word, doc)), f"WordNet synonym ({tok.pos_}/{tok.tag_})"
