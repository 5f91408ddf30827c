"""``html``: ``report.html`` and ``compare.html``, self-contained pages that open offline
(:mod:`sit.report.html`, :mod:`sit.compare.html`)."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from .base import Writer


class Format(Writer):
    report_file = "report.html"
    compare_file = "compare.html"

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        from ..report.html import render_html
        from ..report.model import build_view

        return render_html(build_view(run, labels))

    def report_parts(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> Iterator[str]:
        from ..report.html import html_parts
        from ..report.model import build_view

        return html_parts(build_view(run, labels))

    def comparison(self, comparison: Any, max_chars: Optional[int] = None) -> str:
        from ..compare.html import render_html

        return render_html(comparison)
