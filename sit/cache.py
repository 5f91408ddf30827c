"""The on-disk JSON cache shared by translators, perturbers and summarizers.

Layout: ``<root>/<kind>/<label>-<hash>.jsonl``. The first line of a file records its namespace
(translator, model, version, language pair ...); every other line is one entry
``{"k": <input text>, "v": <value>}``. A batch of entries is appended with one ``write`` and
``fsync``-ed before :meth:`Store.put_many` returns, so a run killed mid-way keeps every batch that
finished. A line that does not parse is never read as valid: an incomplete last line (a write cut
short by a crash) is ignored and recomputed; a damaged file is copied aside to
``<file>.corrupt-<time>`` (nothing is lost), repaired, and reported in :attr:`Store.problems`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional

from .errors import CacheError, CorruptCacheError
from .records import stable_hash
from .rundir import write_bytes_atomic

log = logging.getLogger("sit.cache")

MISSING = object()


def default_cache_dir(explicit: str | os.PathLike | None = None) -> Path:
    """Resolve the cache directory now: the option, else ``$SIT_CACHE_DIR``, else ``./cache``."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("SIT_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path.cwd() / "cache"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:60] or "store"


class Store:
    """One namespace of the cache: a mapping from input text to a JSON value, persisted as JSONL."""

    def __init__(self, path: Path, namespace: Mapping[str, Any], *, strict: bool = False):
        self.path = path
        self.namespace = dict(namespace)
        self.strict = strict
        self.problems: list[str] = []
        self._data: Optional[dict[str, Any]] = None
        self._truncate_to: Optional[int] = None  # drop a crash fragment before appending

    # -- reading -------------------------------------------------------------------------------
    def _load(self) -> dict[str, Any]:
        if self._data is not None:
            return self._data
        data: dict[str, Any] = {}
        if not self.path.exists():
            self._data = data
            return data
        try:
            raw = self.path.read_bytes()
        except OSError as exc:
            raise CacheError(f"cannot read cache file {self.path}: {exc}; check its permissions") from exc
        lines = raw.split(b"\n")
        ends_clean = raw.endswith(b"\n") or not raw
        if ends_clean:
            lines = lines[:-1]
        bad: list[int] = []
        for lineno, line in enumerate(lines, start=1):
            last_unterminated = lineno == len(lines) and not ends_clean
            try:
                obj = json.loads(line.decode("utf-8"))
                if lineno == 1:
                    if not isinstance(obj, dict) or obj.get("namespace") != self.namespace:
                        raise ValueError("namespace header does not match")
                    continue
                if not isinstance(obj, dict) or "k" not in obj or "v" not in obj:
                    raise ValueError("entry without k/v")
                data[obj["k"]] = obj["v"]
            except (ValueError, UnicodeDecodeError):
                if last_unterminated:
                    # an append cut short by a crash: never valid, recomputed on the next run
                    self.problems.append(
                        f"{self.path}: ignored an incomplete last entry (line {lineno}) left by an "
                        "interrupted run; it will be recomputed"
                    )
                    self._truncate_to = len(raw) - len(line)
                else:
                    bad.append(lineno)
        if bad:
            msg = (
                f"corrupt cache file {self.path}: {len(bad)} unreadable line(s) "
                f"(first at line {bad[0]})"
            )
            if self.strict:
                raise CorruptCacheError(msg + "; delete or repair the file and run again", str(self.path))
            try:
                backup = self._copy_aside(raw)
            except OSError as exc:
                raise CorruptCacheError(f"{msg}; could not copy it aside: {exc}", str(self.path)) from exc
            self.problems.append(
                f"{msg}; copied it to {backup.name} and kept its {len(data)} valid entries; "
                "the damaged entries will be recomputed"
            )
            self._rewrite(data)
        for problem in self.problems:
            log.warning(problem)
        self._data = data
        return data

    def _copy_aside(self, raw: bytes) -> Path:
        """Write ``raw`` to a new ``<file>.corrupt-<time>[-n]`` (never over an earlier copy)."""
        stem = f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
        for n in range(1000):
            backup = self.path.with_name(stem if n == 0 else f"{stem}-{n}")
            try:
                with open(backup, "xb") as fh:
                    fh.write(raw)
                return backup
            except FileExistsError:
                continue
        raise OSError(f"too many copies named {stem}-*")

    def _header(self) -> bytes:
        return (json.dumps({"namespace": self.namespace}, sort_keys=True, ensure_ascii=False) + "\n").encode()

    @staticmethod
    def _line(key: str, value: Any) -> bytes:
        return (json.dumps({"k": key, "v": value}, ensure_ascii=False) + "\n").encode("utf-8")

    def _rewrite(self, data: Mapping[str, Any]) -> None:
        write_bytes_atomic(self.path, self._header() + b"".join(self._line(k, v) for k, v in data.items()))
        self._truncate_to = None

    def get(self, key: str, default: Any = MISSING) -> Any:
        return self._load().get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self._load()

    def __len__(self) -> int:
        return len(self._load())

    def items(self) -> Iterable[tuple[str, Any]]:
        return self._load().items()

    # -- writing -------------------------------------------------------------------------------
    def put_many(self, items: Iterable[tuple[str, Any]]) -> None:
        """Append entries in one write and fsync them: they survive a crash right after this call."""
        items = list(items)
        if not items:
            return
        data = self._load()
        blob = b"".join(self._line(k, v) for k, v in items)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self.path.exists() or self.path.stat().st_size == 0:
                self._rewrite({})
            if self._truncate_to is not None:
                os.truncate(self.path, self._truncate_to)
                self._truncate_to = None
            with open(self.path, "ab") as fh:
                fh.write(blob)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise CacheError(f"cannot write cache file {self.path}: {exc}; check disk space and permissions") from exc
        for k, v in items:
            data[k] = v

    def put(self, key: str, value: Any) -> None:
        self.put_many([(key, value)])


class Cache:
    """The cache root. ``Cache().store("translations", {...})`` gives one namespace's :class:`Store`."""

    def __init__(self, root: str | os.PathLike | None = None, *, strict: bool = False):
        self.root = default_cache_dir(root)
        self.strict = strict
        self._stores: dict[Path, Store] = {}

    def store(self, kind: str, namespace: Mapping[str, Any]) -> Store:
        label = "-".join(_slug(str(namespace[k])) for k in ("name", "model") if k in namespace)
        path = self.root / _slug(kind) / f"{label or 'store'}-{stable_hash(dict(namespace))}.jsonl"
        if path not in self._stores:
            self._stores[path] = Store(path, namespace, strict=self.strict)
        return self._stores[path]

    @property
    def problems(self) -> list[str]:
        return [p for s in self._stores.values() for p in s.problems]
