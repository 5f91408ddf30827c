"""Scores of the lead-bias test: lead-sentence inclusion, ROUGE, and TEAPOT's s_src / d_tgt.

Lead inclusion (stated in every report): a summary includes the document's first sentence when
one of its sentences has a sentence-level chrF (sacrebleu, character 6-grams, beta 2) of at least
``threshold`` (default 50) against that sentence. Both sides are NFKC-normalized and look-alike
Cyrillic/Greek letters are folded back to Latin first, so a summary that copies a
homoglyph-perturbed lead still counts as including it. The judged sentence is always the
*original* document's first sentence, whatever the perturbation did to it (moved, paraphrased).

ROUGE-1/2/L F1 (Google's ``rouge-score``, Porter stemming) against reference summaries, where
given. TEAPOT (Michel et al., 2019): s_src = chrF(perturbed document, original document) / 100;
d_tgt = relative decrease of chrF(summary, reference) from the original document's summary to the
perturbed one's, clipped at 0 as in ``sit eval`` (against the original summary where no reference
is given); an attack succeeds
when s_src + d_tgt > 1.
"""

from __future__ import annotations

import unicodedata
from typing import Optional, Sequence

from ..errors import MissingDependencyError
from ..eval.stats import relative_decrease  # TEAPOT's, clipped at 0: the one sit eval uses
from ..perturb.homoglyphs import fold
from ..perturb.text import sentences

DEFAULT_LEAD_THRESHOLD = 50.0
JUDGE = (
    "a summary includes the lead when one of its sentences scores chrF >= {t:g} against the original "
    "document's first sentence (NFKC, look-alike letters folded to Latin)"
)


def chrf(hyp: str, ref: str) -> float:
    """Sentence-level chrF (0-100) with sacrebleu's defaults, as ``sit eval`` computes it."""
    from ..eval import ChrF

    return 100.0 * ChrF().score_sentence(hyp, ref)


def normalize(text: str) -> str:
    return fold(unicodedata.normalize("NFKC", text))


def lead_match(summary: str, lead: str) -> float:
    """The best chrF of a summary sentence against ``lead`` (0 for an empty summary)."""
    lead_n = normalize(lead)
    if not lead_n.strip():
        return 0.0
    best = 0.0
    for s in sentences(normalize(summary)):
        best = max(best, chrf(s.text, lead_n))
    return best


def rouge(summaries: Sequence[str], references: Sequence[str]) -> list[dict[str, float]]:
    """ROUGE-1/2/L F1 (0-1) of each summary against its reference."""
    try:
        from rouge_score import rouge_scorer
    except ImportError as exc:
        raise MissingDependencyError(
            "ROUGE needs Google's rouge-score: pip install rouge-score (or run without reference summaries)"
        ) from exc
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    out = []
    for hyp, ref in zip(summaries, references):
        sc = scorer.score(ref, hyp)
        out.append({k: round(v.fmeasure, 6) for k, v in sc.items()})
    return out


def teapot(
    document: str, perturbed: str, summary: str, perturbed_summary: str, reference: Optional[str] = None
) -> dict[str, float]:
    """s_src, s_tgt (original and perturbed, 0-100), d_tgt and success for one document."""
    ref = reference if reference else summary
    s_src = chrf(perturbed, document) / 100.0
    base = chrf(summary, ref)
    new = chrf(perturbed_summary, ref)
    d_tgt = relative_decrease(base, new)
    return {
        "s_src": round(s_src, 6),
        "s_tgt": round(base, 4),
        "s_tgt_perturbed": round(new, 4),
        "d_tgt": round(d_tgt, 6),
        "success": bool(s_src + d_tgt > 1.0),
    }
