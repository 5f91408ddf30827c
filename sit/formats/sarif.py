"""``sarif``: ``report.sarif``, SARIF 2.1.0 for code-scanning annotations (issue 48): one result
per finding, at the input file and the finding's line (``source_id``: the line of a ``sit check``
file, the sentence of a ``sit run``), its rule the finding's group, its level from the finding's
severity (:mod:`sit.severity`: critical is ``error``, major ``warning``, minor ``note``), its
fingerprint the one ``.sitignore`` keys suppressions by. Reports only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from .base import Writer

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"critical": "error", "major": "warning", "minor": "note"}


class Format(Writer):
    report_file = "report.sarif"

    def report(self, run: Any, labels: Optional[dict] = None, max_chars: Optional[int] = None) -> str:
        return json.dumps(sarif_log(run), ensure_ascii=False, indent=1) + "\n"


def sarif_log(run: Any) -> dict[str, Any]:
    """The SARIF log of a loaded run directory (:class:`sit.rundir.RunData`)."""
    from .. import __version__
    from ..ignorefile import issue_fingerprint
    from ..severity import severity_of

    uri = Path(run.meta.input).as_uri() if Path(run.meta.input).is_absolute() else run.meta.input
    rules: dict[str, dict[str, Any]] = {}
    results = []
    for issue in run.issues:
        found = severity_of(issue)
        rules.setdefault(issue.group, {"id": issue.group, "shortDescription": {"text": issue.group},
                                       "properties": {"severity": found.level, "category": found.category}})
        text = f"{issue.group}: {_evidence(issue)}"
        results.append({
            "ruleId": issue.group, "level": LEVELS[found.level], "message": {"text": text[:1000]},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri},
                                                "region": {"startLine": max(1, int(issue.pair.source_id))}}}],
            "partialFingerprints": {"sitFingerprint/v1": issue_fingerprint(issue)},
            "properties": {"severity": found.level, "category": found.category, "issue_id": issue.issue_id},
        })
    driver = {"name": "sit", "version": __version__, "rules": list(rules.values())}
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": results}]}


def _evidence(issue) -> str:
    # what a reader needs on one line: the tokens, words or numbers the finding names
    ev = issue.evidence or {}
    for key, field in (("tokens", "token"), ("numbers", "number")):
        if ev.get(key):
            return ", ".join(str(t.get(field, t)) if isinstance(t, dict) else str(t) for t in ev[key])
    if ev.get("words"):
        return ", ".join(map(str, ev["words"]))
    return " ".join(str(issue.original_translation).split())[:200]
