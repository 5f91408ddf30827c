"""Report writers: they read a run directory, so ``sit report`` re-renders without recomputing.

- :func:`render` turns a loaded run (and optional triage labels) into one format's text.
- :func:`write_reports` writes the formats a run keeps (``report.txt`` and ``report.html`` by
  default) into its run directory; the pipeline calls it at the end of every run.

Each format is a writer of :mod:`sit.formats` (one registry with ``sit compare``'s, plugins
welcome). Text comes from :mod:`sit.report.text`; HTML, Markdown and JSONL from the view model in
:mod:`sit.report.model`, so every rendering shows the same data.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Iterable, Optional

from ..rundir import RunData, load_run, write_parts_atomic
from .clusters import write_clusters

log = logging.getLogger("sit.report")

#: triage labels saved beside a run (export them from report.html into the run directory): every
#: report of the run shows them, also after the same command runs again
LABELS_FILE = "labels.jsonl"


#: the longest Markdown report a run keeps (:mod:`sit.report.budget`)
MAX_CHARS = 60_000


def render(run: RunData, fmt: str, labels: Optional[dict] = None, max_chars: Optional[int] = MAX_CHARS) -> str:
    """``run`` rendered as ``fmt`` (a format of the writer registry, :mod:`sit.formats`: html, text,
    markdown, jsonl or a plugin's), with ``labels`` shown when given. Text is
    :func:`~sit.text.printable` (no control character reaches a terminal) and Markdown
    :func:`~sit.text.inert_markdown` (no live HTML), whatever the run directory holds; Markdown
    within ``max_chars`` (:mod:`sit.report.budget`)."""
    from ..writers import writer

    return writer(fmt, "report").report(run, labels, max_chars)


def write_reports(
    run_dir: str | os.PathLike | RunData,
    formats: Iterable[str] = ("text", "html"),
    labels: Optional[dict] = None,
) -> dict[str, Path]:
    """Write ``formats`` into the run directory (atomically), each under its writer's
    ``report_file`` (:mod:`sit.formats`), and its clusters (``clusters.jsonl``:
    :mod:`sit.report.clusters`); returns format -> path written."""
    run = run_dir if isinstance(run_dir, RunData) else load_run(run_dir)
    if labels is None:
        labels = saved_labels(run)
    write_clusters(run)
    from ..writers import writer

    written: dict[str, Path] = {}
    for fmt in formats:
        format_writer = writer(fmt, "report")
        path = Path(run.path) / format_writer.report_file
        write_parts_atomic(path, format_writer.report_parts(run, labels, MAX_CHARS))  # what render gives, in pieces
        written[fmt] = path
    return written


def saved_labels(run: RunData) -> Optional[dict]:
    """The triage labels saved beside ``run`` that name its issues: ``labels.jsonl`` in its
    directory, and for the findings it does not mark, their cluster's mark (``cluster-marks.jsonl``:
    :mod:`sit.report.clustermarks`); None where there are none."""
    from ..errors import InputError
    from .clustermarks import load_marks, with_marks
    from .labels import for_run, load_labels, match_labels

    path = Path(run.path) / LABELS_FILE
    own: dict = {}
    try:
        if path.is_file():
            own = match_labels(run.issues, for_run(load_labels(path), run.meta)).labels
        marks = load_marks(run.path)
    except InputError as exc:
        log.warning("%s not shown: %s", path, exc)
        return own or None
    return with_marks(run, own, marks) or None


__all__ = ["LABELS_FILE", "render", "saved_labels", "write_reports"]
