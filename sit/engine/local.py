"""The local engine: every batch runs in this process, one at a time (sit's default)."""

from __future__ import annotations

from typing import Any, Optional


class LocalEngine:
    name = "local"
    #: stages keep running their hooks in process (see :func:`sit.batching.remote`)
    remote = False

    def __init__(self, *, address: Optional[str] = None, gpus_per_worker: float = 0.0,
                 workers: Optional[int] = None):
        if address or gpus_per_worker or workers:
            from ..errors import ConfigError

            raise ConfigError("--ray-address, --gpus-per-worker and --workers need --engine ray")

    def attach(self, stage: Any) -> Any:
        return stage

    def describe(self) -> dict[str, Any]:
        return {"name": self.name}

    def close(self) -> None:
        pass
