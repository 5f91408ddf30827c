"""The on-disk cache shared by translators, perturbers, parsers, summarizers and scorers.

Every kind of entry lives in one SQLite database, ``<root>/cache.sqlite3`` (see
:mod:`sit.cache.db`): a :class:`Store` is one kind and namespace (translator, model, version,
language pair ...), a mapping from input text to a JSON value. Lookups and appends cost
O(batch), whatever the size of the cache: keys are found through an index on their hash, and a
batch of entries is written in one transaction, committed and fsync-ed before
:meth:`Store.put_many` returns, so a run killed mid-way keeps every batch that finished. Runs
sharing a cache never lose each other's writes (one writer at a time, each batch atomic) and
readers never block (WAL). Nothing is held in memory in proportion to the cache.

A value whose shape is not its kind's (:data:`VALUE_CHECKS`) is never used: it is copied aside to
``<file>.corrupt-<time>.jsonl``, removed, reported in :attr:`Store.problems` and recomputed. A
damaged database is copied aside to ``<file>.corrupt-<time>``, its readable entries are kept, and
the run says so (:attr:`Cache.problems`).

The root is ``--cache-dir``, else ``$SIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/sit`` (``~/.cache/sit``).
Stores written by earlier versions as JSONL files (``<root>/<kind>/<label>-<hash>.jsonl``, and
those of a ``./cache`` beside the command, their old default) are imported the first time their
store is used; the old files are left in place.
"""

from __future__ import annotations

import json
import logging
import math
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional

from . import jsonl as cachejsonl
from .db import DB_NAME, Db, key_hash
from ..errors import CacheError
from ..jsonio import JsonDamage, loads
from ..records import stable_hash

log = logging.getLogger("sit.cache")

MISSING = object()
_CHUNK = 500  # keys per lookup query
_IMPORT_BATCH = 5000  # entries per transaction when importing


def default_cache_dir(explicit: str | os.PathLike | None = None) -> Path:
    """Resolve the cache directory now: the option, else ``$SIT_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/sit`` (``~/.cache/sit``), where transformers, spaCy and sacrebleu keep theirs."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("SIT_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sit"


def legacy_cache_dirs(root: Path, explicit: str | os.PathLike | None = None) -> list[Path]:
    """Where JSONL stores of earlier versions may be: the root itself, and ``./cache`` (the old
    default) when no directory was chosen."""
    roots = [root]
    old = Path.cwd() / "cache"
    if not explicit and not os.environ.get("SIT_CACHE_DIR") and old.is_dir() and old.resolve() != root.resolve():
        roots.append(old)
    return roots


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_tree(v: Any) -> bool:
    """A parse of at least one token (only non-blank texts are parsed and cached)."""
    parts = [v.get(k) for k in ("tokens", "heads", "relations")] if isinstance(v, dict) else [None]
    return all(isinstance(p, list) for p in parts) and len({len(p) for p in parts}) == 1 and len(parts[0]) > 0


#: the cached value of a sentence the perturber has no perturbation for: marked, since an empty
#: list read back cannot be told from one damaged or cut short
NO_PERTURBATION = {"perturbations": 0}


def _is_perturbations(v: Any) -> bool:
    """At least one perturbation, or the mark of none (:data:`NO_PERTURBATION`); a bare empty
    list, or a perturbed sentence that is empty, is damage (copied aside, the sentence perturbed
    again)."""
    if v == NO_PERTURBATION:
        return True
    return isinstance(v, list) and len(v) > 0 and all(
        isinstance(d, dict) and isinstance(d.get("perturbed"), str) and d["perturbed"].strip()
        and isinstance(d.get("edit"), dict) for d in v
    )


#: the cached value of a translator's empty answer (asked twice, empty both times: its answer,
#: :meth:`sit.translators.base.Translator.translate`): marked, since an empty string read back
#: cannot be told from a translation damaged to one
EMPTY_TRANSLATION = {"translation": ""}


def _is_translation(v: Any) -> bool:
    """A translation (text that is not blank: only non-blank texts are translated and cached), or
    the mark of the translator's empty answer (:data:`EMPTY_TRANSLATION`); a bare empty or blank
    string is damage (copied aside, said, the text translated again)."""
    return (isinstance(v, str) and bool(v.strip())) or v == EMPTY_TRANSLATION


def _is_score(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _is_counts(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in v.values())


def _is_phrase(v: Any) -> bool:
    """A substitute's phrase (``sit``'s ``phrases`` check): ``{"phrase": null}`` (no phrase), or its
    English texts on both sides and the parts of speech of the original's."""
    phrase = v.get("phrase", False) if isinstance(v, dict) else False
    return phrase is None or (isinstance(phrase, dict) and isinstance(phrase.get("original"), str)
                              and isinstance(phrase.get("perturbed"), str) and isinstance(phrase.get("pos"), list)
                              and all(isinstance(p, str) for p in phrase["pos"]))


