"""The catalogue's base: :class:`NoisePerturber` (options, which words are eligible, the
per-text seeds and variants); each level's module fills in :meth:`NoisePerturber._apply`."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any, Optional, Sequence

from ...errors import ConfigError
from ...records import Edit
from ...validate import check_number
from ...words import is_noise_stop_word
from ..base import NUM_PERTURB, Perturber
from ..text import Span, is_number, words
from .outcome import Outcome, apply_replacements, draw_seeds, not_applied

#: the options that choose which words a word- or character-level perturber edits
WORD_SELECTION = frozenset({"n", "rate", "skip_stopwords", "skip_numbers", "skip_entities", "min_word_length", "protect"})


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
    option_specs = (NUM_PERTURB,)  # its own default is 1; a run's is 10

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
            from ...models import load_spacy

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

    def _replaced(self, text: str, repl: Sequence[tuple[int, int, str, int, str]]) -> Outcome:
        """``text`` with the replacements ``(start, end, new, position, note)`` made, as this
        perturber's edits (:func:`~sit.perturb.noise.outcome.apply_replacements`)."""
        return apply_replacements(text, repl, perturber=self.name, level=self.level)


class WordEditor(NoisePerturber):
    """Rewrites each of ``n`` distinct eligible words, chosen at random: :meth:`_new_word` gives
    a word's new text (the character level, ``word_synonym``)."""

    def _apply(self, text: str, doc: Any, rng: random.Random) -> Outcome:
        eligible, reason = self.eligible_words(text, doc)
        if not eligible:
            return not_applied(text, reason)
        chosen = sorted(rng.sample(eligible, self.count(len(eligible))), key=lambda w: w.index)
        repl = []
        for w in chosen:
            new, note = self._new_word(w, doc, rng)
            repl.append((w.start, w.end, new, w.index, note))
        return self._replaced(text, repl)

    def _new_word(self, word: Span, doc: Any, rng: random.Random) -> tuple[str, str]:
        """``word``'s new text and a note saying what changed."""
        raise NotImplementedError
