"""The Hugging Face model hub: whether it is reachable (``HF_ENDPOINT``, ``HF_HUB_OFFLINE``) and
where a model is (:func:`hf_model_location`: a directory, complete in the local cache, or only on
the hub), all without importing transformers. :func:`sit.models.hf.load_kwargs` turns that into
``from_pretrained``'s arguments; loading and running the models is :mod:`sit.models.hf`'s."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def _offline_env() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on")


def url_reachable(url: str, timeout: float = 3.0) -> bool:
    """Whether the host of ``url`` answers a TCP connection; ``HF_HUB_OFFLINE=1`` means no, as it
    does for every download sit makes (so an offline machine learns it in milliseconds instead of
    through a client's retries)."""
    import socket
    from urllib.parse import urlparse

    if _offline_env():
        return False
    parts = urlparse(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            return True
    except OSError:
        return False


def hub_url() -> str:
    """The model hub's address: ``HF_ENDPOINT``, else huggingface.co."""
    return os.environ.get("HF_ENDPOINT") or "https://huggingface.co"


def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the model hub answers a TCP connection (``HF_ENDPOINT`` or huggingface.co).
    ``HF_HUB_OFFLINE=1`` means no."""
    return url_reachable(hub_url(), timeout)


#: the files a transformers model loads its weights from (one of them), and its tokenizer from
HF_WEIGHTS = ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json", "pytorch_model.bin.index.json")
HF_TOKENIZER_FILES = ("tokenizer_config.json", "tokenizer.json", "vocab.txt", "vocab.json", "source.spm",
                      "sentencepiece.bpe.model", "spiece.model")


def hf_cached_file(model: str, filename: str) -> Optional[str]:
    from huggingface_hub.constants import HF_HUB_CACHE

    if not (Path(HF_HUB_CACHE) / f"models--{model.replace('/', '--')}").is_dir():
        return None  # as try_to_load_from_cache answers, without importing its HTTP client (0.2 s)
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(model, filename)
    return found if isinstance(found, str) else None


def hf_cache_missing(model: str) -> Optional[list[str]]:
    """What the local hub cache lacks of ``model`` (a hub id) for ``from_pretrained`` to load it
    without the hub: ``[]`` when it holds the model whole (config, weights, tokenizer), the names
    of the missing parts when it holds some of it (a partly cached model is not a local one), None
    when it holds nothing of it (or ``model`` is no hub id)."""
    try:
        config = hf_cached_file(model, "config.json")
        weights = [w for w in HF_WEIGHTS if hf_cached_file(model, w)]
        tokenizer = [t for t in HF_TOKENIZER_FILES if hf_cached_file(model, t)]
    except Exception:  # not a valid repo id, or no huggingface_hub
        return None
    if not (config or weights or tokenizer):
        return None
    missing = ([] if config else ["config.json"]) + ([] if weights else ["weights"]) + ([] if tokenizer else ["tokenizer"])
    for index in (w for w in weights if w.endswith(".index.json")):  # a sharded model: every shard
        import json

        with open(hf_cached_file(model, index), encoding="utf-8") as fh:  # type: ignore[arg-type]
            shards = sorted(set(json.load(fh).get("weight_map", {}).values()))
        missing += [s for s in shards if not hf_cached_file(model, s)]
    return missing


#: the words :func:`hf_model_location` says of a model the reachable hub does not have
ABSENT = "does not exist on the model hub"


def hf_repo_absent(model: str, timeout: float = 10.0) -> Optional[str]:
    """Why ``model`` cannot be fetched where the (reachable) hub answers that it has no such
    repository; None where it has it, or could not say (a gated model, a proxy, an old client)."""
    try:
        from huggingface_hub import HfApi
        from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError
    except ImportError:
        return None
    try:
        HfApi(endpoint=hub_url()).model_info(model, timeout=timeout)
    except GatedRepoError:
        return None
    except RepositoryNotFoundError:
        return f"{model} {ABSENT} ({hub_url()}); check the model id"
    except Exception:  # the hub could not say: loading will
        return None
    return None


def hf_model_location(model: str) -> tuple[Optional[str], str]:
    """Where a transformers model (a directory or a hub id) would load from, without loading it
    or importing transformers: ``"local"`` (a directory with ``config.json``, or the whole model
    in the local hub cache), ``"hub"`` (not wholly local, and the hub is reachable: what is
    missing is fetched) or ``None`` (nowhere, or not on the reachable hub: :data:`ABSENT`); and
    the reason."""
    path = Path(model).expanduser()
    if path.is_dir():
        if (path / "config.json").exists():
            return "local", f"{model} is a local model directory"
        return None, f"{model} is a directory without config.json"
    missing = hf_cache_missing(model)
    if missing == []:
        return "local", f"{model} found in the local model cache"
    partly = f"{model} is only partly in the local model cache (no {', '.join(missing)})" if missing else ""
    if not hub_reachable():
        return None, (partly or f"{model} is not in the local model cache") + " and the model hub is unreachable"
    absent = None if missing else hf_repo_absent(model)
    if absent:
        return None, absent
    return "hub", (partly + "; the rest is fetched from the model hub") if partly else f"{model} can be fetched from the model hub"
