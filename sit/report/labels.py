"""Triage labels: what a reader decided about each issue (``labels.jsonl``).

One JSON object per line, as the HTML report exports them::

    {"issue_id": "rti:12-1", "relation": "rti", "kind": "", "source_id": 12, "rank": 1,
     "label": "bug", "category": "under-translation", "perturbed": "...", "run": "..."}

``label`` is ``"bug"`` or ``"not_bug"``; ``category`` is one of :data:`CATEGORIES` or null.
An issue is identified by its group (``relation`` and ``kind`` as in ``issues.jsonl``: ``sit``,
``sit.untranslated``, ``rti``, ``patinv``), its source id and its rank within that group and
source sentence, so the labels of every relation of a run live in one file. A line without a
relation takes it from the ``issue_id`` prefix (``rti:12-1``), else it is ``sit`` (files written
before relations load unchanged). ``perturbed`` (the perturbed source) lets :func:`match_labels`
tell labels written for another run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from ..errors import InputError
from ..jsonio import read_jsonl, regular_file
from ..records import Issue, issue_id  # noqa: F401 (issue_id: re-exported)
from ..relations import UNNAMED
from ..runmeta import RunMeta

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
    # the short names of docs/labels/GUIDE.md
    "under": "under-translation",
    "over": "over-translation",
    "modification": "incorrect-modification",
    "word": "mistranslation",
    "logic": "unclear-logic",
}


#: the group of a label that names none (files written before relations)
DEFAULT_GROUP = UNNAMED

LabelKey = tuple[str, int, int]  # (group, source id, rank)


def issue_key(issue: Issue) -> LabelKey:
    """The key a label of ``issue`` has."""
    return (issue.group, issue.pair.source_id, issue.rank)


@dataclass(frozen=True)
class Label:
    source_id: int
    rank: int
    label: str  # BUG or NOT_BUG
    category: Optional[str] = None
    perturbed: Optional[str] = None
    group: str = DEFAULT_GROUP  # relation, and kind after a dot: sit, sit.untranslated, rti, patinv

    @property
    def is_bug(self) -> bool:
        return self.label == BUG

    @property
    def key(self) -> LabelKey:
        return (self.group, self.source_id, self.rank)

    def to_dict(self) -> dict[str, Any]:
        relation, _, kind = self.group.partition(".")
        return {
            "issue_id": issue_id(self.source_id, self.rank, self.group),
            "relation": relation,
            "kind": kind,
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


def _group(row: dict, where: str) -> str:
    """The group a label row names: ``relation`` (+ ``kind``), else the ``issue_id`` prefix, else sit."""
    relation, kind = row.get("relation"), row.get("kind")
    if relation in (None, "") and isinstance(row.get("issue_id"), str) and ":" in row["issue_id"]:
        relation = row["issue_id"].partition(":")[0]
    if relation in (None, ""):
        return DEFAULT_GROUP
    if not isinstance(relation, str) or not isinstance(kind, (str, type(None))):
        raise InputError(f"{where}: `relation` and `kind` must be text (like \"rti\" or \"sit\", \"untranslated\")")
    return f"{relation}.{kind}" if kind and "." not in relation else relation


def _shown(value: Any, limit: int = 60) -> str:
    """``value`` as a message quotes it: its repr, cut to ``limit`` characters (a 10 MB label is
    not printed whole)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _parse(row: Any, where: str) -> Optional[Label]:
    if not isinstance(row, dict):
        raise InputError(f"{where}: a label must be a JSON object")
    source_id, rank = row.get("source_id"), row.get("rank")
    if (source_id is None or rank is None) and isinstance(row.get("issue_id"), str):
        head, _, tail = row["issue_id"].rpartition(":")[2].rpartition("-")
        source_id, rank = head, tail
    try:
        if isinstance(source_id, bool) or isinstance(rank, bool):
            raise TypeError
        source_id, rank = _whole(source_id), _whole(rank)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{where}: a label needs integer `source_id` and `rank` from 0 to {MAX_ID} "
                         "(or `issue_id` like \"12-1\")") from None
    if row.get("label") in (None, ""):
        return None  # an explicitly cleared mark
    label = normalize_label(row.get("label"))
    if label is None:
        raise InputError(f"{where}: label {_shown(row.get('label'))} is neither \"bug\" nor \"not_bug\"")
    category = normalize_category(row.get("category"))
    if row.get("category") not in (None, "") and category is None:
        known = ", ".join(CATEGORIES)
        raise InputError(f"{where}: unknown error category {_shown(row.get('category'))}; use one of: {known}")
    return Label(source_id, rank, label, category, row.get("perturbed"), _group(row, where))


