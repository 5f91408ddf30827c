"""TEAPOT's evaluation: read the files, score both sides, count successes, print TEAPOT's report.

``evaluate`` works on lists of lines and returns an :class:`EvalResult`; ``format_report`` prints
it exactly as TEAPOT does; ``reference_less_scores`` is what ``sit run`` attaches to its issues.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from .. import inputs
from ..errors import ConfigError, InputError
from ..validate import check_number
from . import fast
from .scorers import SacreBLEUScorer, Scorer, warn_tokenized, get_scorer_class
from .stats import (
    Summary,
    looks_tokenized,
    reference_less_success,
    relative_decrease,
    summarize,
    tokenized_line_count,
    with_reference_success,
)

log = logging.getLogger(__name__)

NO_REFERENCE_NOTE = "Note: No reference file provided. Will use the reference-less criterion."
SEPARATOR = "-" * 80
WITH_REFERENCE_CRITERION = "s_src + d_tgt > threshold"
REFERENCE_LESS_CRITERION = "s_src / s_tgt > threshold (when s_tgt = 0: success when s_src > 0)"

ScorerLike = Union[str, Scorer]


# -- reading -----------------------------------------------------------------------------------


def read_lines(path: Union[str, os.PathLike], what: str = "input") -> list[str]:
    """The lines of a UTF-8 file, as TEAPOT reads them: split at ``\\n``, ``\\r\\n`` or ``\\r``,
    trailing whitespace removed, empty lines kept (they are scored like any line). A UTF-8 byte
    order mark is dropped. InputError names the file (and line) when it is missing, empty or not
    UTF-8."""
    lines = inputs.read_lines(path, what)
    if not lines:
        raise InputError(f"{what} file {Path(path)} is empty; put one sentence per line")
    return [line.rstrip() for line in lines]


# -- results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideResult:
    """One side of an evaluation: the per-line values of ``measure`` and their summary."""

    measure: str  # "s_src", "d_tgt" or "s_tgt"
    scorer: str  # the key, e.g. "chrf"
    name: str  # the scorer's display name, e.g. "ChrF"
    title: str  # TEAPOT's heading
    scores: tuple[float, ...]
    summary: Summary
    signature: Optional[str] = None

    def to_dict(self, scale: float = 100.0) -> dict[str, Any]:
        s = self.summary
        return {
            "measure": self.measure,
            "scorer": self.scorer,
            "name": self.name,
            "title": self.title,
            "signature": self.signature,
            "mean": s.mean,
            "std": s.std,
            "p5": s.p5,
            "p95": s.p95,
            "printed": {
                "mean": f"{s.mean * scale:.3f}",
                "std": f"{s.std * scale:.3f}",
                "5%-95%": f"{s.p5 * scale:.3f}-{s.p95 * scale:.3f}",
            },
            "scores": list(self.scores),
        }


@dataclass(frozen=True)
class EvalResult:
    n: int
    with_reference: bool
    threshold: float
    source: Optional[SideResult] = None
    target: Optional[SideResult] = None
    success: Optional[tuple[bool, ...]] = None

    @property
    def success_rate(self) -> Optional[float]:
        if self.success is None:
            return None
        return sum(float(s) for s in self.success) / self.n

    @property
    def criterion(self) -> Optional[str]:
        if self.success is None:
            return None
        return WITH_REFERENCE_CRITERION if self.with_reference else REFERENCE_LESS_CRITERION

    @property
    def note(self) -> Optional[str]:
        """TEAPOT's note, when the target side is evaluated without a reference."""
        return NO_REFERENCE_NOTE if self.target is not None and not self.with_reference else None

    def to_dict(self, scale: float = 100.0) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "with_reference": self.with_reference,
            "note": self.note,
            "threshold": self.threshold,
            "criterion": self.criterion,
            "scale": scale,
        }
        for side in (self.source, self.target):
            if side is not None:
                out[side.measure] = side.to_dict(scale)
        if self.success is not None:
            rate = self.success_rate
            out["success"] = {
                "rate": rate,
                "count": sum(self.success),
                "printed": f"{rate * 100:.2f}",
                "per_line": list(self.success),
            }
        else:
            out["success"] = None
        return out


def format_report(result: EvalResult, scale: float = 100.0) -> str:
    """TEAPOT's printed report, line for line (without its note; see ``EvalResult.note``)."""
    lines: list[str] = []
    for side in (result.source, result.target):
        if side is None:
            continue
        if lines:
            lines.append(SEPARATOR)
        s = side.summary
        lines += [
            side.title,
            f"Mean:\t{s.mean * scale:.3f}",
            f"Std:\t{s.std * scale:.3f}",
            f"5%-95%:\t{s.p5 * scale:.3f}-{s.p95 * scale:.3f}",
        ]
    if result.success is not None:
        lines += [SEPARATOR, f"Success percentage: {result.success_rate * 100:.2f} %"]
    return "\n".join(lines)


