"""Bar figures of issue 36 (prints figures; asserts nothing).

    python benchmarks/bench_run.py [--skip-default] [--sizes 500,5000,20000] [--engine local,ray]
                                   [--against DIR | --against-commit REV] [--input FILE|long]
                                   [--repeat 1] [--cached-runs 3]

1. **The default run on the news set** (200 sentences, ``sit/datasets/news.txt``; Apertium; the
   default relations sit, numbers, passthrough, case, language; the offline defaults): a cold run
   (empty cache) and ``--cached-runs`` cached re-runs, each the ``sit run`` command as a user
   types it, in a process of its own: wall time from start to exit, CPU time, peak memory (max
   RSS, from ``wait4``) and the time of each stage (``run.json``). Targets (quiet 2-core machine): cold <= 30 s and <= 900 MB, cached
   <= 1.2 s.
2. **Memory against input size**: ``--relation sit --perturber character_swap`` (Apertium) on
   500, 5,000 and 20,000 generated news-like sentences (``benchmarks/newslike.py``: distinct
   sentences, so the cache answers nothing of a cold run), cold and cached, per engine. Targets: the
   peak at 5,000 at most 1.25x that at 500 (cold and cached), 20,000 under 1 GB; the same with
   ``--engine ray`` for the driver (the process of ``sit run``; Ray's workers are apart).

``--input FILE`` runs the default relations on FILE instead of the news set; ``--input long`` on the
200 longest WordNet example sentences (``/usr/share/wordnet``, longest by words, ties by text: 18 to
58 words, 23.4 on average against news's 19.5), written into the work folder.
``--against-commit REV`` is ``--against`` on a temporary ``git worktree`` of REV (made before the
runs, removed after them; the same virtual environment, ``PYTHONPATH`` pointing at it).

``--against DIR`` runs every measurement also with the checkout at DIR (another branch, say main),
each pair of runs one after the other, so both see the same load: on a shared machine compare
paired figures only (CPU time, user + system, is less sensitive to the load than wall time; peak
memory not at all). The load average is printed beside each figure. ``sit eval``'s figure is
``benchmarks/bench_eval.py``'s. Bytecode is written under the work folder (``PYTHONPYCACHEPREFIX``),
as an installed sit has it, whatever ``PYTHONDONTWRITEBYTECODE`` says; the first run of an invocation compiles the libraries' bytecode
(torch, transformers, spaCy: several seconds of CPU) unless ``--pycache DIR`` names a folder an
earlier invocation filled, so in a pair run with a fresh folder the first checkout pays it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEWS = ROOT / "sit" / "datasets" / "news.txt"
STAGES = ("setup", "perturb", "cases", "translate", "check", "write", "report")
sys.path.insert(0, str(ROOT / "benchmarks"))


def sit_run(code: Path, args: list[str], out: Path, pycache: Path | None = None) -> dict:
    """``sit run ARGS --out OUT`` with the checkout ``code``, in a process of its own: run.json's
    counts and timings, the process's wall time and peak memory (MB). Bytecode goes under
    ``pycache`` (default: beside ``out``)."""
    env = {**os.environ, "PYTHONPATH": str(code), "HF_HUB_OFFLINE": os.environ.get("HF_HUB_OFFLINE", "1"),
           # compiled once, as an installed package is: a checkout run with PYTHONDONTWRITEBYTECODE
           # compiles sit's modules at every start (0.1-0.2 s of a cached run); kept outside the checkout
           "PYTHONPYCACHEPREFIX": str(pycache or out.parent / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    with open(out.with_suffix(".log"), "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "sit.cli", "run", *args, "--out", str(out), "--no-progress"],
                                stdout=log, stderr=subprocess.STDOUT, cwd=code, env=env)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:  # interrupted: the run goes with the benchmark
            proc.kill()
            proc.wait()
            raise
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(out.with_suffix(".log").read_text())
    meta = json.loads((out / "run.json").read_text())
    return {"wall": wall, "cpu": cpu, "mb": usage.ru_maxrss / 1024, "load": load, "timings": meta["timings"],
            "counts": meta["counts"]}


@contextlib.contextmanager
def commit_checkout(rev: str | None, tmp: Path):
    """A temporary ``git worktree`` of ``rev`` (detached) for the time of the block, then removed;
    None where no commit was given."""
    if not rev:
        yield None
        return
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    path = tmp / f"against-{sha[:10]}"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(path), sha], cwd=ROOT, check=True)
    print(f"against: {rev} = {sha[:10]} (a temporary worktree)")
    try:
        yield path
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False)


def checkouts(args) -> list[tuple[str, Path]]:
    out = [("this", ROOT)]
    if args.against:
        out.append(("against", Path(args.against).resolve()))
    return out


def long_sentences(n: int = 200) -> list[str]:
    """The ``n`` longest WordNet example sentences (by words, ties by text), each once, capitalised and
    ended by a full stop as bench_cache's are."""
    from bench_cache import wordnet_examples

    return sorted(wordnet_examples(longest=None), key=lambda s: (-len(s.split()), s))[:n]


def source_args(work: Path, args) -> tuple[str, list[str]]:
    """What the default run reads: its name and the options of ``sit run`` that give it."""
    if not args.input:
        return f"{NEWS.name} (200 sentences)", ["--dataset", "news"]
    if args.input == "long":
        path = work / "long.txt"
        path.write_text("".join(s + "\n" for s in long_sentences()), encoding="utf-8")
    else:
        path = Path(args.input).resolve()
    lines = path.read_text(encoding="utf-8").splitlines()
    words = sum(len(line.split()) for line in lines) / max(len(lines), 1)
    return f"{path.name} ({len(lines)} lines, {words:.1f} words each)", ["--input", str(path)]


