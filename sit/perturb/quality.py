"""The candidate-quality stage every substitution perturber shares (``wordnet``, ``mlm``, and the
relations that substitute words).

A substituted word becomes a test case only if the new sentence is one a person could have
written. Candidates pass, cheapest check first:

1. **frequency**: the word is common English (``wordfreq`` Zipf frequency >= ``min_zipf``);
   rare words (``otherworld``, ``bezique``, ``umteen``) make odd sentences and are mostly left
   untranslated, which is not a structure bug;
2. **fluency**: an n-gram language model finds the substitute about as likely as the original
   word between its neighbours: the n-grams through the word fall by at most ``max_lm_fall``
   (log10, 2.0 by default: at most a hundred times less likely). "the interior minister" ->
   "the interior pastor" goes, "the university said" -> "the school said" stays (:mod:`sit.perturb.fluency`; offline, the
   trigram model that ``pocketsphinx`` ships);
3. **collocations** (opt-in, ``collocations=true``): where the original word forms a known English bigram with its left or right
   neighbour (``video game``, ``high winds``), the new word must form one too
   (:mod:`sit.perturb.collocations`);
4. **grammar**: only words that can be replaced alone are slots (no stop word, no part of a
   name, no adjective after its noun as in ``attorneys general``), and re-parsed, the new sentence
   keeps the slot's grammar: the same word at the same token, the same fine-grained tag (so number
   too), the same dependency relation and head;
5. **related words** (opt-in, ``min_word_similarity`` > 0): the sentence encoder, given the two
   words alone, finds them related (cosine >= ``min_word_similarity``): ``official`` -> ``cook`` goes, ``city`` -> ``town`` stays;
6. **context fit**: the encoder says how close the new sentence stays to the original
   (cosine of normalised mean-pooled embeddings); below ``min_similarity`` the candidate goes,
   and at most ``per_slot`` of the closest candidates are kept for each word (with
   ``rank=fluency``, the ``per_slot`` most fluent: the smallest n-gram fall; the WordNet
   perturber's own default is 0, every candidate its checks of natural substitutes pass).

Checks 1, 2, 4 and 6 are on by default; each can be switched off (``min_zipf=0``, ``grammar=false``,
``lm=none``, ``encoder=none``, ``per_slot=0``) for the SIT paper's original behaviour. Checks 3 and 5 (with
WordNet's ``wsd``) make substitutes somewhat more natural and findings more precise, but leave far
fewer findings; docs/precision.md has the measured trade-off. Every option is part of the perturber's signature, so it keys the
perturbation cache and is written to ``run.json``.

The WordNet perturber adds its own checks of natural substitutes (no gerund or participle, no
repeated word, agreeing article and plural, collocations the n-gram model supports, and a
naturalness score on each case that the ``sit`` ranking reads): :mod:`sit.perturb.naturalness`.
The context fit (6) runs after them all, the naturalness score included (``Constraint.last``): it
encodes every new sentence, the costliest check, so a candidate the score drops is never encoded.

Each check is an object, a :class:`~sit.perturb.constraints.Constraint` with one batched hook
(:mod:`sit.perturb.constraints`, which also says how to add one); :class:`QualityFilter` runs them
in order and builds its signature and description from theirs.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, fields
from typing import Any, Optional, Sequence

from ..options import Option
from ..records import Edit
from .constraints import CONSTRAINTS, POOL, SENTENCE, STAGES, WORD, Batch, Check, Constraint, Models, PerSlot
from .encoder import SentenceEncoder, resolve_encoder
from .naturalness import WORDNET_CONSTRAINTS

log = logging.getLogger("sit.perturb")

#: how a word's candidates are ordered before ``per_slot`` keeps the first: the encoder's similarity
#: to the original (most similar first) or the n-gram fall (most fluent first)
RANKS = ("similarity", "fluency")
#: the reasons a candidate is dropped, in the order the checks run (``run.json`` counts them)
DROP_REASONS = tuple(c.name for stage in STAGES
                     for c in sorted((c for c in CONSTRAINTS + WORDNET_CONSTRAINTS if c.stage == stage), key=lambda c: c.last)
                     ) + (PerSlot.name,)


@dataclass(frozen=True)
class Candidate:
    """One proposed substitution: the new sentence ``text`` with ``word`` at ``slot``."""

    sentence_index: int
    slot: Any  # substitution.Slot
    word: str
    text: str
    char_start: int
    zipf: Optional[float] = None  # the word's frequency, where it was looked up
    lm_fall: Optional[float] = None  # how much less likely its n-grams are (log10), where the model ran
    similarity: Optional[float] = None  # how close the new sentence stays to the original, where the encoder ran
    support: Optional[float] = None  # the weakest pair it forms with a linked neighbour (log10), where measured
    naturalness: Optional[float] = None  # how natural the new sentence likely is (0-1), where scored


#: the quality stage's options, declared once (typed, with their rule and help: :class:`sit.options.Option`):
#: every substitution perturber takes them (``--perturber-option NAME=VALUE``, ``sit perturb --option``,
#: ``sit list``), and :class:`QualityOptions` holds their values in this order (the signature's key order)
QUALITY_OPTIONS: tuple[Option, ...] = (
    Option("min_zipf", float, 3.0, "the substitute's wordfreq Zipf frequency floor", minimum=0,
           what="0 turns the frequency floor off"),
    Option("grammar", bool, True, "the substitute keeps the slot's part of speech and form"),
    Option("lm", str, "auto", "the fluency check's n-gram model: auto, none, or an ARPA or Sphinx binary model"),
    Option("max_lm_fall", float, 2.0, "how much less likely (log10) the new n-grams may be", minimum=0,
           what="log10 units; lm=none turns the check off"),
    Option("collocations", bool, False, "opt-in: more natural substitutes, far fewer findings (docs/precision.md)"),
    Option("encoder", str, "auto", "the sentence encoder: auto, none, or a sentence-transformers directory or hub id"),
    Option("min_similarity", float, 0.8, "how close the new sentence stays to the original", minimum=0, maximum=1),
    Option("min_word_similarity", float, 0.0, "how close the two words alone stay; 0 turns the check off",
           minimum=0, maximum=1),
    Option("per_slot", int, 3, "substitutes kept per word", minimum=0, what="0 keeps every candidate that passes"),
    Option("rank", str, "similarity", "which candidates of a word are kept: the most similar or the most fluent",
           choices=RANKS),
    # the WordNet perturber's own checks (sit.perturb.naturalness); other perturbers run none of them
    Option("verb_forms", bool, True, "no gerund or participle standing as a noun or adjective"),
    Option("no_repeats", bool, True, "no word the sentence already has"),
    Option("agreement", bool, True, "a/an and plurals agree with the new word"),
    Option("supported", bool, True, "a known pair with a linked neighbour stays a known pair"),
    Option("min_naturalness", float, 0.0, "how natural the new sentence must likely be (0-1)", minimum=0, maximum=1,
           what="0 scores and drops nothing"),
)
_QUALITY = {o.name: o for o in QUALITY_OPTIONS}


@dataclass(frozen=True)
class QualityOptions:
    """The quality stage's choices, the values of :data:`QUALITY_OPTIONS` (perturber options of
    the same names). Each value is checked once, here, by its declared type and rule
    (``per_slot=2.7``, ``per_slot=true`` and ``min_zipf=inf`` are refused)."""

    min_zipf: float = _QUALITY["min_zipf"].default
    grammar: bool = _QUALITY["grammar"].default
    lm: str = _QUALITY["lm"].default
    max_lm_fall: float = _QUALITY["max_lm_fall"].default
    collocations: bool = _QUALITY["collocations"].default
    encoder: str = _QUALITY["encoder"].default
    min_similarity: float = _QUALITY["min_similarity"].default
    min_word_similarity: float = _QUALITY["min_word_similarity"].default
    per_slot: int = _QUALITY["per_slot"].default
    rank: str = _QUALITY["rank"].default
    verb_forms: bool = _QUALITY["verb_forms"].default
    no_repeats: bool = _QUALITY["no_repeats"].default
    agreement: bool = _QUALITY["agreement"].default
    supported: bool = _QUALITY["supported"].default
    min_naturalness: float = _QUALITY["min_naturalness"].default

    def __post_init__(self):
        for f in fields(self):
            object.__setattr__(self, f.name, _QUALITY[f.name].check(getattr(self, f.name)))


class QualityFilter:
    """Applies :class:`QualityOptions` to candidates through its checks (``constraints``, in the
    order of :data:`~sit.perturb.constraints.CONSTRAINTS` unless given) and the last cut
    :class:`~sit.perturb.constraints.PerSlot`; counts what each check dropped. Its signature and
    description are its checks' parts."""

    def __init__(self, options: QualityOptions, *, device: Optional[str] = None,
                 constraints: Sequence[type[Constraint]] = CONSTRAINTS, lexicon: Any = None):
        self.options = options
        self.encoder_name, self.encoder_reason = resolve_encoder(options.encoder)
        self.encoder = SentenceEncoder(self.encoder_name, device=device) if self.encoder_name else None
        from .fluency import NgramModel, resolve_lm

        lm_path, self.lm_reason = resolve_lm(options.lm)
        self.lm = NgramModel(lm_path) if lm_path else None
        models = Models(self.encoder, self.encoder_reason, self.lm, self.lm_reason, lexicon)
        self.constraints = tuple(cls(options, models) for cls in constraints)
        self.per_slot = PerSlot(options, models)
        # each stage's checks in their order, those that cost most (``last``) after the others
        self._stages = {name: sorted((c for c in self.constraints if c.stage == name), key=lambda c: c.last)
                        for name in STAGES}

    @property
    def checks(self) -> list[Check]:
        """Every part of the stage, in the order it is described: the constraints, then the cut."""
        return [*self.constraints, self.per_slot]

    def stage(self, name: str) -> list[Constraint]:
        """The constraints that run at stage ``name`` (``word``, ``pool``, ``sentence``), in order."""
        return self._stages[name]

    def signature(self) -> dict[str, Any]:
        """The checks' parts, in the order of :class:`QualityOptions`' fields (other keys last)."""
        parts: dict[str, Any] = {}
        for check in self.checks:
            parts.update(check.signature())
        order = {f.name: i for i, f in enumerate(fields(QualityOptions))}
        return dict(sorted(parts.items(), key=lambda kv: order.get(kv[0], len(order))))

    def release(self) -> None:
        """Let go of the loaded sentence encoder and n-gram model (each loads again on next use)."""
        for model in (self.encoder, self.lm):
            if model is not None:
                model.release()
        for check in self.checks:
            check.release()

    def describe(self) -> str:
        return "; ".join(part for part in (check.describe() for check in self.checks) if part)

    def apply(self, candidates: list[Candidate], batch: Batch, perturber: str
              ) -> tuple[list[list[tuple[str, Edit]]], list[Counter]]:
        """Filter ``candidates`` (already past :meth:`word_check`) of the sentences of ``batch``.

        Returns, per sentence, the kept (new sentence, edit) pairs in slot order and, within a slot,
        most similar first (``rank=fluency``: most fluent first); and per sentence a Counter of the
        candidates each check dropped."""
        dropped = [Counter() for _ in batch.originals]
        if self.per_slot.rank() == "fluency":  # the most fluent of a word's candidates go to the pool first
            candidates = sorted(candidates, key=lambda c: c.lm_fall)
        kept = self._pool(candidates, batch, dropped)
        for constraint in self.stage(SENTENCE):
            kept = constraint.check(kept, batch, dropped)
        return self.per_slot.select(kept, len(batch.originals), perturber, dropped), dropped

    def _pool(self, candidates: list[Candidate], batch: Batch, dropped) -> list[Candidate]:
        """The candidates that go on to the encoder, the costly check: those that pass the ``pool``
        checks (the slot's grammar and, where asked, related words), at most twice ``per_slot`` of a
        slot, the first in the order given (the proposer's; with ``rank=fluency``, most fluent
        first). The sentences are re-tagged in rounds, each round one batched pass over the next
        candidates of the slots still short of their pool, so a candidate past a full pool is never
        tagged; it counts as dropped by ``per_slot``."""
        size = self.per_slot.pool_size()
        queues: dict[tuple[int, int], list[Candidate]] = {}
        for cand in candidates:
            queues.setdefault((cand.sentence_index, cand.slot.index), []).append(cand)
        passed: dict[tuple[int, int], list[Candidate]] = {key: [] for key in queues}
        while True:
            round_ = []
            for key, queue in queues.items():
                need = (size - len(passed[key])) if size else len(queue)
                round_.extend(queue[:need])
                del queue[:need]
            if not round_:
                break
            for constraint in self.stage(POOL):
                round_ = constraint.check(round_, batch, dropped)
            for cand in round_:
                passed[(cand.sentence_index, cand.slot.index)].append(cand)
        for key, queue in queues.items():
            dropped[key[0]][self.per_slot.name] += len(queue)
        pooled = {id(c) for group in passed.values() for c in group}  # pool checks measure nothing: same objects
        return [c for c in candidates if id(c) in pooled]  # in the order given

    def word_check(self, candidate: Candidate, batch: Batch, dropped: Sequence[Counter]) -> Optional[Candidate]:
        """The ``word`` checks of a proposed candidate, which need no new sentence parsed: the
        candidate with what they measured (``zipf``, ``lm_fall``), or None where one drops it (and
        counts it in ``dropped``). They run as words are proposed, before a perturber takes its
        first ``num_perturb``."""
        kept = [candidate]
        for constraint in self.stage(WORD):
            kept = constraint.check(kept, batch, dropped)
            if not kept:
                return None
        return kept[0]


def options_from(kwargs: dict[str, Any]) -> QualityOptions:
    """The quality options among a perturber's keyword options (the others are left alone),
    checked by :class:`QualityOptions`."""
    return QualityOptions(**{f.name: kwargs[f.name] for f in fields(QualityOptions) if kwargs.get(f.name) is not None})
