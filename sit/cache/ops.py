"""Looking after a cache: ``sit cache stats | verify | export | import | prune``.

Each function takes a :class:`sit.cache.Cache` and streams through the database (nothing held in
memory in proportion to it). Export and import speak the JSONL format of :mod:`sit.cache.jsonl`.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator, Optional

from . import jsonl as cachejsonl
from . import EMPTY_TRANSLATION, Cache, Store
from ..errors import CacheError, InputError
from ..jsonio import regular_file


@dataclass(frozen=True)
class StoreStats:
    """One store of the cache: its kind, namespace, entries and their bytes (keys and values)."""

    kind: str
    label: str
    hash: str
    namespace: dict
    entries: int
    bytes: int
    oldest: Optional[int]  # unix seconds of the oldest and newest entries
    newest: Optional[int]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CacheStats:
    path: str
    file_bytes: int  # the database and its WAL on disk
    stores: tuple[StoreStats, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "file_bytes": self.file_bytes, "entries": sum(s.entries for s in self.stores),
                "stores": [s.to_dict() for s in self.stores]}


def _namespaces(cache: Cache) -> list[tuple]:
    return cache.db.read(lambda c: c.execute("SELECT id, kind, hash, label, namespace FROM namespaces "
                                             "ORDER BY kind, label, hash").fetchall(), default=[])


def stores(cache: Cache, kind: Optional[str] = None) -> Iterator[Store]:
    """Every store of the cache (of one kind)."""
    for _, k, _, _, namespace in _namespaces(cache):
        if kind is None or k == kind:
            yield cache.store(k, json.loads(namespace))


def stats(cache: Cache) -> CacheStats:
    sums = dict(cache.db.read(lambda c: [(r[0], r[1:]) for r in c.execute(
        "SELECT ns, count(*), sum(length(CAST(k AS BLOB)) + length(CAST(v AS BLOB))), min(t), max(t) "
        "FROM entries GROUP BY ns")], default=[]))
    rows = []
    for ns, kind, h, label, namespace in _namespaces(cache):
        n, size, oldest, newest = sums.get(ns, (0, 0, None, None))
        rows.append(StoreStats(kind, label, h, json.loads(namespace), n, size or 0, oldest, newest))
    on_disk = sum(p.stat().st_size for p in (cache.path, Path(f"{cache.path}-wal")) if p.exists())
    return CacheStats(str(cache.path), on_disk, tuple(rows))


def verify(cache: Cache) -> list[str]:
    """Check the whole file (SQLite's integrity check) and every value's shape; what is wrong is
    repaired as a run would (copied aside, readable entries kept). Returns what was found."""
    if not cache.path.exists():
        return []
    check_whole(cache, "integrity_check")
    for store in stores(cache):
        store.verify()
    return cache.problems


def check_whole(cache: Cache, pragma: str = "quick_check") -> None:
    """SQLite's check of the whole file (``quick_check``, or the slower ``integrity_check``): a
    page damaged where no lookup goes is found too, and repaired as a run repairs damage (the file
    copied aside, its readable entries kept, said in :attr:`Cache.problems`)."""
    if not cache.path.exists():
        return
    result = cache.db.read(lambda c: [r[0] for r in c.execute(f"PRAGMA {pragma}(20)")], default=["ok"])
    if result != ["ok"]:
        cache.db.recover(" ".join(" ".join(result[:3]).split()))


def export(cache: Cache, out: Path, kind: Optional[str] = None) -> list[Path]:
    """Write each store (of ``kind``) to ``out/<kind>/<label>-<hash>.jsonl`` in the JSONL format."""
    written = []
    for store in stores(cache, kind):
        target = out / cachejsonl.slug(store.kind) / cachejsonl.file_name(store.namespace)
        tmp = target.with_name(f".{target.name}.tmp")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as fh:
                fh.write(cachejsonl.header(store.namespace, store.kind))
                for k, v in store.items():
                    fh.write(cachejsonl.line(k, v))
            os.replace(tmp, target)
        except OSError as exc:
            tmp.unlink(missing_ok=True)  # a full disk leaves no half file behind
            raise CacheError(f"cannot write {target}: {exc.strerror or exc}; check the path, free space and "
                             "permissions") from None
        written.append(target)
    return written


def importable(path: Path) -> Path:
    """``path`` if it is a regular file (:func:`sit.jsonio.regular_file`): a FIFO would hang the
    import and ``/dev/zero`` never end."""
    return regular_file(path, "import the .jsonl files `sit cache export` writes")


def import_file(cache: Cache, path: Path, kind: Optional[str] = None) -> tuple[Store, int]:
    """Import one JSONL store file: its namespace from its header, its kind from the header, the
    option, or the folder it sits in (``<kind>/<file>.jsonl``). Importing twice changes nothing."""
    importable(path)
    try:
        head = cachejsonl.read_head(path)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}; check the path") from exc
    if head is None:
        raise InputError(f"{path} is not a sit cache file: its first line is not a {{\"namespace\": ...}} header")
    kind = kind or head.get("kind") or path.parent.name
    if not isinstance(kind, str) or not kind:
        raise InputError(f"{path}: say which kind of entries it holds with --kind (e.g. translations)")
    store = cache.store(kind, head["namespace"])
    return store, store.import_jsonl(path, force=True)


def prune(cache: Cache, *, kind: Optional[str] = None, translator: Optional[str] = None,
          namespace: Optional[str] = None, older_than_days: Optional[float] = None, empty: bool = False) -> int:
    """Delete the entries that match every filter given; returns how many were deleted. ``empty``
    selects the translations that are a translator's empty answer (asked twice, answered with
    nothing both times: :data:`~sit.cache.EMPTY_TRANSLATION`), so that a re-run asks again."""
    from ..validate import check_number

    if kind is None and translator is None and namespace is None and older_than_days is None and not empty:
        raise InputError("say what to prune: --kind, --translator, --namespace, --older-than and/or --empty")
    for option, value in (("--kind", kind), ("--translator", translator), ("--namespace", namespace)):
        if value is not None and not value.strip():  # an empty filter would match every store
            raise InputError(f"{option} is empty; give a value (`sit cache stats` lists the stores) or leave it out")
    older_than_days = check_number(older_than_days, "--older-than", minimum=0, what="days")
    chosen = [ns for ns, k, h, label, spec in _namespaces(cache)
              if (kind is None or k == kind) and (not empty or k == "translations")
              and (translator is None or (k == "translations" and json.loads(spec).get("name") == translator))
              and (namespace is None or namespace in (label, h, f"{label}-{h}") or h.startswith(namespace))]
    if not chosen or not cache.path.exists():
        return 0
    cutoff = None if older_than_days is None else int(time.time() - older_than_days * 86400)
    # the translator's empty answer, marked (EMPTY_TRANSLATION), or bare as older versions wrote it
    where = "ns = ?" + (" AND t < ?" if cutoff is not None else "") + (
        f" AND v IN ('\"\"', '{json.dumps(EMPTY_TRANSLATION, separators=(',', ':'))}')" if empty else "")

    def delete(conn) -> int:
        removed = 0
        for ns in chosen:
            removed += conn.execute(f"DELETE FROM entries WHERE {where}", (ns, cutoff) if cutoff is not None else (ns,)).rowcount
            if cutoff is None and not empty:  # the whole store: its namespace goes too
                conn.execute("DELETE FROM namespaces WHERE id = ?", (ns,))
        return removed

    return cache.db.write(delete)


def vacuum(cache: Cache) -> None:
    """Give the space of deleted entries back to the file system."""
    if cache.path.exists():
        cache.db.read(lambda c: (c.execute("VACUUM"), c.execute("PRAGMA wal_checkpoint(TRUNCATE)")))
