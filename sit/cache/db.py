"""The SQLite file under :mod:`sit.cache`: connection, schema, transactions, damage and recovery.

One file, ``<root>/cache.sqlite3``, in WAL mode: readers never block and are never blocked; one
writer at a time commits a batch in one transaction (``synchronous=FULL``: a committed batch
survives kill -9 and a power cut). Tables::

    namespaces(id, kind, hash, label, namespace)      one row per store (kind + namespace JSON)
    entries(ns, h, k, v, t)   h: a 64-bit hash of the key, UNIQUE (ns, h); k: the key, v: JSON,
                              t: when it was written (unix seconds; ``sit cache prune --older-than``)
    imports(path, size, mtime_ns, entries)            the JSONL files already imported
    claims(ns, h, owner, pid, host, expires)          keys a run is computing (:mod:`sit.cache.claims`)

A key whose hash collides with another key's in the same store is simply a miss (the stored key is
compared on every lookup), so a collision costs a recomputation, never a wrong answer.

Damage (SQLite's ``SQLITE_CORRUPT`` / ``SQLITE_NOTADB``) is handled by :meth:`Db.recover`: under
an exclusive lock on ``<file>.lock`` it copies the file (and its WAL) aside to
``<file>.corrupt-<time>``, reads every entry it still can from the copy into a fresh database, and
puts that in place (through SQLite's backup API where the damaged file still opens, so other runs
sharing it keep working; otherwise by renaming over it).
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

from ..errors import CacheError, CorruptCacheError
from .schema import SCHEMA

log = logging.getLogger("sit.cache")

DB_NAME = "cache.sqlite3"
_DAMAGE = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
_CHUNK = 500  # keys per SELECT ... IN (...)


def key_hash(key: str) -> int:
    """The 64-bit signed hash a key is indexed by."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                          "big", signed=True)


def is_damage(exc: BaseException) -> bool:
    """Whether a sqlite3 error says the file is damaged (not merely busy or unwritable)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _DAMAGE
    text = str(exc)
    return "malformed" in text or "not a database" in text


def _text(raw: bytes) -> str:
    """A TEXT column's value; bytes that are not UTF-8 (a file edited by hand) kept as ``\\udcXX``."""
    return raw.decode("utf-8", "surrogateescape")


def _flock(path: Path, exclusive: bool):
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return None
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
    return fd


def copy_aside(path: Path, suffix: str = "") -> Path:
    """Copy ``path`` (and its ``-wal``) to a new ``<file>.corrupt-<time>[-n]``, never over an
    earlier copy; returns the copy's path."""
    stem = f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
    for n in range(1000):
        backup = path.with_name((stem if n == 0 else f"{stem}-{n}") + suffix)
        try:
            with open(backup, "xb") as out, open(path, "rb") as src:
                shutil.copyfileobj(src, out)
        except FileExistsError:
            continue
        wal = Path(f"{path}-wal")
        if wal.exists() and not suffix:
            shutil.copyfile(wal, f"{backup}-wal")
        return backup
    raise OSError(f"too many copies named {stem}-*")


