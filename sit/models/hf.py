"""Hugging Face models, loaded and run one way for every user:

- the causal LM translator (:mod:`sit.translators.llm`: a hub model, a directory or a GGUF file);
- the seq2seq translators, MarianMT, NLLB-200 and M2M100 (:mod:`sit.translators.seq2seq`,
  :mod:`sit.translators.marian`), and the tokenizer of the CTranslate2 translator
  (:mod:`sit.translators.ct2`, :func:`load_tokenizer`);
- the masked LM of the ``mlm`` perturber (:mod:`sit.perturb.mlm`, :func:`available` too);
- the sentence encoder of the quality stage, where it runs with transformers itself
  (:mod:`sit.perturb.encoder`; a sentence-transformers model takes :func:`load_kwargs` only);
- the seq2seq summarizer (:mod:`sit.summarize.seq2seq`) and the ``sentence_paraphrase``
  perturber's model (:mod:`sit.perturb.paraphrase`), which also generate through :func:`generate`.

:func:`load` is the one path: torch and transformers imported (or a MissingDependencyError with
the install command), the device resolved (:func:`sit.models.devices.resolve_device`) before anything
loads, ``from_pretrained`` from a local directory, the local model cache or the model hub
(:func:`load_kwargs` decides which; offline, a model that is not local fails at once with a clear
:class:`~sit.errors.ModelError` instead of the hub client's retries), the user's check, the move
to the device and ``eval()``. A user declares only its facts: the model kind (or its classes),
what to call itself in messages, and, where its words differ from the defaults, the errors for
a model that is nowhere and for one that fails to load. Generation is batched, never samples, and
runs under ``torch.inference_mode`` (:func:`generate_ids`; :func:`generate` decodes as well).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional, Sequence

from ..errors import ModelError, SitError
from ..hints import hf_download
from ..text import squeeze

#: the transformers model class of each kind of model (the tokenizer is ``AutoTokenizer``)
KINDS = {"seq2seq": "AutoModelForSeq2SeqLM", "causal-lm": "AutoModelForCausalLM", "masked-lm": "AutoModelForMaskedLM", "encoder": "AutoModel"}

#: ``check(tokenizer, model, missing_keys)``: raises where the loaded model cannot serve its user
Check = Callable[[Any, Any, Sequence[str]], None]


class Loaded(NamedTuple):
    """A loaded model: its tokenizer, the model (on ``device``, in eval mode) and the device."""

    tokenizer: Any
    model: Any
    device: str


def import_transformers(what: str, alternative: str = ""):
    """(torch, transformers), or a MissingDependencyError saying ``what`` needs them (and the
    ``alternative`` that needs neither)."""
    from .devices import import_torch_transformers

    return import_torch_transformers(what, alternative)


def reason(exc: BaseException, limit: int = 160) -> str:
    """An exception in a few words for a one-line message: its type and the start of its text."""
    return f"{type(exc).__name__}: {str(exc)[:limit]}"


def load_kwargs(model: str, nowhere: Optional[Callable[[str], SitError]] = None) -> dict:
    """Extra ``from_pretrained`` arguments for ``model`` (a directory or a hub id): local files only
    unless it must come from the hub (so an offline machine fails at once rather than after the
    hub client's retries). Where it is nowhere, ``nowhere(why)`` is raised (without ``nowhere``,
    ``from_pretrained`` fails on local files only)."""
    from .hub import hf_model_location

    where, why = hf_model_location(model)
    if where is None and nowhere is not None:
        raise nowhere(why)
    return {} if where == "hub" else {"local_files_only": True}


def _auto_classes(kind: str) -> Callable[[], tuple[Any, Any]]:
    if kind not in KINDS:
        raise ValueError(f"unknown kind of model {kind!r}; one of {', '.join(KINDS)}")

    def classes():
        import transformers

        return transformers.AutoTokenizer, getattr(transformers, KINDS[kind])

    return classes


def _from_pretrained(model: str, classes: Callable[[], tuple[Any, Any]], kwargs: dict,
                     failed: Callable[[Exception], SitError], model_kwargs: Optional[dict] = None):
    """(tokenizer, model, missing_keys) from ``from_pretrained``; any failure is ``failed(exc)``."""
    try:
        tokenizer_class, model_class = classes()
        tokenizer = tokenizer_class.from_pretrained(model, **kwargs)
        net, info = model_class.from_pretrained(model, output_loading_info=True, **kwargs, **(model_kwargs or {}))
    except Exception as exc:
        raise failed(exc) from exc
    return tokenizer, net, tuple(info.get("missing_keys", ()))


def _to_device(net, device: str, what: str):
    try:
        net.to(device)
    except Exception as exc:  # e.g. a cuda device that went away
        raise ModelError(f"cannot move {what} to device {device!r}: {exc}") from exc
    return net.eval()


def load(
    model: str,
    *,
    what: str,
    kind: str = "seq2seq",
    device: Optional[str] = None,
    alternative: str = "",
    classes: Optional[Callable[[], tuple[Any, Any]]] = None,
    nowhere: Optional[Callable[[str], SitError]] = None,
    failed: Optional[Callable[[Exception], SitError]] = None,
    check: Optional[Check] = None,
    where: Optional[dict] = None,
    model_kwargs: Optional[dict] = None,
) -> Loaded:
    """Load ``model`` (a directory or a hub id) for ``what`` (e.g. "the summarizer model", which
    names it in messages) on ``device`` (None: cuda where available, else cpu).

    ``kind`` picks the transformers classes (:data:`KINDS`), or ``classes()`` gives (tokenizer
    class, model class). ``nowhere(why)`` is the error raised where the model is neither local nor
    on a reachable hub, ``failed(exc)`` the one raised where ``from_pretrained`` fails (both by
    default a :class:`ModelError` that says what to do); ``check`` sees the tokenizer, the model
    and the weights the checkpoint lacked, before the model moves to the device. ``where`` (the
    arguments of both ``from_pretrained`` calls, e.g. a GGUF file's ``gguf_file``) replaces what
    :func:`load_kwargs` works out; ``model_kwargs`` go to the model's call alone (``dtype``)."""
    from .devices import resolve_device

    import_transformers(what, alternative)
    dev = resolve_device(device, what)  # a device this machine lacks fails before any loading
    kwargs = where if where is not None else load_kwargs(model, nowhere or (
        lambda why: ModelError(f"cannot load {what} {model!r}: {why}; download it where there is internet "
                               f"(`{hf_download(model)}`) or pass a local model directory")))
    failed = failed or (lambda exc: ModelError(f"cannot load {what} {model!r}: {exc}"))
    tokenizer, net, missing = _from_pretrained(model, classes or _auto_classes(kind), kwargs, failed, model_kwargs)
    if check is not None:
        check(tokenizer, net, missing)
    return Loaded(tokenizer, _to_device(net, dev, what), dev)


def load_tokenizer(model: str, failed: Callable[[Exception], SitError]):
    """``model``'s tokenizer alone (``AutoTokenizer``; transformers without torch is enough), from
    where :func:`load_kwargs` says; any failure, a missing transformers included, is
    ``failed(exc)``."""
    try:
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(model, **load_kwargs(model))
    except Exception as exc:
        raise failed(exc) from exc


def available(model: str, fetch: str) -> tuple[bool, str]:
    """Whether ``model`` (a directory or a hub id) can be loaded, without loading it; and why.

    Looks at local files first (a directory, the whole model in the hub cache), then asks the hub
    for its config unless it is unreachable or ``HF_HUB_OFFLINE`` is set. A model only partly in
    the hub cache is available where the hub is reachable (loading it fetches the rest) and
    unavailable, saying the command ``fetch`` that fetches it, where the hub is not."""
    import importlib.util
    from pathlib import Path

    missing = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
    if missing:
        return False, f"{' and '.join(missing)} not installed (pip install torch==2.13.0 transformers)"
    from .hub import hf_model_location

    where, why = hf_model_location(model)
    if where is None and not Path(model).expanduser().is_dir():
        return False, f"{why}; fetch it where the hub is reachable: `{fetch}`"
    if where != "hub":
        return where is not None, why
    from transformers import AutoConfig

    try:
        AutoConfig.from_pretrained(model)
        return True, f"{model} fetched from the model hub"
    except Exception as exc:  # unknown id, gated model, proxy...
        return False, f"{model} could not be fetched from the model hub ({type(exc).__name__})"


def encode(tokenizer, texts: Sequence[str], device: str, max_length: Optional[int]) -> dict:
    """A padded batch of ``texts``, truncated to ``max_length`` tokens, on ``device`` (the input
    ids and attention mask a seq2seq ``generate`` takes)."""
    enc = tokenizer(list(texts), return_tensors="pt", padding=True, truncation=True, max_length=max_length)
    return {k: v.to(device) for k, v in enc.items() if k in ("input_ids", "attention_mask")}


def generate_ids(net, enc: dict, **gen_kwargs: Any):
    """``net.generate`` on the batch ``enc``: deterministic (no sampling), in inference mode; a
    failure is a :class:`ModelError`."""
    import torch

    try:
        with torch.inference_mode():
            return net.generate(**enc, **{**gen_kwargs, "do_sample": False})
    except Exception as exc:
        raise ModelError(f"generation failed: {exc}") from exc


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
    with whitespace (newlines included) collapsed to single spaces. Options left None take the
    model's generation config."""
    gen = {k: v for k, v in gen_kwargs.items() if v is not None}
    if num_return_sequences > 1:
        gen["num_return_sequences"] = num_return_sequences
        gen["num_beams"] = max(int(gen.get("num_beams") or 1), num_return_sequences)
    limit = min(max_input_tokens, getattr(tokenizer, "model_max_length", max_input_tokens) or max_input_tokens)
    out = generate_ids(net, encode(tokenizer, texts, device, limit), **gen)
    decoded = [squeeze(t) for t in tokenizer.batch_decode(out, skip_special_tokens=True)]
    k = num_return_sequences
    return [decoded[i * k : (i + 1) * k] for i in range(len(texts))]
