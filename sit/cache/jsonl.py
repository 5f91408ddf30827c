"""The JSONL format of sit's cache before SQLite, still its exchange format.

One file per store: ``<root>/<kind>/<label>-<hash>.jsonl``; the first line is the header
``{"namespace": {...}}`` (exports add ``"kind"``), every other line one entry
``{"k": <key>, "v": <value>}``. :mod:`sit.cache` imports such files on first use (the files of
earlier versions) and with ``sit cache import``, and writes them with ``sit cache export``.
Files are streamed line by line, never read whole.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Optional

from ..jsonio import MAX_BYTES, JsonDamage, loads
from ..records import stable_hash


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:60] or "store"


def label(namespace: Mapping[str, Any]) -> str:
    """The readable part of a store's file name: its name and model."""
    return "-".join(slug(str(namespace[k])) for k in ("name", "model") if k in namespace) or "store"


def file_name(namespace: Mapping[str, Any]) -> str:
    """``<label>-<hash>.jsonl``, the name earlier versions gave a store's file."""
    return f"{label(namespace)}-{stable_hash(dict(namespace))}.jsonl"


def header(namespace: Mapping[str, Any], kind: Optional[str] = None) -> bytes:
    head = {"namespace": dict(namespace), **({"kind": kind} if kind else {})}
    return (json.dumps(head, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def line(key: str, value: Any) -> bytes:
    """One entry's line; text UTF-8 cannot carry (lone surrogates) is written as ``\\udXXX`` escapes."""
    text = json.dumps({"k": key, "v": value}, ensure_ascii=False)
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps({"k": key, "v": value}) + "\n").encode("ascii")


@dataclass
class Reading:
    """What reading one file found besides its entries."""

    path: Path
    head: Optional[dict] = None  # the header line, when it parses
    bad: list[int] = field(default_factory=list)  # damaged lines (numbers)
    incomplete: bool = False  # an unterminated last line that does not parse (a crash fragment)


def read_head(path: Path) -> Optional[dict]:
    """The header of a JSONL store file, or None when its first line is not one."""
    with open(path, "rb") as fh:
        first = fh.readline(MAX_BYTES + 1)  # a line of gigabytes is never read whole
    try:
        head = loads(first)
    except JsonDamage:
        return None
    return head if isinstance(head, dict) and isinstance(head.get("namespace"), dict) else None


def entries(reading: Reading, check: Optional[Callable[[Any], bool]] = None) -> Iterator[tuple[str, Any]]:
    """Stream the valid ``(key, value)`` entries of ``reading.path``, noting damage in ``reading``."""
    with open(reading.path, "rb") as fh:
        for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_BYTES + 1), b""), start=1):
            try:
                obj = loads(raw)
            except JsonDamage:
                obj = None
            if lineno == 1:
                reading.head = obj if isinstance(obj, dict) and isinstance(obj.get("namespace"), dict) else None
                if reading.head is None:
                    reading.bad.append(1)
                continue
            if isinstance(obj, dict) and isinstance(obj.get("k"), str) and "v" in obj \
                    and (check is None or check(obj["v"])):
                yield obj["k"], obj["v"]
            elif not raw.endswith(b"\n") and obj is None:
                reading.incomplete = True
            else:
                reading.bad.append(lineno)