def format_terse(result: EvalResult, scale: float = 100.0) -> str:
    """TEAPOT's ``--terse`` output: the means, then the success percentage, one per line."""
    lines = [f"{side.summary.mean * scale:.3f}" for side in (result.source, result.target) if side is not None]
    if result.success is not None:
        lines.append(f"{result.success_rate * 100:.3f}")
    return "\n".join(lines)


# -- evaluating --------------------------------------------------------------------------------


def make_scorer(scorer: ScorerLike, jobs: Optional[int] = None) -> Scorer:
    if isinstance(scorer, Scorer):
        return scorer
    cls = get_scorer_class(scorer)
    if issubclass(cls, SacreBLEUScorer):
        return cls(jobs=jobs)
    try:
        return cls()
    except TypeError as exc:
        raise ConfigError(
            f"scorer {scorer!r} needs options ({exc}); pass an instance (e.g. METEOR(jar)) or use the command line"
        ) from exc


def _check_lengths(named: dict[str, list[str]]) -> int:
    items = list(named.items())
    first_name, first = items[0]
    for name, lines in items[1:]:
        if len(lines) != len(first):
            raise InputError(
                f"{first_name} has {len(first)} lines but {name} has {len(lines)}; the files must be "
                "line-aligned (line i of each file belongs to the same example)"
            )
    return len(first)


def evaluate(
    *,
    src: Optional[Sequence[str]] = None,
    adv_src: Optional[Sequence[str]] = None,
    out: Optional[Sequence[str]] = None,
    adv_out: Optional[Sequence[str]] = None,
    ref: Optional[Sequence[str]] = None,
    s_src: ScorerLike = "chrf",
    s_tgt: ScorerLike = "chrf",
    threshold: float = 1.0,
    src_lang: Optional[str] = None,
    tgt_lang: Optional[str] = None,
    jobs: Optional[int] = None,
    names: Optional[dict[str, str]] = None,
    check_tok: bool = True,
) -> EvalResult:
    """TEAPOT's evaluation of line-aligned lists of sentences.

    Source side (``src`` and ``adv_src``): s_src, the similarity of each perturbed input to its
    original. Target side (``out`` and ``adv_out``): with ``ref``, d_tgt, the relative decrease
    of the output's score against the reference; without, s_tgt, the similarity of the two
    outputs. With both sides, success per line: ``s_src + d_tgt > threshold``, or without a
    reference ``s_src / s_tgt > threshold`` (when s_tgt is 0: success when s_src > 0).
    ``names`` maps ``src``, ``adv_src``... to what error messages call them (e.g. file names).
    """
    threshold = check_number(threshold, "--success-threshold")
    jobs = check_number(jobs, "--jobs", minimum=1, integer=True)
    lines, labels = _given_lines(src=src, adv_src=adv_src, out=out, adv_out=adv_out, ref=ref, names=names)
    n = _check_lengths({labels[k]: v for k, v in lines.items()})
    if n == 0:
        raise InputError("there are no lines to evaluate")
    if check_tok:
        for k, v in lines.items():
            warn_tokenized(**{labels[k]: v})
    with_reference = "ref" in lines
    src_scorer = make_scorer(s_src, jobs) if "src" in lines else None
    tgt_scorer = make_scorer(s_tgt, jobs) if "out" in lines else None
    s_scores, t_scores = _scores(src_scorer, tgt_scorer, lines, jobs, src_lang, tgt_lang)
    for what, scores in (("s_src", s_scores), ("target", t_scores)):
        if scores is not None and len(scores) != n:
            raise ConfigError(f"the {what} scorer returned {len(scores)} scores for {n} lines")
    source = _side("s_src", src_scorer, s_scores, "Source side preservation ({}):")
    target = (_side("d_tgt", tgt_scorer, t_scores, "Target side degradation (relative decrease in {}):")
              if with_reference else _side("s_tgt", tgt_scorer, t_scores, "Target side preservation ({}):"))
    success = None
    if source is not None and target is not None:
        rule = with_reference_success if with_reference else reference_less_success
        success = tuple(rule(s, t, threshold) for s, t in zip(source.scores, target.scores))
    return EvalResult(n=n, with_reference=with_reference, threshold=threshold, source=source, target=target,
                      success=success)


