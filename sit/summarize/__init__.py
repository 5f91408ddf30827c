"""Summarizers, looked up by name without importing their dependencies, and the lead-bias
robustness test (Robustsumm) that runs them on original and perturbed documents."""

from __future__ import annotations

from ..registry import Entry, Registry
from .base import Summarizer

SUMMARIZERS = Registry(
    "summarizer",
    {
        "lead-3": Entry("sit.summarize.lead:LeadSummarizer", "", "the first three sentences (offline baseline)"),
        "seq2seq": Entry(
            "sit.summarize.seq2seq:Seq2SeqSummarizer",
            "pip install torch==2.13.0 transformers sentencepiece",
            "a transformers seq2seq model (--model, default facebook/bart-large-cnn)",
        ),
        "transformers": Entry(
            "sit.summarize.seq2seq:Seq2SeqSummarizer",
            "pip install torch==2.13.0 transformers sentencepiece",
            "alias of seq2seq",
        ),
    },
)

__all__ = ["SUMMARIZERS", "Summarizer"]
