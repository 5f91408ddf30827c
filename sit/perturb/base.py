"""The ``Perturber`` face: ``perturb(sentences, rng) -> pairs``.

Public :meth:`Perturber.perturb` numbers the sentences, consults the cache (for deterministic
perturbers such as the masked LM, so a re-run needs no model) and shows progress; each
implementation provides :meth:`Perturber._perturb_batch`.
"""

from __future__ import annotations

import random
from typing import Any, Optional, Sequence

from ..cache import MISSING, Cache
from ..records import Edit, Pair
from ..progress import progress


class Perturber:
    name: str = "base"
    level: str = "word"
    #: True when the output depends only on the sentence and the options (not on the rng):
    #: such perturbers are cached per sentence.
    deterministic: bool = False
    batch_size: int = 16

    def __init__(self, *, cache: Optional[Cache] = None, progress: bool = False):
        self.cache = cache
        self.progress = progress
        self.cache_hits = 0
        self.computed = 0

    def model_id(self) -> str:
        return self.name

    def options(self) -> dict[str, Any]:
        """Every option that changes the output (recorded in signatures and cache keys)."""
        return {}

    def signature(self) -> dict[str, Any]:
        return {"name": self.name, "model": self.model_id(), "options": self.options(), "v": 1}

    def describe(self) -> str:
        """Why this perturber (and model) was chosen, for the run summary."""
        return self.name

    def perturb(
        self,
        sentences: Sequence[str],
        rng: Optional[random.Random] = None,
        *,
        ids: Optional[Sequence[int]] = None,
    ) -> list[Pair]:
        rng = rng if rng is not None else random.Random(0)
        ids = list(ids) if ids is not None else list(range(len(sentences)))
        store = (
            self.cache.store("perturbations", self.signature())
            if (self.cache is not None and self.deterministic)
            else None
        )
        found: dict[int, list[tuple[str, Edit]]] = {}
        todo = []
        for i, s in enumerate(sentences):
            hit = store.get(s, MISSING) if store is not None else MISSING
            if hit is MISSING:
                todo.append(i)
            else:
                found[i] = [(d["perturbed"], Edit.from_dict(d["edit"])) for d in hit]
                self.cache_hits += 1
        with progress(len(todo), f"perturb ({self.name})", "sent", self.progress) as bar:
            for start in range(0, len(todo), self.batch_size):
                chunk = todo[start : start + self.batch_size]
                outs = self._perturb_batch([sentences[i] for i in chunk], rng)
                for i, out in zip(chunk, outs):
                    found[i] = list(out)
                if store is not None:
                    store.put_many(
                        (sentences[i], [{"perturbed": p, "edit": e.to_dict()} for p, e in found[i]])
                        for i in chunk
                    )
                self.computed += len(chunk)
                bar.update(len(chunk))
        pairs = []
        for i, s in enumerate(sentences):
            for perturbed, edit in found[i]:
                pairs.append(Pair(ids[i], s, perturbed, edit))
        return pairs

    def _perturb_batch(self, sentences: list[str], rng: random.Random) -> list[list[tuple[str, Edit]]]:
        """For each sentence, the list of (perturbed sentence, edit)."""
        raise NotImplementedError
