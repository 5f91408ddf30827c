"""SIT's perturber: a masked language model proposes same-POS replacements for each noun and
adjective (one at a time), as in Structure-Invariant Testing (ICSE 2020).

All the masked variants of a batch of sentences go through the model together: one forward pass
covers every masked position of a sentence (and of its neighbours in the batch), never one pass
per mask. The model loads once, on first use, so a re-run answered from the cache needs none.
"""

from __future__ import annotations

import logging
from typing import Optional

from ..models import hf
from ..errors import ModelError
from ..options import Option
from .naturalness import LEXICON_OPTIONS
from .substitution import Slot, SubstitutionPerturber, Tagger, replace_token

log = logging.getLogger("sit.perturb")

DEFAULT_MLM = "bert-base-uncased"


def mlm_available(model: str) -> tuple[bool, str]:
    """Whether ``model`` (a directory or a hub id) can be loaded, without loading it: (available,
    reason), by :func:`sit.models.hf.available`. A model that is not local, where the hub is unreachable
    or ``HF_HUB_OFFLINE`` is set, is unavailable, with the ``sit download`` command that fetches it."""
    return hf.available(model, fetch=f"sit download --only mlm --mlm-model {model}")


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
    ignored_options = LEXICON_OPTIONS  # the WordNet perturber's checks: a masked LM proposes words in context
    batch_size = 16
    option_specs = (Option("model", str, DEFAULT_MLM, "masked LM for --perturber mlm (directory or hub id; the SIT "
                           "paper used bert-large-uncased)", run_wide=True, flag="--mlm-model", setting="mlm_model"),)

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list:
        """The English tagger, and the masked LM (``--mlm-model``) with where it would load from."""
        from ..models import hf_model_location
        from ..stage import Need

        name = model or DEFAULT_MLM
        where, why = hf_model_location(name)
        return [*super().needs(source_lang, target_lang), Need("mlm", f"the masked LM {name}", True, where, why,
                                                               fetch="hf", spec=name)]

    @classmethod
    def fetch(cls, need, source_lang: str, target_lang: str, model: Optional[str] = None) -> str:
        """The masked LM loaded as a run loads it (which downloads what is missing); where it is."""
        if need.fetch != "hf":
            return super().fetch(need, source_lang, target_lang, model)
        from ..models import hf_location

        cls(model=need.spec, device="cpu").load()
        return hf_location(need.spec)

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
        """Load the tokenizer and model once (by :func:`sit.models.hf.load`); raises :class:`ModelError`
        with what to do."""
        if self._model is not None:
            return self._tokenizer, self._model
        name = self.model_name
        tokenizer, model, self.device = hf.load(
            name, what="the mlm perturber", kind="masked-lm", device=self.device,
            alternative="or use --perturber wordnet, which works offline",
            nowhere=lambda why: ModelError(f"cannot load masked LM {name!r}: {why}; fetch it where the hub is "
                                           f"reachable (`sit download --only mlm --mlm-model {name}`), pass "
                                           "--mlm-model with a local directory, or use --perturber wordnet"),
            failed=lambda exc: ModelError(f"cannot load masked LM {name!r} ({hf.reason(exc, 200)}); pass --mlm-model "
                                          "with a local directory or a reachable hub id, or use --perturber wordnet"),
            check=self._check_fill_mask,
        )
        self._max_length = input_positions(tokenizer, model)
        self._tokenizer, self._model = tokenizer, model
        return tokenizer, model

    def _check_fill_mask(self, tokenizer, model, missing_keys) -> None:
        """A model without its trained masked-LM head, or a tokenizer without a mask token, would
        propose noise."""
        missing = [k for k in missing_keys if "cls." in k or "lm_head" in k or "predictions" in k]
        if missing:
            raise ModelError(
                f"{self.model_name!r} has no trained masked-LM head (missing {missing[0]}, ...): its "
                "predictions would be noise; use a model trained for fill-mask, e.g. bert-base-uncased"
            )
        if tokenizer.mask_token is None:
            raise ModelError(f"{self.model_name!r} has no mask token; use a BERT-family fill-mask model")

    def predict(self, masked_texts: list[str], k: int) -> list[list[str]]:
        """Top-``k`` tokens for the (first) mask of each text, in forward batches."""
        tokenizer, model = self.load()
        import torch

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
