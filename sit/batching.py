"""The cached batch loop behind every batched stage (translate, parse, perturb, summarize).

:func:`cached_batches` looks each key up in the cache, sends the keys it lacks through a hook in
batches, checks each batch's answer (one valid value per key sent), writes each finished batch to
the cache before the next one starts (a kill loses at most the batch in flight), counts in one
:class:`BatchStats` and drives the progress bar.

Where the hook runs is the engine's business (:mod:`sit.engine`): without one, in this process;
with one (``BatchJob.remote``), the batches the cache lacks go out to workers that rebuild the
stage from its :class:`~sit.registry.Factory`, and their answers come back in order, batch by
batch, to this loop, which stays the only writer of the cache. The stage does not know.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Optional, Sequence

from .cache import MISSING, Store
from .cache.claims import POLL, Claims
from .progress import progress

log = logging.getLogger("sit.batching")


@dataclass
class BatchStats:
    """What a batched stage did: the same counters for every stage."""

    calls: int = 0  # batches sent to the hook (a model or a backend)
    computed: int = 0  # items the hook answered
    cache_hits: int = 0  # items answered from the cache
    failed: int = 0  # items left without an answer (non-strict mode)
    errors: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "computed": self.computed,
            "cache_hits": self.cache_hits,
            "failed": self.failed,
            "errors": list(self.errors),
        }


class Counted:
    """A stage that counts in :attr:`stats` (a :class:`BatchStats`), with the two counters
    callers read directly."""

    stats: BatchStats

    @property
    def cache_hits(self) -> int:
        return self.stats.cache_hits

    @property
    def computed(self) -> int:
        return self.stats.computed


def _same(value: Any) -> Any:
    return value


@dataclass
class Remote:
    """How an engine runs a stage's hook elsewhere: ``factory`` rebuilds ``stage`` (without its
    cache) in a worker, whose ``method`` answers each batch. ``engine.run(remote, batches)``
    yields, in the order of ``batches``, each batch's value or the exception its hook raised."""

    engine: Any
    factory: Any  # sit.registry.Factory
    method: str
    stage: Any  # the driver's instance (what the engine may need to know of it, such as its qps)


def remote(stage: Any, method: str) -> Optional[Remote]:
    """The :class:`Remote` of ``stage``'s hook ``method`` where an engine that runs stages
    elsewhere is attached to it (``stage.engine``) and the stage can be rebuilt
    (``stage.factory``, set by :meth:`sit.registry.Registry.create`); else None (in process)."""
    engine, factory = getattr(stage, "engine", None), getattr(stage, "factory", None)
    if engine is None or factory is None or not getattr(engine, "remote", False):
        return None
    return Remote(engine, factory, method, stage)


@dataclass
class BatchJob:
    """How one stage runs its batches.

    ``compute`` answers a list of keys with one value per key, in order. ``valid`` says whether
    a value is acceptable; ``mismatch(batch_no, batches, sent, got)`` builds the exception raised
    when a batch's answer is not one valid value per key. Exceptions of the types in
    ``recoverable`` (a ``partial`` dict on them holds the values the batch finished) stop the
    work; with ``strict`` they propagate after the partial values are saved, otherwise the keys
    left are counted as failed and the error is logged and recorded in :attr:`BatchStats.errors`.
    ``encode``/``decode`` turn values into JSON for the cache and back. ``finish(keys, value)``,
    run here on what ``compute`` (or the remote hook) returned for a batch, gives the batch's
    answer (a stage whose hook also returns side figures keeps them with it). With ``remote`` the
    batches are answered by its engine instead of ``compute``.

    With ``unanswered`` set, ``compute`` may answer ``None`` for a key it could not answer (an
    empty or refused LLM answer): the other values of the batch are saved, that key is not cached
    (a re-run asks again), and ``unanswered(keys)`` builds the error that is raised (``strict``)
    or recorded while the work goes on (or returns None where the stage will ask again itself).
    """

    compute: Callable[[list], Sequence[Any]]
    mismatch: Callable[[int, int, int, int], Exception]
    stats: BatchStats
    store: Optional[Store] = None
    batch_size: int = 32
    desc: str = "work"
    unit: str = "item"
    show_progress: bool = False
    valid: Callable[[Any], bool] = lambda value: True
    encode: Callable[[Any], Any] = _same
    decode: Callable[[Any], Any] = _same
    recoverable: tuple[type[BaseException], ...] = ()
    strict: bool = True
    finish: Optional[Callable[[list, Any], Any]] = None
    remote: Optional[Remote] = None
    unanswered: Optional[Callable[[list], Exception]] = None
    #: whether a valid value is written to the cache (a perturber's empty list is not: see
    #: :data:`sit.cache.VALUE_CHECKS`); one that is not is computed again next time
    cacheable: Callable[[Any], bool] = lambda value: True
    #: called with the keys and values of the cache hits (once, before any work) and then of each
    #: finished batch, in order, so a caller can start its next stage on them meanwhile
    on_batch: Optional[Callable[[list, list], None]] = None
    #: whether the keys to compute are claimed in the cache first, so that another run sharing
    #: it waits for them rather than computing them again (:mod:`sit.cache.claims`): for stages
    #: whose answers cost money or minutes (the translators)
    claim: bool = False
    #: how the keys to compute are cut into batches (None: in order, ``batch_size`` at a time); a
    #: translator whose batches are order-checked spreads near copies apart
    #: (:meth:`sit.translators.base.Translator._plan`)
    plan: Optional[Callable[[list], Optional[list]]] = None


#: keys read from the cache at a time (:func:`cached_batches`)
READ_CHUNK = 500