class Db:
    """The cache's SQLite file, opened lazily (a run that only reads a cache that does not exist
    creates nothing), shared by the stores of one :class:`sit.cache.Cache` across threads."""

    def __init__(self, path: Path, *, strict: bool = False):
        self.path = path
        self.strict = strict
        self.problems: list[str] = []
        self._conn: Optional[sqlite3.Connection] = None
        self._pid = 0
        self._ino: Optional[int] = None
        self._lock = threading.RLock()
        self._stale: list[sqlite3.Connection] = []  # connections of a replaced file or a parent process

    # -- connecting ----------------------------------------------------------------------------
    def _stat_ino(self) -> Optional[int]:
        try:
            return os.stat(self.path).st_ino
        except FileNotFoundError:
            return None

    def _connection(self, create: bool) -> Optional[sqlite3.Connection]:
        if self._conn is not None and (self._pid != os.getpid() or self._stat_ino() != self._ino):
            self._stale.append(self._conn)  # never closed here: closing could checkpoint a WAL not ours
            self._conn = None
        if self._conn is None:
            if not create and not self.path.exists():
                return None
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=120, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise CacheError(f"cannot open the cache {self.path}: {exc}; check the path and its permissions") from exc
        self._pid, self._ino = os.getpid(), self._stat_ino()
        conn.text_factory = _text  # a key or label that is not UTF-8 is read, never a traceback
        conn.execute("PRAGMA busy_timeout = 120000")
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self._to_wal(conn)
        conn.execute("PRAGMA synchronous = FULL")
        conn.executescript(SCHEMA)
        return conn

    def _to_wal(self, conn: sqlite3.Connection) -> None:
        """Put a new file in WAL mode, one process at a time: SQLite answers a journal-mode change
        that meets another connection's lock with "database is locked" at once, without waiting
        (three runs starting on one fresh cache lost one of them to it)."""
        lock = _flock(Path(f"{self.path}.lock"), exclusive=True)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            if lock is not None:
                os.close(lock)

    # -- running statements --------------------------------------------------------------------
    def read(self, fn: Callable[[sqlite3.Connection], Any], default: Any = None) -> Any:
        """``fn(connection)`` on a snapshot of the file (``default`` when there is no file yet)."""
        return self._guarded(fn, create=False, default=default, write=False)

    def write(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """``fn(connection)`` in one write transaction, committed (and fsync-ed) before returning."""
        return self._guarded(fn, create=True, default=None, write=True)

    def _guarded(self, fn, *, create: bool, default: Any, write: bool) -> Any:
        for attempt in range(2):
            with self._lock:
                try:
                    conn = self._connection(create)
                    if conn is None:
                        return default
                    if not write:
                        return fn(conn)
                    return self._transaction(conn, fn)
                except sqlite3.DatabaseError as exc:
                    if not is_damage(exc) or attempt:
                        raise self._error(exc, write) from exc
                    self.recover(str(exc))
        return default  # pragma: no cover - the loop returns or raises

    @staticmethod
    def _transaction(conn: sqlite3.Connection, fn) -> Any:
        conn.execute("BEGIN IMMEDIATE")
        try:
            out = fn(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return out

    def _error(self, exc: sqlite3.Error, write: bool) -> CacheError:
        if is_damage(exc):
            return CorruptCacheError(f"the cache {self.path} is damaged ({exc}) and could not be repaired; "
                                     "move it aside and run again", str(self.path))
        what = "write to" if write else "read"
        return CacheError(f"cannot {what} the cache {self.path}: {exc}; check disk space and permissions")

    # -- damage --------------------------------------------------------------------------------
    def recover(self, why: str) -> None:
        """Copy the damaged file aside, keep what it still holds, and report it in :attr:`problems`."""
        if self.strict:
            raise CorruptCacheError(f"the cache {self.path} is damaged ({why}); move it aside or run "
                                    "`sit cache verify` to repair it", str(self.path))
        lock = _flock(Path(f"{self.path}.lock"), exclusive=True)
        try:
            if self._conn is not None:
                self._stale.append(self._conn)
                self._conn = None
            if self._healthy():
                return  # another run repaired it while this one waited for the lock
            backup = copy_aside(self.path)
            from .salvage import salvage

            fresh, kept = salvage(backup, self.path.with_name(f".{self.path.name}.{os.getpid()}.recovering"))
            self._put_in_place(fresh)
        finally:
            if lock is not None:
                os.close(lock)
        self.problems.append(f"the cache {self.path} was damaged ({why}); copied it to {backup.name} and kept "
                             f"its {kept} readable entries; the rest will be recomputed")
        log.warning(self.problems[-1])

    def _healthy(self) -> bool:
        try:
            conn = sqlite3.connect(self.path, timeout=120)
            try:
                return conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            return False

    def _put_in_place(self, fresh: Path) -> None:
        try:
            src = sqlite3.connect(fresh)
            dst = sqlite3.connect(self.path, timeout=120)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode = WAL")
            finally:
                dst.close()
                src.close()
            fresh.unlink()
        except sqlite3.DatabaseError:  # the damaged file does not even open: replace it
            for extra in ("-wal", "-shm"):
                Path(f"{self.path}{extra}").unlink(missing_ok=True)
            os.replace(fresh, self.path)

