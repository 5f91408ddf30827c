"""The ``Summarizer`` face: public :meth:`Summarizer.summarize` de-duplicates, caches (through
:mod:`sit.cache`, like translations) and batches; each implementation provides
:meth:`Summarizer._summarize_batch`."""

from __future__ import annotations

from typing import Optional, Sequence

from ..batching import cached_batches
from ..cache import Cache
from ..errors import ModelError
from ..stage import Stage
from ..validate import check_number


class Summarizer(Stage):
    name: str = "base"
    kind = "summaries"
    verb = "summarize"
    unit = "doc"
    default_batch_size: int = 8

    def __init__(self, *, cache: Optional[Cache] = None, batch_size: Optional[int] = None, progress: bool = False):
        super().__init__(cache=cache, progress=progress)
        self.batch_size = check_number(batch_size, "--batch-size", minimum=1, integer=True) or self.default_batch_size

    def version(self) -> str:
        return "1"

    def summarize(self, docs: Sequence[str]) -> list[str]:
        """Summaries of ``docs`` in order; identical documents are summarized once, cached ones
        not at all, and each finished batch is in the cache before the next starts."""
        docs = list(docs)
        job = self.batch_job("_summarize_batch", valid=lambda s: isinstance(s, str))
        result = cached_batches([d for d in docs if d.strip()], job)
        return [result[d] if d.strip() else "" for d in docs]

    def _mismatch(self, n: int, total: int, sent: int, got: int) -> ModelError:
        return ModelError(f"{self.name}: batch {n} of {total}: {sent} document(s) in, {got} summaries out")

    def _summarize_batch(self, docs: list[str]) -> list[str]:
        raise NotImplementedError
