"""``sit precision RUN_DIR labels.jsonl``: top-k precision and error categories from triage labels."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="RUN_DIR", help="a directory written by `sit run`")
    parser.add_argument("labels", metavar="LABELS", nargs="?",
                        help="labels.jsonl exported from the run's report.html (default: RUN_DIR/labels.jsonl)")
    parser.add_argument("--top-k", type=int, default=None, metavar="K",
                        help="report k = 1..K (default: the run's top-k)")
    parser.add_argument("--relation", default=None, metavar="GROUP[,GROUP]",
                        help="report only these groups of findings (sit, sit.untranslated, rti, patinv); "
                             "default: every group the labels judge, each apart")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..rundir import check_run_files, load_run
    from ..validate import check_number
    from .precision import format_by_relation, precision_by_relation

    top_k = check_number(args.top_k, "--top-k", minimum=1, integer=True)
    run_data = load_run(args.run_dir, with_pairs=False)
    check_run_files(args.run_dir)  # a damaged directory is no ground for precision figures
    groups = [g.strip() for g in args.relation.split(",") if g.strip()] if args.relation else None
    results = precision_by_relation(run_data, _labels(args, run_data), top_k, groups)
    if args.json:
        out = {"relations": {g: r.to_dict() for g, r in results.items()}}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(format_by_relation(results, run_data.meta.group_title) or "no labels\n")
    return 0


def _labels(args: argparse.Namespace, run_data) -> dict:
    """The labels the figures count: the labels file (``LABELS``, else the run's labels.jsonl), and
    for each finding it does not judge, its root cause's mark (``sit mark``: cluster-marks.jsonl).
    A labels file that was named, or that is there, must be readable; with no marks it must be there."""
    from pathlib import Path

    from . import LABELS_FILE
    from .clustermarks import load_marks, with_marks
    from .labels import for_run, load_labels

    path = Path(args.labels) if args.labels else Path(args.run_dir) / LABELS_FILE
    marks = load_marks(args.run_dir)
    own = for_run(load_labels(path), run_data.meta) if (args.labels or path.is_file() or not marks) else {}
    return with_marks(run_data, own, marks)
