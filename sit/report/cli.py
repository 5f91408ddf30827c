"""``sit report RUN_DIR``: re-render a run directory (html, text, markdown, jsonl) without recomputing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="RUN_DIR", help="a directory written by `sit run`")
    parser.add_argument("--format", "-f", default="html", metavar="FORMAT",
                        help="output format: html (default), text, markdown, jsonl, or a plugin's (`sit list`)")
    parser.add_argument("--labels", metavar="FILE",
                        help="triage labels (labels.jsonl exported from report.html) to show, with top-k precision "
                             "(default: RUN_DIR/labels.jsonl where it is saved)")
    parser.add_argument("--max-chars", type=int, default=60_000, metavar="N",
                        help="markdown: at most N characters (default 60,000, under a pull-request comment's 65,536): "
                             "the summary first, then as many flagged sentences as fit, and a line saying how many "
                             "were left out")
    parser.add_argument("--output", "-o", metavar="FILE",
                        help="where to write ('-' for standard output); default: RUN_DIR/report.html for html, "
                             "standard output for the other formats")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..rundir import check_run_files, check_writable, load_run, write_parts_atomic
    from ..formats import writer
    from .labels import load_labels

    output = args.output
    form = writer(args.format, "report")  # an unknown format is refused before anything is read
    if output is None and args.format == "html":
        output = str(Path(args.run_dir) / form.report_file)
    if output not in (None, "-"):
        check_writable(output, "--output")
    # the findings read from issues.jsonl as shown; pairs and translations checked, not held (a
    # report reads a sentence's translation from translations.jsonl where its finding lacks it)
    report_run = replace(load_run(args.run_dir, with_pairs=False), translations=None)
    check_run_files(args.run_dir)
    from . import saved_labels

    labels = load_labels(args.labels) if args.labels else saved_labels(report_run)
    from ..compare.cli import checked_max_chars

    # written a piece at a time (a flagged sentence of the text and the HTML), as the run writes its reports
    parts = form.report_parts(report_run, labels, checked_max_chars(args.max_chars))
    if output in (None, "-"):
        for part in parts:
            sys.stdout.write(part)
        sys.stdout.flush()
        return 0
    write_parts_atomic(Path(output), parts)
    if Path(output).resolve().parent == Path(args.run_dir).resolve():  # the run's own report: its clusters too
        from .clusters import write_clusters

        write_clusters(report_run, fresh=False)
    print(f"sit: wrote {output}", file=sys.stderr)
    return 0
