"""The local engine: every batch runs in this process (sit's default), the model stages one at a
time; with ``jobs`` of 2 or more, one more stage runs in a background thread meanwhile (a run
translates what the perturber has finished while it perturbs the next batch, where the
translator's output does not depend on its batch)."""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Optional


class LocalEngine:
    name = "local"
    #: stages keep running their hooks in process (see :func:`sit.batching.remote`)
    remote = False

    def __init__(self, *, address: Optional[str] = None, gpus_per_worker: float = 0.0,
                 workers: Optional[int] = None, jobs: Optional[int] = None):
        from ..errors import ConfigError
        from ..validate import check_number

        if address or gpus_per_worker or workers:
            raise ConfigError("--ray-address, --gpus-per-worker and --workers need --engine ray")
        self.jobs = check_number(jobs, "--jobs", minimum=1, integer=True) or os.cpu_count() or 1
        self._pool: Optional[ThreadPoolExecutor] = None

    def attach(self, stage: Any) -> Any:
        return stage

    def background(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        """``fn(*args, **kwargs)`` in the background thread (calls run one after the other, in
        the order given). A run asks for it only where ``jobs`` is 2 or more."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sit-background")
        return self._pool.submit(fn, *args, **kwargs)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "jobs": self.jobs}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
