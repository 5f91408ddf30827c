"""The ``Stage`` base of every cached, batched face (translators, perturbers, parsers,
summarizers): a name, a model id and version, options, the signature that names its cache
namespace, its store, its counters, and the one cached batch loop (:func:`sit.batching.cached_batches`)
wired in one place (:meth:`Stage.batch_job`). A face adds its public method (``translate``,
``perturb``, ``parse``, ``summarize``) over a private hook, and says how its values look in the
cache (``valid``, ``encode``, ``decode`` given to :meth:`Stage.batch_job`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from .batching import BatchJob, BatchStats, Counted, remote
from .errors import ModelError
from .records import Need  # noqa: F401 (a record; stage.Need is its old home)

#: the weight files a local model directory is stamped by (transformers, CTranslate2)
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin", "model.bin")


def weights_stamp(model: Any) -> str:
    """``mtime-<seconds>`` of the weights of ``model`` where it is a local directory (a model
    retrained in place then keys a new cache namespace), else ``""`` (a hub id: its name is its
    version). The one way every stage fingerprints a local model."""
    path = Path(str(model)).expanduser()
    for name in WEIGHT_FILES:
        if (path / name).exists():
            return f"mtime-{int((path / name).stat().st_mtime)}"
    return ""


class Declares:
    """What a component (a stage, a relation) declares of the models and data it loads, so that
    ``sit download`` and the run's missing-model check read them from the component itself."""

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list[Need]:
        """The models and data an instance built for these languages (and ``model``: its
        ``--model``, ``--mlm-model`` or ``--parser-model``) would load, each with where it would
        load from; worked out without building it or loading anything. None by default."""
        return []

    @classmethod
    def fetch(cls, need: Need, source_lang: str, target_lang: str, model: Optional[str] = None) -> str:
        """Fetch ``need`` (one of :meth:`needs`'s) where a run loads it from; where its files are.
        By default the kinds sit knows how to fetch (:func:`sit.models.downloads.fetch_data`); a stage
        whose model loads through its own code overrides this and loads it."""
        from .models import fetch_data

        return fetch_data(need)


def declares_needs(component: type) -> bool:
    """Whether ``component`` declares models or data of its own (overrides :meth:`Declares.needs`)."""
    return getattr(component.needs, "__func__", None) is not Declares.needs.__func__


class Stage(Declares, Counted):
    """One cached, batched stage. Subclasses set :attr:`name`, :attr:`kind` (the cache's kind of
    entry), :attr:`verb` and :attr:`unit` (the progress bar: ``parse (spacy)``, 12 text/s) and
    fill the hooks their face names."""

    name: str = "base"
    #: the cache's kind of entry this stage's values are stored as (``translations``, ``parses`` ...)
    kind: str = ""
    verb: str = "work"
    unit: str = "item"
    batch_size: int = 32

    def __init__(self, *, cache=None, progress: bool = False):
        self.cache = cache
        self.progress = progress
        self.stats = BatchStats()
        self._store = None

    def model_id(self) -> str:
        """The model or engine of this stage (recorded in signatures and cache keys)."""
        return self.name

    def close(self) -> None:
        """Release models, sessions or processes (a stage that holds none has nothing to do)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def version(self) -> str:
        """A version of the engine or model, so that an upgrade does not reuse stale entries."""
        return ""

    def options(self) -> dict[str, Any]:
        """Every option that changes the output (recorded in signatures and cache keys)."""
        return {}

    def signature(self) -> dict[str, Any]:
        """The namespace of this stage's cache entries (each face keeps the shape its caches
        were written with, so that nothing already cached is lost)."""
        return {"name": self.name, "model": self.model_id(), "version": self.version(), "options": self.options()}

    def describe(self) -> str:
        """Why this stage (and model) was chosen, for the run summary."""
        return self.name

    @property
    def store(self):
        """This stage's namespace of the cache (None without a cache), opened once."""
        if self._store is None and self.cache is not None:
            self._store = self.cache.store(self.kind, self.signature())
        return self._store

    def batch_job(self, hook: str, *, valid: Callable[[Any], bool], **how: Any) -> BatchJob:
        """The :class:`~sit.batching.BatchJob` that runs this stage's private ``hook`` (a method
        name: an engine's worker calls it by name) through the cache, in batches, with the
        stage's counters and progress bar; ``how`` adds what the face needs (``encode``,
        ``decode``, ``finish``, ``recoverable`` ...)."""
        return BatchJob(compute=getattr(self, hook), mismatch=self._mismatch, stats=self.stats, store=self.store,
                        batch_size=self.batch_size, desc=f"{self.verb} ({self.name})", unit=self.unit,
                        show_progress=self.progress, valid=valid, remote=remote(self, hook), **how)

    def _mismatch(self, n: int, total: int, sent: int, got: int) -> Exception:
        return ModelError(f"{self.name}: batch {n} of {total}: {sent} {self.unit}(s) in, {got} answer(s) out")
