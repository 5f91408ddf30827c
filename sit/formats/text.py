"""``text``: ``report.txt`` and ``compare.txt``, plain text with no control character left in
(:func:`sit.text.printable`), so a terminal that prints it runs nothing."""

from __future__ import annotations

from typing import Any, Optional

from .base import Writer


class Format(Writer):
    report_file = "report.txt"
    compare_file = "compare.txt"

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        """The text report (:mod:`sit.report.text`), then precision per relation where labels are given."""
        from ..report.text import render_text
        from ..text import printable

        text = render_text(run)
        if labels:
            from ..report.precision import format_by_relation, precision_by_relation

            text += "\n" + format_by_relation(precision_by_relation(run, labels), run.meta.group_title)
        return printable(text)

    def comparison(self, comparison: Any, max_chars: Optional[int] = None) -> str:
        from ..compare.writers import render_text
        from ..text import printable

        return printable(render_text(comparison))
