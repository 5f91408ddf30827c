"""``sit precision RUN_DIR labels.jsonl``: top-k precision and error categories from triage labels."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="RUN_DIR", help="a directory written by `sit run`")
    parser.add_argument("labels", metavar="LABELS", help="labels.jsonl exported from the run's report.html")
    parser.add_argument("--top-k", type=int, default=None, metavar="K",
                        help="report k = 1..K (default: the run's top-k)")
    parser.add_argument("--relation", default="sit", metavar="GROUP",
                        help="whose findings the labels judge: sit (default), sit.untranslated, rti, patinv; "
                             "label each relation of a run in a file of its own")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..rundir import load_run
    from .labels import load_labels
    from .precision import run_precision

    from ..validate import check_number

    top_k = check_number(args.top_k, "--top-k", minimum=1, integer=True)
    run_data = load_run(args.run_dir, with_pairs=False)
    groups = sorted({i.group for i in run_data.issues})
    if args.relation not in groups:
        raise InputError(f"the run has no {args.relation!r} findings; its groups: {', '.join(groups) or 'none'}")
    run_data.issues = [i for i in run_data.issues if i.group == args.relation]
    result = run_precision(run_data, load_labels(args.labels), top_k)
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.format())
    return 0
