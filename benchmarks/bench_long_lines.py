"""Cost of one long line, check by check (issue 49: a 135 kB line took 27 s in `sit check`).

Each of `sit check`'s checks reads one TSV line whose source and translation grow from N to 4N
to 16N characters (news-like text with numbers, URLs and punctuation); the CPU time each takes is
printed with its growth factor per 4x of text: ~4 is linear, ~16 quadratic.

    python3 benchmarks/bench_long_lines.py [--start 2000] [--steps 3] [--checks numbers,passthrough]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SOURCE = ("The bank raised its rate by 4.5 percent on Monday, see https://example.org/r?id=7 for the 2,300 "
          "pages (\"Q3 report\"); shares of ACME Corp. fell 12% to $31.20 in New York. ")
#: (the 2,300 pages left out: each copy of the sentence has a number missing, the check's costlier path)
TRANSLATION = ("El banco subió su tipo un 4,5 por ciento el lunes, vea https://example.org/r?id=7 para las "
               "páginas («informe T3»); las acciones de ACME Corp. cayeron un 12 % a 31,20 $ en Nueva York. ")


def line_of(text: str, chars: int) -> str:
    return (text * (chars // len(text) + 1))[:chars].replace("\t", " ")


def cost(check: str, chars: int, work: Path) -> float:
    from sit.check import CheckConfig, check as run_check

    tsv = work / f"{check}-{chars}.tsv"
    tsv.write_text(f"{line_of(SOURCE, chars)}\t{line_of(TRANSLATION, chars)}\n", encoding="utf-8")
    config = CheckConfig(source=str(tsv), target_lang="es", out=str(work / f"out-{check}-{chars}"), checks=(check,),
                         cache_dir=str(work / "cache"), force=True, report_formats=("text",),
                         max_line_chars=chars + 1)
    start = time.process_time()
    run_check(config)
    return time.process_time() - start


def main(argv=None) -> int:
    from sit.check import all_checks

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", type=int, default=2000, help="characters of the shortest line")
    ap.add_argument("--steps", type=int, default=3, help="lengths, each 4x the one before")
    ap.add_argument("--checks", default=",".join(all_checks()), help="comma-separated checks")
    args = ap.parse_args(argv)
    lengths = [args.start * 4 ** k for k in range(args.steps)]
    print(f"{'check':<14}" + "".join(f"{n:>12,} ch" for n in lengths) + "   growth per 4x")
    with tempfile.TemporaryDirectory() as tmp:
        for check in args.checks.split(","):
            cost(check, 200, Path(tmp))  # warm: models and data loaded once
            times = [cost(check, n, Path(tmp)) for n in lengths]
            growth = " ".join(f"{b / a:5.1f}" if a > 0.005 else "    -" for a, b in zip(times, times[1:]))
            print(f"{check:<14}" + "".join(f"{t:>13.3f} s" for t in times) + f"   {growth}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
