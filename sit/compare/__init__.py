"""``sit compare``: two run directories of the same inputs and relations, test case by test case.

:func:`compare_runs` builds a :class:`Comparison` (records in :mod:`sit.compare.model`, aggregates
in :mod:`sit.compare.stats`); :func:`render` writes it as text, markdown, html, jsonl or junit
(:mod:`sit.compare.writers`, :mod:`sit.compare.html`). Needs no model: it reads the two runs.
"""

from .core import check_comparable, compare_runs
from .model import STATUSES, CaseKey, ComparedCase, Comparison, CountInterval, RunSide, ScoreDelta
from .writers import render, write_comparison

__all__ = ["compare_runs", "check_comparable", "render", "write_comparison", "STATUSES",
           "CaseKey", "ComparedCase", "Comparison", "CountInterval", "RunSide", "ScoreDelta"]
