"""The checks of the candidate-quality stage (:mod:`sit.perturb.quality`), one class each.

A check is a :class:`Constraint` (after TextAttack's ``Constraint``): it declares its ``name``
(the key its drops are counted under: ``run.json``'s ``candidates_dropped``), the
:class:`~sit.perturb.quality.QualityOptions` fields it ``reads``, the models it ``needs``, the
``stage`` it runs at, its part of the perturber's signature and of its description, and fills
one hook, :meth:`Constraint._check`, which gives a verdict on a whole batch of candidates (so the
tagger and the encoder are called once a batch, never once a candidate). The public
:meth:`Constraint.check` applies the hook: it keeps the candidates that pass, records what the
hook measured and counts the others.

The stages, cheapest first:

- ``word``: the word alone in the original sentence, as words are proposed and before a perturber
  keeps its first ``num_perturb`` (:class:`Frequency`, :class:`Fluency`, :class:`Collocation`);
- ``pool``: the new sentence, on each slot's candidates until the slot has twice ``per_slot``
  (:class:`Grammar`, :class:`Related`);
- ``sentence``: the new sentences of the pool, before :class:`PerSlot` keeps the best of each
  word (:class:`Dissimilar`).

A new check is one class here, its entry in :data:`CONSTRAINTS` (its place there is its place in
the description, and among the checks of its stage, in the order they run) and, where it has an
option, its field in ``QualityOptions`` (whose field order is the signature's key order).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from ..errors import MissingDependencyError
from ..records import Edit

if TYPE_CHECKING:  # pragma: no cover
    from collections import Counter

    from .quality import Candidate, QualityOptions

#: the stages a check runs at, in the order they run
WORD, POOL, SENTENCE = "word", "pool", "sentence"
STAGES = (WORD, POOL, SENTENCE)

#: a verdict of :meth:`Constraint._check`: passes or not, or (passes or not, what was measured)
Verdict = Union[bool, tuple[bool, Optional[float]]]


@dataclass(frozen=True)
class Batch:
    """What a check sees beside its candidates: the original sentences (a candidate's
    ``sentence_index`` points into them), their tagged docs and the tagger that tagged them."""

    originals: Sequence[str]
    docs: Sequence
    tagger: Any = None


@dataclass(frozen=True)
class Models:
    """The models that several checks share (and the WordNet perturber's ``wsd``), each loading on
    first use; None where switched off, with the reason the description gives."""

    encoder: Any  # encoder.SentenceEncoder, or None
    encoder_reason: str
    lm: Any  # fluency.NgramModel, or None
    lm_reason: str
    #: what the proposer knows of English words, for the checks that ask (:class:`Lexicon`): the
    #: WordNet perturber itself; None where the proposer offers none
    lexicon: Any = None


class Check:
    """What every part of the quality stage declares (see the module's docstring)."""

    #: the key its drops are counted under (``run.json``'s ``candidates_dropped``)
    name: str = ""
    #: the ``QualityOptions`` fields it reads (its signature's keys, unless it says otherwise)
    reads: tuple[str, ...] = ()
    #: the models it calls: ``wordfreq``, ``lm``, ``bigrams``, ``tagger``, ``encoder``
    needs: tuple[str, ...] = ()

    def __init__(self, options: "QualityOptions", models: Models):
        self.options = options
        self.models = models

    def signature(self) -> dict[str, Any]:
        """Its part of the perturber's signature (a cache key: change it and cached
        perturbations are made again): by default the options it reads."""
        return {name: getattr(self.options, name) for name in self.reads}

    def describe(self) -> Optional[str]:
        """Its part of the perturber's one-line description, or None to say nothing."""
        return None

    def release(self) -> None:
        """Let go of what it loaded of its own (the shared models are released by the filter)."""


class Constraint(Check):
    """One check of a candidate: a public :meth:`check` over the hook :meth:`_check`."""

    #: when it runs: ``word``, ``pool`` or ``sentence``
    stage: str = SENTENCE
    #: the ``Candidate`` field that keeps what the hook measured (``zipf``, ``lm_fall``...), or None
    measure: Optional[str] = None
    #: runs after the other checks of its stage (it costs most), so that it never measures what a
    #: cheaper check drops; a candidate that both would drop is counted under the cheaper one
    last: bool = False

    def active(self) -> bool:
        """Whether it runs at all with these options and models (an inactive check passes all)."""
        return True

    def check(self, candidates: list["Candidate"], batch: Batch, dropped: Sequence["Counter"]) -> list["Candidate"]:
        """The ``candidates`` that pass, in the order given, with what the hook measured kept in
        their :attr:`measure` field; each one that fails is counted in
        ``dropped[candidate.sentence_index][name]``."""
        if not candidates or not self.active():
            return candidates
        verdicts = self._check(candidates, batch)
        kept = []
        for cand, verdict in zip(candidates, verdicts):
            ok, value = verdict if isinstance(verdict, tuple) else (verdict, None)
            if self.measure is not None and value is not None:
                cand = dataclasses.replace(cand, **{self.measure: value})
            if ok:
                kept.append(cand)
            else:
                dropped[cand.sentence_index][self.name] += 1
        return kept

    def _check(self, candidates: list["Candidate"], batch: Batch) -> list[Verdict]:
        """The hook: one verdict per candidate, in order, for the whole batch at once."""
        raise NotImplementedError


# -- the checks, in the order they are described ----------------------------------------------
class Frequency(Constraint):
    """The word is common English: ``wordfreq`` Zipf frequency >= ``min_zipf`` (0: no floor, but
    the frequency is still measured where ``wordfreq`` is installed)."""

    name = "rare"
    reads = ("min_zipf",)
    needs = ("wordfreq",)
    stage = WORD
    measure = "zipf"

    def __init__(self, options, models):
        super().__init__(options, models)
        self.wordfreq = bool(options.min_zipf) or _has_wordfreq()

    def active(self) -> bool:
        return self.wordfreq

    def describe(self) -> str:
        return f"Zipf >= {self.options.min_zipf:g}" if self.options.min_zipf else "no frequency floor"

    def _check(self, candidates, batch):
        floor = self.options.min_zipf
        return [(not floor or z >= floor, z) for z in [zipf(c.word.lower()) for c in candidates]]


class Fluency(Constraint):
    """The n-grams through the word fall by at most ``max_lm_fall`` (log10) under the n-gram model
    (a clitic after the token stays: ``charity's``)."""

    name = "unnatural"
    reads = ("lm", "max_lm_fall")
    needs = ("lm",)
    stage = WORD
    measure = "lm_fall"

    def __init__(self, options, models):
        super().__init__(options, models)
        self._scorer = None  # the last sentence, as the n-gram model reads it

    def active(self) -> bool:
        return self.models.lm is not None

    def signature(self) -> dict[str, Any]:
        lm = self.models.lm
        return {"lm": lm.source() if lm else "none", "max_lm_fall": self.options.max_lm_fall if lm else None}

    def describe(self) -> str:
        if self.models.lm is None:
            return self.models.lm_reason
        return f"n-gram fall <= {self.options.max_lm_fall:g} ({self.models.lm_reason})"

    def release(self) -> None:
        self._scorer = None

    def _check(self, candidates, batch):
        falls = [self.fall(batch.docs[c.sentence_index], c.slot.index, c.word) for c in candidates]
        return [(not fall > self.options.max_lm_fall, fall) for fall in falls]

    def fall(self, doc, index: int, word: str) -> float:
        """How much less likely (log10) the model finds the words around token ``index`` of
        ``doc`` with ``word`` in it (the sentence is read once for all its words)."""
        if self._scorer is None or self._scorer.doc is not doc:
            from .fluency import SentenceScorer

            self._scorer = SentenceScorer(self.models.lm, doc)
        return self._scorer.fall(index, word)


class Grammar(Constraint):
    """Re-tagged in one batched pass, the slot holds the new word with the coarse POS of the
    original (and, with ``grammar``, the fine tag, dependency relation and head)."""

    name = "grammar"
    reads = ("grammar",)
    needs = ("tagger",)
    stage = POOL

    def describe(self) -> str:
        return "slot grammar kept" if self.options.grammar else "coarse POS only"

    def _check(self, candidates, batch):
        new_docs = batch.tagger.tag([c.text for c in candidates])
        return [self._kept(cand, doc, batch.docs[cand.sentence_index]) for cand, doc in zip(candidates, new_docs)]

    def _kept(self, cand, doc, old) -> bool:
        i, slot = cand.slot.index, cand.slot
        ok = i < len(doc) and doc[i].text == cand.word and doc[i].pos_ == slot.pos
        if ok and self.options.grammar:
            ok = (
                len(doc) == len(old)
                and doc[i].tag_ == old[i].tag_
                and doc[i].dep_ == old[i].dep_
                and doc[i].head.i == old[i].head.i
            )
        return ok


class Collocation(Constraint):
    """Opt-in (``collocations``): where the original word forms a known English bigram with a
    neighbour, the new word forms one too (:mod:`sit.perturb.collocations`)."""

    name = "collocation"
    reads = ("collocations",)
    needs = ("bigrams",)
    stage = WORD

    def __init__(self, options, models):
        super().__init__(options, models)
        from .collocations import Bigrams

        self.bigrams = Bigrams() if options.collocations else None

    def active(self) -> bool:
        return self.bigrams is not None

    def signature(self) -> dict[str, Any]:
        return {"collocations": self.bigrams.source() if self.bigrams else "none"}

    def describe(self) -> Optional[str]:
        return "collocations kept" if self.bigrams else None

    def _check(self, candidates, batch):
        return [not self._broken(batch.docs[c.sentence_index], c.slot.index, c.word) for c in candidates]

    def _broken(self, doc, index: int, word: str):
        left = doc[index - 1].text if index > 0 else None
        right = doc[index + 1].text if index + 1 < len(doc) else None
        return self.bigrams.broken(left, doc[index].text, word, right)


class Related(Constraint):
    """Opt-in (``min_word_similarity`` > 0): the encoder, given the two words alone, finds them
    related."""

    name = "unrelated"
    reads = ("encoder", "min_word_similarity")
    needs = ("encoder",)
    stage = POOL

    def active(self) -> bool:
        return self.models.encoder is not None and bool(self.options.min_word_similarity)

    def signature(self) -> dict[str, Any]:
        encoder = self.models.encoder
        return {"encoder": encoder.model_id() if encoder else "none",
                "min_word_similarity": self.options.min_word_similarity if encoder else None}

    def describe(self) -> Optional[str]:
        return f"word similarity >= {self.options.min_word_similarity:g}" if self.active() else None

    def _check(self, candidates, batch):
        sims = self.models.encoder.word_similarity([(c.slot.text.lower(), c.word.lower()) for c in candidates])
        return [not sim < self.options.min_word_similarity for sim in sims]


class Dissimilar(Constraint):
    """Context fit: the encoder finds the new sentence close to the original (cosine >=
    ``min_similarity``); the similarity is kept for :class:`PerSlot` and the edit. The costliest
    check (the encoder on every new sentence): it runs last of its stage."""

    name = "dissimilar"
    reads = ("encoder", "min_similarity")
    needs = ("encoder",)
    stage = SENTENCE
    measure = "similarity"
    last = True

    def active(self) -> bool:
        return self.models.encoder is not None

    def signature(self) -> dict[str, Any]:
        encoder = self.models.encoder
        return {"encoder": encoder.model_id() if encoder else "none",
                "min_similarity": self.options.min_similarity if encoder else None}

    def describe(self) -> str:
        if self.models.encoder is None:
            return self.models.encoder_reason
        return f"similarity >= {self.options.min_similarity:g} ({self.models.encoder_reason})"

    def _check(self, candidates, batch):
        sims = self.models.encoder.similarity([(batch.originals[c.sentence_index], c.text) for c in candidates])
        return [(not sim < self.options.min_similarity, sim) for sim in sims]


#: the checks, in the order they are described; each stage runs its own in this order
CONSTRAINTS: tuple[type[Constraint], ...] = (Frequency, Fluency, Grammar, Collocation, Related, Dissimilar)


class PerSlot(Check):
    """The last cut: at most ``per_slot`` candidates of each word (0: all), the most similar
    (``rank=fluency``: the most fluent) first, duplicates of a new sentence dropped."""

    name = "per_slot"
    reads = ("per_slot", "rank")

    def rank(self) -> Optional[str]:
        """How a word's candidates are ordered (the signature's ``rank``): with ``rank=fluency``
        and the n-gram model running, most fluent first; else, with the encoder running, most
        similar first; else None (the proposer's order)."""
        if self.options.rank == "fluency" and self.models.lm is not None:
            return "fluency"
        return "similarity" if self.models.encoder is not None else None

    def pool_size(self) -> int:
        """How many candidates of a slot go on to the encoder, the costly check (0: all)."""
        return 2 * self.options.per_slot if self.models.encoder is not None and self.options.per_slot else 0

    def signature(self) -> dict[str, Any]:
        return {"per_slot": self.options.per_slot, "rank": self.rank()}

    def describe(self) -> Optional[str]:
        return f"at most {self.options.per_slot} per word" if self.options.per_slot else None

    def select(self, kept: list["Candidate"], n_sentences: int, perturber: str,
               dropped: Sequence["Counter"]) -> list[list[tuple[str, Edit]]]:
        """Per sentence, the (new sentence, edit) pairs kept, in slot order and within a slot best
        first; what is cut is counted as ``per_slot``."""
        groups: dict[tuple[int, int], list] = {}
        for cand in kept:
            groups.setdefault((cand.sentence_index, cand.slot.index), []).append(cand)
        result: list[list[tuple[str, Edit]]] = [[] for _ in range(n_sentences)]
        rank = self.rank()
        for (n, _), group in sorted(groups.items()):
            if rank == "fluency":
                group.sort(key=lambda c: c.lm_fall)  # stable: ties keep the proposer's order
            elif rank == "similarity":
                group.sort(key=lambda c: -c.similarity)
            seen: set[str] = set()
            unique = [c for c in group if not (c.text in seen or seen.add(c.text))]
            limit = self.options.per_slot or len(unique)
            dropped[n][self.name] += max(0, len(unique) - limit)
            result[n].extend((cand.text, _edit(cand, perturber)) for cand in unique[:limit])
        return result


def _edit(cand: "Candidate", perturber: str) -> Edit:
    return Edit(
        position=cand.slot.index,
        before=cand.slot.text,
        after=cand.word,
        perturber=perturber,
        char_start=cand.char_start,
        char_end=cand.char_start + len(cand.word),
        level="word",
        zipf=None if cand.zipf is None else round(cand.zipf, 2),
        lm_fall=cand.lm_fall,
        similarity=cand.similarity,
        naturalness=cand.naturalness,
    )


def zipf(word: str) -> float:
    """The word's Zipf frequency in English (wordfreq; 0 for unknown words)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError as exc:
        raise MissingDependencyError(
            "the frequency floor needs wordfreq: pip install wordfreq (or --perturber-option min_zipf=0)"
        ) from exc
    return zipf_frequency(word, "en")


def _has_wordfreq() -> bool:
    import importlib.util

    return importlib.util.find_spec("wordfreq") is not None
