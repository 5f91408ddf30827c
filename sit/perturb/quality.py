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
   ``rank=fluency``, the ``per_slot`` most fluent: the smallest n-gram fall).

Checks 1, 2, 4 and 6 are on by default; each can be switched off (``min_zipf=0``, ``grammar=false``,
``lm=none``, ``encoder=none``, ``per_slot=0``) for the SIT paper's original behaviour. Checks 3 and 5 (with
WordNet's ``wsd``) make substitutes somewhat more natural and findings more precise, but leave far
fewer findings; docs/precision.md has the measured trade-off. Every option is part of the perturber's signature, so it keys the
perturbation cache and is written to ``run.json``.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any, Optional, Sequence

from ..errors import ConfigError, MissingDependencyError
from ..records import Edit
from .encoder import SentenceEncoder, resolve_encoder

log = logging.getLogger("sit.perturb")

#: the reasons a candidate is dropped, in the order the checks run (``run.json`` counts them)
#: how a word's candidates are ordered before ``per_slot`` keeps the first: the encoder's similarity
#: to the original (most similar first) or the n-gram fall (most fluent first)
RANKS = ("similarity", "fluency")
DROP_REASONS = ("rare", "unnatural", "collocation", "grammar", "unrelated", "dissimilar", "per_slot")


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


def _rule(**rule: Any):
    """A field's range, for :func:`sit.options.check_option`."""
    return {"rule": rule}


@dataclass(frozen=True)
class QualityOptions:
    """The quality stage's choices (perturber options of the same names). Each value is checked
    once, here, by the type of its default and its range (``per_slot=2.7``, ``per_slot=true`` and
    ``min_zipf=inf`` are refused)."""

    min_zipf: float = field(default=3.0, metadata=_rule(minimum=0, what="0 turns the frequency floor off"))
    grammar: bool = True
    lm: str = "auto"  # auto | none | an ARPA or Sphinx binary n-gram model
    max_lm_fall: float = field(default=2.0, metadata=_rule(minimum=0, what="log10 units; lm=none turns the check off"))
    collocations: bool = False  # opt-in: more natural substitutes, far fewer findings (docs/precision.md)
    encoder: str = "auto"  # auto | none | a sentence-transformers directory or hub id
    min_similarity: float = field(default=0.8, metadata=_rule(minimum=0, maximum=1))
    #: the two words alone; 0 (the default) turns the check off
    min_word_similarity: float = field(default=0.0, metadata=_rule(minimum=0, maximum=1))
    per_slot: int = field(default=3, metadata=_rule(minimum=0, what="0 keeps every candidate that passes"))
    rank: str = "similarity"  # which candidates of a word are kept: most similar, or most fluent

    def __post_init__(self):
        from ..options import check_option

        for f in fields(self):
            checked = check_option(f.name, getattr(self, f.name), f.default, **f.metadata.get("rule", {}))
            object.__setattr__(self, f.name, checked)
        if self.rank not in RANKS:
            raise ConfigError(f"rank must be one of {', '.join(RANKS)}, got {self.rank!r}")


