"""Benchmark: the report stage of existing run directories (what `sit run` does after writing its
records): memory before and during `write_reports`, and its CPU time; prints figures.

    python benchmarks/bench_report_stage.py RUN_DIR [RUN_DIR ...] [--against /path/to/other/checkout]

Each run directory is copied to a temporary one and its reports written again in a fresh
interpreter (this checkout's `sit`, or with --against also the other checkout's, one after the
other), so what an earlier render left in memory counts nowhere. The report stage's peak is the
process's VmHWM reset through /proc/self/clear_refs just before `write_reports` (Linux). Not a
test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import shutil, sys, time
from sit.report import write_reports
from sit.rundir import load_run

def status():
    got = {l.split(":")[0]: int(l.split()[1]) // 1024 for l in open("/proc/self/status") if l.startswith(("VmHWM", "VmRSS"))}
    return got["VmRSS"], got["VmHWM"]

run = load_run(sys.argv[1], with_pairs=False)  # as sit run's reports read it
run = type(run)(run.path, run.meta, run.issues, [], None)
before = status()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
cpu, wall = time.process_time(), time.perf_counter()
write_reports(run)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(f"{len(run.issues)} {before[0]} {before[1]} {status()[1]} {cpu:.2f} {wall:.2f}")
"""


def measure(checkout: Path, run_dir: Path) -> str:
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        copy = Path(tmp) / "run"
        shutil.copytree(run_dir, copy)
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        out = subprocess.run([sys.executable, "-c", _CHILD, str(copy)], env=env, capture_output=True, text=True, cwd=tmp,
                             timeout=1800)
        if out.returncode:
            return f"failed: {out.stderr.strip().splitlines()[-1:]}"
        n, rss, hwm, peak, cpu, wall = out.stdout.split()
        return (f"{int(n):>7,} findings  before reports {rss:>4} MB (peak so far {hwm:>4} MB)  "
                f"peak in them {peak:>4} MB  {cpu:>6} s CPU  {wall:>6} s wall")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_dirs", nargs="+", type=Path)
    ap.add_argument("--against", type=Path, default=None, help="another checkout, measured beside this one")
    args = ap.parse_args(argv)
    here = Path(__file__).resolve().parents[1]
    checkouts = [("this", here)] + ([("against", args.against.resolve())] if args.against else [])
    print(f"load: {os.getloadavg()[0]:.1f}")
    for run_dir in args.run_dirs:
        for name, checkout in checkouts:
            print(f"{run_dir.name:<24} {name:<8} {measure(checkout, run_dir)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
