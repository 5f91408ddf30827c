"""Runs sharing a cache pay once (issue 38, the hostile probe's "concurrent runs pay twice"): real
processes translate the same texts through a fake provider on 127.0.0.1 that counts what it is
sent, against one cache directory. A text one run is translating is claimed in the cache; the
others wait for it and read it back; a claim whose process was killed with kill -9 is taken
over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from fakes import FAKES, dictionary_translate, slow
from fakes.fixtures import _no_real_credentials  # noqa: F401 (fixture)

from sit.cache import Cache
from sit.cache.claims import Claims

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [f"The senator {n} rejected the budget of {1990 + n}." for n in range(24)]
WORKER = """
import json, sys, time
from pathlib import Path
from sit.cache import Cache
from sit.translators import get_translator
cache, texts, go = sys.argv[1], json.loads(Path(sys.argv[2]).read_text()), Path(sys.argv[3])
tr = get_translator("google", source_lang="en", target_lang="es", cache=Cache(cache), batch_size=int(sys.argv[4]))
while not go.exists():
    time.sleep(0.01)
out = tr.translate(texts)
print(json.dumps({"out": out, "translated": tr.stats.computed, "hits": tr.stats.cache_hits}))
"""


def _start(fake, tmp_path: Path, n: int, batch: int = 4) -> list[subprocess.Popen]:
    (tmp_path / "texts.json").write_text(json.dumps(TEXTS))
    env = {**os.environ, **fake.env(), "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / "cache"), str(tmp_path / "texts.json"),
                              str(tmp_path / "go"), str(batch)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(n)]


def _results(procs: list[subprocess.Popen]) -> list[dict]:
    """Each worker's printed result; a worker that failed fails the test with its stderr."""
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0 and out, err
    return [json.loads(out) for out, _ in outs]


def _sent_twice(fake) -> int:
    texts = fake.translated_texts
    return len(texts) - len(set(texts))


def test_three_runs_at_once_send_each_text_once(tmp_path):
    with FAKES["google"]().start() as fake:
        fake.fail_from(1, slow(0.05))  # the runs overlap: each request takes a while
        procs = _start(fake, tmp_path, 3)
        time.sleep(0.5)
        (tmp_path / "go").touch()
        results = _results(procs)
    truth = dictionary_translate(TEXTS, "en", "es")
    assert all(r["out"] == truth for r in results)
    assert not fake.problems and _sent_twice(fake) == 0 and sorted(fake.translated_texts) == sorted(TEXTS)
    # one run translated them all; the others read them from the cache as they arrived
    assert sorted(r["translated"] for r in results) == [0, 0, len(TEXTS)]


def test_a_claimant_killed_mid_batch_is_taken_over(tmp_path):
    with FAKES["google"]().start() as fake:
        fake.fail_from(1, slow(0.4))
        first = _start(fake, tmp_path, 1, batch=2)[0]
        (tmp_path / "go").touch()
        while not fake.calls:  # the first run has claimed every text and sent its first batch
            time.sleep(0.02)
        second = _start(fake, tmp_path, 1, batch=2)[0]
        time.sleep(1.5)  # the second run is waiting on the first's claims
        os.kill(first.pid, signal.SIGKILL)
        first.communicate(timeout=60)
        out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    result = json.loads(out)
    assert result["out"] == dictionary_translate(TEXTS, "en", "es") and result["translated"] > 0
    # at most the batch in flight at the kill was paid for twice
    assert _sent_twice(fake) <= 2 and set(fake.translated_texts) == set(TEXTS)


def test_a_claim_is_stale_once_its_process_is_gone_or_its_time_is_up(tmp_path):
    cache = Cache(tmp_path / "c")
    store = cache.store("translations", {"name": "t"})
    now = [1000.0]
    holder = Claims(store, ttl=60, clock=lambda: now[0])
    assert holder.claim(["a", "b"]) == (["a", "b"], [])
    other = Claims(store, ttl=60, clock=lambda: now[0])
    assert other.claim(["b", "c"]) == (["c"], ["b"])  # b is held by a live run
    store.put("c", "ce")
    assert Claims(store, clock=lambda: now[0]).claim(["c"]) == ([], ["c"])  # cached meanwhile: not claimed
    holder.release(["a"])
    assert other.claim(["a"]) == (["a"], [])  # released: free
    now[0] += 61
    assert other.claim(["b"]) == (["b"], [])  # not renewed for its ttl: taken over
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    gone = Claims(store, ttl=60, clock=lambda: now[0])
    gone.pid = dead.pid  # a process that has exited: its claims are stale at once
    assert gone.claim(["d"]) == (["d"], [])
    assert other.claim(["d"]) == (["d"], [])


def test_a_run_opening_a_fresh_cache_while_another_sets_it_up_waits(tmp_path):
    """SQLite refuses a journal-mode change at once ("database is locked", no busy wait) while
    another connection holds a write lock on a file still in rollback mode: the moment another
    run is putting a fresh cache in WAL mode. Runs set the mode up under the cache's lock file, so
    a second run waits for the first instead of failing (CI lost one of three such runs)."""
    import fcntl
    import sqlite3
    import threading

    path = tmp_path / "c" / "cache.sqlite3"
    path.parent.mkdir()
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    lock = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(lock, fcntl.LOCK_EX)  # the other run is setting the file up ...
    other.execute("BEGIN IMMEDIATE")  # ... and holds its write lock meanwhile

    def finish():
        other.execute("PRAGMA user_version = 1")
        other.execute("COMMIT")
        os.close(lock)

    timer = threading.Timer(0.5, finish)
    timer.start()
    store = Cache(tmp_path / "c").store("translations", {"name": "t"})
    store.put("a", "b")
    timer.join()
    assert store.get("a") == "b"
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
