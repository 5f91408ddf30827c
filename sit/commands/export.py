"""``sit export RUN -o cases.jsonl``: the failing test cases of a run, as a regression suite that
``sit run --cases`` runs again on any translator (:mod:`sit.regression`)."""

from __future__ import annotations

import argparse
import sys


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", metavar="RUN", help="a directory written by `sit run`")
    p.add_argument("-o", "--output", metavar="FILE", required=True,
                   help="where to write the cases (JSONL: relation, source, variant texts, what was wrong)")


def run(args: argparse.Namespace) -> int:
    from ..regression import export_cases
    from ..rundir import check_writable, load_run

    check_writable(args.output, "--output")
    n = export_cases(load_run(args.run_dir, with_pairs=False), args.output)
    print(f"sit: wrote {n} failing test case(s) to {args.output}; run them with "
          f"`sit run --cases {args.output} --translator NAME`", file=sys.stderr)
    return 0