def _side(measure: str, scorer, scores: Optional[list[float]], title: str) -> Optional[SideResult]:
    if scores is None:
        return None
    return SideResult(measure, scorer.key, scorer.name, title.format(scorer.name), tuple(scores), summarize(scores),
                      scorer.signature())


def _given_lines(*, names: Optional[dict[str, str]], **given) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The given sides as lists ({"src": [...], ...}) and what messages call each, after checking
    that they pair up (--src with --adv-src, --out with --adv-out, --ref with the outputs)."""
    given = {k: v for k, v in given.items() if v is not None}
    labels = {k: k.replace("_", "-") for k in ("src", "adv_src", "out", "adv_out", "ref")}
    labels.update(names or {})
    option = {k: "--" + k.replace("_", "-") for k in labels}
    for a, b in (("src", "adv_src"), ("out", "adv_out"), ("adv_src", "src"), ("adv_out", "out")):
        if a in given and b not in given:
            raise ConfigError(f"{option[a]} needs {option[b]}")
    if "ref" in given and "out" not in given:
        raise ConfigError("--ref needs --out and --adv-out (the outputs it is the reference of)")
    if "src" not in given and "out" not in given:
        raise ConfigError(
            "nothing to evaluate: give --src and --adv-src (source side) and/or --out and --adv-out "
            "(target side, with --ref for the reference-based criterion)"
        )
    return {k: list(v) for k, v in given.items()}, labels


def _scores(src_scorer, tgt_scorer, lines: dict[str, list[str]], jobs, src_lang, tgt_lang):
    """(s_src scores or None, target scores or None): d_tgt with a reference, else s_tgt."""
    with_reference = "ref" in lines
    if (isinstance(src_scorer, SacreBLEUScorer) and isinstance(tgt_scorer, SacreBLEUScorer)
            and src_scorer.kind == tgt_scorer.kind):
        return _scores_in_one_pass(src_scorer, lines, jobs)
    s_scores = t_scores = None
    if src_scorer is not None:
        s_scores = src_scorer.score(lines["adv_src"], lines["src"], lang=src_lang, check_tok=False)
    if tgt_scorer is not None:
        if with_reference:
            t_scores = tgt_scorer.rd_score(lines["adv_out"], lines["out"], lines["ref"], lang=tgt_lang,
                                           check_tok=False)
        else:
            t_scores = tgt_scorer.score(lines["adv_out"], lines["out"], lang=tgt_lang, check_tok=False)
    return s_scores, t_scores


def _scores_in_one_pass(scorer, lines: dict[str, list[str]], jobs):
    """Both sides scored by one sacrebleu metric in one pass: one set of worker processes, each
    string read once per line."""
    with_reference = "ref" in lines
    tgt_columns = [lines["out"], lines["adv_out"]] if with_reference else [lines["adv_out"]]
    tgt_refs = lines["ref"] if with_reference else lines["out"]
    s_cols, t_cols = fast.score_groups(scorer.kind, [([lines["adv_src"]], lines["src"]), (tgt_columns, tgt_refs)],
                                       jobs=scorer.jobs if scorer.jobs is not None else jobs)
    if with_reference:
        t_base, t_hyp = t_cols
        return s_cols[0], [relative_decrease(b, h) for b, h in zip(t_base, t_hyp)]
    return s_cols[0], t_cols[0]


def evaluate_files(
    *,
    src: Optional[str] = None,
    adv_src: Optional[str] = None,
    out: Optional[str] = None,
    adv_out: Optional[str] = None,
    ref: Optional[str] = None,
    **kwargs: Any,
) -> EvalResult:
    """:func:`evaluate` on files (UTF-8, one sentence per line, paired by position)."""
    paths = {k: v for k, v in (("src", src), ("adv_src", adv_src), ("out", out), ("adv_out", adv_out),
                               ("ref", ref)) if v is not None}
    lines = {k: read_lines(v, "--" + k.replace("_", "-")) for k, v in paths.items()}
    names = {k: f"{v} (--{k.replace('_', '-')})" for k, v in paths.items()}
    return evaluate(**lines, names=names, **kwargs)


# -- Python API shortcuts ----------------------------------------------------------------------


def rd_score(hyps: Sequence[str], bases: Sequence[str], refs: Sequence[str], scorer: ScorerLike = "chrf",
             lang: Optional[str] = None) -> list[float]:
    """Per-line relative decrease of the score of ``hyps`` from that of ``bases`` against ``refs``."""
    return make_scorer(scorer).rd_score(hyps, bases, refs, lang=lang)


def _summary_dict(values: Sequence[float]) -> Optional[dict[str, float]]:
    if not values:
        return None
    s = summarize(values)
    return {"mean": s.mean, "std": s.std, "p5": s.p5, "p95": s.p95}


def pair_scores(kind: str, hyps: Sequence[str], refs: Sequence[str], *, cache=None,
                jobs: Optional[int] = None) -> list[float]:
    """sacrebleu's sentence score (``"chrf"`` or ``"bleu"``, in [0, 1]) of each ``hyps[i]``
    against ``refs[i]``; a pair that occurs several times is scored once.

    With ``cache`` (a :class:`sit.cache.Cache`), scores are kept in its ``scores`` store under the
    metric's sacrebleu signature: a pair scored by an earlier call or run is read, not computed,
    and the new scores are written in one batch.
    """
    hyps, refs = list(hyps), list(refs)
    if len(hyps) != len(refs):
        raise InputError(f"mismatched input lengths: {len(hyps)} hypotheses but {len(refs)} references")
    from ..batching import cached_batches  # the cache's modules load only where pairs are scored
    from .pairs import PairScorer, is_score

    keys = [json.dumps([h, r], ensure_ascii=False) for h, r in zip(hyps, refs)]
    scorer = PairScorer(kind, cache=cache, jobs=jobs)
    known = cached_batches(keys, scorer.batch_job("_score_batch", valid=is_score))
    return [known[k] for k in keys]


def reference_less_scores(
    orig_src: Sequence[str],
    adv_src: Sequence[str],
    orig_out: Sequence[str],
    adv_out: Sequence[str],
    threshold: float = 1.0,
    jobs: Optional[int] = None,
    cache=None,
) -> dict[str, Any]:
    """TEAPOT's reference-less scores of perturbations, for ``sit run``.

    Per pair i: ``s_src[i]`` = chrF(adv_src[i], orig_src[i]) and ``s_tgt[i]`` =
    chrF(adv_out[i], orig_out[i]), both in [0, 1]; ``success[i]`` = s_src / s_tgt > threshold
    (when s_tgt is 0: s_src > 0). With ``cache`` (a :class:`sit.cache.Cache`), the scores are
    cached (see :func:`pair_scores`), so a re-run only reads them. Returns::

        {"s_src": [...], "s_tgt": [...], "success": [...],
         "summary": {"n": N, "threshold": T, "criterion": "...", "success_rate": R or None,
                     "s_src": {"mean", "std", "p5", "p95"} or None, "s_tgt": {...} or None,
                     "signature": {"chrf": "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:..."}}}

    Empty inputs give empty lists and None figures; different lengths raise InputError.
    """
    columns = {"orig_src": list(orig_src), "adv_src": list(adv_src), "orig_out": list(orig_out),
               "adv_out": list(adv_out)}
    n = _check_lengths(columns)
    scores = pair_scores("chrf", columns["adv_src"] + columns["adv_out"], columns["orig_src"] + columns["orig_out"],
                         cache=cache, jobs=jobs)
    s_src, s_tgt = scores[:n], scores[n:]
    success = [reference_less_success(s, t, threshold) for s, t in zip(s_src, s_tgt)]
    return {"s_src": s_src, "s_tgt": s_tgt, "success": success,
            "summary": reference_less_summary(s_src, s_tgt, threshold, cache)}


def reference_less_summary(s_src: Sequence[float], s_tgt: Sequence[float], threshold: float = 1.0,
                           cache=None) -> dict[str, Any]:
    """:func:`reference_less_scores`' ``summary`` of the scores ``s_src`` and ``s_tgt`` (of one
    call, or of several calls' scores put end to end); ``cache``: where chrF's signature is kept
    (:func:`sit.eval.fast.signature`)."""
    n = len(s_src)
    success = [reference_less_success(s, t, threshold) for s, t in zip(s_src, s_tgt)]
    return {
        "n": n,
        "threshold": threshold,
        "criterion": REFERENCE_LESS_CRITERION,
        "success_rate": (sum(success) / n) if n else None,
        "s_src": _summary_dict(s_src),
        "s_tgt": _summary_dict(s_tgt),
        "signature": {"chrf": fast.signature("chrf", cache)},
    }


__all__ = [
    "EvalResult", "SideResult", "evaluate", "evaluate_files", "format_report", "format_terse", "read_lines",
    "reference_less_scores", "reference_less_summary", "pair_scores", "rd_score", "make_scorer", "NO_REFERENCE_NOTE", "looks_tokenized",
    "tokenized_line_count",
]
