"""The ``Summarizer`` face: public :meth:`Summarizer.summarize` de-duplicates, caches (through
:mod:`sit.cache`, like translations) and batches; each implementation provides
:meth:`Summarizer._summarize_batch`."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..batching import BatchJob, BatchStats, Counted, cached_batches
from ..cache import Cache
from ..errors import ModelError
from ..validate import check_number


class Summarizer(Counted):
    name: str = "base"
    default_batch_size: int = 8

    def __init__(self, *, cache: Optional[Cache] = None, batch_size: Optional[int] = None, progress: bool = False):
        self.cache = cache
        self.batch_size = check_number(batch_size, "--batch-size", minimum=1, integer=True) or self.default_batch_size
        self.progress = progress
        self.stats = BatchStats()
        self._store = None

    def model_id(self) -> str:
        return self.name

    def version(self) -> str:
        return "1"

    def options(self) -> dict[str, Any]:
        return {}

    def signature(self) -> dict[str, Any]:
        return {"name": self.name, "model": self.model_id(), "version": self.version(), "options": self.options()}

    def describe(self) -> str:
        return self.name

    @property
    def store(self):
        if self._store is None and self.cache is not None:
            self._store = self.cache.store("summaries", self.signature())
        return self._store

    def summarize(self, docs: Sequence[str]) -> list[str]:
        """Summaries of ``docs`` in order; identical documents are summarized once, cached ones
        not at all, and each finished batch is in the cache before the next starts."""
        docs = list(docs)
        job = BatchJob(
            compute=self._summarize_batch,
            mismatch=self._mismatch,
            stats=self.stats,
            store=self.store,
            batch_size=self.batch_size,
            desc=f"summarize ({self.name})",
            unit="doc",
            show_progress=self.progress,
            valid=lambda s: isinstance(s, str),
        )
        result = cached_batches([d for d in docs if d.strip()], job)
        return [result[d] if d.strip() else "" for d in docs]

    def _mismatch(self, n: int, total: int, sent: int, got: int) -> ModelError:
        return ModelError(f"{self.name}: batch {n} of {total}: {sent} document(s) in, {got} summaries out")

    def _summarize_batch(self, docs: list[str]) -> list[str]:
        raise NotImplementedError
