"""The ``Perturber`` face: ``perturb(sentences, rng) -> pairs``.

Public :meth:`Perturber.perturb` numbers the sentences and runs them through the cached batch
loop (:mod:`sit.batching`), so a re-run needs no model and a killed run loses at most one batch;
a deterministic implementation provides :meth:`Perturber._perturb_batch`, a random one
:meth:`Perturber._perturb_seeded`.
"""

from __future__ import annotations

import logging
import random
from functools import partial
from typing import Any, Callable, Mapping, Optional, Sequence

from ..batching import cached_batches
from ..cache import NO_PERTURBATION, Cache
from ..errors import ModelError
from ..options import Option
from ..records import Edit, Pair
from ..stage import Stage

log = logging.getLogger("sit.perturb")

#: the most words a sentence may have to be perturbed (:attr:`Perturber.max_tokens`)
MAX_TOKENS = 250

#: the run-wide ``num_perturb`` (``sit run --num-perturb``), declared by the perturbers that take it
NUM_PERTURB = Option("num_perturb", int, 10, "replacements proposed per word (mlm, wordnet) or variants per "
                     "sentence (noise perturbers); default 10", minimum=1, run_wide=True, flag="--num-perturb")


def _well_formed(outs) -> bool:
    """A sentence's perturbations as the batch loop accepts them, computed or cached: (text,
    :class:`Edit`) pairs whose edits have an integer position and text before and after (a
    damaged cache line with wrong-typed edits is perturbed again)."""
    return isinstance(outs, (list, tuple)) and all(
        isinstance(o, (list, tuple)) and len(o) == 2 and isinstance(o[0], str) and isinstance(o[1], Edit)
        and isinstance(o[1].position, int) and not isinstance(o[1].position, bool)
        and isinstance(o[1].before, str) and isinstance(o[1].after, str) for o in outs)


def _encode_outs(outs) -> Any:
    """A sentence's perturbations as cached: their rows, or the mark of none (a deterministic
    perturber's "nothing here" is its answer: a re-run does not perturb the sentence again)."""
    return [{"perturbed": p, "edit": e.to_dict()} for p, e in outs] if outs else dict(NO_PERTURBATION)


def _decode_outs(rows) -> list:
    return [] if rows == NO_PERTURBATION else [(d["perturbed"], Edit.from_dict(d["edit"])) for d in rows]


