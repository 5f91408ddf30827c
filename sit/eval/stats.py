"""TEAPOT's statistics: summary figures, relative decrease, the tokenization check.

Pure functions on lists of floats, written to reproduce TEAPOT's printed figures bit for bit:
the mean is summed over the *sorted* values (as TEAPOT does), the standard deviation divides by
``N - 1`` (by 0.1 when N is 1, so one value has a deviation of 0), and the 5% and 95% points are
the sorted values at indices ``int(N * 0.05)`` and ``int(N * 0.95)``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from math import sqrt
from typing import Any, Optional, Sequence


@dataclass(frozen=True)
class Summary:
    """Mean, standard deviation (N-1) and 5%/95% points of per-line scores, all in [0, 1] units."""

    n: int
    mean: float
    std: float
    p5: float
    p95: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarize(values: Sequence[float]) -> Summary:
    """TEAPOT's ``stats``. Raises ``ValueError`` on an empty list (there is no mean of nothing)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to summarize")
    x = sorted(values)
    mean = sum(x) / n
    std = sqrt(sum([(x_i - mean) ** 2 for x_i in x]) / max(n - 1, 0.1))
    return Summary(n=n, mean=mean, std=std, p5=x[int(n * 0.05)], p95=x[int(n * 0.95)])


def summarize_or_none(values: Sequence[float]) -> Optional[Summary]:
    return summarize(values) if len(values) else None


def relative_decrease(base: float, value: float) -> float:
    """``max(0, base - value) / base``, and 0 when ``base`` is not positive (TEAPOT's definition)."""
    if base > 0:
        return max(0, base - value) / base
    return 0.0


def with_reference_success(s_src: float, d_tgt: float, threshold: float = 1.0) -> bool:
    """An attack succeeds on a pair when it destroys the target more than the source."""
    return s_src + d_tgt > threshold


def reference_less_success(s_src: float, s_tgt: float, threshold: float = 1.0) -> bool:
    """Reference-less criterion ``s_src / s_tgt > threshold``.

    TEAPOT divides by zero when the two outputs share nothing (``s_tgt == 0``); sit counts such a
    pair as a success when the source kept something (``s_src > 0``), the limit of the ratio.
    """
    if s_tgt == 0:
        return s_src > 0
    return s_src / s_tgt > threshold


TOKENIZED_LINES = 100  # TEAPOT (after sacreBLEU) complains after this many lines ending in " ."


def tokenized_line_count(lines: Sequence[str]) -> int:
    return sum(1 for line in lines if line.endswith(" ."))


def looks_tokenized(lines: Sequence[str]) -> bool:
    """True when lines end in a detached period (" .") often enough to look tokenized.

    TEAPOT's rule is 100 such lines; sit also flags a smaller file where more than half do.
    """
    count = tokenized_line_count(lines)
    return count >= TOKENIZED_LINES or count * 2 > len(lines)
