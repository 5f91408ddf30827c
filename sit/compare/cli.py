"""``sit compare BASE_RUN NEW_RUN``: what changed between two runs of the same inputs and
relations, test case by test case; ``--fail-on new[:N]`` makes it a CI gate."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: the exit status of ``--fail-on`` when more new findings than allowed appeared
EXIT_NEW_FINDINGS = 7
#: the exit status of ``--fail-on worse[:N]`` when the judge found more cases worse than allowed
EXIT_WORSE = 8
#: what ``--fail-on`` counts: new findings, or cases the judge found worse in NEW
GATES = ("new", "worse")

EXIT_STATUS = f"""exit status:
  0    the comparison was written (and --fail-on, where given, passed)
  2    bad input or options (runs of different inputs or relations are refused, and runs that built
       or judged their cases differently, unless --allow-different)
  4    the output cannot be written
  {EXIT_NEW_FINDINGS}    --fail-on new[:N]: more than N new findings (the comparison is written first)
  {EXIT_WORSE}    --fail-on worse[:N]: the judge found more than N test cases worse in NEW"""


def parse_fail_on(value: str) -> int:
    """``new`` -> 0, ``new:3`` -> 3: the new findings allowed before the gate fails."""
    return parse_gate(value)[1]


def parse_gate(value: str) -> tuple[str, int]:
    """``new:3`` -> ("new", 3), ``worse`` -> ("worse", 0): what the gate counts and how many it allows."""
    from ..errors import ConfigError
    from ..validate import check_number

    name, colon, n = value.partition(":")
    if name not in GATES or (colon and not (n.isascii() and n.isdigit())):  # "²" is a digit to str.isdigit
        raise ConfigError(f"--fail-on takes new or new:N, or worse or worse:N (N allowed, a whole number >= 0), "
                          f"got {value[:40]!r}")
    return name, check_number(n, f"--fail-on {name}:N", integer=True, minimum=0) if colon else 0


def checked_max_chars(value: int) -> int:
    """--max-chars, at least 1,000 (room for the summary and the line saying what was cut)."""
    from ..errors import ConfigError

    if value < 1000:
        raise ConfigError(f"--max-chars takes a number of characters of at least 1000, got {value}")
    return value


def configure(p: argparse.ArgumentParser) -> None:
    from ..ignorefile import add_option

    p.epilog = EXIT_STATUS
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("base", metavar="BASE_RUN", help="the baseline run directory (written by `sit run`)")
    p.add_argument("new", metavar="NEW_RUN", help="the run directory to compare with it (same inputs and relations)")
    p.add_argument("--format", "-f", default="text", metavar="FORMAT",
                   help="text (default), markdown (for a pull request), html, jsonl (one record per test case), "
                        "junit (JUnit XML: one testcase per test case; new ones fail) or a plugin's (`sit list`)")
    p.add_argument("--output", "-o", metavar="FILE", help="write here instead of standard output ('-')")
    p.add_argument("--fail-on", metavar="new[:N]|worse[:N]",
                   help=f"exit with status {EXIT_NEW_FINDINGS} when more than N (default 0) new findings appear; "
                        f"worse[:N] (with --judge): with status {EXIT_WORSE} when the judge finds more than N test "
                        "cases worse in NEW")
    add_option(p, "suppressions (`sit mark --as not_bug` writes them): a finding suppressed there is left out of "
                  "both runs, of the report and of --fail-on new")
    p.add_argument("--judge", metavar="NAME",
                   help="judge every test case whose translations changed: is NEW's translation worse or better "
                        "than BASE's? (use: offline sentence encoder; gemba-mqm: an LLM; see docs/judge.md)")
    p.add_argument("--judge-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the judge (gemba-mqm: model=NAME)")
    p.add_argument("--references", metavar="FILE",
                   help="reference translations, one per line of the runs' input: adds corpus BLEU and chrF "
                        "deltas with sacrebleu's paired bootstrap resampling")
    p.add_argument("--cache-dir", help="where s_tgt scores are cached (default: sit's cache, $SIT_CACHE_DIR)")
    p.add_argument("--max-chars", type=int, default=60_000, metavar="N",
                   help="markdown: at most N characters (default 60,000, under a pull-request comment's 65,536): "
                        "the summary first, then as many cases as fit, and a line saying how many were left out")
    p.add_argument("--allow-different", action="store_true",
                   help="compare runs that differ in perturber, parser, seed, threshold ... (refused otherwise, "
                        "status 2): only the cases both runs have are compared, with a warning")


def run(args: argparse.Namespace) -> int:
    from ..rundir import check_writable, load_run, write_text_atomic
    from . import compare_runs
    from . import render

    from ..formats import writer

    gate, allowed = parse_gate(args.fail_on) if args.fail_on is not None else ("new", None)  # '' is refused
    writer(args.format, "comparison")  # an unknown format is refused before the runs are read
    output = None if args.output in (None, "-") else args.output
    if output:
        check_writable(output, "--output")
    base, new = _unsuppressed(load_run(args.base), args.ignore_file), _unsuppressed(load_run(args.new), args.ignore_file)
    judge = _judge(args, gate, base.signature)
    try:
        comparison = compare_runs(base, new, references=args.references, cache_dir=args.cache_dir,
                                  judge=judge, allow_different=args.allow_different)
    finally:
        if judge is not None:
            judge.close()
    for warning in comparison.warnings:
        print(f"sit: warning: {warning}", file=sys.stderr)
    text = render(comparison, args.format, max_chars=checked_max_chars(args.max_chars))
    if output:
        write_text_atomic(Path(output), text)
        print(f"sit: wrote {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    if gate == "worse" and allowed is not None:
        worse = comparison.judge_counts()["worse"]
        if worse > allowed:
            print(f"sit: the judge found {worse} test case(s) worse in NEW, more than the {allowed} --fail-on allows",
                  file=sys.stderr)
            return EXIT_WORSE
        return 0
    new = len(comparison.by_status("new"))  # suppressed findings are none (_unsuppressed)
    if allowed is not None and new > allowed:
        print(f"sit: {new} new finding(s), more than the {allowed} --fail-on allows", file=sys.stderr)
        return EXIT_NEW_FINDINGS
    return 0


def _unsuppressed(run, ignore_file: str):
    """``run`` (:class:`sit.rundir.RunData`) without the findings ``ignore_file`` suppresses
    (sit.ignorefile): the comparison, its report and ``--fail-on`` read neither run's."""
    from dataclasses import replace

    from ..ignorefile import IgnoreFile

    ignore = IgnoreFile.load(ignore_file) if ignore_file else None
    if not ignore or not ignore.entries:
        return run
    kept, _ = ignore.split(list(run.issues))
    return replace(run, issues=kept, meta=replace(run.meta, counts=run.meta.counts.with_findings(kept)))


def _judge(args: argparse.Namespace, gate: str, signature):
    """The judge ``--judge`` names, for the runs' languages (None without ``--judge``)."""
    from ..errors import ConfigError

    if not args.judge:
        if gate == "worse" or args.judge_option:
            raise ConfigError("--fail-on worse and --judge-option need --judge NAME (e.g. --judge use)")
        return None
    from ..cache import Cache
    from ..judge import get_judge, judge_options
    from ..options import parse_key_values

    options = judge_options(args.judge, parse_key_values(args.judge_option, "--judge-option"))
    return get_judge(args.judge, source_lang=signature.source_lang, target_lang=signature.target_lang,
                     cache=Cache(args.cache_dir), progress=True, **options)
