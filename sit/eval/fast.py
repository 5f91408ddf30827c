"""Sentence-level chrF and BLEU over many pairs, with sacrebleu's figures bit for bit.

- **chrF** (``sentence_chrf(hyp, [ref])``: 6 character orders, no word orders, beta 2,
  whitespace removed) through `fastchrf <https://github.com/jvamvas/fastChrF>`_, sacrebleu's
  algorithm in Rust, on threads, in this process. sit removes the whitespace itself, as
  sacrebleu does (``"".join(line.split())``: Rust's notion of whitespace leaves out the
  separators U+001C..U+001F that Python's includes), and lets fastchrf count the n-grams. Where
  fastchrf is not installed, cannot take a string (e.g. a lone surrogate) or sacrebleu's chrF
  defaults are not the ones fastchrf is given here, each pair goes through sacrebleu's own
  ``sentence_chrf``, the reference.
- **BLEU** (``sentence_bleu(hyp, [ref], smooth_method="floor", smooth_value=0.01)``): sacrebleu's
  own reference extraction, segment statistics and score, with each reference tokenized once.

The sacrebleu paths can split the work by line ranges over ``jobs`` forked worker processes.
The default is this process only: workers shorten the wall time only where cores idle, and always
cost CPU time (start-up, copying results back); chrF through fastchrf needs none (its threads
already use the cores).
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from typing import Any, Callable, Optional, Sequence

log = logging.getLogger(__name__)

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


def signature(kind: str, cache=None) -> str:
    """sacrebleu's signature of the metric, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``.
    With ``cache`` (a :class:`sit.cache.Cache`) it is kept there per sacrebleu version, so that a
    re-run whose scores are all cached does not import sacrebleu (0.1 s: its ``utils`` import
    tabulate, colorama, portalocker and lxml) only to name the metric."""
    store = None
    if cache is not None:  # without one, importlib.metadata is not imported (10 ms of `sit eval`)
        from importlib import metadata

        try:
            store = cache.store("metric-signature", {"sacrebleu": metadata.version("sacrebleu")})
        except metadata.PackageNotFoundError:
            store = None
    known = store.get(kind, None) if store is not None else None
    if known is None:
        known = _signature(kind)
        if store is not None:
            store.put(kind, known)
    return known


def _signature(kind: str) -> str:
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
# chrF through fastchrf

# what fastchrf is given; used only while sacrebleu's CHRF() has these same settings
FASTCHRF_SETTINGS = {"char_order": 6, "beta": 2, "remove_whitespace": False, "eps_smoothing": False}


# pairs whose scores need every bit of a float64: a fastchrf that computes otherwise is not used
_PROBES = (("The cat sat on the mat.", "A cat was sitting on the mat!"), ("我们今天去北京", "我们明天去北京了"))


def _fastchrf():
    """The fastchrf module when it gives sacrebleu's chrF here; None otherwise (checked once per
    process: sacrebleu's CHRF() has the settings fastchrf is given, and both agree on probes)."""
    if "fastchrf" not in _state:
        _state["fastchrf"] = _check_fastchrf()
    return _state["fastchrf"]


def _check_fastchrf():
    try:
        import fastchrf
    except ImportError:
        return None
    import sacrebleu

    m = _chrf_metric()
    same = (m.char_order, m.word_order, m.beta, m.whitespace, m.lowercase, m.eps_smoothing) == (
        FASTCHRF_SETTINGS["char_order"], 0, FASTCHRF_SETTINGS["beta"], False, False, False)
    try:
        got = fastchrf.pairwise_chrf([[_no_whitespace(h)] for h, _ in _PROBES],
                                     [[_no_whitespace(r)] for _, r in _PROBES], **FASTCHRF_SETTINGS)
    except Exception as exc:  # pragma: no cover - an incompatible fastchrf
        log.debug("fastchrf unusable (%s); chrF through sacrebleu", exc)
        return None
    same = same and [row[0][0] for row in got] == [sacrebleu.sentence_chrf(h, [r]).score for h, r in _PROBES]
    if not same:
        log.debug("fastchrf does not give sacrebleu's chrF here; chrF through sacrebleu")
    return fastchrf if same else None


