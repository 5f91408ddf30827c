"""``jsonl``: ``report.jsonl`` (one line per finding, in page order: :mod:`sit.report.jsonl`) and
``compare.jsonl`` (one record per test case, every status)."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from .base import Writer


class Format(Writer):
    report_file = "report.jsonl"
    compare_file = "compare.jsonl"

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        from ..report.jsonl import render_jsonl
        from ..report.model import build_view

        return render_jsonl(build_view(run, labels))

    def report_parts(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> Iterator[str]:
        from ..report.jsonl import jsonl_parts
        from ..report.model import build_view

        return jsonl_parts(build_view(run, labels))

    def comparison(self, comparison: Any, max_chars: Optional[int] = None) -> str:
        from ..compare.writers import render_jsonl

        return render_jsonl(comparison)
