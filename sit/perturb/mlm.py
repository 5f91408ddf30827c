"""SIT's perturber: a masked language model proposes same-POS replacements for each noun and
adjective (one at a time), as in Structure-Invariant Testing (ICSE 2020).

All the masked variants of a batch of sentences go through the model together: one forward pass
covers every masked position of a sentence (and of its neighbours in the batch), never one pass
per mask. The model loads once, on first use, so a re-run answered from the cache needs none.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Optional

from ..errors import ModelError
from .substitution import Slot, SubstitutionPerturber, Tagger, replace_token

log = logging.getLogger("sit.perturb")

DEFAULT_MLM = "bert-base-uncased"


def _import_transformers():
    from ..devices import import_torch_transformers

    return import_torch_transformers("the mlm perturber", "or use --perturber wordnet, which works offline")


def mlm_available(model: str) -> tuple[bool, str]:
    """Whether ``model`` (a directory or a hub id) can be loaded, without loading it.

    Returns (available, reason). Looks at local files first (a directory, the whole model in the
    hub cache), then asks the hub unless it is unreachable or ``HF_HUB_OFFLINE`` is set. A model
    only partly in the hub cache is available where the hub is reachable (loading it fetches the
    rest) and unavailable, saying what fetches it, where the hub is not.
    """
    import importlib.util

    missing = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
    if missing:
        return False, f"{' and '.join(missing)} not installed (pip install torch==2.13.0 transformers)"
    from ..hub import hf_model_location

    where, why = hf_model_location(model)
    if where is None and not Path(model).expanduser().is_dir():
        return False, f"{why}; fetch it where the hub is reachable: `sit download --only mlm --mlm-model {model}`"
    if where != "hub":
        return where is not None, why
    from transformers import AutoConfig

    try:
        AutoConfig.from_pretrained(model)
        return True, f"{model} fetched from the model hub"
    except Exception as exc:  # unknown id, gated model, proxy...
        return False, f"{model} could not be fetched from the model hub ({type(exc).__name__})"


def input_positions(tokenizer, model) -> Optional[int]:
    """The most tokens ``model`` takes: its position embeddings (less RoBERTa's offset of
    ``padding_idx + 1``), or the tokenizer's ``model_max_length`` where that is smaller. A
    tokenizer saved without ``model_max_length`` claims a huge one; the model's positions hold."""
    limit = tokenizer.model_max_length if 0 < (tokenizer.model_max_length or 0) < 1_000_000 else None
    positions = getattr(model.config, "max_position_embeddings", None)
    if positions:
        embeddings = getattr(getattr(model, "base_model", None), "embeddings", None)
        padding_idx = getattr(embeddings, "padding_idx", None)
        if isinstance(padding_idx, int):  # RoBERTa-family positions start after padding_idx
            positions -= padding_idx + 1
        limit = positions if limit is None else min(limit, positions)
    return limit


