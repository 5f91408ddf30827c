"""Report writers: they read a run directory, so ``sit report`` re-renders without recomputing.

- :func:`render` turns a loaded run (and optional triage labels) into one format's text.
- :func:`write_reports` writes the formats a run keeps (``report.txt`` and ``report.html`` by
  default) into its run directory; the pipeline calls it at the end of every run.

Text comes from :mod:`sit.report.text`; HTML, Markdown and JSONL from the view model in
:mod:`sit.report.model`, so every rendering shows the same data.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Iterable, Optional

from ..errors import ConfigError
from ..rundir import RunData, load_run, write_text_atomic
from .clusters import write_clusters

log = logging.getLogger("sit.report")

FORMATS = ("html", "text", "markdown", "jsonl")
#: triage labels saved beside a run (export them from report.html into the run directory): every
#: report of the run shows them, also after the same command runs again
LABELS_FILE = "labels.jsonl"
FILENAMES = {"html": "report.html", "text": "report.txt", "markdown": "report.md", "jsonl": "report.jsonl"}


def _check(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ConfigError(f"unknown report format {fmt!r}; use one of: {', '.join(FORMATS)}")
    return fmt


def render(run: RunData, fmt: str, labels: Optional[dict] = None, max_chars: Optional[int] = 60_000) -> str:
    """``run`` rendered as ``fmt`` (html, text, markdown or jsonl), with ``labels`` shown when given.
    Text is :func:`~sit.text.printable` (no control character reaches a terminal) and Markdown
    :func:`~sit.text.inert_markdown` (no live HTML), whatever the run directory holds; Markdown
    within ``max_chars`` (:mod:`sit.report.budget`)."""
    from ..text import inert_markdown, printable

    _check(fmt)
    if fmt == "text":
        from .text import render_text

        text = render_text(run)
        if labels:
            from .precision import format_by_relation, precision_by_relation

            results = precision_by_relation(run, labels)
            text += "\n" + format_by_relation(results, run.meta.group_title)
        return printable(text)
    from .model import build_view

    view = build_view(run, labels)
    if fmt == "html":
        from .html import render_html

        return render_html(view)
    if fmt == "markdown":
        from .budget import fit
        from .markdown import FULL_REPORT, render_markdown

        return fit(inert_markdown(render_markdown(view, max_chars)), max_chars, FULL_REPORT)
    from .jsonl import render_jsonl

    return render_jsonl(view)


def write_reports(
    run_dir: str | os.PathLike | RunData,
    formats: Iterable[str] = ("text", "html"),
    labels: Optional[dict] = None,
) -> dict[str, Path]:
    """Write ``formats`` into the run directory (atomically), and its clusters (``clusters.jsonl``:
    :mod:`sit.report.clusters`); returns format -> path written."""
    run = run_dir if isinstance(run_dir, RunData) else load_run(run_dir)
    if labels is None:
        labels = saved_labels(run)
    write_clusters(run)
    written: dict[str, Path] = {}
    for fmt in formats:
        path = Path(run.path) / FILENAMES[_check(fmt)]
        write_text_atomic(path, render(run, fmt, labels))
        written[fmt] = path
    return written


def saved_labels(run: RunData) -> Optional[dict]:
    """The triage labels saved beside ``run`` that name its issues: ``labels.jsonl`` in its
    directory, and for the findings it does not mark, their cluster's mark (``cluster-marks.jsonl``:
    :mod:`sit.report.clustermarks`); None where there are none."""
    from ..errors import InputError
    from .clustermarks import cluster_labels, load_marks
    from .clusters import run_clusters
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
    merged = {**cluster_labels(run_clusters(run), marks), **own} if marks else own
    return merged or None


__all__ = ["FORMATS", "FILENAMES", "LABELS_FILE", "render", "saved_labels", "write_reports"]
