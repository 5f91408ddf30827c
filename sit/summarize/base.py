"""The ``Summarizer`` face: public :meth:`Summarizer.summarize` de-duplicates, caches (through
:mod:`sit.cache`, like translations) and batches; each implementation provides
:meth:`Summarizer._summarize_batch`."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..cache import MISSING, Cache
from ..errors import ModelError
from ..progress import progress


class Summarizer:
    name: str = "base"
    default_batch_size: int = 8

    def __init__(self, *, cache: Optional[Cache] = None, batch_size: Optional[int] = None, progress: bool = False):
        self.cache = cache
        self.batch_size = batch_size or self.default_batch_size
        self.progress = progress
        self.cache_hits = 0
        self.computed = 0
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
        store = self.store
        result: dict[str, str] = {}
        todo: list[str] = []
        for d in dict.fromkeys(docs):
            if not d.strip():
                result[d] = ""
                continue
            hit = store.get(d, MISSING) if store is not None else MISSING
            if hit is MISSING:
                todo.append(d)
            else:
                result[d] = hit
                self.cache_hits += 1
        with progress(len(todo), f"summarize ({self.name})", "doc", self.progress) as bar:
            for start in range(0, len(todo), self.batch_size):
                batch = todo[start : start + self.batch_size]
                out = list(self._summarize_batch(batch))
                if len(out) != len(batch) or not all(isinstance(s, str) for s in out):
                    raise ModelError(f"{self.name}: {len(batch)} document(s) in, {len(out)} summaries out")
                if store is not None:
                    store.put_many(zip(batch, out))
                result.update(zip(batch, out))
                self.computed += len(batch)
                bar.update(len(batch))
        return [result[d] for d in docs]

    def _summarize_batch(self, docs: list[str]) -> list[str]:
        raise NotImplementedError