def cached_batches(keys: Sequence[Hashable], job: BatchJob) -> dict:
    """The value of each distinct key: from the cache, else from ``job.compute`` in batches.

    Keys left without a value (a recoverable error under ``strict=False``) are absent from the
    result. Each finished batch is in the cache before the next batch starts. With ``job.claim``
    the keys another run sharing the cache is computing are waited for, not computed again
    (:mod:`sit.cache.claims`)."""
    distinct = list(dict.fromkeys(keys))
    result: dict = {}
    for start in range(0, len(distinct) if job.store is not None else 0, READ_CHUNK):
        # read and decode a chunk at a time: a chunk's cached JSON is let go once decoded, so the
        # whole input's JSON is never held beside its decoded values
        part = distinct[start:start + READ_CHUNK]
        hits = job.store.get_many(part)
        result.update((key, value) for key in part if key in hits and (value := _decoded(job, hits[key])) is not MISSING)
    job.stats.cache_hits += len(result)
    todo: list = [key for key in distinct if key not in result]
    if job.on_batch is not None and result:
        job.on_batch(list(result), list(result.values()))
    claims = Claims(job.store) if job.claim and job.store is not None and todo else None
    waiting: list = []
    if claims is not None:
        todo, waiting = claims.claim(todo)
    try:
        if _compute(job, todo, result, claims) and waiting:
            _await(job, waiting, result, claims)
        elif waiting:
            job.stats.failed += len(waiting)
    finally:
        if claims is not None:
            claims.release_all()
    return result


def _compute(job: BatchJob, todo: list, result: dict, claims: Optional[Claims]) -> bool:
    """Compute ``todo`` in batches into ``result`` (and the cache); False when a recoverable error
    stopped the work (``strict=False``: the keys left are counted as failed)."""
    batches = (job.plan(todo) if job.plan is not None else None) or [
        todo[i : i + job.batch_size] for i in range(0, len(todo), job.batch_size)]
    # an engine answers the batches in order, as its workers finish them; else each is computed
    # here when its turn comes
    answers = job.remote.engine.run(job.remote, batches) if job.remote is not None and batches else None
    with progress(len(todo), job.desc, job.unit, job.show_progress) as bar:
        for n, batch in enumerate(batches):
            try:
                value = next(answers) if answers is not None else job.compute(batch)
                out = _check(job, batch, value, n, len(batches))
            except job.recoverable as exc:
                sent = set(batch)
                partial = getattr(exc, "partial", None) or {}
                _save(job, result, [(k, v) for k, v in partial.items() if k in sent and job.valid(v)])
                left = sum(1 for k in todo if k not in result)
                if job.strict:
                    raise
                job.stats.failed += left
                job.stats.errors.append(str(exc))
                log.warning("%s; %d %s(s) left without an answer", exc, left, job.unit)
                return False
            done = [(k, v) for k, v in zip(batch, out) if v is not None]
            _save(job, result, done)
            if claims is not None:
                claims.release(batch)
            if job.on_batch is not None and done:
                job.on_batch([k for k, _ in done], [v for _, v in done])
            bar.update(len(batch))
            missing = [k for k, v in zip(batch, out) if v is None]
            if missing:
                _unanswered(job, missing)
    return True


def _await(job: BatchJob, waiting: list, result: dict, claims: Claims) -> None:
    """Wait for the keys other runs hold, reading each from the cache as it arrives; a key whose
    claim was released without a value, or went stale, is claimed and computed here."""
    log.info("%s: %d %s(s) are being computed by another run sharing the cache; waiting for them",
             job.desc, len(waiting), job.unit)
    while waiting:
        found = job.store.get_many(waiting)  # type: ignore[union-attr]
        arrived = {k: v for k in waiting if k in found and (v := _decoded(job, found[k])) is not MISSING}
        if arrived:
            result.update(arrived)
            job.stats.cache_hits += len(arrived)
            if job.on_batch is not None:
                job.on_batch(list(arrived), list(arrived.values()))
        mine, waiting = claims.claim([k for k in waiting if k not in arrived])
        if mine and not _compute(job, mine, result, claims):
            job.stats.failed += len(waiting)
            return
        waiting = [k for k in waiting if k not in result]
        if waiting and not mine:
            time.sleep(POLL)


def _decoded(job: BatchJob, hit: Any) -> Any:
    """A cached value decoded, or MISSING where it fails the check a computed value must pass (a
    cache written by an older sit, or damaged by hand, may hold an empty translation or a tree
    of the wrong shape): it is computed again."""
    try:
        value = job.decode(hit)
        if job.valid(value):
            return value
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        pass
    log.warning("%s: a cached value of the wrong type or shape is ignored and computed again", job.desc)
    return MISSING


def _unanswered(job: BatchJob, keys: list) -> None:
    exc = job.unanswered(keys)  # type: ignore[misc]
    if exc is None:  # the stage asks again itself (a translator's second pass)
        return
    if job.strict:
        raise exc
    job.stats.failed += len(keys)
    job.stats.errors.append(str(exc))
    log.warning("%s", exc)


def _check(job: BatchJob, batch: list, value: Any, n: int, total: int) -> list:
    if isinstance(value, BaseException):
        raise value
    job.stats.calls += 1
    out = list(job.finish(batch, value) if job.finish is not None else value)
    allow_none = job.unanswered is not None
    if len(out) != len(batch) or not all((allow_none and v is None) or job.valid(v) for v in out):
        raise job.mismatch(n + 1, total, len(batch), len(out))
    return out


def _save(job: BatchJob, result: dict, pairs: list) -> None:
    if not pairs:
        return
    if job.store is not None:
        job.store.put_many((k, job.encode(v)) for k, v in pairs if job.cacheable(v))
    result.update(pairs)
    job.stats.computed += len(pairs)
