"""TEAPOT's evaluation of adversarial perturbations (Michel et al., NAACL 2019), inside sit.

- ``s_src(x, x')``: how much of the input a perturbation preserved (chrF by default, in [0, 1]);
- ``d_tgt(y, y', y*)``: the relative decrease of the output's score against a reference;
- without a reference, ``s_tgt(y, y')``: how much of the output was preserved;
- success per pair: ``s_src + d_tgt > threshold``, or without a reference
  ``s_src / s_tgt > threshold``.

The scorer face is TEAPOT's (``Scorer``, ``register_scorer``, ``ChrF().score(hyps, refs)``,
``rd_score``), so TEAPOT's custom scorers work here, and the figures are TEAPOT's (its current
repository's definitions) computed on current sacrebleu. Importing this package imports no metric
library; sacrebleu loads on first use.
"""

from .core import (
    NO_REFERENCE_NOTE,
    EvalResult,
    SideResult,
    evaluate,
    evaluate_files,
    format_report,
    format_terse,
    make_scorer,
    pair_scores,
    rd_score,
    read_lines,
    reference_less_scores,
    reference_less_summary,
)
from .scorers import (
    BLEU,
    METEOR,
    SCORERS,
    ChrF,
    SacreBLEUScorer,
    Scorer,
    ZeroOne,
    get_scorer_class,
    load_scorers_source,
    parse_meteor_output,
    register_scorer,
    scorer_names,
)
from .stats import (
    Summary,
    looks_tokenized,
    reference_less_success,
    relative_decrease,
    summarize,
    with_reference_success,
)

# TEAPOT's module names, so that ``import teapot`` in a custom scorer file finds what it expects
scorers_registry = SCORERS

__all__ = [
    "BLEU", "METEOR", "ChrF", "ZeroOne", "Scorer", "SacreBLEUScorer", "register_scorer", "get_scorer_class",
    "scorer_names", "load_scorers_source", "parse_meteor_output", "SCORERS",
    "evaluate", "evaluate_files", "EvalResult", "SideResult", "format_report", "format_terse", "make_scorer",
    "rd_score", "read_lines", "reference_less_scores", "reference_less_summary", "pair_scores", "NO_REFERENCE_NOTE",
    "Summary", "summarize", "relative_decrease", "looks_tokenized", "reference_less_success",
    "with_reference_success",
]
