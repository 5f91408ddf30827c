"""The offline judges' decision: a small logistic model over a few differences between the two
translations of one source, fitted on half of WMT23's side-by-side MQM ratings
(``benchmarks/fit_judge.py``; method and figures in docs/judge.md).

The model is asked only where no rule answers (a repetition loop, :func:`loops`, which makes a
translation longer, which the model would otherwise reward; then the checks of
:mod:`sit.judge.evidence`: numbers, negations, names). Each feature is how much worse translation
a looks than b by one measure (a's badness minus b's), so that swapping a and b changes its sign
and the model needs no intercept:

- ``encoder``: how much closer b's sentence vector stays to the source's than a's
  (:meth:`sit.judge.encoder.EncoderJudge.score`, cosine);
- ``shorter``: log(len(b) / len(a)) in characters: of two translations of one source, the
  shorter one more often leaves something out (MQM's omissions); the encoder sees additions.

The score is ``sum(weight * feature)``: above ``tie_below`` a is worse, below ``-tie_below`` b is,
else a tie.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping


#: the features, in the order of a model's weights
FEATURES = ("encoder", "shorter")
#: a translation loops where an n-gram repeats back to back this many times or more, and more
#: than any n-gram of the source (the ``length`` relation's ``loop`` finding counts the same
#: n-gram in the source and asks two more: the judge's looser rule was fitted as it stands)
LOOP_REPEATS = 3


@dataclass(frozen=True)
class Model:
    """Weights per feature (:data:`FEATURES`, already divided by the feature's spread on the data
    it was fitted on), the margin under which the judge ties, and how it was fitted."""

    weights: Mapping[str, float]
    tie_below: float
    fitted: str

    def score(self, features: Mapping[str, float]) -> float:
        """How much worse a looks than b (positive: a worse)."""
        return sum(self.weights[f] * features.get(f, 0.0) for f in FEATURES)


def differences(a: str, b: str, close_a: float, close_b: float) -> dict[str, float]:
    """a's badness minus b's by each feature (see the module); ``close_a`` / ``close_b`` are
    the encoder's closeness of each translation to the source."""
    return {"encoder": close_b - close_a, "shorter": math.log(max(1, len(b.strip())) / max(1, len(a.strip())))}


def loops(source: str, translation: str) -> bool:
    """Whether ``translation`` repeats an n-gram back to back :data:`LOOP_REPEATS` times or more,
    and more often than ``source`` repeats any."""
    from ..textcheck.repeats import longest_repeat

    times = longest_repeat(translation)[0]
    return times >= LOOP_REPEATS and times > longest_repeat(source)[0]
