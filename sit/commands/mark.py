"""``sit mark RUN CLUSTER_ID... --as bug``: triage by root cause. A mark on a cluster applies to
each of its findings (where the finding has no mark of its own), is kept in the run directory's
``cluster-marks.jsonl`` by cluster id, so it holds in a re-run of the same command, and shows in
every report and in ``sit compare`` (:mod:`sit.report.clustermarks`)."""

from __future__ import annotations

import argparse
import sys


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", metavar="RUN", help="a directory written by `sit run`")
    p.add_argument("clusters", metavar="CLUSTER_ID", nargs="+",
                   help="the clusters to mark (their ids: clusters.jsonl, report.txt, report.html)")
    p.add_argument("--as", dest="label", required=True, choices=("bug", "not_bug", "clear"),
                   help="the mark: bug, not_bug, or clear to take it off")
    p.add_argument("--category", help="the error category of a bug (as report.html offers them)")


def run(args: argparse.Namespace) -> int:
    from ..report import write_reports
    from ..report.clustermarks import mark_clusters
    from ..rundir import load_run

    run_data = load_run(args.run_dir)
    marks = mark_clusters(run_data, args.clusters, None if args.label == "clear" else args.label, args.category)
    write_reports(run_data)
    print(f"sit: {len(args.clusters)} cluster(s) marked {args.label}; {len(marks)} marked in all; "
          f"reports written in {args.run_dir}", file=sys.stderr)
    return 0
