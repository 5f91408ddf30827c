"""Sentence-level chrF and BLEU over many pairs: each string's statistics once, every core used.

The figures are sacrebleu's own, bit for bit:

- **chrF** (``sentence_chrf(hyp, [ref])``: 6 character orders, no word orders, beta 2,
  whitespace removed). sacrebleu's own n-gram extraction (``extract_all_char_ngrams``), match
  statistics (``CHRF._get_match_statistics``) and score (``CHRF._compute_f_score``), with the
  n-grams of every distinct string extracted once: a reference scored against both outputs, or
  the same sentence in two files, is read once.
- **BLEU** (``sentence_bleu(hyp, [ref], smooth_method="floor", smooth_value=0.01)``): sacrebleu's
  own reference extraction, segment statistics and score, with each reference tokenized once.

Work is split by line ranges over worker processes (``jobs``; default: the usable cores) when
there is enough of it to pay for starting them.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from typing import Any, Callable, Optional, Sequence

log = logging.getLogger(__name__)

PARALLEL_MIN_PAIRS = 600  # below this many pairs, worker start-up costs more than it saves
BLEU_SMOOTH_METHOD = "floor"
BLEU_SMOOTH_VALUE = 0.01

_state: dict[str, Any] = {}


# ---------------------------------------------------------------------------------------------
# sacrebleu metric objects (created once per process) and their signatures


def _chrf_metric():
    metric = _state.get("chrf")
    if metric is None:
        from sacrebleu.metrics import CHRF

        metric = _state["chrf"] = CHRF()
    return metric


def _bleu_metric():
    metric = _state.get("bleu")
    if metric is None:
        from sacrebleu.metrics import BLEU

        # exactly what sacrebleu.sentence_bleu builds
        metric = _state["bleu"] = BLEU(
            smooth_method=BLEU_SMOOTH_METHOD, smooth_value=BLEU_SMOOTH_VALUE, effective_order=True, force=False
        )
    return metric


def signature(kind: str) -> str:
    """sacrebleu's signature of the metric, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""
    from sacrebleu.metrics import BLEU, CHRF

    if kind == "chrf":
        metric = CHRF()
    elif kind == "bleu":
        metric = BLEU(smooth_method=BLEU_SMOOTH_METHOD, smooth_value=BLEU_SMOOTH_VALUE, effective_order=True)
    else:  # pragma: no cover - programming error
        raise ValueError(kind)
    metric.num_refs = 1
    return str(metric.get_signature())


# ---------------------------------------------------------------------------------------------
# chrF


def _chrf_chunk(groups: Sequence[tuple[Sequence[Sequence[str]], Sequence[str]]]) -> list[list[list[float]]]:
    from sacrebleu.metrics.helpers import extract_all_char_ngrams

    metric = _chrf_metric()
    match, f_score = metric._get_match_statistics, metric._compute_f_score
    order, whitespace = metric.char_order, metric.whitespace
    result = [[[] for _ in columns] for columns, _ in groups]
    n = len(groups[0][1]) if groups else 0
    for i in range(n):
        # the n-grams of each distinct string of line i, extracted once; dropped after the line,
        # so memory stays flat and the garbage collector has little to walk
        seen: dict[str, list] = {}
        for g, (columns, refs) in enumerate(groups):
            ref = refs[i]
            ref_grams = seen.get(ref)
            if ref_grams is None:
                ref_grams = seen[ref] = extract_all_char_ngrams(ref, order, whitespace)
            for j, column in enumerate(columns):
                hyp = column[i]
                hyp_grams = seen.get(hyp)
                if hyp_grams is None:
                    hyp_grams = seen[hyp] = extract_all_char_ngrams(hyp, order, whitespace)
                stats: list[int] = []
                for h, r in zip(hyp_grams, ref_grams):
                    stats.extend(match(h, r))
                result[g][j].append(f_score(stats) / 100)
    return result


# ---------------------------------------------------------------------------------------------
# BLEU


def _bleu_chunk(groups) -> list[list[list[float]]]:
    metric = _bleu_metric()
    prep = metric._preprocess_segment
    result = []
    for columns, refs in groups:
        out: list[list[float]] = [[] for _ in columns]
        for i, ref in enumerate(refs):
            info = metric._extract_reference_info([prep(ref)])
            for j, column in enumerate(columns):
                stats = metric._compute_segment_statistics(prep(column[i]), info)
                out[j].append(metric._aggregate_and_compute([stats]).score / 100)
        result.append(out)
    return result


# ---------------------------------------------------------------------------------------------
# the portable way (what TEAPOT does: one public sacrebleu call per pair)


def plain_score(kind: str, hyp: str, ref: str) -> float:
    import sacrebleu

    if kind == "chrf":
        return sacrebleu.sentence_chrf(hyp, [ref]).score / 100
    return sacrebleu.sentence_bleu(hyp, [ref], smooth_method=BLEU_SMOOTH_METHOD,
                                   smooth_value=BLEU_SMOOTH_VALUE).score / 100


