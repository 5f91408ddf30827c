"""Hugging Face models, loaded and run one way for every user: the seq2seq models of the
summarizer and the ``sentence_paraphrase`` perturber (:func:`load_seq2seq`, :func:`generate`).

Models load through ``from_pretrained`` from a local directory, the local model cache, or the
model hub (:func:`sit.resources.hf_load_kwargs` decides which); offline, a model that is not local
fails at once with a clear :class:`~sit.errors.ModelError` instead of the hub client's retries.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .errors import ModelError
from .text import squeeze


def import_transformers(what: str):
    """(torch, transformers), or a MissingDependencyError naming ``what`` needs them."""
    from .devices import import_torch_transformers

    return import_torch_transformers(what)


def load_seq2seq(model: str, *, device: Optional[str] = None, what: str = "seq2seq"):
    """Load (tokenizer, model, device) for ``model``: a directory or a hub id, on ``device``
    (see :func:`sit.resources.resolve_device`; checked before the model loads)."""
    torch, transformers = import_transformers(f"the {what} model")
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    from .devices import resolve_device
    from .hub import hf_load_kwargs

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
    decoded = [squeeze(t) for t in tokenizer.batch_decode(out, skip_special_tokens=True)]
    k = num_return_sequences
    return [decoded[i * k : (i + 1) * k] for i in range(len(texts))]
