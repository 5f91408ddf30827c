"""Progress bars for long stages (tqdm, to stderr), or nothing when they are off."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass


@contextmanager
def progress(total: int, desc: str, unit: str, enabled: bool) -> Iterator:
    """A tqdm bar of ``total`` steps when ``enabled`` and there is work; else a bar that ignores
    updates. The bar is closed (and cleared) however the block ends."""
    if not enabled or not total:
        yield _NoBar()
        return
    from tqdm.auto import tqdm

    with tqdm(total=total, desc=desc, unit=unit, leave=False) as bar:
        yield bar
