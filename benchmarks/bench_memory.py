"""Where a run's memory goes, stage by stage (prints figures; asserts nothing).

    python benchmarks/bench_memory.py --sizes 500,5000 [--cache-dir DIR] [--top 15]

For each size, ``sit run --input news-N.txt --translator apertium --relation sit --perturber
character_swap`` (N generated news-like sentences, ``benchmarks/newslike.py``) runs in a process
of its own under :mod:`tracemalloc`: the memory Python allocated (traced, not the process's
resident size: the interpreter, C libraries and freed-but-kept pages are not in it) at the start
and end of each stage of ``run.json``'s timings, the highest it reached, and the allocation sites
holding most at the snapshot nearest that peak (taken by a watcher thread whenever the traced
total grows by 3%). Run it twice on the same ``--cache-dir`` for a cached run's figures: the first
run fills the cache. tracemalloc slows a run about threefold; ``benchmarks/bench_run.py`` gives the
resident peaks (max RSS) the targets are set on.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

#: run in the child process: sit run under tracemalloc, stage marks, the snapshot nearest the peak
CHILD = r'''
import sys, threading, time, tracemalloc
from contextlib import contextmanager
tracemalloc.start(8)
import sit.pipeline as pipeline

top = int(sys.argv[1])
best = {"current": 0, "snapshot": None, "stage": ""}
now = ["start"]
marks = []
plain_stage = pipeline._Timer.stage

@contextmanager
def stage(self, name):
    marks.append((name, "start", *tracemalloc.get_traced_memory()))
    now[0] = name
    with plain_stage(self, name):
        yield
    marks.append((name, "end", *tracemalloc.get_traced_memory()))

pipeline._Timer.stage = stage
done = threading.Event()

def watch():
    while not done.is_set():
        current = tracemalloc.get_traced_memory()[0]
        if current > best["current"] * 1.03:
            best.update(current=current, snapshot=tracemalloc.take_snapshot(), stage=now[0])
        time.sleep(0.2)

threading.Thread(target=watch, daemon=True).start()
from sit.cli import main
try:
    code = main(["run", *sys.argv[2:]])
except SystemExit as stop:
    code = stop.code
done.set()
MB = 2 ** 20
for name, when, current, peak in marks:
    print(f"  {name:>9} {when:<5} traced {current / MB:7.1f} MB   highest so far {peak / MB:7.1f} MB")
print(f"  highest traced {tracemalloc.get_traced_memory()[1] / MB:.1f} MB; snapshot at "
      f"{best['current'] / MB:.1f} MB in stage {best['stage']}; the sites holding most there:")
snapshot = best["snapshot"].filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
for stat in snapshot.statistics("traceback")[:top]:
    frames = [f for f in stat.traceback if "/sit/" in f.filename] or list(stat.traceback)
    where = ", ".join(f"{Path(f.filename).name}:{f.lineno}" for f in frames[-3:][::-1])
    print(f"  {stat.size / MB:7.1f} MB {stat.count:>8} blocks  {where}")
sys.exit(code or 0)
'''


def main() -> None:
    from newslike import sentences

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="500,5000", help="corpus sizes")
    ap.add_argument("--cache-dir", type=Path, default=None, help="the runs' cache (default: a new one per size)")
    ap.add_argument("--top", type=int, default=15, help="allocation sites to list")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    corpus = sentences(max(sizes))
    print(f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            source = Path(tmp) / f"news-{n}.txt"
            source.write_text("".join(s + "\n" for s in corpus[:n]), encoding="utf-8")
            cache = args.cache_dir / f"cache-{n}" if args.cache_dir else Path(tmp) / f"cache-{n}"
            print(f"{n:,} sentences, --relation sit --perturber character_swap, Apertium, cache {cache}")
            env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": os.environ.get("HF_HUB_OFFLINE", "1")}
            subprocess.run([sys.executable, "-c", CHILD.replace("Path(", "__import__('pathlib').Path("), str(args.top),
                            "--input", str(source), "--translator", "apertium", "--relation", "sit",
                            "--perturber", "character_swap", "--cache-dir", str(cache),
                            "--out", str(Path(tmp) / f"run-{n}"), "--no-progress"],
                           cwd=ROOT, env=env, check=True, stdout=None, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
