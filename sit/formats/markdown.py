"""``markdown``: ``report.md`` and ``compare.md``, to paste into a pull request or a wiki: no live
HTML (:func:`sit.text.inert_markdown`), and within ``max_chars`` (:mod:`sit.report.budget`)."""

from __future__ import annotations

from typing import Any, Optional

from .base import Writer


class Format(Writer):
    report_file = "report.md"
    compare_file = "compare.md"

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        from ..report.budget import fit
        from ..report.markdown import FULL_REPORT, render_markdown
        from ..report.model import build_view
        from ..text import inert_markdown

        return fit(inert_markdown(render_markdown(build_view(run, labels), max_chars)), max_chars, FULL_REPORT)

    def comparison(self, comparison: Any, max_chars: Optional[int] = None) -> str:
        from ..compare.writers import FULL_COMPARISON, render_markdown
        from ..report.budget import fit
        from ..text import inert_markdown

        return fit(inert_markdown(render_markdown(comparison, max_chars=max_chars)), max_chars, FULL_COMPARISON)