def default_run(work: Path, args) -> None:
    name, source = source_args(work, args)
    print(f"1. default relations on {name}, Apertium; cores {os.cpu_count()}")
    print(f"{'checkout':<9} {'run':<7} {'load':>5} {'wall s':>7} {'CPU s':>6} {'peak MB':>8}  "
          + " ".join(f"{s[:9]:>9}" for s in STAGES))
    seen: dict[tuple[str, str], list[dict]] = {}
    for rep in range(args.repeat):
        for label, code in checkouts(args):
            cache = work / f"cache-default-{label}-{rep}"
            for i, kind in enumerate(["cold"] + ["cached"] * args.cached_runs):
                r = sit_run(code, [*source, "--translator", "apertium", "--cache-dir", str(cache)],
                            work / f"default-{label}-{kind}-{rep}-{i}", args.pycache)
                seen.setdefault((label, kind), []).append(r)
                t = r["timings"]
                print(f"{label:<9} {kind:<7} {r['load']:>5.1f} {r['wall']:>7.2f} {r['cpu']:>6.2f} {r['mb']:>8.0f}  "
                      + " ".join(f"{t.get(s, 0):>9.2f}" for s in STAGES), flush=True)
    for (label, kind), runs in seen.items():
        print(f"{label} {kind}: median wall {statistics.median(r['wall'] for r in runs):.2f} s, CPU "
              f"{statistics.median(r['cpu'] for r in runs):.2f} s, peak {max(r['mb'] for r in runs):.0f} MB, "
              f"load {min(r['load'] for r in runs):.1f}-{max(r['load'] for r in runs):.1f} ({len(runs)} runs)")
    print("targets (quiet 2-core machine): cold <= 30 s and <= 900 MB; cached <= 1.2 s")


def scale(work: Path, args) -> None:
    from newslike import sentences

    sizes = [int(s) for s in args.sizes.split(",")]
    corpus = sentences(max(sizes))
    print(f"2. --relation sit --perturber character_swap, Apertium, on generated news-like sentences")
    print(f"{'checkout':<9} {'engine':<6} {'sentences':>9} {'run':<7} {'load':>5} {'wall s':>8} {'peak MB':>8} {'cases':>7}")
    peaks: dict = {}
    for engine in args.engine.split(","):
        for n in sizes:
            source = work / f"news-{n}.txt"
            source.write_text("".join(s + "\n" for s in corpus[:n]), encoding="utf-8")
            for label, code in checkouts(args):
                cache = work / f"cache-{engine}-{n}-{label}"
                for kind in ("cold", "cached"):
                    r = sit_run(code, ["--input", str(source), "--translator", "apertium", "--relation", "sit",
                                       "--perturber", "character_swap", "--engine", engine, "--cache-dir", str(cache)],
                                work / f"scale-{engine}-{n}-{label}-{kind}", args.pycache)
                    peaks[(label, engine, n, kind)] = r["mb"]
                    print(f"{label:<9} {engine:<6} {n:>9,} {kind:<7} {r['load']:>5.1f} {r['wall']:>8.2f} "
                          f"{r['mb']:>8.0f} {r['counts']['cases']:>7,}", flush=True)
    for (label, engine, n, kind), mb in sorted(peaks.items()):
        if n != sizes[0]:
            base = peaks[(label, engine, sizes[0], kind)]
            print(f"{label}, {engine}, {kind}: peak at {n:,} / at {sizes[0]:,} = {mb / base:.2f}x")
    print("targets: 5,000 / 500 <= 1.25x (cold and cached, each engine's driver); 20,000 < 1024 MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-default", action="store_true", help="leave out the default run on news")
    ap.add_argument("--sizes", default="500,5000,20000", help="corpus sizes of the memory figures ('' for none)")
    ap.add_argument("--engine", default="local", help="engines of the memory figures: local, ray or local,ray")
    ap.add_argument("--against", default=None, help="another checkout to measure beside this one, run by run")
    ap.add_argument("--against-commit", default=None,
                    help="a commit to measure beside this checkout, run by run (a temporary git worktree)")
    ap.add_argument("--input", default=None,
                    help="the default run's input: a file of sentences, or 'long' (WordNet's longest examples)")
    ap.add_argument("--repeat", type=int, default=1, help="repeats of the default run")
    ap.add_argument("--cached-runs", type=int, default=3, help="cached re-runs after each cold default run")
    ap.add_argument("--pycache", type=Path, default=None,
                    help="bytecode folder kept between invocations (default: in the work folder, so the first "
                         "run of an invocation compiles the libraries' bytecode and costs more)")
    ap.add_argument("--work", type=Path, default=None, help="keep the runs here (default: a temporary folder)")
    args = ap.parse_args()
    if args.against and args.against_commit:
        ap.error("give --against or --against-commit, not both")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a killed benchmark still removes its worktree
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        print(f"load average {os.getloadavg()[0]:.1f} at the start; {os.cpu_count()} cores")
        with commit_checkout(args.against_commit, Path(tmp)) as against:
            if against:
                args.against = str(against)
            if not args.skip_default:
                default_run(work, args)
            if args.sizes:
                scale(work, args)


if __name__ == "__main__":
    main()
