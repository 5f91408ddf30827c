"""The ``Translator`` face: public :meth:`Translator.translate` does de-duplication, caching and
batching; each adapter implements only :meth:`Translator._translate_batch`."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ..cache import MISSING, Cache
from ..errors import ResponseMismatchError, TranslationError
from ..progress import progress

log = logging.getLogger("sit.translators")


@dataclass
class TranslatorStats:
    calls: int = 0  # batches sent to the backend
    translated: int = 0  # texts the backend translated
    cache_hits: int = 0  # texts answered from the cache
    failed: int = 0  # texts left untranslated (non-strict mode)
    errors: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "translated": self.translated,
            "cache_hits": self.cache_hits,
            "failed": self.failed,
            "errors": list(self.errors),
        }


class Translator:
    """Base class of every translator adapter.

    Subclasses set ``name`` and ``default_batch_size``, may override :meth:`model_id` and
    :meth:`version`, and implement :meth:`_translate_batch` (a list of non-empty texts in, the same
    number of translations out, in order).
    """

    name: str = "base"
    default_batch_size: int = 32

    def __init__(
        self,
        source_lang: str = "en",
        target_lang: str = "es",
        *,
        model: Optional[str] = None,
        cache: Optional[Cache] = None,
        batch_size: Optional[int] = None,
        progress: bool = False,
        qps: Optional[float] = None,
        timeout: Optional[float] = None,
    ):
        # qps (requests per second) and timeout (seconds per request) matter to network adapters;
        # local adapters accept and ignore them so the pipeline can pass one set of options.
        self.qps = qps
        self.timeout = timeout
        self.source_lang = source_lang
        self.target_lang = target_lang
        self.model = model
        self.cache = cache
        self.batch_size = batch_size or self.default_batch_size
        self.progress = progress
        self.stats = TranslatorStats()
        self._store = None

    # -- identity ------------------------------------------------------------------------------
    def model_id(self) -> str:
        """The model or engine this adapter translates with (recorded in signatures and cache keys)."""
        return self.model or self.name

    def version(self) -> str:
        """A version of the engine/model, so that an upgrade does not reuse stale cache entries."""
        return ""

    def signature(self) -> dict[str, str]:
        return {
            "name": self.name,
            "model": self.model_id(),
            "version": self.version(),
            "source_lang": self.source_lang,
            "target_lang": self.target_lang,
        }

    @property
    def store(self):
        if self._store is None and self.cache is not None:
            self._store = self.cache.store("translations", self.signature())
        return self._store

    # -- the public face -----------------------------------------------------------------------
    def translate(self, texts: Sequence[str], *, strict: bool = True) -> list[Optional[str]]:
        """Translate ``texts`` in order.

        Identical texts are translated once; cached texts cost no backend call; each finished
        batch is written to the cache before the next one is sent. With ``strict=False`` a
        :class:`TranslationError` stops the work but does not propagate: the texts left
        untranslated come back as ``None`` and are counted in :attr:`stats`.
        """
        texts = list(texts)
        store = self.store
        result: dict[str, Optional[str]] = {}
        todo: list[str] = []
        for text in dict.fromkeys(texts):
            if not text.strip():
                result[text] = text
                continue
            hit = store.get(text, MISSING) if store is not None else MISSING
            if hit is MISSING:
                todo.append(text)
            else:
                result[text] = hit
                self.stats.cache_hits += 1
        batches = [todo[i : i + self.batch_size] for i in range(0, len(todo), self.batch_size)]
        with progress(len(todo), f"translate ({self.name})", "text", self.progress) as bar:
            for n, batch in enumerate(batches):
                try:
                    out = self._translate_batch(batch)
                except TranslationError as exc:
                    # keep what the failing batch already paid for: a resumed run must not ask again
                    sent = set(batch)
                    partial = {k: v for k, v in exc.partial.items() if k in sent and isinstance(v, str)}
                    if partial:
                        if store is not None:
                            store.put_many(partial.items())
                        result.update(partial)
                        self.stats.translated += len(partial)
                    left = sum(len(b) for b in batches[n:]) - len(partial)
                    if strict:
                        raise
                    self.stats.failed += left
                    self.stats.errors.append(str(exc))
                    log.warning("%s; %d text(s) left untranslated", exc, left)
                    break
                self.stats.calls += 1
                out = list(out)
                if len(out) != len(batch) or not all(isinstance(t, str) for t in out):
                    raise ResponseMismatchError(
                        f"{self.name}: batch {n + 1} of {len(batches)} sent {len(batch)} text(s) "
                        f"and got {len(out)} translation(s) back",
                        translator=self.name,
                    )
                if store is not None:
                    store.put_many(zip(batch, out))
                result.update(zip(batch, out))
                self.stats.translated += len(batch)
                bar.update(len(batch))
        return [result.get(t) for t in texts]

    # -- the adapter hook ----------------------------------------------------------------------
    def _translate_batch(self, texts: list[str]) -> list[str]:
        raise NotImplementedError

    def close(self) -> None:
        """Release models, sessions or processes."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
