"""Judges: given a source and two translations of it, which translation is worse.

Looked up by name without importing their dependencies (:class:`sit.registry.Registry`); other
packages add judges through the ``sit.judges`` entry-point group. ``use`` (the multilingual
Universal Sentence Encoder, offline) and ``gemba-mqm`` (an LLM through any OpenAI-compatible
endpoint, only when named). See docs/judge.md.
"""

from __future__ import annotations

from typing import Any, Mapping

from .. import hints
from ..registry import Entry, Registry
from .base import ABSTAIN_REASONS, WORSE, Judge, Verdict

#: the judge ``sit judge`` uses when none is named (offline)
DEFAULT_JUDGE = "use"

JUDGES = Registry(
    "judge",
    {
        "use": Entry("sit.judge.encoder:UseJudge", hints.JUDGE,
                     "offline: multilingual Universal Sentence Encoder v3, sit's checks and a fitted model"),
        "gemba-mqm": Entry("sit.judge.gemba:GembaJudge", hints.REQUESTS,
                           "GEMBA-MQM through any OpenAI-compatible endpoint (--judge-option model=NAME required)"),
    },
    group="sit.judges",
)


def get_judge(name: str, **kwargs: Any) -> Judge:
    """Create the judge registered as ``name`` (importing its module only now)."""
    return JUDGES.create(name, **kwargs)


def judge_options(name: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` (``--judge-option``), every key of which judge ``name`` must take."""
    from ..options import check_given, named_options

    return check_given(given, named_options(JUDGES.get(name)), f"the {name} judge", "--judge-option ")


__all__ = ["ABSTAIN_REASONS", "DEFAULT_JUDGE", "JUDGES", "WORSE", "Judge", "Verdict", "get_judge", "judge_options"]
