"""Stages the engine tests rebuild in Ray workers (importable there: the ray_cluster fixture puts
this directory on the workers' PYTHONPATH)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from sit.translators.apertium import ApertiumTranslator


class DyingApertium(ApertiumTranslator):
    """Real Apertium, except that the worker process translating a batch that holds ``die_on``
    kills itself (SIGKILL, mid-batch) the first ``times`` times; each death leaves a file
    ``death-<pid>`` in ``marker_dir``. It never kills the driver (the process that built it first)."""

    def __init__(self, *args, marker_dir: str, die_on: str, times: int = 1, driver_pid: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.marker_dir = Path(marker_dir)
        self.die_on = die_on
        self.times = times
        self.driver_pid = driver_pid

    def _translate_batch(self, texts: list[str]) -> list[str]:
        if self.die_on in texts and os.getpid() != self.driver_pid:
            if len(list(self.marker_dir.glob("death-*"))) < self.times:
                (self.marker_dir / f"death-{os.getpid()}").write_text("")
                os.kill(os.getpid(), signal.SIGKILL)
        return super()._translate_batch(texts)
