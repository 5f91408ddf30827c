"""A transformers sequence-to-sequence summarizer (BART, PEGASUS, T5 ...), loaded and run by
:mod:`sit.models.hf` (as the ``sentence_paraphrase`` perturber's model is). The model loads on first use,
so a re-run answered from the cache needs none.
"""

from __future__ import annotations

import logging
from typing import Any, Optional

from ..models import hf
from ..stage import weights_stamp
from .base import Summarizer

log = logging.getLogger("sit.summarize")

DEFAULT_SUMMARIZER_MODEL = "facebook/bart-large-cnn"


class Seq2SeqSummarizer(Summarizer):
    """Summaries from a transformers seq2seq model (default ``facebook/bart-large-cnn``).

    Generation is deterministic (beam search or greedy, never sampling) and uses the model's own
    generation config unless ``num_beams``, ``max_new_tokens`` or ``min_length`` are given; T5
    models get the ``summarize: `` prefix unless ``prefix`` says otherwise."""

    name = "seq2seq"
    default_batch_size = 4

    def __init__(
        self,
        *,
        model: Optional[str] = None,
        num_beams: Optional[int] = None,
        max_new_tokens: Optional[int] = None,
        min_length: Optional[int] = None,
        max_input_tokens: int = 1024,
        prefix: Optional[str] = None,
        device: Optional[str] = None,
        **options: Any,
    ):
        super().__init__(**options)
        self.model = model or DEFAULT_SUMMARIZER_MODEL
        from ..validate import check_number

        self.num_beams = check_number(num_beams, "--num-beams", minimum=1, integer=True)
        self.max_new_tokens = check_number(max_new_tokens, "--max-new-tokens", minimum=1, integer=True)
        self.min_length = min_length
        self.max_input_tokens = max_input_tokens
        self.prefix = prefix
        from ..models import checked_device

        self.device = checked_device(device, "the summarizer model")  # a bad one fails now, before any work
        self._loaded = None

    def model_id(self) -> str:
        return self.model

    def version(self) -> str:
        try:
            from importlib.metadata import version

            tv = version("transformers")
        except Exception:
            tv = "?"
        return f"transformers-{tv}" + (f"-{weights_stamp(self.model)}" if weights_stamp(self.model) else "")

    def options(self) -> dict[str, Any]:
        return {
            "num_beams": self.num_beams,
            "max_new_tokens": self.max_new_tokens,
            "min_length": self.min_length,
            "max_input_tokens": self.max_input_tokens,
            "prefix": self.prefix,
        }

    def describe(self) -> str:
        return f"seq2seq ({self.model})"

    def _load(self):
        if self._loaded is None:
            self._loaded = hf.load(self.model, what="the summarizer model", device=self.device)
        return self._loaded

    def _summarize_batch(self, docs: list[str]) -> list[str]:
        tokenizer, net, device = self._load()
        prefix = self.prefix
        if prefix is None:
            prefix = "summarize: " if getattr(net.config, "model_type", "") in ("t5", "mt5", "umt5") else ""
        outs = hf.generate(
            tokenizer, net, device, [prefix + d for d in docs],
            max_input_tokens=self.max_input_tokens,
            num_beams=self.num_beams, max_new_tokens=self.max_new_tokens, min_length=self.min_length,
        )
        return [o[0] for o in outs]