def _check_beside() -> None:
    """:func:`_fastchrf` in a thread of its own; what it raises is raised again by the caller's
    own call of :func:`_fastchrf` (the check is stored only when it finished)."""
    try:
        _fastchrf()
    except Exception:  # noqa: BLE001 - raised again in the caller's thread
        log.debug("checking fastchrf failed; checking again in the caller's thread", exc_info=True)


def _no_whitespace(text: str) -> str:
    return "".join(text.split())  # exactly sacrebleu's extract_all_char_ngrams


def _fastchrf_groups(groups: Sequence[tuple[Sequence[Sequence[str]], Sequence[str]]]) -> Optional[list]:
    """:func:`score_groups` for chrF through fastchrf, one call for all groups; None when
    fastchrf cannot be used (the caller then uses sacrebleu).

    The first time in a process, fastchrf scores while another thread checks it against
    sacrebleu (:func:`_fastchrf`: sacrebleu's import, about 35 ms, most of the check): fastchrf
    releases the GIL, so the two overlap, and its scores are used only once the check has passed."""
    try:
        import fastchrf
    except ImportError:
        return None
    if _state.get("fastchrf", fastchrf) is None:  # checked already: not sacrebleu's chrF here
        return None
    hyps, refs = [], []
    for columns, group_refs in groups:
        for i, ref in enumerate(group_refs):
            hyps.append([_no_whitespace(c[i]) for c in columns])
            refs.append([_no_whitespace(ref)])
    check = None
    if "fastchrf" not in _state:
        check = threading.Thread(target=_check_beside, name="sit-chrf-check", daemon=True)
        check.start()
    try:
        rows = fastchrf.pairwise_chrf(hyps, refs, **FASTCHRF_SETTINGS)
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError (a lone surrogate) is a ValueError
        log.debug("fastchrf cannot score these lines (%s); scoring with sacrebleu", exc)
        rows = None
    finally:
        if check is not None:
            check.join()
    if rows is None or _fastchrf() is None:
        return None
    result, k = [], 0
    for columns, group_refs in groups:
        n = len(group_refs)
        result.append([[rows[k + i][j][0] / 100 for i in range(n)] for j in range(len(columns))])
        k += n
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


def _bleu_internals_available() -> bool:
    try:
        metric = _bleu_metric()
        names = ("_extract_reference_info", "_compute_segment_statistics", "_aggregate_and_compute",
                 "_preprocess_segment")
        return all(callable(getattr(metric, a, None)) for a in names)
    except Exception:  # pragma: no cover - a sacrebleu without these internals
        return False


def _score_chunk(kind: str, groups):
    """The sacrebleu way: chrF pair by pair (fastchrf unusable), BLEU with each reference read once."""
    if kind == "chrf" or not _bleu_internals_available():
        return _plain_chunk(kind, groups)
    # no reference cycles are made here: pausing the cyclic collector saves its walks
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _bleu_chunk(groups)
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


def _thread_count() -> int:
    """Threads of this process, native ones included where the system lists them."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:  # pragma: no cover - not Linux
        return threading.active_count()


def _fork_context():
    """The fork start method, when it is safe here; None otherwise.

    Workers are forked so that they start at once and import nothing. Forking while other threads
    run (Python's, or native ones: torch's thread pools, fastchrf's) can deadlock the child, and
    the spawn/forkserver methods re-import the caller's ``__main__``, which not every caller can
    afford: in both cases sit scores in this process instead.
    """
    import multiprocessing as mp

    if "fork" not in mp.get_all_start_methods() or _thread_count() > 1:
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
    number of lines (they are split by the same line ranges). ``jobs``: processes for the
    sacrebleu paths (None or 1: this process only); chrF through fastchrf runs in this process
    on fastchrf's threads.
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
    if n == 0:
        return [[[] for _ in columns] for columns, _ in groups]
    if kind == "chrf":
        scores = _fastchrf_groups(groups)
        if scores is not None:
            return scores
    jobs = max(1, min(int(jobs or 1), n))
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