#: the largest source id or rank a label may name
MAX_ID = 10**12


def _whole(value: Any) -> int:
    """An id or rank: an integer (or its text, or a whole float) from 0 to :data:`MAX_ID`."""
    if isinstance(value, str) and len(value.strip()) > 13:
        raise ValueError
    number = int(value) if not isinstance(value, float) or value.is_integer() else None
    if number is None or not 0 <= number <= MAX_ID:
        raise ValueError
    return number


def parse_labels(rows: Iterable[Any], origin: str = "labels") -> dict[LabelKey, Label]:
    """Labels keyed by (group, source id, rank); a later line for the same issue replaces an earlier one."""
    out: dict[LabelKey, Label] = {}
    for n, row in enumerate(rows, start=1):
        label = _parse(row, f"{origin}:{n}")
        if label is not None:
            out[label.key] = label
    return out


def load_labels(path: str | os.PathLike) -> dict[LabelKey, Label]:
    """Read a ``labels.jsonl`` file exported by the HTML report (through :mod:`sit.jsonio`:
    damage is an InputError naming the line)."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such labels file; export it from report.html (\"export labels.jsonl\") "
                         "and save it in the run directory, or mark root causes with "
                         "`sit mark RUN CLUSTER_ID --as bug|not_bug`")
    hint = "is this a labels.jsonl file exported from report.html?"
    rows = list(read_jsonl(regular_file(p, hint), hint=hint))  # a FIFO would hang the reader
    return parse_labels(rows, str(p))


def for_run(labels: dict[LabelKey, Label], meta: RunMeta) -> dict[LabelKey, Label]:
    """``labels`` as the run's issues are grouped: a label naming a relation's own finding by its
    kind's name (``"relation": "sit", "kind": "structure"``, as issues.jsonl writes it) judges the
    relation's own group (``sit``), as labels without a kind always have."""
    from dataclasses import replace

    own = {f"{rel}.{kind}": rel for rel, kind in meta.own_kinds().items()}
    out: dict[LabelKey, Label] = {}
    for label in labels.values():
        label = replace(label, group=own.get(label.group, label.group))
        out[label.key] = label
    return out


@dataclass(frozen=True)
class LabelMatch:
    """Labels that belong to a run's issues, and those that do not."""

    labels: dict[LabelKey, Label]
    unknown: tuple[LabelKey, ...]  # no such issue in the run
    mismatched: tuple[LabelKey, ...]  # the issue exists but its perturbed source differs


def match_labels(issues: Iterable[Issue], labels: dict[LabelKey, Label]) -> LabelMatch:
    """Keep the labels that name an issue of the run (same group, source id, rank and perturbed
    source).

    Raises :class:`InputError` when labels were given but none belongs to the run.
    """
    return matched_labels(labelled_texts(issues, labels), labels)


def labelled_texts(issues: Iterable[Issue], labels: dict[LabelKey, Label]) -> dict[LabelKey, str]:
    """The perturbed source of each finding of ``issues`` that ``labels`` names (the last, where
    two share a key), in one pass that keeps nothing of the others."""
    found: dict[LabelKey, str] = {}
    for issue in issues:
        key = issue_key(issue)
        if key in labels:
            found[key] = issue.pair.perturbed
    return found


def matched_labels(found: dict[LabelKey, str], labels: dict[LabelKey, Label]) -> LabelMatch:
    """:func:`match_labels` given the perturbed sources of the findings the labels name
    (:func:`labelled_texts`)."""
    kept: dict[LabelKey, Label] = {}
    unknown, mismatched = [], []
    for key, label in labels.items():
        perturbed = found.get(key)
        if perturbed is None:
            unknown.append(key)
        elif label.perturbed is not None and label.perturbed != perturbed:
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
