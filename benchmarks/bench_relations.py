"""Benchmark: the cost of adding rti and patinv to a sit run (prints figures; no assertion).

On 200 sentences (``datasets/news.txt``, Apertium en->es, offline), each in a fresh process:

1. ``--relation sit`` on an empty cache;
2. ``--relation sit,rti,patinv`` on that cache: the texts it translates are what rti and patinv
   add (sit's texts are cache hits), and its wall time less run 1's is their cost;
3. ``--relation sit,rti,patinv`` on an empty cache of its own: the three in one pass, cold;
4. run 3 again: the cached re-run (no translator call).

Per run: test cases per relation, texts translated, cache hits, translator calls, wall time per
stage and in all.

    python3 benchmarks/bench_relations.py [--input datasets/news.txt] [--keep DIR]

``--keep DIR`` leaves the run directories (run 3 is ``DIR/all-cold``) and caches there.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_pipeline import run_once  # noqa: E402 (one fresh process per run, as there)

STAGES = ("setup", "perturb", "cases", "translate", "check", "report")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--input", default=str(ROOT / "datasets" / "news.txt"))
    ap.add_argument("--keep", help="leave run directories and caches in this directory")
    args = ap.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="sit-bench-rel-"))
    work.mkdir(parents=True, exist_ok=True)
    base = {"input": str(Path(args.input).resolve()), "translator": "apertium", "progress": False}
    runs = [
        ("sit, cold", "sit-cold", "shared", ("sit",)),
        ("+rti,patinv", "all-after-sit", "shared", ("sit", "rti", "patinv")),
        ("all three, cold", "all-cold", "all", ("sit", "rti", "patinv")),
        ("all three, re-run", "all-rerun", "all", ("sit", "rti", "patinv")),
    ]
    print(f"input: {args.input}; Apertium en->es; each run in a fresh process")
    print(f"{'run':<18} {'cases sit/rti/patinv':>20} {'texts':>6} {'transl':>6} {'hits':>5} {'calls':>5} "
          + " ".join(f"{s:>9}" for s in STAGES) + f" {'wall s':>7}")
    results = {}
    for label, out, cache, relations in runs:
        res = run_once({**base, "relations": list(relations), "out": str(work / out),
                        "cache_dir": str(work / f"cache-{cache}")})
        results[label] = res
        c, t = res["counts"], res["timings"]
        cases = "/".join(str(c["relations"].get(r, {}).get("cases", "-")) for r in ("sit", "rti", "patinv"))
        print(f"{label:<18} {cases:>20} {c['translations']:>6} {c['translated']:>6} {c['cache_hits']:>5} "
              f"{c['translator_calls']:>5} " + " ".join(f"{t.get(s, 0):>9.2f}" for s in STAGES)
              + f" {res['wall']:>7.1f}")
    sit_only, added = results["sit, cold"], results["+rti,patinv"]
    print(f"adding rti and patinv to a sit run: {added['counts']['translated']} more texts translated "
          f"({added['counts']['translations']} needed in all, {sit_only['counts']['translations']} for sit alone); "
          f"wall {sit_only['wall']:.1f} s -> {results['all three, cold']['wall']:.1f} s cold in one pass "
          f"(+{results['all three, cold']['wall'] - sit_only['wall']:.1f} s); "
          f"after a sit run, {added['wall']:.1f} s")
    print(f"work directory: {work}")


if __name__ == "__main__":
    main()
