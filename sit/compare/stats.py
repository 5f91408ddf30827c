"""Aggregates of a comparison, with their uncertainty.

- Without references: the findings of each group (relation and kind) in each run, with a 95%
  percentile bootstrap interval over the source sentences (sentences resampled with replacement,
  the same resample for both runs, so the interval of NEW - BASE is paired).
- With references: corpus BLEU and chrF of both runs' translations of the source sentences, with
  sacrebleu's own paired bootstrap resampling (:class:`sacrebleu.significance.PairedTest`,
  ``test_type="bs"``; its seed is ``$SACREBLEU_SEED``, 12345 by default).
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..records import Issue
from .model import CountInterval, ScoreDelta

#: bootstrap resamples of the finding counts
SAMPLES = 1000


def count_intervals(sentence_ids: Sequence[int], base: Sequence[Issue], new: Sequence[Issue], *,
                    samples: int = SAMPLES, seed: int = 0) -> tuple[CountInterval, ...]:
    """Per group of findings in either run: both counts and the 95% bootstrap intervals over
    ``sentence_ids`` of each count and of the difference (NEW - BASE)."""
    import numpy as np

    ids = list(sentence_ids)
    groups = sorted({i.group for i in base} | {i.group for i in new})
    if not ids or not groups:
        return ()
    index = {sid: n for n, sid in enumerate(ids)}
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(ids), size=(samples, len(ids)))
    out = []
    for group in groups:
        b = _per_sentence(base, group, index)
        n = _per_sentence(new, group, index)
        sb, sn = b[draws].sum(axis=1), n[draws].sum(axis=1)
        out.append(CountInterval(group, int(b.sum()), int(n.sum()), _interval(sb), _interval(sn), _interval(sn - sb)))
    return tuple(out)


def _per_sentence(issues: Sequence[Issue], group: str, index: dict[int, int]):
    import numpy as np

    counts = np.zeros(len(index), dtype=np.int64)
    for sid, k in Counter(i.pair.source_id for i in issues if i.group == group).items():
        if sid in index:
            counts[index[sid]] = k
    return counts


def _interval(values) -> tuple[float, float]:
    import numpy as np

    lo, hi = np.percentile(values, [2.5, 97.5], method="nearest")  # counts: a count, not a fraction of one
    return float(lo), float(hi)


def score_deltas(base: Sequence[str], new: Sequence[str], references: Sequence[str], *,
                 samples: int = SAMPLES) -> tuple[ScoreDelta, ...]:
    """BLEU and chrF of ``base`` and ``new`` (hypotheses in the order of ``references``) with
    sacrebleu's paired bootstrap resampling."""
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    refs = [list(references)]
    test = PairedTest([("base", list(base)), ("new", list(new))], {"BLEU": BLEU(references=refs),
                      "chrF2": CHRF(references=refs)}, references=None, test_type="bs", n_samples=samples)
    signatures, scores = test()
    out = []
    for metric, (b, n) in ((k, v) for k, v in scores.items() if k != "System"):
        out.append(ScoreDelta(metric, float(b.score), float(n.score), float(n.p_value), float(b.mean), float(b.ci),
                              float(n.mean), float(n.ci), len(refs[0]), signatures[metric].format()))
    return tuple(out)