def zipf(word: str) -> float:
    """The word's Zipf frequency in English (wordfreq; 0 for unknown words)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError as exc:
        raise MissingDependencyError(
            "the frequency floor needs wordfreq: pip install wordfreq (or --perturber-option min_zipf=0)"
        ) from exc
    return zipf_frequency(word, "en")


class QualityFilter:
    """Applies :class:`QualityOptions` to candidates; counts what each check dropped."""

    def __init__(self, options: QualityOptions, *, device: Optional[str] = None):
        self.options = options
        self._wordfreq = bool(options.min_zipf) or _has_wordfreq()
        self.encoder_name, self.encoder_reason = resolve_encoder(options.encoder)
        self.encoder = SentenceEncoder(self.encoder_name, device=device) if self.encoder_name else None
        from .collocations import Bigrams
        from .fluency import NgramModel, resolve_lm

        lm_path, self.lm_reason = resolve_lm(options.lm)
        self.lm = NgramModel(lm_path) if lm_path else None
        self._scorer = None  # the last sentence, as the n-gram model reads it

        self.bigrams = Bigrams() if options.collocations else None

    def signature(self) -> dict[str, Any]:
        o = self.options
        return {
            "min_zipf": o.min_zipf,
            "grammar": o.grammar,
            "lm": self.lm.source() if self.lm else "none",
            "max_lm_fall": o.max_lm_fall if self.lm else None,
            "collocations": self.bigrams.source() if self.bigrams else "none",
            "encoder": self.encoder.model_id() if self.encoder else "none",
            "min_similarity": o.min_similarity if self.encoder else None,
            "min_word_similarity": o.min_word_similarity if self.encoder else None,
            "per_slot": o.per_slot,
            "rank": self._rank(),
        }

    def release(self) -> None:
        """Let go of the loaded sentence encoder and n-gram model (each loads again on next use)."""
        for model in (self.encoder, self.lm):
            if model is not None:
                model.release()
        self._scorer = None

    def describe(self) -> str:
        o = self.options
        parts = [f"Zipf >= {o.min_zipf:g}" if o.min_zipf else "no frequency floor",
                 f"n-gram fall <= {o.max_lm_fall:g} ({self.lm_reason})" if self.lm else self.lm_reason,
                 "slot grammar kept" if o.grammar else "coarse POS only"]
        if self.bigrams:
            parts.append("collocations kept")
        if self.encoder and o.min_word_similarity:
            parts.append(f"word similarity >= {o.min_word_similarity:g}")
        parts.append(f"similarity >= {o.min_similarity:g} ({self.encoder_reason})" if self.encoder else self.encoder_reason)
        if o.per_slot:
            parts.append(f"at most {o.per_slot} per word")
        return "; ".join(parts)

    def apply(
        self, tagger, candidates: list[Candidate], originals: Sequence[str], docs: Sequence, perturber: str
    ) -> tuple[list[list[tuple[str, Edit]]], list[Counter]]:
        """Filter ``candidates`` (already past :meth:`word_check`) of the sentences ``originals``
        (tagged as ``docs``).

        Returns, per sentence, the kept (new sentence, edit) pairs in slot order and, within a slot,
        most similar first (``rank=fluency``: most fluent first); and per sentence a Counter of the
        candidates each check dropped."""
        dropped = [Counter() for _ in originals]
        if self._rank() == "fluency":  # the most fluent of a word's candidates go to the pool first
            candidates = sorted(candidates, key=lambda c: c.lm_fall)
        pooled = self._pool(tagger, candidates, docs, dropped)
        scored = self._similar(pooled, originals, dropped)
        return self._per_slot(scored, len(originals), perturber, dropped), dropped

    def _pool(self, tagger, candidates: list[Candidate], docs, dropped) -> list[Candidate]:
        """The candidates that go on to the encoder, the costly check: those that keep the slot's
        grammar (and, where asked, are related words), at most twice ``per_slot`` of a slot, the
        first in the order given (the proposer's; with ``rank=fluency``, most fluent first). The sentences are re-tagged in rounds, each round one
        batched pass over the next candidates of the slots still short of their pool, so a
        candidate past a full pool is never tagged; it counts as dropped by ``per_slot``."""
        size = 2 * self.options.per_slot if self.encoder is not None and self.options.per_slot else 0
        queues: dict[tuple[int, int], list[Candidate]] = {}
        for cand in candidates:
            queues.setdefault((cand.sentence_index, cand.slot.index), []).append(cand)
        passed: dict[tuple[int, int], list[Candidate]] = {key: [] for key in queues}
        while True:
            batch = []
            for key, queue in queues.items():
                need = (size - len(passed[key])) if size else len(queue)
                batch.extend(queue[:need])
                del queue[:need]
            if not batch:
                break
            for cand in self._related(self._grammatical(tagger, batch, docs, dropped), dropped):
                passed[(cand.sentence_index, cand.slot.index)].append(cand)
        for key, queue in queues.items():
            dropped[key[0]]["per_slot"] += len(queue)
        pooled = {id(c) for group in passed.values() for c in group}
        return [c for c in candidates if id(c) in pooled]  # in the order given

    # -- the checks, cheapest first ----------------------------------------------------------
    def word_check(self, doc, index: int, word: str) -> tuple[Optional[str], dict[str, float]]:
        """The checks of a proposed ``word`` for token ``index`` of ``doc`` that need no new
        sentence: why it goes (``rare``, ``unnatural``, ``collocation``) or None, and what was
        measured (``zipf``, ``lm_fall``). They run as words are proposed, before a perturber takes
        its first ``num_perturb``."""
        ok, z = self.frequency(word)
        scores = {} if z is None else {"zipf": z}
        if not ok:
            return "rare", scores
        if self.lm is not None:
            scores["lm_fall"] = fall = self.fluency(doc, index, word)
            if fall > self.options.max_lm_fall:
                return "unnatural", scores
        if self.bigrams is not None:
            left = doc[index - 1].text if index > 0 else None
            right = doc[index + 1].text if index + 1 < len(doc) else None
            if self.bigrams.broken(left, doc[index].text, word, right):
                return "collocation", scores
        return None, scores

    def fluency(self, doc, index: int, word: str) -> float:
        """How much less likely (log10) the n-gram model finds the sentence's words around token
        ``index`` with ``word`` in it (a clitic after the token stays: ``charity's``)."""
        if self._scorer is None or self._scorer.doc is not doc:
            from .fluency import SentenceScorer

            self._scorer = SentenceScorer(self.lm, doc)
        return self._scorer.fall(index, word)

    def frequency(self, word: str) -> tuple[bool, Optional[float]]:
        """Whether ``word`` is frequent enough, and its Zipf frequency (None where wordfreq is not
        installed and no floor needs it). Runs as words are proposed, before any sentence is built."""
        if not self._wordfreq:
            return True, None
        z = zipf(word.lower())
        return (not self.options.min_zipf or z >= self.options.min_zipf), z

    def _grammatical(self, tagger, candidates, docs, dropped):
        """Re-tag the new sentences in one batched pass: the slot must hold the new word with the
        coarse POS (and, with ``grammar``, the fine tag, relation and head) of the original."""
        new_docs = tagger.tag([c.text for c in candidates])
        out = []
        for cand, doc in zip(candidates, new_docs):
            i, slot = cand.slot.index, cand.slot
            ok = i < len(doc) and doc[i].text == cand.word and doc[i].pos_ == slot.pos
            if ok and self.options.grammar:
                old = docs[cand.sentence_index]
                ok = (
                    len(doc) == len(old)
                    and doc[i].tag_ == old[i].tag_
                    and doc[i].dep_ == old[i].dep_
                    and doc[i].head.i == old[i].head.i
                )
            if ok:
                out.append(cand)
            else:
                dropped[cand.sentence_index]["grammar"] += 1
        return out

    def _related(self, kept: list[Candidate], dropped) -> list[Candidate]:
        """Candidates whose word, alone, the encoder finds related to the original word."""
        if self.encoder is None or not self.options.min_word_similarity or not kept:
            return kept
        sims = self.encoder.similarity([(c.slot.text.lower(), c.word.lower()) for c in kept])
        out = []
        for cand, sim in zip(kept, sims):
            if sim < self.options.min_word_similarity:
                dropped[cand.sentence_index]["unrelated"] += 1
            else:
                out.append(cand)
        return out

    def _similar(self, kept, originals, dropped):
        """(candidate, similarity) for the candidates close enough to their original."""
        if self.encoder is None:
            return [(c, None) for c in kept]
        sims = self.encoder.similarity([(originals[c.sentence_index], c.text) for c in kept])
        out = []
        for cand, sim in zip(kept, sims):
            if sim < self.options.min_similarity:
                dropped[cand.sentence_index]["dissimilar"] += 1
            else:
                out.append((cand, sim))
        return out

    def _rank(self) -> Optional[str]:
        """How a word's candidates are ordered (the signature's ``rank``): with ``rank=fluency``
        and the n-gram model running, most fluent first; else, with the encoder running, most
        similar first; else None (the proposer's order)."""
        if self.options.rank == "fluency" and self.lm is not None:
            return "fluency"
        return "similarity" if self.encoder is not None else None

    def _per_slot(self, scored, n_sentences: int, perturber: str, dropped) -> list[list[tuple[str, Edit]]]:
        groups: dict[tuple[int, int], list] = {}
        for cand, sim in scored:
            groups.setdefault((cand.sentence_index, cand.slot.index), []).append((cand, sim))
        result: list[list[tuple[str, Edit]]] = [[] for _ in range(n_sentences)]
        rank = self._rank()
        for (n, _), group in sorted(groups.items()):
            if rank == "fluency":
                group.sort(key=lambda g: g[0].lm_fall)  # stable: ties keep the proposer's order
            elif rank == "similarity":
                group.sort(key=lambda g: -g[1])
            seen: set[str] = set()
            unique = [g for g in group if not (g[0].text in seen or seen.add(g[0].text))]
            limit = self.options.per_slot or len(unique)
            dropped[n]["per_slot"] += max(0, len(unique) - limit)
            for cand, sim in unique[:limit]:
                result[n].append((cand.text, _edit(cand, perturber, sim)))
        return result


def _edit(cand: Candidate, perturber: str, sim: Optional[float]) -> Edit:
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
        similarity=sim,
    )


def _has_wordfreq() -> bool:
    import importlib.util

    return importlib.util.find_spec("wordfreq") is not None


def options_from(kwargs: dict[str, Any]) -> QualityOptions:
    """The quality options among a perturber's keyword options (the others are left alone),
    checked by :class:`QualityOptions`."""
    return QualityOptions(**{f.name: kwargs[f.name] for f in fields(QualityOptions) if kwargs.get(f.name) is not None})