class MaskedLMPerturber(SubstitutionPerturber):
    name = "mlm"
    batch_size = 16
    run_options = {**SubstitutionPerturber.run_options, "model": "mlm_model"}  # --mlm-model

    def __init__(
        self,
        *,
        model: str = DEFAULT_MLM,
        num_perturb: int = 10,
        device: Optional[str] = None,
        forward_batch_size: int = 256,
        tagger: Optional[Tagger] = None,
        cache=None,
        progress: bool = False,
        **quality,
    ):
        super().__init__(num_perturb=num_perturb, tagger=tagger, device=device, cache=cache, progress=progress, **quality)
        self.model_name = model
        self.forward_batch_size = max(1, forward_batch_size)
        self._model = None
        self._tokenizer = None
        self._max_length: Optional[int] = None
        self.forward_calls = 0

    def model_id(self) -> str:
        return self.model_name

    def describe(self) -> str:
        return f"mlm ({self.model_name}, top {self.num_perturb} per word; {self.quality.describe()})"

    def load(self):
        """Load the tokenizer and model once; raises :class:`ModelError` with what to do."""
        if self._model is not None:
            return self._tokenizer, self._model
        _import_transformers()
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        from ..devices import resolve_device
        from ..hub import hf_model_location

        where, why = hf_model_location(self.model_name)
        if where is None:
            raise ModelError(f"cannot load masked LM {self.model_name!r}: {why}; fetch it where the hub is reachable "
                             f"(`sit download --only mlm --mlm-model {self.model_name}`), pass --mlm-model with a "
                             "local directory, or use --perturber wordnet")
        kw = {} if where == "hub" else {"local_files_only": True}
        try:
            tokenizer = AutoTokenizer.from_pretrained(self.model_name, **kw)
            model, info = AutoModelForMaskedLM.from_pretrained(self.model_name, output_loading_info=True, **kw)
        except Exception as exc:
            raise ModelError(
                f"cannot load masked LM {self.model_name!r} ({type(exc).__name__}: {str(exc)[:200]}); "
                "pass --mlm-model with a local directory or a reachable hub id, or use --perturber wordnet"
            ) from exc
        missing = [k for k in info.get("missing_keys", []) if "cls." in k or "lm_head" in k or "predictions" in k]
        if missing:
            raise ModelError(
                f"{self.model_name!r} has no trained masked-LM head (missing {missing[0]}, ...): its "
                "predictions would be noise; use a model trained for fill-mask, e.g. bert-base-uncased"
            )
        if tokenizer.mask_token is None:
            raise ModelError(f"{self.model_name!r} has no mask token; use a BERT-family fill-mask model")
        self.device = resolve_device(self.device, "the masked LM")
        model.to(self.device).eval()
        self._max_length = input_positions(tokenizer, model)
        self._tokenizer, self._model = tokenizer, model
        return tokenizer, model

    def predict(self, masked_texts: list[str], k: int) -> list[list[str]]:
        """Top-``k`` tokens for the (first) mask of each text, in forward batches."""
        torch, _ = _import_transformers()
        tokenizer, model = self.load()
        out: list[list[str]] = []
        for start in range(0, len(masked_texts), self.forward_batch_size):
            chunk = masked_texts[start : start + self.forward_batch_size]
            enc = tokenizer(chunk, return_tensors="pt", padding=True, truncation=True, max_length=self._max_length)
            enc = {name: t.to(self.device) for name, t in enc.items()}
            rows, cols = (enc["input_ids"] == tokenizer.mask_token_id).nonzero(as_tuple=True)
            first: dict[int, int] = {}
            for r, c in zip(rows.tolist(), cols.tolist()):
                first.setdefault(r, c)
            with torch.inference_mode():
                logits = self._mask_logits(model, enc, list(first), list(first.values()))
            self.forward_calls += 1
            top = torch.topk(logits, min(k, logits.shape[-1])).indices.tolist() if first else []
            found = dict(zip(first, top))
            out.extend(tokenizer.convert_ids_to_tokens(found[r]) if r in found else []  # [] : mask truncated away
                       for r in range(len(chunk)))
        return out

    @staticmethod
    def _mask_logits(model, enc: dict, rows: list[int], cols: list[int]):
        """The vocabulary logits at (row, col) only: the LM head (hidden size x vocabulary, most of
        a BERT-base pass) runs at the masks, not at every position, where the model's head is one
        module (``cls`` of BERT, ``lm_head`` of RoBERTa); other models give every position's."""
        head = getattr(model, "cls", None) or getattr(model, "lm_head", None)
        if head is None:
            return model(**enc).logits[rows, cols]
        hidden = model.base_model(**enc).last_hidden_state
        return head(hidden[rows, cols])

    def _propose(self, docs: list, slots_of: list[list[Slot]]) -> list[list[list[str]]]:
        """The model's top ``num_perturb`` tokens at each slot, masked one at a time; every mask of
        the batch goes through the model together."""
        tokenizer, _ = self.load()
        masked = [replace_token(doc, slot.index, tokenizer.mask_token)[0]
                  for doc, doc_slots in zip(docs, slots_of) for slot in doc_slots]
        predictions = iter(self.predict(masked, self.num_perturb) if masked else [])
        return [[next(predictions) for _ in doc_slots] for doc_slots in slots_of]
