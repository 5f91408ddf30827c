"""Benchmark of the cache at scale (prints figures; no assertion). Issue 25.

(a) A cached re-run of 200 sentences (``sit run --dataset news``, Apertium en->es, the offline
    defaults) against caches of 10^4, 10^5, 10^6 and 10^7 entries: one cold run fills the cache
    with the run's own entries, then filler translations (random keys of news-sentence length, in
    the run's own translation store, so they share its index) grow it to each size, and the same
    command runs again, each time as a process of its own: its wall time from start to exit and
    its peak memory (max RSS), best of 3, and the database's size. Target: at most 2 s and 300 MB
    at every size.
(b) Cold and cached runs of 200, 2,000 and 20,000 sentences (WordNet's example sentences, from
    /usr/share/wordnet, in a fixed order) with a cheap perturber (``character_swap``) and
    Apertium: wall time per sentence, peak memory and the time of each stage (run.json).
    Target: time per sentence within 20% from 200 to 20,000; memory growing no faster than the
    run's own outputs.

    python3 benchmarks/bench_cache.py [--sizes 1e4,1e5,1e6,1e7] [--inputs 200,2000,20000]
                                      [--skip-a] [--skip-b] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sit.cache.db import key_hash  # noqa: E402


def _sit(*args: str) -> tuple[float, float, dict]:
    """Run ``sit`` as a user would, in a process of its own: wall seconds, peak MB, run.json."""
    out = None
    if "--out" in args:
        out = Path(args[args.index("--out") + 1])
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "sit.cli", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 6):
        raise SystemExit(f"sit {' '.join(args)} failed ({proc.returncode}):\n{err}")
    meta = json.loads((out / "run.json").read_text()) if out else {}
    return wall, usage.ru_maxrss / 1024, meta


def _entries(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    finally:
        conn.close()


def _fill(db: Path, total: int, rng: random.Random) -> None:
    """Add filler translations to the run's translation store until the cache holds ``total``."""
    conn = sqlite3.connect(db, isolation_level=None)
    ns = conn.execute("SELECT id FROM namespaces WHERE kind = 'translations'").fetchone()[0]
    have = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    words = "the of bank market said year government people company percent new would".split()
    now = int(time.time())
    while have < total:
        n = min(100_000, total - have)
        rows = []
        for i in range(n):
            key = f"{have + i} " + " ".join(rng.choices(words, k=18)) + "."
            rows.append((ns, key_hash(key), key, json.dumps("el " + key), now))
        conn.execute("BEGIN")
        conn.executemany("INSERT OR IGNORE INTO entries (ns, h, k, v, t) VALUES (?, ?, ?, ?, ?)", rows)
        conn.execute("COMMIT")
        have += n
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def bench_a(work: Path, sizes: list[int]) -> None:
    cache, out = work / "a-cache", work / "a-run"
    run = ("run", "--dataset", "news", "--translator", "apertium", "--relation", "sit", "--cache-dir", str(cache),
           "--out", str(out), "--no-progress")  # sit alone: the figures stay comparable as the default grows
    wall, peak, meta = _sit(*run)
    own = _entries(cache / "cache.sqlite3")
    print(f"(a) cold run to fill the cache: {wall:.1f} s, {peak:.0f} MB; the run's own entries: {own}")
    print("| cache entries | database | cached re-run (wall, best of 3) | peak memory | translator calls |")
    print("|---|---|---|---|---|")
    rng = random.Random(25)
    for size in sizes:
        t = time.perf_counter()
        _fill(cache / "cache.sqlite3", size, rng)
        filled = time.perf_counter() - t
        runs = [_sit(*run) for _ in range(3)]
        best = min(runs, key=lambda r: r[0])
        mb = (cache / "cache.sqlite3").stat().st_size / 1e6
        calls = best[2]["counts"]["translator_calls"]
        print(f"| {_entries(cache / 'cache.sqlite3'):,} | {mb:,.0f} MB (filled in {filled:.0f} s) | {best[0]:.2f} s "
              f"(all: {', '.join(f'{r[0]:.2f}' for r in runs)}) | {max(r[1] for r in runs):.0f} MB | {calls} |",
              flush=True)


def wordnet_examples(longest: int | None = 200) -> list[str]:
    """WordNet's example sentences of 30 to ``longest`` characters (None: no bound), each once, in
    the files' order (/usr/share/wordnet), capitalised and ended by a full stop."""
    found: dict[str, None] = {}
    pattern = re.compile(r'"([^"]{30,%s})"' % ("" if longest is None else longest))
    for pos in ("noun", "verb", "adj", "adv"):
        with open(f"/usr/share/wordnet/data.{pos}", encoding="latin-1") as fh:
            for line in fh:
                if not line.startswith("  "):
                    for ex in pattern.findall(line):
                        found[ex[0].upper() + ex[1:].rstrip() + ("" if ex.rstrip()[-1] in ".?!" else ".")] = None
    return list(found)


def _wordnet_sentences(n: int) -> list[str]:
    texts = wordnet_examples()
    random.Random(25).shuffle(texts)
    if len(texts) < n:
        raise SystemExit(f"WordNet's examples give {len(texts)} sentences, fewer than {n}")
    return texts[:n]


def bench_b(work: Path, inputs: list[int]) -> None:
    print("\n(b) cold and cached runs, character_swap + Apertium en->es, WordNet example sentences")
    print("| sentences | run | wall | per sentence | peak memory | texts translated | stages (s) |")
    print("|---|---|---|---|---|---|---|")
    for n in inputs:
        corpus = work / f"b-{n}.txt"
        corpus.write_text("\n".join(_wordnet_sentences(n)) + "\n", encoding="utf-8")
        cache = work / f"b-cache-{n}"
        for label in ("cold", "cached"):
            out = work / f"b-run-{n}-{label}"
            wall, peak, meta = _sit("run", "--input", str(corpus), "--perturber", "character_swap", "--translator",
                                    "apertium", "--relation", "sit", "--cache-dir", str(cache), "--out", str(out),
                                    "--no-progress")
            stages = ", ".join(f"{k} {v:.1f}" for k, v in meta["timings"].items())
            print(f"| {n:,} | {label} | {wall:.1f} s | {1000 * wall / n:.1f} ms | {peak:.0f} MB | "
                  f"{meta['counts']['translated']:,} of {meta['counts']['translations']:,} | {stages} |", flush=True)
            shutil.rmtree(out)
        shutil.rmtree(cache)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1e4,1e5,1e6,1e7")
    ap.add_argument("--inputs", default="200,2000,20000")
    ap.add_argument("--skip-a", action="store_true")
    ap.add_argument("--skip-b", action="store_true")
    ap.add_argument("--workdir", help="where the caches and runs go (default: a temporary directory)")
    args = ap.parse_args()
    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="bench-cache-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; work in {work}")
    try:
        if not args.skip_a:
            bench_a(work, [int(float(s)) for s in args.sizes.split(",")])
        if not args.skip_b:
            bench_b(work, [int(float(s)) for s in args.inputs.split(",")])
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
