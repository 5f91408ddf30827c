"""The Ray engine: a stage's batches run as Ray Data batch inference on a Ray cluster.

For each stage that has work the cache lacks, :meth:`RayEngine.run` builds one streaming
``map_batches`` over an actor pool: each row is one of sit's batches (pickled keys), each actor
rebuilds the stage once from its :class:`~sit.registry.Factory` (one model per actor, no cache)
and answers rows with the stage's hook. Rows come back in order (``preserve_order``) and as they
finish, to the driver's batch loop (:func:`sit.batching.cached_batches`), which writes each batch
to the cache: the driver stays the one writer, and a run killed half-way resumes from it.

- Workers: one CPU each, or ``--gpus-per-worker`` GPUs for stages that run a model on torch
  (``uses_gpu``); the pool is as large as the cluster holds (or ``--workers``), never more actors
  than batches; each actor takes one batch at a time.
- Faults: an actor that dies is restarted and its batch retried (``max_restarts``,
  ``max_task_retries``); a batch that kills its worker every time ends the stage's work with a
  :class:`~sit.errors.WorkerLostError` (a translator leaves the texts untranslated, as with any
  translator error). An exception the hook raises travels back to the driver as it is.
- Network translators (a stage with a rate ``limiter`` and a ``qps``): every worker takes its
  turns from one :class:`TokenBucket` actor, so ``--qps`` holds for the whole cluster.
"""

from __future__ import annotations

import logging
import os
import pickle
import time
import warnings
from typing import Any, Iterator, Optional

import ray

from ..errors import ConfigError, SitError, WorkerLostError
from ..validate import check_number

log = logging.getLogger("sit.engine")

#: how often Ray restarts a dead actor of a stage, and retries the batch it was running
RETRIES = 3