class Perturber(Stage):
    name: str = "base"
    kind = "perturbations"
    verb = "perturb"
    unit = "sent"
    level: str = "word"
    #: True when the output depends only on the sentence and the options (not on the rng):
    #: such perturbers are cached per sentence, the others per (seed, sentence).
    deterministic: bool = False
    batch_size: int = 16
    #: inherited constructor options this perturber has no use for (refused by
    #: :func:`sit.perturb.options.perturber_options`)
    ignored_options: frozenset = frozenset()
    #: the options the perturber takes (:class:`sit.options.Option`), a subclass's first; a
    #: keyword of the constructors that none declares is taken, typed by its default. One declared
    #: ``run_wide`` is filled from the run's setting (``sit run --set``, :data:`NUM_PERTURB`)
    option_specs: tuple = ()
    #: options filled from the run's engine settings (option -> ``RunConfig`` field: ``--device``),
    #: where the perturber takes them
    run_options: Mapping[str, str] = {"device": "device"}
    #: sentences with more words than this are not perturbed: each perturbation copies the
    #: sentence and each is translated and parsed, so the work grows with the length squared
    #: (a 100 kB line would run for hours); docs/perturb.md
    max_tokens: int = MAX_TOKENS

    def __init__(self, *, cache: Optional[Cache] = None, progress: bool = False):
        super().__init__(cache=cache, progress=progress)
        self.too_long = 0  # sentences left unperturbed for their length

    def signature(self) -> dict[str, Any]:
        return {"name": self.name, "model": self.model_id(), "options": self.options(), "v": 1}

    def release(self) -> None:
        """Let go of the models only perturbing needs (each loads again if perturbing resumes):
        a run calls it once its perturb stage is done, so that the next stage's models do not
        load beside them. Nothing to let go of here."""

    def perturb(
        self,
        sentences: Sequence[str],
        rng: Optional[random.Random] = None,
        *,
        ids: Optional[Sequence[int]] = None,
        on_texts: Optional[Callable[[list[str]], None]] = None,
    ) -> list[Pair]:
        """Every (sentence, perturbed sentence, edit) pair, sentence by sentence.

        A deterministic perturber is cached per sentence. Any other draws one 64-bit seed per
        sentence from ``rng`` (in order) and is cached per (seed, sentence): its output for a
        sentence depends on that seed alone, so a run killed mid-way resumes where it stopped.
        ``on_texts``, where given, is called with the sentences that have perturbations and their
        perturbed sentences, those of the cached sentences first, then of each batch as it is done
        (the caller can translate and parse them while the next batch is perturbed)."""
        rng = rng if rng is not None else random.Random(0)
        sentences = list(sentences)
        ids = list(ids) if ids is not None else list(range(len(sentences)))
        if self.deterministic:
            keys = sentences
        else:
            keys = [f"{rng.getrandbits(64):016x} {s}" for s in sentences]
        job = self.batch_job(
            "_perturb_keys",
            valid=_well_formed,
            encode=_encode_outs,
            decode=_decode_outs,
            finish=self._finish_batch,
            on_batch=None if on_texts is None else partial(self._texts_done, on_texts),
        )
        long = {k for k, s in zip(keys, sentences) if len(s.split()) > self.max_tokens}
        if long:
            self.too_long += len(long)
            log.warning("%s: %d sentence(s) of more than %d words are not perturbed (the work per sentence grows "
                        "with its length squared)", self.name, len(long), self.max_tokens)
        found = cached_batches([k for k in keys if k not in long], job)
        return [Pair(i, s, p, e) for i, s, k in zip(ids, sentences, keys) if k not in long for p, e in found[k]]

    def _texts_done(self, on_texts: Callable[[list[str]], None], keys: list[str], values: list) -> None:
        """Hand ``on_texts`` the texts of a batch's cache keys and answers: each sentence that has
        perturbed sentences, then those."""
        sentences = self._sentences(keys)
        on_texts([t for s, outs in zip(sentences, values) if outs for t in (s, *(p for p, _ in outs))])

    def _mismatch(self, n: int, total: int, sent: int, got: int) -> ModelError:
        return ModelError(f"{self.name}: batch {n} of {total}: {sent} sentence(s) in, {got} answer(s) out")

    def _perturb_keys(self, keys: list[str]) -> Any:
        """The hook the batch loop calls (here or in an engine's worker) with cache keys: the
        sentences of a deterministic perturber (which draws nothing from its rng), else
        ``"<seed as 16 hex digits> <sentence>"``."""
        if self.deterministic:
            return self._perturb_batch(list(keys), random.Random(0))
        return self._perturb_seeded(self._sentences(keys), [int(k[:16], 16) for k in keys])

    def _sentences(self, keys: list[str]) -> list[str]:
        """The sentences of cache keys (see :meth:`_perturb_keys`)."""
        return list(keys) if self.deterministic else [k[17:] for k in keys]

    def _finish_batch(self, keys: list[str], value: Any) -> list[list[tuple[str, Edit]]]:
        """What :meth:`_perturb_keys` returned for ``keys`` as the batch's answer, taken in by the
        driver (a subclass whose hook returns side figures keeps them here)."""
        return value

    def _perturb_batch(self, sentences: list[str], rng: random.Random) -> list[list[tuple[str, Edit]]]:
        """For each sentence, the list of (perturbed sentence, edit) (deterministic perturbers)."""
        raise NotImplementedError

    def _perturb_seeded(self, sentences: list[str], seeds: list[int]) -> list[list[tuple[str, Edit]]]:
        """For each sentence, the list of (perturbed sentence, edit) drawn with ``random.Random``
        of its seed (perturbers that are not deterministic)."""
        raise NotImplementedError