def _plain_chunk(kind: str, groups) -> list[list[list[float]]]:
    return [[[plain_score(kind, h, r) for h, r in zip(column, refs)] for column in columns]
            for columns, refs in groups]


def _fast_available(kind: str) -> bool:
    try:
        if kind == "chrf":
            from sacrebleu.metrics.helpers import extract_all_char_ngrams  # noqa: F401

            metric = _chrf_metric()
            names = ("_get_match_statistics", "_compute_f_score")
        else:
            metric = _bleu_metric()
            names = ("_extract_reference_info", "_compute_segment_statistics", "_aggregate_and_compute",
                     "_preprocess_segment")
        return all(callable(getattr(metric, a, None)) for a in names)
    except Exception:  # pragma: no cover - a sacrebleu without these internals
        return False


def _score_chunk(kind: str, groups):
    if not _fast_available(kind):  # pragma: no cover
        return _plain_chunk(kind, groups)
    # no reference cycles are made here: pausing the cyclic collector saves its walks
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return (_chrf_chunk if kind == "chrf" else _bleu_chunk)(groups)
    finally:
        if was_enabled:
            gc.enable()


# ---------------------------------------------------------------------------------------------
# splitting the work


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _fork_context():
    """The fork start method, when it is safe here; None otherwise.

    Workers are forked so that they start at once and import nothing. Forking while other Python
    threads run (e.g. in a pipeline that has loaded torch and its thread pools) can deadlock the
    child, and the spawn/forkserver methods re-import the caller's ``__main__``, which not every
    caller can afford: in both cases sit scores in this process instead.
    """
    import multiprocessing as mp

    if "fork" not in mp.get_all_start_methods() or threading.active_count() > 1:
        return None
    return mp.get_context("fork")


def _parallel(func: Callable, tasks: list[tuple]) -> Optional[list]:
    """``[func(*t) for t in tasks]``: the first task here, the others in forked worker processes.

    Returns None (the caller then does all the work itself) when forking is not possible or a
    worker dies; a worker never hangs the caller (a dead process breaks the executor).
    """
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ctx = _fork_context()
    if ctx is None:
        return None
    try:
        executor = ProcessPoolExecutor(max_workers=len(tasks) - 1, mp_context=ctx)
    except (OSError, ImportError, NotImplementedError) as exc:  # e.g. no semaphores in a sandbox
        log.debug("parallel scoring unavailable (%s); scoring in one process", exc)
        return None
    try:
        pending = [executor.submit(func, *t) for t in tasks[1:]]
        first = func(*tasks[0])
        return [first] + [p.result() for p in pending]
    except (BrokenProcessPool, OSError) as exc:
        log.debug("a scoring worker failed (%s); scoring in one process", exc)
        return None
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


Group = tuple[Sequence[Sequence[str]], Sequence[str]]  # (columns of hypotheses, references)


def score_groups(kind: str, groups: Sequence[Group], jobs: Optional[int] = None) -> list[list[list[float]]]:
    """Score each group's columns of hypotheses against the group's references, line by line.

    ``kind`` is ``"chrf"`` or ``"bleu"``; scores are in [0, 1]. All groups must have the same
    number of lines (they are split by the same line ranges). ``jobs``: worker processes (None:
    the usable cores when there are at least ``PARALLEL_MIN_PAIRS`` pairs; 1: this process only).
    Returns, per group, one list of scores per column.
    """
    if kind not in ("chrf", "bleu"):
        raise ValueError(f"unknown sacrebleu metric {kind!r}")
    groups = [([list(c) for c in columns], list(refs)) for columns, refs in groups]
    if not groups:
        return []
    n = len(groups[0][1])
    if any(len(refs) != n or any(len(c) != n for c in columns) for columns, refs in groups):
        raise ValueError("all hypotheses and references must have the same number of lines")
    pairs = n * sum(len(columns) for columns, _ in groups)
    if jobs is None:
        jobs = usable_cores() if pairs >= PARALLEL_MIN_PAIRS else 1
    jobs = max(1, min(int(jobs), n))
    if jobs > 1:
        bounds = [n * k // jobs for k in range(jobs + 1)]
        tasks = [(kind, [([c[a:b] for c in columns], refs[a:b]) for columns, refs in groups])
                 for a, b in zip(bounds, bounds[1:])]
        parts = _parallel(_score_chunk, tasks)
        if parts is not None:
            return [[[s for part in parts for s in part[g][j]] for j in range(len(columns))]
                    for g, (columns, _) in enumerate(groups)]
    return _score_chunk(kind, groups)


def score_columns(kind: str, columns: Sequence[Sequence[str]], refs: Sequence[str],
                  jobs: Optional[int] = None) -> list[list[float]]:
    """One group: each column of hypotheses against ``refs``, line by line, in [0, 1]."""
    return score_groups(kind, [(columns, refs)], jobs=jobs)[0]
