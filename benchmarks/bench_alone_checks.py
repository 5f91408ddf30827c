"""What each single-translation check costs over a run's translations: every text of a run
directory's ``translations.jsonl`` checked by itself, each check built afresh (its language data
loaded, as in a cold run), against the run's own total time (``run.json``'s timings).

    python3 benchmarks/bench_alone_checks.py RUN_DIR [--checks spelling,typography] [--target-lang es]

docs/performance.md ("Issue 45") has the figures of the news run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", type=Path)
    ap.add_argument("--checks", default="spelling,typography")
    ap.add_argument("--source-lang", default="en")
    ap.add_argument("--target-lang", default="es")
    args = ap.parse_args()
    from sit.cache import Cache
    from sit.relations import RunContext, create_relation
    from sit.relations.every import Origin

    rows = [json.loads(line) for line in (args.run_dir / "translations.jsonl").read_text(encoding="utf-8").splitlines()]
    translation = {r["text"]: r["translation"] for r in rows if r.get("translation") is not None}
    total = sum(json.loads((args.run_dir / "run.json").read_text(encoding="utf-8"))["timings"].values())
    print(f"{args.run_dir}: {len(translation)} texts; the run took {total:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.checks.split(","):
            start = time.perf_counter()
            ctx = RunContext(Cache(tmp), args.source_lang, args.target_lang)
            ctx.origins = {r["text"]: Origin(r.get("source_id", -1)) for r in rows}
            relation = create_relation(name, ctx, {})
            built = time.perf_counter() - start
            found = relation.check([], translation)
            spent = time.perf_counter() - start
            print(f"  {name:11} {spent:6.2f} s ({built:.2f} s to build, {spent - built:.2f} s to check), "
                  f"{spent / total:.1%} of the run; {len(found.issues)} finding(s)")


if __name__ == "__main__":
    main()
