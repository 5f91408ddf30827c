"""The ``Writer`` face: one output format of reports and comparisons."""

from __future__ import annotations

from typing import Any, Iterator, Optional


class Writer:
    """One output format. Subclasses set the files they write and implement :meth:`report`
    (a loaded run directory, :class:`sit.rundir.RunData`, with its triage labels) and/or
    :meth:`comparison` (:class:`sit.compare.model.Comparison`); a side whose file name is ""
    is not written by this format. What a writer returns is safe as it is: text and Markdown
    carry no control character or live HTML (:mod:`sit.text`)."""

    #: the file it writes in a run directory (``report.txt``); "" where it renders no run
    report_file = ""
    #: the file it writes for a comparison (``compare.txt``); "" where it renders no comparison
    compare_file = ""

    def filename(self, side: str) -> str:
        """The file this format writes for ``side`` (``"report"`` or ``"comparison"``), "" for none."""
        return {"report": self.report_file, "comparison": self.compare_file}.get(side, "")

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        """``run`` (with ``labels`` shown where given) in this format; ``max_chars`` bounds formats
        meant to be pasted (Markdown), the others ignore it."""
        raise NotImplementedError

    def report_parts(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> Iterator[str]:
        """:meth:`report` in pieces whose concatenation is it, for writing a report without
        holding it whole (the HTML page: its findings' data one sentence at a time); by default
        one piece."""
        yield self.report(run, labels, max_chars)

    def comparison(self, comparison: Any, max_chars: Optional[int] = None) -> str:
        """``comparison`` in this format; ``max_chars`` as in :meth:`report`."""
        raise NotImplementedError
