"""Recall of the production relations against injected faults, and false alarms on a clean
translator (the harness of tests/test_production_relations_recall.py, with figures printed).

    python3 benchmarks/bench_recall.py [--sentences 200] [--per-fault 20]
    python3 benchmarks/bench_recall.py --every [--sentences 60]

``--every``: faults injected into 15% of any text the translator is asked (AnyFaultTranslator),
``--relation all``, and how many injected texts of each fault type a finding names (issue 33).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's sit, and the test translators

from production_fakes import (AnyFaultTranslator, DictTranslator, FaultyTranslator,  # noqa: E402
                              InventingTranslator, corpus, false_alarms, named_recall, named_share, recall, run_all,
                              run_recall)
from sit.translators import TRANSLATORS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=200)
    ap.add_argument("--per-fault", type=int, default=20)
    ap.add_argument("--every", action="store_true", help="faults in 15%% of every text, --relation all")
    args = ap.parse_args()
    if args.every:
        return every(args.sentences)
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


def every(n: int) -> None:
    """Faults in 15% of any text asked, ``--relation all``: injected texts named, per fault type."""
    TRANSLATORS.register("anyfault-test", AnyFaultTranslator)
    TRANSLATORS.register("inventing-test", InventingTranslator)
    texts, _ = corpus(n=n, per_fault=0)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        issues, asked = run_all("anyfault-test", texts, tmp)
        print(f"faulty translator, --relation all: {len(texts)} sentences, {len(asked)} texts translated "
              f"({time.perf_counter() - start:.1f} s)")
        for fault, (found, injected) in named_recall(issues, asked).items():
            print(f"  {fault:13} named {found}/{injected} = {found / max(1, injected):.0%}")
        issues, asked = run_all("inventing-test", texts, tmp)
        named, total, groups = named_share(issues, asked)
        print(f"clean translator: {named}/{total} = {named / total:.1%} of texts named; findings: {groups or 'none'}")


if __name__ == "__main__":
    main()
