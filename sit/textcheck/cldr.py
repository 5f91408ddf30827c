"""CLDR data Babel does not carry, committed under ``sit/data/`` by the scripts that build it from
cldr-json (``scripts/cldr_min_grouping.py``, ``scripts/cldr_quotes.py``): each file keeps the
locales whose value differs from their truncated parent's, so a lookup tries the locale and then
its truncations (``es-MX``, ``es``), down to the file's default."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any


def by_locale(name: str, lang: str) -> Any:
    """The value of ``lang`` in ``sit/data/NAME.json``: the locale's own, else its nearest parent's,
    else the file's default (``lang`` as ``es_mx``, ``es-MX`` or ``zh-hant-tw``)."""
    table, default = _table(name)
    parts = [p for p in re.split(r"[-_]", lang) if p]
    parts = [parts[0].lower()] + [p.title() if len(p) == 4 else p.upper() for p in parts[1:]] if parts else []
    for n in range(len(parts), 0, -1):
        if "-".join(parts[:n]) in table:
            return table["-".join(parts[:n])]
    return default


@lru_cache(maxsize=8)
def _table(name: str) -> tuple[dict[str, Any], Any]:
    # a committed CLDR table, read once (read-only data of the package)
    import json
    from importlib.resources import files

    package = __package__.rpartition(".")[0]  # sit
    doc = json.loads(files(package).joinpath("data", f"{name}.json").read_text(encoding="utf-8"))
    return doc["locales"], doc["default"]
