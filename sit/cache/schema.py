"""The cache database's tables, read by :mod:`sit.cache.db` and :mod:`sit.cache.salvage`."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS namespaces (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, hash TEXT NOT NULL, label TEXT NOT NULL,
    namespace TEXT NOT NULL, UNIQUE (kind, hash));
CREATE TABLE IF NOT EXISTS entries (
    ns INTEGER NOT NULL, h INTEGER NOT NULL, k TEXT NOT NULL, v TEXT NOT NULL, t INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS entries_key ON entries (ns, h);
CREATE TABLE IF NOT EXISTS imports (
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, entries INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS claims (
    ns INTEGER NOT NULL, h INTEGER NOT NULL, owner TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
    expires REAL NOT NULL, PRIMARY KEY (ns, h));
"""
