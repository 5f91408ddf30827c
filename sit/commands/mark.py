"""``sit mark RUN CLUSTER_ID... --as bug``: triage by root cause. A mark on a cluster applies to
each of its findings (where the finding has no mark of its own), is kept in the run directory's
``cluster-marks.jsonl`` by cluster id, so it holds in a re-run of the same command, and shows in
every report and in ``sit compare`` (:mod:`sit.report.clustermarks`)."""

from __future__ import annotations

import argparse
import sys


def configure(p: argparse.ArgumentParser) -> None:
    from ..ignorefile import add_option

    p.add_argument("run_dir", metavar="RUN", help="a directory written by `sit run`")
    p.add_argument("clusters", metavar="CLUSTER_ID", nargs="+",
                   help="the clusters to mark (their ids: clusters.jsonl, report.txt, report.html)")
    p.add_argument("--as", dest="label", required=True, choices=("bug", "not_bug", "clear"),
                   help="the mark: bug, not_bug, or clear to take it off")
    p.add_argument("--category", help="the error category of a bug (as report.html offers them)")
    add_option(p, "the suppressions file: not_bug adds the clusters' findings to it, bug and clear take them out; "
                  "sit check, --fail-on and sit compare leave them out", "'' writes none")


def run(args: argparse.Namespace) -> int:
    from ..report import write_reports
    from ..report.clustermarks import mark_clusters
    from ..rundir import load_run

    run_data = load_run(args.run_dir)
    marks = mark_clusters(run_data, args.clusters, None if args.label == "clear" else args.label, args.category)
    write_reports(run_data)
    if args.ignore_file:
        _suppress(run_data, args.clusters, args.label, args.ignore_file)
    print(f"sit: {len(args.clusters)} cluster(s) marked {args.label}; {len(marks)} marked in all; "
          f"reports written in {args.run_dir}", file=sys.stderr)
    return 0


def _suppress(run_data, clusters, label: str, path: str) -> None:
    """Add the findings of ``clusters`` to the ignore file at ``path`` (``not_bug``), or take them
    out (``bug``, ``clear``)."""
    from ..ignorefile import IgnoreFile
    from ..report.clusters import run_clusters

    wanted = set(clusters)
    found = [i for c in run_clusters(run_data) if c.cluster_id in wanted for i in c.issues]
    ignore = IgnoreFile.load(path)
    changed = ignore.add(found) if label == "not_bug" else ignore.remove(found)
    if changed or label == "not_bug":
        ignore.save()
        verb = "suppressed in" if label == "not_bug" else "no longer suppressed in"
        print(f"sit: {changed} finding(s) {verb} {path}", file=sys.stderr)
