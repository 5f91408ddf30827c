"""Output formats: one writer registry for ``sit report`` (and the reports ``sit run`` writes) and
``sit compare``, looked up by name like the translators.

A format is one :class:`~sit.formats.base.Writer`: :meth:`~sit.formats.base.Writer.report` renders
a run directory, :meth:`~sit.formats.base.Writer.comparison` a comparison of two; a format that does
only one of them leaves the other's file name empty. sit's own formats are the modules of this
package, each holding a class ``Format`` (``sit/formats/<name>.py``: a new module is a new format,
found without importing it); another package adds one through the entry-point group
``sit.formats`` (docs/plugins.md).
"""

from __future__ import annotations

import pkgutil
from pathlib import Path

from ..errors import ConfigError
from ..registry import Entry, Registry
from .base import Writer

#: modules of this package that are no format
_NOT_FORMATS = {"base"}


def _own_formats() -> dict[str, Entry]:
    """``sit/formats/<name>.py`` -> ``name``: its ``Format`` class (listed, not imported)."""
    return {m.name: Entry(f"{__name__}.{m.name}:Format") for m in pkgutil.iter_modules([str(Path(__file__).parent)])
            if m.name not in _NOT_FORMATS and not m.name.startswith("_")}


WRITERS = Registry("format", _own_formats(), group="sit.formats", base="sit.formats.base:Writer")


def writer(name: str, side: str) -> Writer:
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


__all__ = ["WRITERS", "Writer", "formats", "writer"]
