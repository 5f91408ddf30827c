"""Apertium eng-spa: a batch tagged apart against one process for the batch and one per text
(prints figures; no assertion).

1. Cost: ms per text of the adapter as it runs now (the mode stage by stage, the tagger fed one
   text at a time, restarted after a text with a new ambiguity class) and of the old way (one
   ``apertium -u`` process for the whole batch), on the news sentences and their character-swap
   variants (unknown words: the case the tagger's state changes), in batches of ``--batch``.
2. Agreement: how many of the first ``--alone`` texts translate differently from ``apertium -u``
   run on that text alone (about 150 ms a text), both ways.

    python3 benchmarks/bench_apertium.py [--batch 256] [--alone 200]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sit.inputs import read_sentences  # noqa: E402
from sit.perturb import PERTURBERS  # noqa: E402
from sit.translators.apertium import ApertiumTranslator  # noqa: E402


def texts() -> list[str]:
    news = list(read_sentences(path=ROOT / "sit" / "datasets" / "news.txt").texts)
    swapped = [p.perturbed for p in PERTURBERS.create("character_swap").perturb(news, random.Random(1))]
    return list(dict.fromkeys(news + swapped))


def batched(translator: ApertiumTranslator, items: list[str], size: int) -> tuple[list[str], float]:
    start = time.perf_counter()
    out = [y for i in range(0, len(items), size) for y in translator._translate_batch(items[i:i + size])]
    return out, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--alone", type=int, default=200, help="texts to translate one process each (0: none)")
    args = ap.parse_args()
    items = texts()
    apart = ApertiumTranslator()
    whole = ApertiumTranslator()
    whole._stages = None  # the old way: the whole mode in one process
    new, t_new = batched(apart, items, args.batch)
    old, t_old = batched(whole, items, args.batch)
    print(f"{len(items)} texts, batches of {args.batch}: tagged apart {1000 * t_new / len(items):.2f} ms/text, "
          f"one process a batch {1000 * t_old / len(items):.2f} ms/text")
    if args.alone:
        env = dict(os.environ, LC_ALL="C.UTF-8")
        start = time.perf_counter()
        alone = [subprocess.run(["apertium", "-u", "eng-spa"], input=t, capture_output=True, text=True, env=env)
                 .stdout.strip() for t in items[:args.alone]]
        t_alone = time.perf_counter() - start
        print(f"one process a text: {1000 * t_alone / len(alone):.0f} ms/text; of {len(alone)} texts, "
              f"{sum(a != b for a, b in zip(new, alone))} differ tagged apart, "
              f"{sum(a != b for a, b in zip(old, alone))} differ with one process a batch")


if __name__ == "__main__":
    main()
