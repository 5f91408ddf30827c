"""Reading what a damaged cache database still holds (see :meth:`sit.cache.db.Db.recover`).

The copy set aside is walked table by table in rowid order, a page of rows at a time; a page
SQLite cannot read is stepped over (the step doubling until rows read again), so every entry on
a readable page is kept. What comes out goes into a fresh database with the same schema; values
are checked again by :class:`sit.cache.Store` when they are read.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Iterator

from .schema import SCHEMA

_PAGE = 500
_PROBE = 256  # rows read one by one past a page that fails
_MAX_ROWID = (1 << 63) - 1


def _walk(conn: sqlite3.Connection, table: str, columns: str) -> Iterator[tuple]:
    """Every readable row of ``table`` (rowid first), skipping what cannot be read: past a page
    that fails, rows are read one by one for a while, then in ever longer jumps."""
    page_sql = f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT {_PAGE}"
    one_sql = f"SELECT rowid, {columns} FROM {table} WHERE rowid = ?"
    last, jump = 0, _PROBE
    while last < _MAX_ROWID:
        try:
            page = conn.execute(page_sql, (last,)).fetchall()
        except sqlite3.DatabaseError:
            found = 0
            for rowid in range(last + 1, min(_MAX_ROWID, last + _PROBE) + 1):
                try:
                    row = conn.execute(one_sql, (rowid,)).fetchone()
                except sqlite3.DatabaseError:
                    continue
                if row is not None:
                    found += 1
                    yield row
            last = min(_MAX_ROWID, last + (_PROBE if found else jump))
            jump = _PROBE if found else jump * 2
            continue
        if not page:
            return
        yield from page
        last, jump = page[-1][0], _PROBE


def salvage(damaged: Path, fresh: Path) -> tuple[Path, int]:
    """Build ``fresh`` from the readable namespaces and entries of ``damaged``; returns it and the
    number of entries kept."""
    fresh.unlink(missing_ok=True)
    out = sqlite3.connect(fresh, isolation_level=None)
    out.executescript(SCHEMA)
    kept = 0
    scratch = _scratch_copy(damaged, fresh.with_name(fresh.name + ".scratch"))
    try:
        src = sqlite3.connect(scratch)
    except sqlite3.DatabaseError:
        out.close()
        _remove(scratch)
        return fresh, 0
    try:
        out.execute("BEGIN")
        namespaces = set()
        for row in _rows(src, "namespaces", "id, kind, hash, label, namespace"):
            out.execute("INSERT OR IGNORE INTO namespaces VALUES (?, ?, ?, ?, ?)", row[1:])
            namespaces.add(row[1])
        for row in _rows(src, "entries", "ns, h, k, v, t"):
            if row[1] in namespaces and all(isinstance(x, str) for x in row[3:5]):
                kept += out.execute("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?)", row[1:]).rowcount
        out.execute("COMMIT")
    finally:
        src.close()
        out.close()
        _remove(scratch)
    return fresh, kept


def _scratch_copy(damaged: Path, scratch: Path) -> Path:
    """A copy of ``damaged`` (and its WAL) to read from, its length made a whole number of pages
    and its header's page count set to match (a truncated file otherwise reads as nothing)."""
    _remove(scratch)
    shutil.copyfile(damaged, scratch)
    if Path(f"{damaged}-wal").exists():
        shutil.copyfile(f"{damaged}-wal", f"{scratch}-wal")
    with open(scratch, "r+b") as fh:
        head = fh.read(100)
        if len(head) < 100 or not head.startswith(b"SQLite format 3\0"):
            return scratch
        page = int.from_bytes(head[16:18], "big")
        page = 65536 if page == 1 else page
        if page < 512 or page & (page - 1):
            return scratch
        pages = -(-os.fstat(fh.fileno()).st_size // page)
        fh.truncate(pages * page)
        fh.seek(28)
        fh.write(pages.to_bytes(4, "big"))
    return scratch


def _remove(path: Path) -> None:
    for extra in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{extra}").unlink(missing_ok=True)


def _rows(conn: sqlite3.Connection, table: str, columns: str) -> Iterator[tuple]:
    try:
        yield from _walk(conn, table, columns)
    except sqlite3.DatabaseError:  # the schema itself is unreadable: nothing more to keep
        return
