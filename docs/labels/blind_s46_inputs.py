"""The held-out English sentences of the stop-46 blind sheets (docs/labels/blind-s46-*/).

    python3 docs/labels/blind_s46_inputs.py OUT_DIR     # writes wn-held.txt, wn-gemma.txt, wn-gemma2.txt

WordNet's example sentences of 10 words or more (``benchmarks/bench_cache.py``'s reader, every
length), shuffled with ``random.Random(45)``: the concord check's samples W and F took the first
1,000 and the next 2,000 (docs/precision.md), so these are the rest, from the 3,001st, less the 200
longest examples ``benchmarks/bench_run.py`` times (2,971 sentences). ``wn-held.txt`` is all of
them (translated by Apertium en->es); ``wn-gemma.txt`` their first 120 (translated by Gemma 3 270M,
``--translator llm``), for the coverage check, which on Apertium's output reads Apertium's own lexicon;
``wn-gemma2.txt`` the first 300 of the rest with 14 words or more (the first 120 gave coverage only 6
findings: a short sentence has too few content words for its net of 3).
"""

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_cache import wordnet_examples  # noqa: E402

USED = 3000  # the concord samples' sentences (W: the first 1,000, F: the next 2,000)
GEMMA = 120
GEMMA2, LONG = 300, 14


def held_out() -> list[str]:
    texts = [s for s in wordnet_examples(longest=None) if len(s.split()) >= 10]
    random.Random(45).shuffle(texts)
    timed = set(sorted(wordnet_examples(longest=None), key=lambda s: (-len(s.split()), s))[:200])
    return [s for s in texts[USED:] if s not in timed]


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    held = held_out()
    (out / "wn-held.txt").write_text("\n".join(held) + "\n", encoding="utf-8")
    (out / "wn-gemma.txt").write_text("\n".join(held[:GEMMA]) + "\n", encoding="utf-8")
    longer = [s for s in held[GEMMA:] if len(s.split()) >= LONG][:GEMMA2]
    (out / "wn-gemma2.txt").write_text("\n".join(longer) + "\n", encoding="utf-8")
    print(f"{len(held)} held-out sentences -> {out}/wn-held.txt; the first {GEMMA} -> {out}/wn-gemma.txt")


if __name__ == "__main__":
    main()