def _is_verdict(v: Any) -> bool:
    """A check's verdict on one (source, translation) pair (:mod:`sit.relations.verdicts`): a
    JSON object (``{}``: nothing found)."""
    return isinstance(v, dict)


def _not_null(v: Any) -> bool:
    return v is not None


#: the shape of a valid value per kind of store; an entry of another shape (a number where a
#: translation belongs, a null) is never used: it is moved aside and recomputed. A kind not listed
#: here accepts any value but null.
VALUE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "translations": _is_translation,
    "summaries": _is_str,
    "parses": _is_tree,
    "perturbations": _is_perturbations,
    "perturbation-drops": _is_counts,
    "scores": _is_score,
    "phrase": _is_phrase,
    "zipf": _is_score,
    "metric-signature": _is_str,
    "verdicts": _is_verdict,
}


def _encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _utf8(text: str) -> bool:
    """Whether ``text`` can be stored (SQLite keeps UTF-8; a lone surrogate cannot be encoded)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _decode(text: Any) -> Any:
    try:
        return loads(text)  # the shared reader: limits on depth and size, damage is MISSING
    except (TypeError, JsonDamage):
        return MISSING


class Store:
    """One kind and namespace of the cache: a mapping from input text to a JSON value.

    ``check`` says whether a value read back is of the right shape (see :data:`VALUE_CHECKS`)."""

    def __init__(self, cache: "Cache", kind: str, namespace: Mapping[str, Any],
                 check: Callable[[Any], bool]):
        self.cache = cache
        self.kind = kind
        self.namespace = dict(namespace)
        self.check = check
        self.hash = stable_hash(self.namespace)
        self.label = cachejsonl.label(self.namespace)
        self.problems: list[str] = []
        self._imported = False

    @property
    def path(self) -> Path:
        """The database file this store lives in."""
        return self.cache.path

    def __repr__(self) -> str:
        return f"Store({self.kind}/{self.label}-{self.hash})"

    # -- the namespace's row -------------------------------------------------------------------
    def namespace_id(self, conn, create: bool) -> Optional[int]:
        """This store's namespace id (looked up each time: a prune or a repair may change it)."""
        query = "SELECT id FROM namespaces WHERE kind = ? AND hash = ?"
        row = conn.execute(query, (self.kind, self.hash)).fetchone()
        if row is None and create:
            conn.execute("INSERT OR IGNORE INTO namespaces (kind, hash, label, namespace) VALUES (?, ?, ?, ?)",
                         (self.kind, self.hash, self.label, json.dumps(self.namespace, sort_keys=True)))
            row = conn.execute(query, (self.kind, self.hash)).fetchone()
        return None if row is None else row[0]

    def _first_use(self) -> None:
        if not self._imported:
            self._imported = True
            for root in self.cache.legacy_roots:
                old = root / cachejsonl.slug(self.kind) / cachejsonl.file_name(self.namespace)
                if old.is_file() and (added := self.import_jsonl(old)):
                    log.info("imported %d cache entries from %s (the file is left in place; remove it "
                             "when you no longer run an earlier version of sit)", added, old)

    # -- reading -------------------------------------------------------------------------------
    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        """The cached value of each key that has a valid one (one query per 500 keys)."""
        self._first_use()
        keys = list(dict.fromkeys(keys))
        found: dict[str, Any] = {}
        for start in range(0, len(keys), _CHUNK):
            wanted = {key_hash(k): k for k in keys[start : start + _CHUNK]}
            rows = self.cache.db.read(lambda c: self._lookup(c, wanted), default=[])
            bad = []
            for h, k, v in rows:
                if wanted.get(h) != k:
                    continue  # another key with the same hash: a miss, never a wrong answer
                value = _decode(v)
                if value is MISSING or not self.check(value):
                    bad.append((h, k, v))
                else:
                    found[k] = value
            if bad:
                self._quarantine(bad)
        return found

    def _lookup(self, conn, wanted: dict[int, str], columns: str = "h, k, CAST(v AS BLOB)") -> list[tuple]:
        """The rows of ``wanted``'s key hashes in this store, with ``columns`` (``"h, k"``: the keys
        alone, no value read)."""
        ns = self.namespace_id(conn, create=False)
        if ns is None:
            return []
        marks = ",".join("?" * len(wanted))
        return conn.execute(f"SELECT {columns} FROM entries WHERE ns = ? AND h IN ({marks})", (ns, *wanted)).fetchall()

    def get(self, key: str, default: Any = MISSING) -> Any:
        return self.get_many([key]).get(key, default)

    def keys_in(self, keys: Iterable[str]) -> set[str]:
        """Which of ``keys`` have an entry, without reading the values (a damaged one is found
        when it is read, by :meth:`get_many`)."""
        self._first_use()
        keys = list(dict.fromkeys(keys))
        found: set[str] = set()
        for start in range(0, len(keys), _CHUNK):
            wanted = {key_hash(k): k for k in keys[start : start + _CHUNK]}
            rows = self.cache.db.read(lambda c: self._lookup(c, wanted, "h, k"), default=[])
            found.update(k for h, k in rows if wanted.get(h) == k)
        return found

    def __contains__(self, key: str) -> bool:
        return key in self.get_many([key])

    def __len__(self) -> int:
        self._first_use()
        return self.cache.db.read(lambda c: self._count(c), default=0)

    def _count(self, conn) -> int:
        ns = self.namespace_id(conn, create=False)
        return 0 if ns is None else conn.execute("SELECT count(*) FROM entries WHERE ns = ?", (ns,)).fetchone()[0]

    def items(self) -> Iterator[tuple[str, Any]]:
        """Stream the valid entries, a page at a time (in the order of their key hashes)."""
        self._first_use()
        last = None
        while True:
            page = self.cache.db.read(lambda c: self._page(c, last), default=[])
            for h, k, v in page:
                value = _decode(v)
                if value is not MISSING and self.check(value):
                    yield k, value
            if len(page) < 1000:
                return
            last = page[-1][0]

    def _page(self, conn, after: Optional[int]) -> list[tuple]:
        ns = self.namespace_id(conn, create=False)
        if ns is None:
            return []
        op, after = (">=", -(1 << 63)) if after is None else (">", after)
        return conn.execute(f"SELECT h, k, CAST(v AS BLOB) FROM entries WHERE ns = ? AND h {op} ? ORDER BY h LIMIT 1000",
                            (ns, after)).fetchall()

    def verify(self) -> int:
        """Check every entry (its key's hash, its value's shape); entries of the wrong shape are
        handled as a lookup would (copied aside, removed, reported). Returns how many."""
        last, bad_total = None, 0
        while True:
            page = self.cache.db.read(lambda c: self._page(c, last), default=[])
            bad = [(h, k, v) for h, k, v in page
                   if h != key_hash(k) or (value := _decode(v)) is MISSING or not self.check(value)]
            if bad:
                self._quarantine(bad)
                bad_total += len(bad)
            if len(page) < 1000:
                return bad_total
            last = page[-1][0]

    # -- writing -------------------------------------------------------------------------------
    def put_many(self, items: Iterable[tuple[str, Any]]) -> None:
        """Write entries in one transaction, committed and fsync-ed: they survive a crash right
        after this call. A value of the wrong shape is never written (it is logged)."""
        self._first_use()
        self._write(items, replace=True)

    def put(self, key: str, value: Any) -> None:
        self.put_many([(key, value)])

    def _write(self, items: Iterable[tuple[str, Any]], *, replace: bool) -> int:
        rows, now, refused = [], int(time.time()), 0
        for k, v in items:
            if isinstance(k, str) and self.check(v) and _utf8(k) and _utf8(text := _encode(v)):
                rows.append((key_hash(k), k, text, now))
            else:
                refused += 1
        if refused:
            log.warning("%s: did not cache %d value(s) of the wrong shape or holding text UTF-8 cannot carry "
                        "(lone surrogates)", self, refused)
        if not rows:
            return 0
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"

        def write(conn) -> int:
            ns = self.namespace_id(conn, create=True)
            before = conn.total_changes
            conn.executemany(f"{verb} INTO entries (ns, h, k, v, t) VALUES (?, ?, ?, ?, ?)", [(ns, *r) for r in rows])
            return conn.total_changes - before

        return self.cache.db.write(write)

    def _quarantine(self, bad: list[tuple]) -> None:
        """Copy entries of the wrong shape aside (JSONL, export format), then delete them."""
        try:
            backup = copy_aside_jsonl(self.path, self.kind, self.namespace, bad)
        except OSError as exc:
            raise CacheError(f"{self}: cached values of the wrong shape could not be copied aside: {exc}") from exc

        def delete(conn) -> None:
            ns = self.namespace_id(conn, create=True)
            conn.executemany("DELETE FROM entries WHERE ns = ? AND h = ? AND CAST(v AS BLOB) = ?",
                             [(ns, h, v) for h, _, v in bad])

        self.cache.db.write(delete)
        self.problems.append(f"corrupt cache entries in {self.path} ({self.kind}/{self.label}): {len(bad)} value(s) "
                             f"of the wrong shape, copied to {backup.name}; they will be recomputed")
        log.warning(self.problems[-1])

    def import_jsonl(self, path: Path, *, force: bool = False) -> int:
        """Add the valid entries of a JSONL store file (entries already cached win); a file
        imported before and unchanged since is skipped unless ``force``. Returns how many were new."""
        try:
            st = path.stat()
            if not force and self.cache.db.read(
                    lambda c: c.execute("SELECT 1 FROM imports WHERE path = ? AND size = ? AND mtime_ns = ?",
                                        (str(path.resolve()), st.st_size, st.st_mtime_ns)).fetchone()):
                return 0
            reading = cachejsonl.Reading(path)
            added, batch = 0, []
            for entry in cachejsonl.entries(reading, self.check):
                batch.append(entry)
                if len(batch) >= _IMPORT_BATCH:
                    added, batch = added + self._write(batch, replace=False), []
            added += self._write(batch, replace=False)
        except OSError as exc:
            raise CacheError(f"cannot read the cache file {path}: {exc}; check its permissions") from exc
        self._record_import(path, st, added, reading)
        return added

    def _record_import(self, path: Path, st: os.stat_result, added: int, reading: cachejsonl.Reading) -> None:
        self.cache.db.write(lambda c: c.execute("INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?)",
                                                (str(path.resolve()), st.st_size, st.st_mtime_ns, added)))
        self.cache.imported += added
        head = reading.head
        if reading.bad or (head is not None and head.get("namespace") != self.namespace):
            lines = reading.bad or [1]
            self.problems.append(f"corrupt cache file {path}: {len(lines)} unreadable line(s) (first at line "
                                 f"{lines[0]}) were not imported; the file is left as it was")
            log.warning(self.problems[-1])


