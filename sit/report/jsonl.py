"""The JSONL report (``report.jsonl``): one line per issue, in page order, from the view model.

Each line is the issue as the page shows it: ids, its relation and kind, ranks (``sentence_position`` is the
sentence's place in the worst-first order), texts, highlight spans, relation changes, scores,
the sentence's own translation, and the triage label when labels were given.
"""

from __future__ import annotations

import json
from typing import Any, Iterator


def render_jsonl(view: dict[str, Any]) -> str:
    return "".join(jsonl_parts(view))


def jsonl_parts(view: dict[str, Any]) -> Iterator[str]:
    """:func:`render_jsonl` a flagged sentence at a time (the view's sentences are made as they
    are read: :class:`sit.report.model.SentenceViews`)."""
    for s in view["sentences"]:
        lines = []
        for i in s["issues"]:
            row = {
                "issue_id": i["id"],
                "cluster_id": i.get("cluster"),
                "relation": i["relation"],
                "kind": i["kind"],
                "sentence_position": s["position"],
                "source_id": i["source_id"],
                "rank": i["rank"],
                "distance": i["distance"],
                "original": i["original"],
                "perturbed": i["perturbed"],
                "before": i["before"],
                "after": i["after"],
                "source_translation": s["translation"],
                "original_translation": i["original_translation"],
                "perturbed_translation": i["perturbed_translation"],
                "source_marks": i["source_marks"],
                "translation_marks": i["translation_marks"],
                "relations": i["relations"],
                "scores": i["scores"],
                "evidence": i["evidence"],
                "label": i["label"],
                "category": i["category"],
            }
            lines.append(json.dumps(row, ensure_ascii=False))
        yield "".join(line + "\n" for line in lines)
