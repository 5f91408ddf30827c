"""The writer registry of :mod:`sit.formats`: format name -> its ``Format`` class, listed, not
imported (``sit/formats/<name>.py``, and the entry-point group ``sit.formats``). The reports and
comparisons look their writers up here by name; the writers, which render what the reports and
comparisons hold, sit above them (:mod:`sit.formats`), so nothing below imports up.
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

from .errors import ConfigError
from .registry import Entry, Registry

#: modules of sit/formats/ that are no format
_NOT_FORMATS = {"base"}


def _own_formats() -> dict[str, Entry]:
    """``sit/formats/<name>.py`` -> ``name``: its ``Format`` class (listed, not imported)."""
    return {m.name: Entry(f"sit.formats.{m.name}:Format")
            for m in pkgutil.iter_modules([str(Path(__file__).parent / "formats")])
            if m.name not in _NOT_FORMATS and not m.name.startswith("_")}


WRITERS = Registry("format", _own_formats(), group="sit.formats", base="sit.formats.base:Writer")


def writer(name: str, side: str):
    """The writer of format ``name`` for ``side`` (``"report"`` or ``"comparison"``); a format
    that does not write that side is a one-line ConfigError naming those that do."""
    if name not in WRITERS:
        raise ConfigError(f"unknown {side} format {name!r}; use one of: {', '.join(formats(side))}")
    found = WRITERS.get(name)()
    if not found.filename(side):
        raise ConfigError(f"the format {name!r} writes no {side}; use one of: {', '.join(formats(side))}")
    return found


def formats(side: str) -> list[str]:
    """The names of the formats that write ``side`` (each imported to read its file name; one
    that does not import is left out: :func:`writer` says why when it is named)."""
    out = []
    for name in WRITERS.names():
        try:
            if WRITERS.get(name)().filename(side):
                out.append(name)
        except ConfigError:
            continue
    return out


__all__ = ["WRITERS", "formats", "writer"]
