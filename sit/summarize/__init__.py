"""Summarizers, looked up by name without importing their dependencies, and the lead-bias
robustness test (Robustsumm) that runs them on original and perturbed documents."""

from __future__ import annotations

from ..registry import TORCH_INSTALL_HINT, Entry, Registry
from .base import Summarizer

SUMMARIZERS = Registry(
    "summarizer",
    {
        "lead-3": Entry("sit.summarize.lead:LeadSummarizer", "", "the first three sentences (offline baseline)"),
        "seq2seq": Entry(
            "sit.summarize.seq2seq:Seq2SeqSummarizer",
            TORCH_INSTALL_HINT,
            "a transformers seq2seq model (--model, default facebook/bart-large-cnn)",
        ),
        "transformers": Entry(
            "sit.summarize.seq2seq:Seq2SeqSummarizer",
            TORCH_INSTALL_HINT,
            "alias of seq2seq",
        ),
    },
    group="sit.summarizers",  # other packages add summarizers through entry points (docs/plugins.md)
    base="sit.summarize.base:Summarizer",
)

__all__ = ["SUMMARIZERS", "Summarizer"]
