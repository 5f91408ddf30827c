"""The lead-bias robustness test (Robustsumm): summarize documents and their perturbations, and
compare how often the summaries include the original document's first sentence.

Which part of a document is perturbed (``scope``): ``lead`` perturbs only the first sentence (as
Robustsumm does for paraphrases and homoglyphs), ``document`` the whole text, and ``auto`` (the
default) the lead for sentence-internal perturbations (character, word, paraphrase) and the whole
document for reorderings (``sentence_reorder``, ``document_reorder``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Optional, Sequence

from ..errors import ConfigError, InputError
from ..perturb.text import DOCUMENT_SEPARATOR, documents, sentences
from .data import Document
from .scores import DEFAULT_LEAD_THRESHOLD, JUDGE, lead_match, rouge, teapot

SCOPES = ("auto", "lead", "document")


def lead_span(text: str, separator: str = DOCUMENT_SEPARATOR) -> Optional[tuple[int, int]]:
    """Character span of the first sentence of the first document, or None for an empty text."""
    docs = documents(text, separator)
    if not docs:
        return None
    sents = sentences(docs[0].text)
    if not sents:
        return None
    return docs[0].start + sents[0].start, docs[0].start + sents[0].end


@dataclass
class DocumentResult:
    id: str
    document: str
    perturbed: str
    applied: bool
    reason: str
    edits: list[dict[str, Any]]
    lead: str
    summary: str
    perturbed_summary: str
    lead_score: float
    lead_score_perturbed: float
    included: bool
    included_perturbed: bool
    reference: Optional[str] = None
    rouge: Optional[dict[str, float]] = None
    rouge_perturbed: Optional[dict[str, float]] = None
    teapot: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _mean(xs: Sequence[float]) -> Optional[float]:
    return round(sum(xs) / len(xs), 6) if xs else None


@dataclass
class LeadBiasReport:
    summarizer: str
    summarizer_model: str
    perturbation: str
    perturber_options: dict[str, Any]
    scope: str
    seed: int
    threshold: float
    documents: list[DocumentResult]

    @property
    def n(self) -> int:
        return len(self.documents)

    @property
    def applied(self) -> list[DocumentResult]:
        return [d for d in self.documents if d.applied]

    def rate(self, docs: Sequence[DocumentResult], perturbed: bool) -> Optional[float]:
        if not docs:
            return None
        return round(sum(d.included_perturbed if perturbed else d.included for d in docs) / len(docs), 6)

    def rouge_means(self, perturbed: bool) -> Optional[dict[str, float]]:
        rows = [d.rouge_perturbed if perturbed else d.rouge for d in self.documents if d.rouge]
        if not rows:
            return None
        return {k: _mean([r[k] for r in rows]) for k in rows[0]}

    def summary(self) -> dict[str, Any]:
        applied = self.applied
        tp = [d.teapot for d in applied]
        return {
            "summarizer": self.summarizer,
            "summarizer_model": self.summarizer_model,
            "perturbation": self.perturbation,
            "perturber_options": self.perturber_options,
            "scope": self.scope,
            "seed": self.seed,
            "documents": self.n,
            "perturbed_documents": len(applied),
            "lead_judge": JUDGE.format(t=self.threshold),
            "lead_threshold": self.threshold,
            "lead_inclusion_before": self.rate(self.documents, False),
            "lead_inclusion_after": self.rate(self.documents, True),
            "lead_inclusion_before_perturbed_only": self.rate(applied, False),
            "lead_inclusion_after_perturbed_only": self.rate(applied, True),
            "rouge_before": self.rouge_means(False),
            "rouge_after": self.rouge_means(True),
            "references": sum(1 for d in self.documents if d.reference),
            "s_src": _mean([t["s_src"] for t in tp]),
            "d_tgt": _mean([t["d_tgt"] for t in tp]),
            "teapot_success": _mean([1.0 if t["success"] else 0.0 for t in tp]),
            "d_tgt_against": "reference summaries" if any(d.reference for d in applied) else "the original document's summary",
        }

    def format(self) -> str:
        s = self.summary()

        def pct(x):
            return "n/a" if x is None else f"{100 * x:.1f}%"

        lines = [
            f"Lead bias of {s['summarizer']} ({s['summarizer_model']}) under {s['perturbation']} "
            f"(scope {s['scope']}, seed {s['seed']})",
            f"documents: {s['documents']}, perturbed: {s['perturbed_documents']} "
            f"(the rest could not be perturbed and keep their summary)",
            f"lead-sentence inclusion: before {pct(s['lead_inclusion_before'])}, after "
            f"{pct(s['lead_inclusion_after'])} (perturbed documents only: "
            f"{pct(s['lead_inclusion_before_perturbed_only'])} -> {pct(s['lead_inclusion_after_perturbed_only'])})",
            f"  judged: {s['lead_judge']}",
        ]
        if s["rouge_before"]:
            fmt = lambda r: ", ".join(f"{k} {v:.4f}" for k, v in r.items())  # noqa: E731
            lines.append(f"ROUGE F1 vs {s['references']} reference(s): before {fmt(s['rouge_before'])}; "
                         f"after {fmt(s['rouge_after'])}")
        else:
            lines.append("ROUGE: no reference summaries given")
        if s["s_src"] is not None:
            lines.append(
                f"TEAPOT (chrF, perturbed documents): s_src {s['s_src']:.4f}, d_tgt {s['d_tgt']:.4f} "
                f"(against {s['d_tgt_against']}), success (s_src + d_tgt > 1) {pct(s['teapot_success'])}"
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return self.summary()


def perturb_documents(
    docs: Sequence[Document], perturber, rng: random.Random, *, scope: str = "auto",
    separator: str = DOCUMENT_SEPARATOR,
) -> tuple[str, list]:
    """Perturb each document (or its lead sentence) and return (scope used, outcomes) where each
    outcome has ``text``, ``applied``, ``reason`` and ``changes`` (offsets in the whole document)."""
    from ..perturb.noise import Outcome, not_applied

    if scope not in SCOPES:
        raise ConfigError(f"unknown scope {scope!r}; choose one of: {', '.join(SCOPES)}")
    unit = getattr(perturber, "unit", "sentence")
    used = scope if scope != "auto" else ("document" if unit == "document" else "lead")
    if used == "lead" and unit == "document":
        raise ConfigError(f"{perturber.name} reorders the units of a whole document: use --scope document (or auto)")
    texts = [d.text for d in docs]
    if used == "lead":
        spans = [lead_span(t, separator) for t in texts]
        units = [t[s:e] if s is not None else "" for t, (s, e) in zip(texts, [sp or (None, None) for sp in spans])]
    else:
        spans = [(0, len(t)) if t.strip() else None for t in texts]
        units = texts
    from ..perturb.files import outcomes

    results = outcomes(perturber, units, rng)
    out = []
    for text, span, res in zip(texts, spans, results):
        if span is None:
            out.append(not_applied(text, "empty document"))
            continue
        s, e = span
        if not res.applied:
            out.append(not_applied(text, res.reason))
            continue
        new_text = text[:s] + res.text + text[e:]
        changes = tuple(  # offsets in the unit become offsets in the document (-1: unknown, kept)
            replace(c, char_start=c.char_start + s, char_end=c.char_end + s) if c.char_start >= 0 else c
            for c in res.changes
        )
        out.append(Outcome(text, new_text, changes))
    return used, out


def lead_bias(
    docs: Sequence[Document],
    summarizer,
    perturber,
    *,
    seed: int = 0,
    scope: str = "auto",
    threshold: float = DEFAULT_LEAD_THRESHOLD,
    separator: str = DOCUMENT_SEPARATOR,
) -> LeadBiasReport:
    """Summarize ``docs`` and their perturbations and judge lead-sentence inclusion before and after."""
    from ..validate import check_number

    threshold = check_number(threshold, "--lead-threshold", minimum=0, what="chrF, 0-100")
    if not docs:
        raise InputError("no documents to summarize")
    rng = random.Random(seed)
    used, outcomes = perturb_documents(docs, perturber, rng, scope=scope, separator=separator)
    originals = [d.text for d in docs]
    perturbed = [o.text for o in outcomes]
    summaries = summarizer.summarize(originals + perturbed)
    sums, psums = summaries[: len(docs)], summaries[len(docs) :]
    refs = [d.reference for d in docs]
    with_ref = [i for i, r in enumerate(refs) if r]
    r_before = dict(zip(with_ref, rouge([sums[i] for i in with_ref], [refs[i] for i in with_ref]))) if with_ref else {}
    r_after = dict(zip(with_ref, rouge([psums[i] for i in with_ref], [refs[i] for i in with_ref]))) if with_ref else {}
    results = []
    for i, (d, o) in enumerate(zip(docs, outcomes)):
        span = lead_span(d.text, separator)
        lead = d.text[span[0] : span[1]] if span else ""
        ls, lp = lead_match(sums[i], lead), lead_match(psums[i], lead)
        results.append(
            DocumentResult(
                id=d.id, document=d.text, perturbed=o.text, applied=o.applied,
                reason="" if o.applied else o.reason, edits=o.change_records() if o.applied else [],
                lead=lead, summary=sums[i], perturbed_summary=psums[i],
                lead_score=round(ls, 4), lead_score_perturbed=round(lp, 4),
                included=ls >= threshold, included_perturbed=lp >= threshold,
                reference=d.reference, rouge=r_before.get(i), rouge_perturbed=r_after.get(i),
                teapot=teapot(d.text, o.text, sums[i], psums[i], d.reference) if o.applied else {},
            )
        )
    return LeadBiasReport(
        summarizer=summarizer.name, summarizer_model=summarizer.model_id(), perturbation=perturber.name,
        perturber_options=perturber.options(), scope=used, seed=seed, threshold=threshold, documents=results,
    )
