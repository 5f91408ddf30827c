"""A transformers sequence-to-sequence summarizer (BART, PEGASUS, T5 ...), and the model loading
it shares with the ``sentence_paraphrase`` perturber.

Models load through ``AutoModelForSeq2SeqLM.from_pretrained`` from a local directory, the local
model cache, or the model hub; offline, a model that is not local fails at once with a clear
:class:`~sit.errors.ModelError` instead of the hub client's retries. The model loads on first use,
so a re-run answered from the cache needs none.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ModelError
from .base import Summarizer

log = logging.getLogger("sit.summarize")

DEFAULT_SUMMARIZER_MODEL = "facebook/bart-large-cnn"


def _import_transformers():
    from ..resources import import_torch_transformers

    return import_torch_transformers("a transformers summarizer")


def local_version(model: str) -> str:
    """For a local model directory, a digest of its config and weight file sizes (so that a model
    retrained in place does not reuse stale cache entries); "" for hub ids."""
    path = Path(model).expanduser()
    if not path.is_dir():
        return ""
    h = hashlib.sha256()
    for f in sorted(path.iterdir()):
        if f.is_file():
            h.update(f.name.encode())
            h.update(f.read_bytes() if f.suffix == ".json" else str(f.stat().st_size).encode())
    return h.hexdigest()[:12]


def load_seq2seq(model: str, *, device: Optional[str] = None, what: str = "seq2seq"):
    """Load (tokenizer, model, device) for ``model``: a directory or a hub id, on ``device``
    (see :func:`sit.resources.resolve_device`; checked before the model loads)."""
    torch, transformers = _import_transformers()
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    from ..resources import hf_load_kwargs, resolve_device

    dev = resolve_device(device, f"the {what} model")
    kwargs = hf_load_kwargs(model, what)
    try:
        tokenizer = AutoTokenizer.from_pretrained(model, **kwargs)
        net = AutoModelForSeq2SeqLM.from_pretrained(model, **kwargs)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot load the {what} model {model!r}: {exc}") from exc
    try:
        net.to(dev)
    except Exception as exc:  # e.g. an unavailable cuda device
        raise ModelError(f"cannot move the {what} model to device {dev!r}: {exc}") from exc
    net.eval()
    return tokenizer, net, dev


def generate(
    tokenizer,
    net,
    device: str,
    texts: Sequence[str],
    *,
    max_input_tokens: int = 1024,
    num_return_sequences: int = 1,
    **gen_kwargs: Any,
) -> list[list[str]]:
    """Deterministic generation (no sampling): for each text, ``num_return_sequences`` outputs
    with whitespace (newlines included) collapsed to single spaces."""
    import torch

    gen = {k: v for k, v in gen_kwargs.items() if v is not None}
    gen["do_sample"] = False
    if num_return_sequences > 1:
        gen["num_return_sequences"] = num_return_sequences
        gen["num_beams"] = max(int(gen.get("num_beams") or 1), num_return_sequences)
    limit = min(max_input_tokens, getattr(tokenizer, "model_max_length", max_input_tokens) or max_input_tokens)
    enc = tokenizer(list(texts), return_tensors="pt", padding=True, truncation=True, max_length=limit)
    enc = {k: v.to(device) for k, v in enc.items() if k in ("input_ids", "attention_mask")}
    try:
        with torch.no_grad():
            out = net.generate(**enc, **gen)
    except Exception as exc:
        raise ModelError(f"generation failed: {exc}") from exc
    decoded = [" ".join(t.split()) for t in tokenizer.batch_decode(out, skip_special_tokens=True)]
    k = num_return_sequences
    return [decoded[i * k : (i + 1) * k] for i in range(len(texts))]


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
        from ..resources import checked_device

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
        return f"transformers-{tv}" + (f"-{local_version(self.model)}" if local_version(self.model) else "")

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
            self._loaded = load_seq2seq(self.model, device=self.device, what="summarizer")
        return self._loaded

    def _summarize_batch(self, docs: list[str]) -> list[str]:
        tokenizer, net, device = self._load()
        prefix = self.prefix
        if prefix is None:
            prefix = "summarize: " if getattr(net.config, "model_type", "") in ("t5", "mt5", "umt5") else ""
        outs = generate(
            tokenizer, net, device, [prefix + d for d in docs],
            max_input_tokens=self.max_input_tokens,
            num_beams=self.num_beams, max_new_tokens=self.max_new_tokens, min_length=self.min_length,
        )
        return [o[0] for o in outs]
