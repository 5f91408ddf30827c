"""Engines: where the batched model stages of a run (perturb, translate, parse) do their work.

``local`` (the default) runs every batch in this process. ``ray`` sends the batches the cache
lacks to a Ray cluster (Ray Data batch inference over actor pools) and takes the answers back,
batch by batch and in order, into the one cached batch loop (:mod:`sit.batching`), so the
results do not depend on the engine. Looked up by name without importing Ray.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any, Callable, Optional, Protocol, runtime_checkable

from .. import hints
from ..registry import Entry, Registry

RAY_INSTALL_HINT = hints.RAY


@runtime_checkable
class Engine(Protocol):
    """What the conductor asks of an engine (``local`` and ``ray`` both implement it)."""

    name: str
    #: whether stages send their batches to the engine (:func:`sit.batching.remote`)
    remote: bool
    #: how many stages may run at once in this process (2 or more: the run overlaps stages)
    jobs: int

    def attach(self, stage: Any) -> Any:
        """Make ``stage`` (a translator, perturber or parser) run its batches on this engine."""

    def background(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
        """Run ``fn`` beside the caller; its result through the future."""

    def describe(self) -> dict[str, Any]:
        """What ``run.json`` records of the engine."""

    def close(self) -> None:
        """Give back what the engine started."""


ENGINES = Registry(
    "engine",
    {
        "local": Entry("sit.engine.local:LocalEngine", "", "every batch in this process (default)"),
        "ray": Entry("sit.engine.ray:RayEngine", RAY_INSTALL_HINT,
                     "batches on a Ray cluster (--ray-address or RAY_ADDRESS, else a local instance)"),
    },
    group="sit.engines",
)


def create_engine(name: str = "local", *, address: Optional[str] = None, gpus_per_worker: float = 0.0,
                  workers: Optional[int] = None, jobs: Optional[int] = None) -> Engine:
    """The engine called ``name``; an unknown name, or ``ray`` without Ray installed, is a
    one-line error (with the install command)."""
    return ENGINES.get(name)(address=address, gpus_per_worker=gpus_per_worker, workers=workers, jobs=jobs)


__all__ = ["ENGINES", "Engine", "RAY_INSTALL_HINT", "create_engine"]
