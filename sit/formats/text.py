"""``text``: ``report.txt`` and ``compare.txt``, plain text with no control character left in
(:func:`sit.text.printable`), so a terminal that prints it runs nothing."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from .base import Writer


class Format(Writer):
    report_file = "report.txt"
    compare_file = "compare.txt"

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        """The text report (:mod:`sit.report.text`), then precision per relation where labels are given."""
        return "".join(self.report_parts(run, labels, max_chars))

    def report_parts(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> Iterator[str]:
        """:meth:`report` a flagged sentence at a time (:func:`sit.report.text.text_parts`)."""
        from ..report.text import text_parts
        from ..text import printable

        for part in text_parts(run):
            yield printable(part)  # it escapes character by character: the pieces escape as the whole would
        if labels:
            from ..report.precision import format_by_relation, precision_by_relation

            yield printable("\n" + format_by_relation(precision_by_relation(run, labels), run.meta.group_title))

    def comparison(self, comparison: Any, max_chars: Optional[int] = None) -> str:
        from ..compare.writers import render_text
        from ..text import printable

        return printable(render_text(comparison))
