"""``rows``: a report format, one row per finding (relation, kind, source id, rank, the two source
texts and their translations), for a spreadsheet. ``sit report RUN -f rows`` prints it (sit's own ``csv`` adds
severities and fingerprints)."""

from __future__ import annotations

import csv
import io
from typing import Any, Optional

from sit.formats import Writer

COLUMNS = ("relation", "kind", "source_id", "rank", "original", "perturbed", "original_translation",
           "perturbed_translation")


class CsvWriter(Writer):
    report_file = "report-rows.csv"  # no compare_file: this format renders runs only

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for issue in run.issues:
            writer.writerow([issue.relation, issue.kind, issue.pair.source_id, issue.rank, issue.pair.original,
                             issue.pair.perturbed, issue.original_translation, issue.perturbed_translation])
        return out.getvalue()
