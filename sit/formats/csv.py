"""``csv``: ``report.csv``, one row per finding for spreadsheets and CI (issue 48): file, line,
group, severity, MQM category, fingerprint (as ``.sitignore`` keys it), source, translation,
evidence. Reports only."""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Optional

from .base import Writer

COLUMNS = ("file", "line", "issue_id", "group", "severity", "category", "fingerprint", "source", "translation",
           "evidence")


class Format(Writer):
    report_file = "report.csv"

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        from ..ignorefile import issue_fingerprint
        from ..severity import severity_of

        out = io.StringIO()
        rows = csv.writer(out, lineterminator="\n")
        rows.writerow(COLUMNS)
        for issue in run.issues:
            found = severity_of(issue)
            rows.writerow([_cell(run.meta.input), issue.pair.source_id, issue.issue_id, issue.group, found.level,
                           found.category, issue_fingerprint(issue), _cell(issue.pair.original),
                           _cell(issue.original_translation), _cell(json.dumps(issue.evidence, ensure_ascii=False))])
        return out.getvalue()


def _cell(text: str) -> str:
    # a cell a spreadsheet shows as text (one that starts with = + - @ would be read as a formula)
    # and a terminal prints as it is (control characters escaped: sit.text.printable)
    from ..text import printable

    text = printable(str(text))
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
