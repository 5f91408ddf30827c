"""Triage labels: what a reader decided about each issue (``labels.jsonl``).

One JSON object per line, as the HTML report exports them::

    {"issue_id": "12-1", "source_id": 12, "rank": 1, "label": "bug",
     "category": "under-translation", "perturbed": "...", "run": "..."}

``label`` is ``"bug"`` or ``"not_bug"``; ``category`` is one of :data:`CATEGORIES` or null.
An issue is identified by its source id and its rank within that source sentence; ``perturbed``
(the perturbed source) lets :func:`match_labels` tell labels written for another run.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from ..errors import InputError
from ..records import Issue

# The SIT paper's error categories (He et al., ICSE 2020): key -> display name.
CATEGORIES: dict[str, str] = {
    "under-translation": "under-translation",
    "over-translation": "over-translation",
    "incorrect-modification": "incorrect modification",
    "mistranslation": "word/phrase mistranslation",
    "unclear-logic": "unclear logic",
}

BUG, NOT_BUG = "bug", "not_bug"

_LABEL_ALIASES = {
    "bug": BUG, "yes": BUG, "true": BUG, "1": BUG,
    "not_bug": NOT_BUG, "not-bug": NOT_BUG, "not a bug": NOT_BUG, "notbug": NOT_BUG,
    "no": NOT_BUG, "false": NOT_BUG, "0": NOT_BUG,
}
_CATEGORY_ALIASES = {
    **{k: k for k in CATEGORIES},
    **{v: k for k, v in CATEGORIES.items()},
    "undertranslation": "under-translation",
    "overtranslation": "over-translation",
    "word/phrase-mistranslation": "mistranslation",
    "word-mistranslation": "mistranslation",
    "phrase-mistranslation": "mistranslation",
    "unclear logic": "unclear-logic",
}


def issue_id(source_id: int, rank: int) -> str:
    """The stable id of an issue in a run: ``"<source id>-<rank>"``."""
    return f"{source_id}-{rank}"


@dataclass(frozen=True)
class Label:
    source_id: int
    rank: int
    label: str  # BUG or NOT_BUG
    category: Optional[str] = None
    perturbed: Optional[str] = None

    @property
    def is_bug(self) -> bool:
        return self.label == BUG

    @property
    def key(self) -> tuple[int, int]:
        return (self.source_id, self.rank)

    def to_dict(self) -> dict[str, Any]:
        return {
            "issue_id": issue_id(self.source_id, self.rank),
            "source_id": self.source_id,
            "rank": self.rank,
            "label": self.label,
            "category": self.category,
            "perturbed": self.perturbed,
        }


def normalize_label(value: Any) -> Optional[str]:
    if isinstance(value, bool):
        return BUG if value else NOT_BUG
    return _LABEL_ALIASES.get(str(value).strip().lower()) if value is not None else None


def normalize_category(value: Any) -> Optional[str]:
    if value in (None, ""):
        return None
    text = str(value).strip().lower()
    return _CATEGORY_ALIASES.get(text) or _CATEGORY_ALIASES.get(text.replace("_", "-").replace(" ", "-"))


def _parse(row: Any, where: str) -> Optional[Label]:
    if not isinstance(row, dict):
        raise InputError(f"{where}: a label must be a JSON object")
    source_id, rank = row.get("source_id"), row.get("rank")
    if (source_id is None or rank is None) and isinstance(row.get("issue_id"), str):
        head, _, tail = row["issue_id"].rpartition("-")
        source_id, rank = head, tail
    try:
        source_id, rank = int(source_id), int(rank)
    except (TypeError, ValueError):
        raise InputError(f"{where}: a label needs integer `source_id` and `rank` (or `issue_id` like \"12-1\")") from None
    if row.get("label") in (None, ""):
        return None  # an explicitly cleared mark
    label = normalize_label(row.get("label"))
    if label is None:
        raise InputError(f"{where}: label {row.get('label')!r} is neither \"bug\" nor \"not_bug\"")
    category = normalize_category(row.get("category"))
    if row.get("category") not in (None, "") and category is None:
        known = ", ".join(CATEGORIES)
        raise InputError(f"{where}: unknown error category {row.get('category')!r}; use one of: {known}")
    return Label(source_id, rank, label, category, row.get("perturbed"))


def parse_labels(rows: Iterable[Any], origin: str = "labels") -> dict[tuple[int, int], Label]:
    """Labels keyed by (source id, rank); a later line for the same issue replaces an earlier one."""
    out: dict[tuple[int, int], Label] = {}
    for n, row in enumerate(rows, start=1):
        label = _parse(row, f"{origin}:{n}")
        if label is not None:
            out[label.key] = label
    return out


def load_labels(path: str | os.PathLike) -> dict[tuple[int, int], Label]:
    """Read a ``labels.jsonl`` file exported by the HTML report."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{p}: no such labels file; export it from report.html (\"Export labels\")") from None
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8 text; is this a labels.jsonl file?") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read labels ({exc.strerror})") from None
    rows = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise InputError(f"{p}:{lineno}: not valid JSON ({exc.msg}); is this a labels.jsonl file?") from None
    return parse_labels(rows, str(p))


@dataclass(frozen=True)
class LabelMatch:
    """Labels that belong to a run's issues, and those that do not."""

    labels: dict[tuple[int, int], Label]
    unknown: tuple[tuple[int, int], ...]  # no such issue in the run
    mismatched: tuple[tuple[int, int], ...]  # the issue exists but its perturbed source differs


def match_labels(issues: Iterable[Issue], labels: dict[tuple[int, int], Label]) -> LabelMatch:
    """Keep the labels that name an issue of the run (same source id, rank and perturbed source).

    Raises :class:`InputError` when labels were given but none belongs to the run.
    """
    by_key = {(i.pair.source_id, i.rank): i for i in issues}
    kept: dict[tuple[int, int], Label] = {}
    unknown, mismatched = [], []
    for key, label in labels.items():
        issue = by_key.get(key)
        if issue is None:
            unknown.append(key)
        elif label.perturbed is not None and label.perturbed != issue.pair.perturbed:
            mismatched.append(key)
        else:
            kept[key] = label
    if labels and not kept:
        raise InputError(
            f"none of the {len(labels)} labels names an issue of this run "
            f"({len(unknown)} unknown, {len(mismatched)} with another perturbed sentence); "
            "were they exported from this run's report.html?"
        )
    return LabelMatch(kept, tuple(sorted(unknown)), tuple(sorted(mismatched)))
