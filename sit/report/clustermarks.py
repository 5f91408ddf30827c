"""Triage by cluster: a mark on a cluster (``bug`` or ``not_bug``) applies to each of its findings.

Marks live beside the run in ``cluster-marks.jsonl``, one ``{"cluster_id", "label", "category",
"title"}`` a line (a later line for the same cluster replaces an earlier one; ``"label": null``
clears it). They are keyed by cluster id, a hash of what the bug is
(:func:`sit.report.clusters.cluster_id`), so they hold for the same bug in a re-run of the same
command, and ``sit compare`` shows them. A finding's own mark (``labels.jsonl``) wins over its
cluster's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Optional

from ..errors import InputError
from ..jsonio import read_jsonl
from .labels import Label, LabelKey, normalize_category, normalize_label

#: the file a run directory keeps its cluster marks in
MARKS_FILE = "cluster-marks.jsonl"


def load_marks(path: str | os.PathLike) -> dict[str, dict]:
    """``cluster_id -> {"label", "category", "title"}`` from a cluster-marks file (none: ``{}``)."""
    path = Path(path)
    if path.is_dir():
        path = path / MARKS_FILE
    if not path.is_file():
        return {}
    out: dict[str, dict] = {}
    for n, row in enumerate(read_jsonl(path, hint="write it with `sit mark`"), start=1):
        if not isinstance(row, dict) or not isinstance(row.get("cluster_id"), str):
            raise InputError(f"{path}:{n}: a cluster mark needs a `cluster_id` (see `sit mark --help`)")
        if row.get("label") in (None, ""):
            out.pop(row["cluster_id"], None)
            continue
        label = normalize_label(row.get("label"))
        if label is None:
            raise InputError(f"{path}:{n}: label {row.get('label')!r} is neither \"bug\" nor \"not_bug\"")
        out[row["cluster_id"]] = {"label": label, "category": normalize_category(row.get("category")),
                                  "title": row.get("title")}
    return out


def save_marks(run_dir: str | os.PathLike, marks: dict[str, dict]) -> Path:
    """Write ``marks`` into the run directory's cluster-marks.jsonl (sorted by id)."""
    from ..rundir import write_jsonl_atomic

    path = Path(run_dir) / MARKS_FILE
    write_jsonl_atomic(path, ({"cluster_id": cid, **mark} for cid, mark in sorted(marks.items())))
    return path


def mark_clusters(run, ids: Iterable[str], label: Optional[str], category: Optional[str] = None) -> dict[str, dict]:
    """Mark the clusters ``ids`` of a loaded run (``label`` None clears); returns all its marks,
    saved. An id that is not a cluster of the run is an InputError listing the run's worst."""
    from .clusters import run_clusters

    clusters = {c.cluster_id: c for c in run_clusters(run)}
    unknown = [i for i in ids if i not in clusters]
    if unknown:
        worst = ", ".join(c for c in list(clusters)[:5])
        raise InputError(f"{', '.join(unknown)}: no such cluster in {run.path} (its clusters.jsonl lists them; "
                         f"the worst: {worst or 'none'})")
    marks = load_marks(run.path)
    for cid in ids:
        if label is None:
            marks.pop(cid, None)
        else:
            marks[cid] = {"label": normalize_label(label), "category": normalize_category(category),
                          "title": clusters[cid].title}
    save_marks(run.path, marks)
    return marks


def cluster_labels(clusters, marks: dict[str, dict]) -> dict[LabelKey, Label]:
    """The label each finding of a marked cluster takes from its cluster's mark."""
    out: dict[LabelKey, Label] = {}
    for c in clusters:
        mark = marks.get(c.cluster_id)
        if not mark:
            continue
        for issue in c.issues:
            label = Label(issue.pair.source_id, issue.rank, mark["label"], mark.get("category"),
                          issue.pair.perturbed, issue.group)
            out[label.key] = label
    return out


def with_marks(run, own: dict[LabelKey, Label], marks: dict[str, dict]) -> dict[LabelKey, Label]:
    """``own`` labels (labels.jsonl), and for each finding they do not judge, its cluster's mark."""
    from .clusters import run_clusters

    return {**cluster_labels(run_clusters(run), marks), **own} if marks else own


__all__ = ["MARKS_FILE", "cluster_labels", "load_marks", "mark_clusters", "save_marks", "with_marks"]
