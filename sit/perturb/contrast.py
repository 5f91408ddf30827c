"""Substitutes of clearly different meaning, for relations that need a sentence to mean something
else (``patinv``): the SIT perturbers propose *similar* words (city -> town), which a translator
may rightly render the same; these propose words that must not be.

- Nouns: frequent English nouns (wordfreq's top list; singular, not a gerund, noun their most
  frequent use in WordNet's sense-tagged counts, no proper nouns) whose first sense lies in the same WordNet lexicographer
  file as the replaced word's first sense (``noun.location``: city -> country, border, park), so
  the sentence stays about the same kind of thing; none of the candidate's senses may be a sense
  of the word, a hypernym or hyponym of one (two steps either way), or a co-hyponym (what the
  ``wordnet`` perturber proposes), and the two may share no stem and no derivational link.
- Adjectives: WordNet antonyms of the most frequent sense that has any (direct, or those of the
  head a satellite adjective is similar to: rising -> falling, new -> old).

Candidates then pass the same frequency floor and grammar check as every substitution (same fine
tag, dependency relation and head after re-tagging; plurals kept plural), not the sentence
encoder, which keeps words of *similar* meaning. Each word's candidates are a fixed shuffle of
its lexicographer file's most frequent nouns, seeded by the word, so runs are reproducible.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Optional

from .base import NUM_PERTURB
from .constraints import CONSTRAINTS
from .naturalness import LEXICON_OPTIONS
from .quality import QUALITY_OPTIONS
from .wordnet import WordNetPerturber

#: frequent English words looked up in WordNet (wordfreq's list, most frequent first)
TOP_WORDS = 15000
#: a word's candidates are drawn from this many of its lexicographer file's most frequent nouns
POOL = 250


class ContrastPerturber(WordNetPerturber):
    """One noun or adjective at a time, replaced by a word of clearly different meaning."""

    name = "contrast"
    # its words come from lexicographer files and antonyms, meant to differ: the shared checks only
    ignored_options = frozenset({"neighbours", "verbs"}) | LEXICON_OPTIONS
    quality_checks = CONSTRAINTS
    #: the shared options with the defaults its constructor gives them
    option_specs = (replace(NUM_PERTURB, default=6),
                    *(replace(o, default={"per_slot": 2, "encoder": "none", "min_zipf": 3.5}[o.name])
                      for o in QUALITY_OPTIONS if o.name in ("per_slot", "encoder", "min_zipf")))

    def __init__(self, *, num_perturb: int = 6, per_slot: Optional[int] = 2, encoder: Optional[str] = "none",
                 min_zipf: Optional[float] = 3.5, senses: int = 3, **options):
        super().__init__(num_perturb=num_perturb, per_slot=per_slot, encoder=encoder, min_zipf=min_zipf,
                         senses=senses, verbs=False, **options)
        self._lexfiles: Optional[dict[str, list[str]]] = None
        self._stem = None

    def model_id(self) -> str:
        return f"wordnet-{self.wn_version}-contrast"

    def options(self):
        return {**super().options(), "top_words": TOP_WORDS, "pool": POOL}

    def describe(self) -> str:
        return (f"contrast (WordNet {self.wn_version}: same-lexicographer-file nouns that are no synonym, "
                f"hypernym, hyponym or co-hyponym; adjective antonyms; {self.num_perturb} per word; "
                f"{self.quality.describe()})")

    # -- candidates ----------------------------------------------------------------------------
    def neighbours(self, lemma: str, pos: str, synsets: Optional[list] = None) -> list[str]:
        """Words of clearly different meaning for ``lemma`` (``NOUN`` or ``ADJ``), best first;
        ``synsets``, where the caller chose the word's senses, name the lexicographer file."""
        return self.noun_contrasts(lemma, synsets) if pos == "NOUN" else self.antonyms(lemma)

    def antonyms(self, lemma: str) -> list[str]:
        """Antonyms of the adjective ``lemma``'s most frequent sense that has any (its own, or
        those of the head a satellite sense is similar to): other senses' antonyms fit the
        sentence rarely (new -> experienced)."""
        for syn in self.wn.synsets(lemma, pos="a")[: self.senses]:
            out: list[str] = []
            for head in [syn, *syn.similar_tos()]:
                for lem in head.lemmas():
                    for ant in lem.antonyms():
                        word = ant.name()
                        if word.isalpha() and word.islower() and word != lemma and word not in out:
                            out.append(word)
            if out:
                return out
        return []

    def noun_contrasts(self, lemma: str, synsets: Optional[list] = None) -> list[str]:
        """Frequent nouns of the lexicographer file of ``lemma``'s first sense (or of the first of
        ``synsets``) that are close to none of its senses in WordNet."""
        senses = self.wn.synsets(lemma, pos="n")
        first = next((s for s in synsets or () if s.pos() == "n"), None) or (senses[0] if senses else None)
        if first is None:
            return []
        pool = self.lexfiles().get(first.lexname(), [])[:POOL]
        near = self._near(senses)
        stem = self._stemmer().stem(lemma)
        out = [w for w in pool if w != lemma and self._stemmer().stem(w) != stem
               and not near.intersection(self.wn.synsets(w, pos="n"))]
        random.Random(lemma).shuffle(out)
        return out

    def _near(self, senses) -> set:
        """The senses of a word and what is close to them: hypernyms and hyponyms two steps either
        way, co-hyponyms, and the senses of its derivationally related words."""
        near = set(senses)
        for syn in senses:
            up = syn.hypernyms() + syn.instance_hypernyms()
            up2 = [h2 for h in up for h2 in h.hypernyms()]
            down = syn.hyponyms()
            down2 = [d2 for d in down for d2 in d.hyponyms()]
            near.update(up, up2, down, down2)
            near.update(c for h in up for c in h.hyponyms())
            for lem in syn.lemmas():
                near.update(d.synset() for d in lem.derivationally_related_forms())
        return near

    def _stemmer(self):
        if self._stem is None:
            from ..models import nltk_module

            self._stem = nltk_module("nltk.stem").PorterStemmer()
        return self._stem

    def lexfiles(self) -> dict[str, list[str]]:
        """Lexicographer file -> frequent common nouns whose first sense lies there, most frequent
        first (built once: about 3 s)."""
        if self._lexfiles is None:
            from wordfreq import top_n_list

            self._lexfiles = {}
            for word in top_n_list("en", TOP_WORDS):
                if len(word) < 3 or not word.isalpha() or not self._mostly_noun(word):
                    continue
                if word.endswith("ing") and self.wn.morphy(word, "v") or self._plural(word):
                    continue  # gerunds; plurals (roads, works) come back inflected by the slot's tag
                first = self.wn.synsets(word, pos="n")[0]
                if any(lem.name() == word for lem in first.lemmas()):
                    self._lexfiles.setdefault(first.lexname(), []).append(word)
        return self._lexfiles

    def _plural(self, word: str) -> bool:
        """WordNet's morphology finds a shorter noun base form (words -> word, services -> service)."""
        return any(base != word for base in self.wn._morphy(word, "n"))

    def _mostly_noun(self, word: str) -> bool:
        """``word`` is a common noun in WordNet, used as a noun in its sense-tagged counts at least
        as often as otherwise (interjections such as "hello" have no counted noun use)."""
        if any(lem.name() != word for lem in self.wn.lemmas(word)):  # London, China: a proper noun
            return False
        noun, other = self.pos_counts(word, "NOUN")
        return noun > 0 and noun >= other
