"""The offline SIT perturber: same-POS WordNet neighbours of nouns and adjectives.

Nouns get synonyms and co-hyponyms (other hyponyms of their hypernyms) from their most frequent
senses, adjectives their synonyms and similar adjectives; plural nouns keep their inflection.
Candidates are ordered by WordNet's sense-tagged frequency, so the output is deterministic, and
pass the shared quality stage (:mod:`sit.perturb.quality`).
"""

from __future__ import annotations

from typing import Optional

from .substitution import Slot, SubstitutionPerturber, Tagger


class WordNetPerturber(SubstitutionPerturber):
    name = "wordnet"
    batch_size = 32

    def __init__(
        self,
        *,
        num_perturb: int = 10,
        senses: int = 3,
        tagger: Optional[Tagger] = None,
        wordnet_root: Optional[str] = None,
        device: Optional[str] = None,
        cache=None,
        progress: bool = False,
        **quality,
    ):
        super().__init__(num_perturb=num_perturb, tagger=tagger, device=device, cache=cache, progress=progress, **quality)
        from ..resources import wordnet_root as resolve_root
        from ..resources import wordnet_version

        self.senses = senses
        self.root = resolve_root(wordnet_root)  # raises with an install hint when missing
        self.wn_version = wordnet_version(self.root)
        self._wn = None  # loaded on first use: a re-run answered from the cache needs none
        self._inflect = None
        self._counts: Optional[dict[str, int]] = None

    @property
    def wn(self):
        if self._wn is None:
            from ..resources import wordnet

            self._wn = wordnet(self.root)
        return self._wn

    def model_id(self) -> str:
        return f"wordnet-{self.wn_version}"

    def options(self):
        return {**super().options(), "senses": self.senses}

    def describe(self) -> str:
        return (f"wordnet (WordNet {self.wn_version} same-POS neighbours, {self.num_perturb} per word; "
                f"{self.quality.describe()})")

    # -- candidates ----------------------------------------------------------------------------
    def neighbours(self, lemma: str, pos: str) -> list[str]:
        """Same-POS neighbours of ``lemma`` (single words), most frequent first."""
        wn = self.wn
        scores: dict[str, int] = {}
        sense: dict[str, int] = {}

        def add(lemma_obj, rank: int):
            name = lemma_obj.name()
            if "_" in name or "-" in name or not name.isalpha() or name[0].isupper():
                return
            word = name.lower()
            if word == lemma:
                return
            sense.setdefault(word, rank)
            scores[word] = scores.get(word, 0) + self.sense_counts().get(lemma_obj.key(), 0)

        if pos == "NOUN":
            for rank, syn in enumerate(wn.synsets(lemma, pos="n")[: self.senses]):
                for l in syn.lemmas():
                    add(l, rank)
                for hyper in syn.hypernyms():
                    for hypo in hyper.hyponyms():
                        if hypo != syn:
                            for l in hypo.lemmas():
                                add(l, rank)
        else:
            for rank, syn in enumerate(wn.synsets(lemma, pos="a")[: self.senses]):
                for l in syn.lemmas():
                    add(l, rank)
                for sim in syn.similar_tos():
                    for l in sim.lemmas():
                        add(l, rank)
        # the most frequent sense's neighbours first, then by sense-tagged frequency, then
        # alphabetically (NLTK's relation lists come in hash order: never rely on it)
        return sorted(scores, key=lambda w: (sense[w], -scores[w], w))

    def sense_counts(self) -> dict[str, int]:
        """Sense-tagged frequencies by sense key, read once from ``cntlist.rev`` (what NLTK's
        ``Lemma.count()`` binary-searches on disk at every call)."""
        if self._counts is None:
            from pathlib import Path

            counts: dict[str, int] = {}
            path = Path(self.root) / "corpora" / "wordnet" / "cntlist.rev"
            if path.exists():
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for line in fh:
                        parts = line.split()
                        if len(parts) >= 3 and parts[2].isdigit():
                            counts[parts[0]] = counts.get(parts[0], 0) + int(parts[2])
            self._counts = counts
        return self._counts

    def inflect(self, word: str, tag: str) -> str:
        if tag in ("NNS", "NNPS"):
            if self._inflect is None:
                import inflect

                self._inflect = inflect.engine()
            return self._inflect.plural_noun(word) or word
        return word

    def _propose(self, docs: list, slots_of: list[list[Slot]]) -> list[list[list[str]]]:
        """WordNet neighbours of each slot's lemma (inflected like the slot); comparatives,
        superlatives and proper-noun tags are left alone (they would need re-inflection)."""
        out = []
        for doc_slots in slots_of:
            out.append([
                [self.inflect(w, slot.tag) for w in self.neighbours(slot.lemma, slot.pos)]
                if slot.tag in ("JJ", "NN", "NNS", "") else []
                for slot in doc_slots
            ])
        return out


# ---------------------------------------------------------------------------------------------
# the WordNet engine the noise catalogue's word_synonym uses (one reader, one lemma rule, one
# plural inflection)


def single_word(name: str) -> bool:
    """Whether a WordNet lemma name can replace a word: one alphabetic word (no multi-word ``_``
    or hyphenated lemma, no digit) that is no proper name (no capital first letter)."""
    return name.isalpha() and not name[0].isupper()


class WordNetLexicon:
    """WordNet as sit reads it: the data directory (resolved at construction, so a missing WordNet
    fails before any work, with its install hint), its version, NLTK's reader (loaded on first
    use: a re-run answered from the cache needs none) and English plurals for re-inflection."""

    def __init__(self, root: Optional[str] = None):
        from ..resources import wordnet_root, wordnet_version

        self.root = wordnet_root(root)  # raises with an install hint when missing
        self.version = wordnet_version(self.root)
        self._reader = None
        self._inflect = None

    @property
    def reader(self):
        if self._reader is None:
            from ..resources import wordnet

            self._reader = wordnet(self.root)
        return self._reader

    def synonyms(self, lemma: str, pos: str, senses: int) -> list[str]:
        """The single-word lemmas (lower-case, :func:`single_word`) of the ``senses`` most
        frequent senses of ``lemma`` with WordNet part of speech ``pos`` (``n``, ``v``, ``a``,
        ``r``), in WordNet's order, without ``lemma`` itself or repeats."""
        out: list[str] = []
        for syn in self.reader.synsets(lemma, pos=pos)[:senses]:
            for lem in syn.lemmas():
                word = lem.name().lower()
                if single_word(lem.name()) and word != lemma and word not in out:
                    out.append(word)
        return out

    def plural(self, word: str) -> str:
        """The plural of the noun ``word`` (``word`` itself where none is known)."""
        if self._inflect is None:
            import inflect

            self._inflect = inflect.engine()
        return self._inflect.plural_noun(word) or word
