"""Sentence scores of (hypothesis, reference) pairs through the one cached batch loop, for
:func:`sit.eval.core.pair_scores` (a module of its own, so ``sit eval`` loads no cache code)."""

from __future__ import annotations

import json
from typing import Any, Optional

from ..stage import Stage
from . import fast


def is_score(value: Any) -> bool:
    """A sentence score in [0, 1] (sacrebleu's BLEU of a perfect match is 100.00000000000004 / 100)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0 + 1e-9


class PairScorer(Stage):
    """Sentence scores of (hypothesis, reference) pairs, keyed ``json.dumps([hyp, ref])``, through
    the one cached batch loop: the ``scores`` store under the metric's sacrebleu signature."""

    kind = "scores"
    verb = "score"
    unit = "pair"
    batch_size = 100_000  # one call scores a whole column in parallel (``jobs``)

    def __init__(self, metric: str, *, cache=None, jobs: Optional[int] = None):
        super().__init__(cache=cache)
        self.name, self.jobs = metric, jobs

    def signature(self) -> dict[str, Any]:
        return {"name": self.name, "signature": fast.signature(self.name, self.cache)}

    def _score_batch(self, keys: list[str]) -> list[float]:
        pairs = [json.loads(k) for k in keys]
        return fast.score_columns(self.name, [[h for h, _ in pairs]], [r for _, r in pairs], jobs=self.jobs)[0]
