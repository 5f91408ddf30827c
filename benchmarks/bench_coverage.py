"""The coverage check's false alarms, findings and cost (issues 45 and 44).

    python benchmarks/bench_coverage.py catalogues [--n 1000] [--seed 45]
        human translations: a seeded sample of the Spanish GNU catalogues' messages of three
        words or more (/usr/share/locale/es/LC_MESSAGES/*.mo, ISO code lists left out), findings
        per 1,000 messages by kind, and the uncovered words' balance
    python benchmarks/bench_coverage.py run RUN_DIR [RUN_DIR ...]
        a run's own translations (translations.jsonl) checked again: findings by kind, texts per
        second (the lexicon's time on texts the run translated, WordNet's load apart)

Prints figures only; docs/precision.md and docs/performance.md quote them.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sit.models import wordnet  # noqa: E402
from sit.textcheck.coverage import MIN_NET, Lexicon, WordNetSynonyms, calendar_names, unbalanced  # noqa: E402


def catalogue_pairs(n: int, seed: int, lang: str = "es") -> list[tuple[str, str, str]]:
    """(catalogue, message, translation): ``n`` messages of three words or more, seeded."""
    from babel.messages.mofile import read_mo

    pairs = []
    for path in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
        if "iso_" in path:
            continue
        with open(path, "rb") as f:
            try:
                catalogue = read_mo(f)
            except Exception:  # noqa: BLE001 - a catalogue babel cannot read is left out
                continue
        for m in catalogue:
            if isinstance(m.id, str) and isinstance(m.string, str) and m.string and len(m.id.split()) >= 3:
                pairs.append((Path(path).stem, m.id, m.string))
    random.Random(seed).shuffle(pairs)
    return pairs[:n]


def lexicon(source_lang: str, target_lang: str) -> Lexicon:
    return Lexicon(source_lang, target_lang, synonyms=WordNetSynonyms(wordnet()))


def catalogues(args) -> None:
    pairs = catalogue_pairs(args.n, args.seed)
    lex = lexicon("en", "es")
    start = time.perf_counter()
    found = [unbalanced(c, args.min_net, dates=calendar_names("en")) for c in lex.cover([(s, t) for _, s, t in pairs])]
    took = time.perf_counter() - start
    kinds = Counter(k for f in found for k in f)
    print(f"{len(pairs)} messages of GNU catalogues (es), seed {args.seed}, min_net {args.min_net}: {took:.1f} s")
    for kind in ("omission", "addition", "date"):
        print(f"  {kind}: {kinds[kind]} ({1000 * kinds[kind] / len(pairs):.1f} per 1,000 messages)")
    for (name, s, t), f in zip(pairs, found):
        for kind, words in f.items():
            print(f"    {kind} [{name}] {s!r} -> {t!r}: {[w.surface for w in words]}")


def runs(args) -> None:
    for folder in args.run_dirs:
        rows = [json.loads(line) for line in (Path(folder) / "translations.jsonl").read_text().splitlines()]
        rows = [r for r in rows if r.get("translation")]
        meta = json.loads((Path(folder) / "run.json").read_text())["signature"]
        lex = lexicon(meta["source_lang"], meta["target_lang"])
        loading = time.perf_counter()
        lex.synonyms("start", "n")  # WordNet's load, apart
        loaded = time.perf_counter() - loading
        start, cpu = time.perf_counter(), _cpu()
        dates = calendar_names(meta["source_lang"])
        found = [unbalanced(c, args.min_net, dates=dates) for c in lex.cover([(r["text"], r["translation"]) for r in rows])]
        took, cpu = time.perf_counter() - start, _cpu() - cpu
        kinds = Counter(k for f in found for k in f)
        originals = Counter(k for r, f in zip(rows, found) if r.get("role") == "original" for k in f)
        print(f"{folder}: {len(rows)} texts in {took:.2f} s wall, {cpu:.2f} s CPU with lt-proc's "
              f"({len(rows) / took:.0f} texts/s; WordNet's load {loaded:.2f} s before); findings "
              f"{dict(kinds)}; on the run's own sentences {dict(originals)} of "
              f"{sum(1 for r in rows if r.get('role') == 'original')}")


def _cpu() -> float:
    # CPU seconds of this process and of its finished children (lt-proc)
    import resource

    return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("catalogues")
    c.add_argument("--n", type=int, default=1000)
    c.add_argument("--seed", type=int, default=45)
    r = sub.add_parser("run")
    r.add_argument("run_dirs", nargs="+")
    for q in (c, r):
        q.add_argument("--min-net", type=int, default=MIN_NET, help="coverage.min_net (default %(default)s)")
    args = p.parse_args()
    (catalogues if args.what == "catalogues" else runs)(args)


if __name__ == "__main__":
    main()