def copy_aside_jsonl(db_path: Path, kind: str, namespace: Mapping[str, Any], rows: list[tuple]) -> Path:
    """Write rows ``(h, key, raw value)`` to a new ``<db>.corrupt-<time>.jsonl`` in the export format."""
    stem = f"{db_path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1000):
        target = db_path.with_name((stem if n == 0 else f"{stem}-{n}") + ".jsonl")
        try:
            with open(target, "xb") as fh:
                fh.write(cachejsonl.header(namespace, kind))
                for _, k, v in rows:
                    value = _decode(v)
                    if value is MISSING and isinstance(v, bytes):  # not UTF-8: kept byte for byte as \udcXX
                        value = v.decode("utf-8", "surrogateescape")
                    fh.write(cachejsonl.line(k, v if value is MISSING else value))
            return target
        except FileExistsError:
            continue
    raise OSError(f"too many copies named {stem}-*")


class Cache:
    """The cache root. ``Cache().store("translations", {...})`` gives one namespace's :class:`Store`.

    Nothing is opened or created until a store is used; a run that only misses creates nothing."""

    def __init__(self, root: str | os.PathLike | None = None, *, strict: bool = False):
        self.root = default_cache_dir(root)
        self.path = self.root / DB_NAME
        self.strict = strict
        self.legacy_roots = legacy_cache_dirs(self.root, root)
        self.db = Db(self.path, strict=strict)
        self.imported = 0  # entries imported from JSONL files by this object
        self._stores: dict[tuple[str, str], Store] = {}

    def store(self, kind: str, namespace: Mapping[str, Any]) -> Store:
        key = (kind, stable_hash(dict(namespace)))
        if key not in self._stores:
            self._stores[key] = Store(self, kind, namespace, VALUE_CHECKS.get(kind, _not_null))
        return self._stores[key]

    @property
    def problems(self) -> list[str]:
        return list(self.db.problems) + [p for s in self._stores.values() for p in s.problems]

    def describe(self) -> str:
        """Which cache this is, for run.json and the summary line."""
        more = f" ({self.imported} entries imported from JSONL files)" if self.imported else ""
        return f"{self.path}{more}"

