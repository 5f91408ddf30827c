"""Recall of the production relations against injected faults, and false alarms on a clean
translator (the harness of tests/test_production_relations_recall.py, with figures printed).

    python3 benchmarks/bench_recall.py [--sentences 200] [--per-fault 20]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's sit, and the test translators

from production_fakes import (DictTranslator, FaultyTranslator, corpus, false_alarms,  # noqa: E402
                              recall, run_recall)
from sit.translators import TRANSLATORS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=200)
    ap.add_argument("--per-fault", type=int, default=20)
    args = ap.parse_args()
    TRANSLATORS.register("dict-test", DictTranslator)
    TRANSLATORS.register("faulty-test", FaultyTranslator)
    texts, faults = corpus(n=args.sentences, per_fault=args.per_fault)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        issues = run_recall("faulty-test", texts, tmp)
        print(f"faulty translator: {len(texts)} sentences, {len(faults)} with a fault "
              f"({time.perf_counter() - start:.1f} s)")
        for fault, (found, injected) in recall(issues, faults).items():
            print(f"  {fault:13} found {found}/{injected} = {found / injected:.0%}")
        start = time.perf_counter()
        issues = run_recall("dict-test", texts, tmp)
        flagged, total, groups = false_alarms(issues, texts)
        print(f"clean translator: {flagged}/{total} = {flagged / total:.1%} of sentences flagged "
              f"({time.perf_counter() - start:.1f} s); findings by group: {groups or 'none'}")


if __name__ == "__main__":
    main()
