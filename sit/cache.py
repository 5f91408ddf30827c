"""The on-disk JSON cache shared by translators, perturbers and summarizers.

Layout: ``<root>/<kind>/<label>-<hash>.jsonl``. The first line of a file records its namespace
(translator, model, version, language pair ...); every other line is one entry
``{"k": <input text>, "v": <value>}``. A batch of entries is appended with one ``write`` and
``fsync``-ed before :meth:`Store.put_many` returns, so a run killed mid-way keeps every batch that
finished. Appends and repairs hold an exclusive lock on the directory, so runs sharing a cache never
cut off each other's entries. A line that does not parse, or whose value is not of its kind's shape
(:data:`VALUE_CHECKS`), is never read as valid: an incomplete last line (a write cut short by a
crash) is ignored and recomputed; a damaged file is copied aside to ``<file>.corrupt-<time>``
(nothing is lost), repaired, and reported in :attr:`Store.problems`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional

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


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_tree(v: Any) -> bool:
    parts = [v.get(k) for k in ("tokens", "heads", "relations")] if isinstance(v, dict) else [None]
    return all(isinstance(p, list) for p in parts) and len({len(p) for p in parts}) == 1


def _is_perturbations(v: Any) -> bool:
    return isinstance(v, list) and all(
        isinstance(d, dict) and isinstance(d.get("perturbed"), str) and isinstance(d.get("edit"), dict) for d in v
    )


#: the shape of a valid value per kind of store; an entry of another shape (a number where a
#: translation belongs, a null) is damage: it is moved aside with its file and recomputed
VALUE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "translations": _is_str,
    "summaries": _is_str,
    "parses": _is_tree,
    "perturbations": _is_perturbations,
}


@contextmanager
def _locked(directory: Path):
    """An exclusive ``flock`` on the store's directory for one append or repair, so that two
    runs sharing a cache never interleave, and a repair never drops what another run appended.
    (Where ``fcntl`` does not exist, appends are single writes and run unlocked.)"""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


class Store:
    """One namespace of the cache: a mapping from input text to a JSON value, persisted as JSONL.

    ``check`` says whether a value read back is of the right shape (see :data:`VALUE_CHECKS`)."""

    def __init__(self, path: Path, namespace: Mapping[str, Any], *, strict: bool = False,
                 check: Optional[Callable[[Any], bool]] = None):
        self.path = path
        self.namespace = dict(namespace)
        self.strict = strict
        self.check = check
        self.problems: list[str] = []
        self._data: Optional[dict[str, Any]] = None

    # -- reading -------------------------------------------------------------------------------
    def _read(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return b""
        except OSError as exc:
            raise CacheError(f"cannot read cache file {self.path}: {exc}; check its permissions") from exc

    def _parse(self, raw: bytes) -> tuple[dict[str, Any], list[int]]:
        """The valid entries of a file, and the numbers of its damaged lines. An unterminated
        last line that does not parse is a crash fragment (another run's append cut short): not
        damage, ignored, and replaced by the next append."""
        data: dict[str, Any] = {}
        bad: list[int] = []
        lines = raw.split(b"\n")
        ends_clean = raw.endswith(b"\n") or not raw
        if ends_clean:
            lines = lines[:-1]
        for lineno, line in enumerate(lines, start=1):
            try:
                obj = json.loads(line.decode("utf-8"))
                if lineno == 1:
                    if not isinstance(obj, dict) or obj.get("namespace") != self.namespace:
                        raise ValueError("namespace header does not match")
                    continue
                if not isinstance(obj, dict) or "k" not in obj or "v" not in obj or not isinstance(obj["k"], str):
                    raise ValueError("entry without k/v")
                if self.check is not None and not self.check(obj["v"]):
                    raise ValueError("value of the wrong shape")
                data[obj["k"]] = obj["v"]
            except (ValueError, UnicodeDecodeError):
                if lineno == len(lines) and not ends_clean:
                    self.problems.append(
                        f"{self.path}: ignored an incomplete last entry (line {lineno}) left by an "
                        "interrupted run; it will be recomputed"
                    )
                else:
                    bad.append(lineno)
        return data, bad

    def _load(self) -> dict[str, Any]:
        if self._data is not None:
            return self._data
        data, bad = self._parse(self._read())
        if bad:
            msg = f"corrupt cache file {self.path}: {len(bad)} unreadable line(s) (first at line {bad[0]})"
            if self.strict:
                raise CorruptCacheError(msg + "; delete or repair the file and run again", str(self.path))
            data = self._repair(msg)
        for problem in self.problems:
            log.warning(problem)
        self._data = data
        return data

    def _repair(self, msg: str) -> dict[str, Any]:
        """Move a damaged file aside and rewrite its valid entries, under the lock and from the
        file as it is then, so that entries another run appended meanwhile are kept."""
        with self._lock():
            self.problems.clear()
            raw = self._read()
            data, bad = self._parse(raw)
            if not bad:
                return data
            try:
                backup = self._copy_aside(raw)
            except OSError as exc:
                raise CorruptCacheError(f"{msg}; could not copy it aside: {exc}", str(self.path)) from exc
            self.problems.append(
                f"{msg}; copied it to {backup.name} and kept its {len(data)} valid entries; "
                "the damaged entries will be recomputed"
            )
            self._rewrite(data)
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

    def _lock(self):
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CacheError(f"cannot create the cache directory {self.path.parent}: {exc}") from exc
        return _locked(self.path.parent)

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
        """Append entries in one write and fsync them: they survive a crash right after this call.

        Under the lock, the file's end is checked first: a crash fragment (an unterminated line
        that does not parse; no run is writing while we hold the lock) is cut off, a valid last
        line without its newline gets one, and a file without a whole header gets it back. Nothing
        another run wrote is ever cut off."""
        items = list(items)
        if not items:
            return
        data = self._load()
        blob = b"".join(self._line(k, v) for k, v in items)
        try:
            with self._lock():
                with open(self.path, "a+b") as fh:
                    start = self._tail(fh)
                    if start == 0:
                        fh.truncate(0)
                        fh.write(self._header())
                    fh.write(blob)
                    fh.flush()
                    os.fsync(fh.fileno())
        except OSError as exc:
            raise CacheError(f"cannot write cache file {self.path}: {exc}; check disk space and permissions") from exc
        for k, v in items:
            data[k] = v

    def _tail(self, fh) -> int:
        """Make the file end on a whole line; return where appends start (0: write the header)."""
        size = fh.seek(0, os.SEEK_END)
        pos, tail = size, b""
        while pos > 0 and b"\n" not in tail:
            step = min(pos, 1 << 16)
            pos -= step
            fh.seek(pos)
            tail = fh.read(step) + tail
        cut = pos + tail.rfind(b"\n") + 1  # where the last line starts (0 when there is one line)
        fragment = tail[cut - pos:]
        if not fragment:
            return size
        try:
            obj = json.loads(fragment.decode("utf-8"))
            whole = cut > 0 or (isinstance(obj, dict) and obj.get("namespace") == self.namespace)
        except (ValueError, UnicodeDecodeError):
            whole = False
        if not whole:  # a crash fragment (nobody is completing it: we hold the lock)
            fh.truncate(cut)
            return cut
        fh.write(b"\n")  # a valid last line that lost its newline
        return size + 1

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
            self._stores[path] = Store(path, namespace, strict=self.strict, check=VALUE_CHECKS.get(kind))
        return self._stores[path]

    @property
    def problems(self) -> list[str]:
        return [p for s in self._stores.values() for p in s.problems]
