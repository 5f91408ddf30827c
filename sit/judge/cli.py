"""``sit judge --source S --a A --b B``: which of two translations of each line is worse, one JSON
line per input line (``worse`` "a", "b" or "tie", both scores, the span, why it abstained)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

#: characters in one line of a file ``sit judge`` reads (``--max-line-chars``)
MAX_LINE_CHARS = 20_000


def configure(p: argparse.ArgumentParser) -> None:
    from . import DEFAULT_JUDGE

    p.description = ("Judge, line by line, which of two translations of the same source is worse. Files are "
                     "UTF-8, one text per line, paired by position. See docs/judge.md.")
    p.add_argument("--source", required=True, metavar="FILE", help="the source texts, one per line")
    p.add_argument("--a", required=True, metavar="FILE", help="translation a of each line")
    p.add_argument("--b", required=True, metavar="FILE", help="translation b of each line")
    p.add_argument("--source-lang", default="en", metavar="LANG", help="the sources' language (default en)")
    p.add_argument("--target-lang", default="es", metavar="LANG", help="the translations' language (default es)")
    p.add_argument("--judge", default=DEFAULT_JUDGE, metavar="NAME",
                   help=f"which judge (default {DEFAULT_JUDGE}, offline; gemba-mqm asks an OpenAI-compatible endpoint)")
    p.add_argument("--judge-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the judge (gemba-mqm: model=NAME; use: tie_below=0.2, decide=encoder, checks=none)")
    p.add_argument("-o", "--output", metavar="OUT.jsonl", help="write here instead of standard output ('-')")
    p.add_argument("--cache-dir", help="where verdicts are cached (default: sit's cache, $SIT_CACHE_DIR)")
    p.add_argument("--no-cache", action="store_true", help="judge every pair again, caching nothing")
    p.add_argument("--max-line-chars", type=int, default=MAX_LINE_CHARS, metavar="N",
                   help=f"refuse a line longer than N characters (default {MAX_LINE_CHARS:,})")


def read_triples(source: str, a: str, b: str, max_chars: int = MAX_LINE_CHARS) -> list[tuple[str, str, str]]:
    """The (source, a, b) of each line of the three files; an InputError where their line counts
    differ or a line is longer than ``max_chars`` (the judge's word diff grows faster than a line)."""
    from ..errors import InputError
    from ..inputs import read_lines

    files = {"--source": read_lines(source, "source", max_chars), "--a": read_lines(a, "translation a", max_chars),
             "--b": read_lines(b, "translation b", max_chars)}
    counts = {k: len(v) for k, v in files.items()}
    if len(set(counts.values())) != 1:
        raise InputError("the files must have one line each per source line: "
                         + ", ".join(f"{k} {n} line(s)" for k, n in counts.items()))
    return list(zip(*files.values()))


def records(verdicts: Sequence[Any]) -> list[dict[str, Any]]:
    """One output record per line (1-based ``line``), empty sources included as ties."""
    return [{"line": n, **v.to_dict()} for n, v in enumerate(verdicts, start=1)]


def run(args: argparse.Namespace) -> int:
    from ..cache import Cache
    from ..options import parse_key_values
    from ..rundir import check_writable, write_jsonl_atomic
    from . import get_judge
    from . import judge_options

    output: Optional[str] = None if args.output in (None, "-") else args.output
    if output:
        check_writable(output, "--output")
    from ..validate import check_number

    limit = check_number(args.max_line_chars, "--max-line-chars", integer=True, minimum=1)
    triples = read_triples(args.source, args.a, args.b, limit)
    options = judge_options(args.judge, parse_key_values(args.judge_option, "--judge-option"))
    cache = None if args.no_cache else Cache(args.cache_dir)
    with get_judge(args.judge, source_lang=args.source_lang, target_lang=args.target_lang, cache=cache,
                   progress=True, **options) as judge:
        verdicts = judge.judge(triples)
        stats = judge.stats
    rows = records(verdicts)
    if output:
        write_jsonl_atomic(Path(output), rows)
    else:
        sys.stdout.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        sys.stdout.flush()
    counts = {w: sum(1 for v in verdicts if v.worse == w) for w in ("a", "b", "tie")}
    abstained = sum(1 for v in verdicts if v.reason)
    print(f"sit: {len(rows)} line(s): a worse in {counts['a']}, b worse in {counts['b']}, {counts['tie']} tie(s) "
          f"({abstained} abstained); {stats.computed} judged, {stats.cache_hits} from the cache"
          + (f"; wrote {output}" if output else ""), file=sys.stderr)
    return 0
