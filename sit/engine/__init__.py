"""Engines: where the batched model stages of a run (perturb, translate, parse) do their work.

``local`` (the default) runs every batch in this process. ``ray`` sends the batches the cache
lacks to a Ray cluster (Ray Data batch inference over actor pools) and takes the answers back,
batch by batch and in order, into the one cached batch loop (:mod:`sit.batching`), so the
results do not depend on the engine. Looked up by name without importing Ray.
"""

from __future__ import annotations

from typing import Optional

from .. import hints
from ..registry import Entry, Registry

RAY_INSTALL_HINT = hints.RAY

ENGINES = Registry(
    "engine",
    {
        "local": Entry("sit.engine.local:LocalEngine", "", "every batch in this process (default)"),
        "ray": Entry("sit.engine.ray:RayEngine", RAY_INSTALL_HINT,
                     "batches on a Ray cluster (--ray-address or RAY_ADDRESS, else a local instance)"),
    },
)


def create_engine(name: str = "local", *, address: Optional[str] = None, gpus_per_worker: float = 0.0,
                  workers: Optional[int] = None, jobs: Optional[int] = None):
    """The engine called ``name``; an unknown name, or ``ray`` without Ray installed, is a
    one-line error (with the install command)."""
    return ENGINES.get(name)(address=address, gpus_per_worker=gpus_per_worker, workers=workers, jobs=jobs)


__all__ = ["ENGINES", "RAY_INSTALL_HINT", "create_engine"]
