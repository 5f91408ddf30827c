"""Claims: the keys a run is computing, so that another run sharing the cache waits for them
instead of paying for them again.

Two or three runs of the same input against one cache would each send the texts none of them had
cached yet to the provider. Before a batched stage computes the keys its cache lacks, it claims
them in the cache's ``claims`` table (one transaction: a key already cached or claimed by a live
run is not claimed); it computes only its own, writes their values, and releases each batch's
claims as the batch is written. The keys another run holds it waits for, polling the cache, and
reads them when they arrive; a claim released without a value (the other run failed on it), or a
stale one, it takes over and computes itself.

A claim is stale when its run's process is gone (the same host, and ``kill(pid, 0)`` finds no
process: a run killed with ``kill -9`` leaves its claims behind) or when it has not been renewed
for :data:`TTL` seconds (a run renews its claims each time it writes a batch: one stuck that long,
or on another host, is taken over). So a wait is bounded: by the claimant's progress, else by
:data:`TTL`.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from typing import Callable, Iterable, Sequence

from .db import key_hash

#: seconds a claim lasts without being renewed (each batch written renews a run's claims)
TTL = 900.0
#: seconds between two looks at the cache while waiting for another run's keys
POLL = 0.25
_CHUNK = 500  # keys per statement


def alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this host (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


class Claims:
    """The claims of one batched computation on one :class:`~sit.cache.Store`."""

    def __init__(self, store, *, ttl: float = TTL, clock: Callable[[], float] = time.time):
        self.store = store
        self.ttl = ttl
        self.clock = clock
        self.pid = os.getpid()
        self.host = socket.gethostname()
        self.owner = f"{self.host}:{self.pid}:{uuid.uuid4().hex}"

    def claim(self, keys: Sequence[str]) -> tuple[list[str], list[str]]:
        """(the keys now this run's, the keys cached or held by another live run meanwhile), in
        the order given."""
        mine: list[str] = []
        for start in range(0, len(keys), _CHUNK):
            chunk = list(keys[start:start + _CHUNK])
            mine += self.store.cache.db.write(lambda conn: self._claim(conn, chunk))
        taken = set(mine)
        return mine, [k for k in keys if k not in taken]

    def _claim(self, conn, keys: list[str]) -> list[str]:
        ns = self.store.namespace_id(conn, create=True)
        wanted = {key_hash(k): k for k in keys}
        marks = ",".join("?" * len(wanted))
        cached = {h for h, k in conn.execute(f"SELECT h, k FROM entries WHERE ns = ? AND h IN ({marks})", (ns, *wanted))
                  if wanted.get(h) == k}
        now = self.clock()
        held = {h for h, owner, pid, host, expires in conn.execute(
            f"SELECT h, owner, pid, host, expires FROM claims WHERE ns = ? AND h IN ({marks})", (ns, *wanted))
            if owner != self.owner and expires > now and (host != self.host or alive(pid))}
        mine = [h for h in wanted if h not in cached and h not in held]
        conn.executemany("INSERT OR REPLACE INTO claims (ns, h, owner, pid, host, expires) VALUES (?, ?, ?, ?, ?, ?)",
                         [(ns, h, self.owner, self.pid, self.host, now + self.ttl) for h in mine])
        return [wanted[h] for h in mine]

    def release(self, keys: Iterable[str]) -> None:
        """Give up this run's claims on ``keys`` (their values are written, or will not be) and
        renew the others: this run is making progress, they last another :attr:`ttl` seconds."""
        hashes = [key_hash(k) for k in keys]

        def write(conn) -> None:
            for start in range(0, len(hashes), _CHUNK):
                chunk = hashes[start:start + _CHUNK]
                conn.execute(f"DELETE FROM claims WHERE owner = ? AND h IN ({','.join('?' * len(chunk))})",
                             (self.owner, *chunk))
            conn.execute("UPDATE claims SET expires = ? WHERE owner = ?", (self.clock() + self.ttl, self.owner))

        self.store.cache.db.write(write)

    def release_all(self) -> None:
        self.store.cache.db.write(lambda conn: conn.execute("DELETE FROM claims WHERE owner = ?", (self.owner,)))