class RayEngine:
    name = "ray"
    #: stages send their batches here (see :func:`sit.batching.remote`)
    remote = True
    #: the driver runs its stages one after the other; the cluster gives the parallelism
    jobs = 1

    def __init__(self, *, address: Optional[str] = None, gpus_per_worker: float = 0.0,
                 workers: Optional[int] = None, jobs: Optional[int] = None, retries: int = RETRIES):
        if jobs is not None:
            raise ConfigError("--jobs is for --engine local; the cluster's size sets the parallelism of --engine ray "
                              "(--workers)")
        self.retries = check_number(retries, "retries", minimum=0, integer=True)
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.gpus_per_worker = check_number(gpus_per_worker, "--gpus-per-worker", minimum=0) or 0.0
        self.workers = check_number(workers, "--workers", minimum=1, integer=True)
        self._started = False  # whether this engine started Ray in this process (and stops it)
        self._buckets: dict[int, Any] = {}

    def background(self, fn, *args, **kwargs):
        """Run ``fn`` now, in the driver (the run asks for the background only where ``jobs`` > 1)."""
        from concurrent.futures import Future

        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "address": self.address or "local", "gpus_per_worker": self.gpus_per_worker,
                "workers": self.workers or "cluster"}

    def attach(self, stage: Any) -> Any:
        """Let ``stage`` send its batches to this engine (the stage does not know)."""
        stage.engine = self
        return stage

    # -- the cluster -----------------------------------------------------------------------------
    def start(self) -> None:
        """Connect to the cluster (``--ray-address``, ``RAY_ADDRESS``), else to one ``ray start``
        ran on this machine, else start a local Ray (``local`` always starts one); done on the
        first batch that is not cached, so a re-run from the cache starts nothing."""
        if ray.is_initialized():
            return
        try:
            ray.init(address=self.address, logging_level=logging.WARNING, log_to_driver=False,
                     include_dashboard=False, configure_logging=True)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = self.address or "a local instance"
            raise ConfigError(f"cannot start Ray ({where}): {str(exc).splitlines()[0][:200]}; check --ray-address "
                              "or RAY_ADDRESS (`ray status` on the head node), or leave both unset to start "
                              "a local instance") from exc
        self._started = True

    def close(self) -> None:
        """Stop the local Ray this engine started (a cluster it connected to keeps running)."""
        if self._started and ray.is_initialized():
            ray.shutdown()
        self._started = False

    def pool_size(self, stage: Any, batches: int) -> int:
        """Actors for a stage: ``--workers``, else as many as the cluster's CPUs (or GPUs, for a
        stage on GPUs) hold; never more than there are batches."""
        gpus = self.gpus_for(stage)
        resources = ray.cluster_resources()
        if gpus:
            if resources.get("GPU", 0) < gpus:
                raise ConfigError(f"--gpus-per-worker {gpus:g}: the Ray cluster has {resources.get('GPU', 0):g} "
                                  "GPU(s); lower it, or 0 to run the models on CPUs")
            fits = int(resources["GPU"] // gpus)
        else:
            fits = int(resources.get("CPU", 1))
        return max(1, min(self.workers or fits, batches))

    def gpus_for(self, stage: Any) -> float:
        return self.gpus_per_worker if getattr(stage, "uses_gpu", False) else 0.0

    def setup_for(self, stage: Any) -> dict[str, Any]:
        """Attributes set on the stage rebuilt in each worker: the cluster-wide rate limiter of a
        network translator."""
        qps = getattr(getattr(stage, "limiter", None), "qps", None)
        if not qps:
            return {}
        if id(stage) not in self._buckets:
            self._buckets[id(stage)] = TokenBucket.remote(qps)
        return {"limiter": ClusterLimiter(self._buckets[id(stage)], qps)}

    # -- the work ----------------------------------------------------------------------------------
    def run(self, remote, batches: list[list]) -> Iterator[Any]:
        """Each batch's value (or the exception its hook raised), in the order of ``batches``,
        as the workers finish them (Ray starts the work when the first answer is read)."""
        self.start()
        import ray.data

        stage = remote.stage
        ds = ray.data.from_items([{"n": n, "payload": pickle.dumps(b)} for n, b in enumerate(batches)],
                                 override_num_blocks=len(batches))
        ds.context.execution_options.preserve_order = True
        ds.context.enable_progress_bars = False
        ds.context.max_errored_blocks = len(batches)  # a lost batch ends the stage here, after those before it
        size = self.pool_size(stage, len(batches))
        with warnings.catch_warnings():  # max_restarts/max_task_retries go through ray_remote_args
            warnings.simplefilter("ignore")
            ds = ds.map_batches(
                StageWorker, batch_size=1, batch_format="numpy",
                fn_constructor_kwargs={"factory": remote.factory, "method": remote.method,
                                       "setup": self.setup_for(stage)},
                # a fixed pool (Ray Data's autoscaler does not grow a pool of one task per actor), one
                # batch at a time per actor: a worker that dies takes no other batch down with it
                compute=ray.data.ActorPoolStrategy(size=size, max_tasks_in_flight_per_actor=1),
                num_cpus=1, num_gpus=self.gpus_for(stage) or None,
                max_restarts=self.retries, max_task_retries=self.retries,
            )
        log.debug("ray: %d batch(es) of %s on %d worker(s)", len(batches), remote.factory.target, size)
        return self._answers(ds, remote, len(batches))

    def _answers(self, ds, remote, total: int) -> Iterator[Any]:
        rows = ds.iter_rows()
        expected = 0
        try:
            for row in rows:
                if row["n"] != expected:  # a batch lost after its retries (an errored block), skipped by Ray
                    break
                expected += 1
                yield pickle.loads(row["answer"])[1]
        except ray.exceptions.RayError as exc:
            yield self._lost(remote, expected, total, _first_line(exc))
            return
        finally:
            close = getattr(rows, "close", None)
            if close is not None:
                close()
        if expected < total:
            yield self._lost(remote, expected, total, "its worker died on every try")

    def _lost(self, remote, n: int, total: int, why: str) -> WorkerLostError:
        return WorkerLostError(f"{remote.factory.target.rpartition(':')[2]}: batch {n + 1} of {total} failed on "
                               f"every Ray worker that ran it ({why}); run the same command again to resume")


def _first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return f"{type(exc).__name__}: {lines[0][:200] if lines else ''}"


class StageWorker:
    """One actor of a stage's pool: rebuilds the stage once, on its first batch, and answers each
    row (one of sit's batches) with ``("ok", value)`` or ``("error", exception)``, pickled."""

    def __init__(self, factory, method: str, setup: dict):
        self.factory, self.method, self.setup = factory, method, setup
        self.stage = None

    def __call__(self, batch: dict) -> dict:
        return {"n": batch["n"], "answer": [self.answer(pickle.loads(p)) for p in batch["payload"]]}

    def answer(self, keys: list) -> bytes:
        try:
            if self.stage is None:
                stage = self.factory.build()
                for name, value in self.setup.items():
                    setattr(stage, name, value)
                self.stage = stage
            result = ("ok", getattr(self.stage, self.method)(keys))
        except Exception as exc:  # noqa: BLE001 - the driver decides, as it would in process
            result = ("error", exc)
        try:
            return pickle.dumps(result)
        except Exception as exc:  # an answer or exception that does not pickle
            return pickle.dumps(("error", SitError(f"{self.factory.target}: {type(exc).__name__}: {exc}")))


@ray.remote(num_cpus=0)
class TokenBucket:
    """The one rate limit of a network translator across the cluster: :meth:`reserve` books the
    next free slot (at most ``qps`` a second) and says how long the caller waits for it."""

    def __init__(self, qps: float):
        from ..translators.http import RateLimiter

        self.limiter = RateLimiter(qps, sleep=lambda seconds: None)

    def reserve(self) -> float:
        slot = self.limiter.acquire()
        return max(0.0, slot - time.monotonic())


class ClusterLimiter:
    """A worker's view of the cluster's :class:`TokenBucket`: the same ``acquire`` as
    :class:`sit.translators.http.RateLimiter`, so the translator does not know."""

    def __init__(self, bucket, qps: float):
        self.bucket = bucket
        self.qps = qps

    def acquire(self) -> float:
        wait = ray.get(self.bucket.reserve.remote())
        if wait > 0:
            time.sleep(wait)
        return time.monotonic()
