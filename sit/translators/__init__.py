"""Translator adapters, looked up by name without importing their dependencies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from .. import hints
from ..registry import TORCH_INSTALL_HINT, Entry, Registry

if TYPE_CHECKING:
    from .base import Translator, TranslatorStats


def __getattr__(name: str):
    # Translator and TranslatorStats load with their module (the cache, the batching) on first use,
    # not with the package: reading the credentials file (sit.credentials, which every
    # command's redactor does) needs none of it, and `sit eval` then loads no translator code
    if name in ("Translator", "TranslatorStats"):
        from . import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

TRANSLATORS = Registry(
    "translator",
    {
        "apertium": Entry(
            "sit.translators.apertium:ApertiumTranslator",
            hints.APERTIUM,
            "Apertium rule-based MT, local and offline (en->es, en->ca, ...)",
        ),
        "marian": Entry(
            "sit.translators.marian:MarianTranslator",
            TORCH_INSTALL_HINT,
            "MarianMT (opus-mt) through transformers, local",
        ),
        "nllb": Entry(
            "sit.translators.seq2seq:NllbTranslator",
            TORCH_INSTALL_HINT,
            "NLLB-200 through transformers, local (FLORES-200 codes; default facebook/nllb-200-distilled-600M)",
        ),
        "m2m100": Entry(
            "sit.translators.seq2seq:M2M100Translator",
            TORCH_INSTALL_HINT,
            "M2M100 through transformers, local (default facebook/m2m100_418M)",
        ),
        "llm": Entry(
            "sit.translators.llm:LlmTranslator",
            TORCH_INSTALL_HINT,
            "a causal language model through transformers, local: a hub id, a directory or a .gguf file (--model)",
        ),
        "ctranslate2": Entry(
            "sit.translators.ct2:CTranslate2Translator",
            hints.CT2,
            "a CTranslate2 model directory (converted Marian, NLLB or M2M100), local and fast on CPU",
        ),
        "google": Entry(
            "sit.translators.google:GoogleTranslator",
            hints.REQUESTS,
            "Google Cloud Translation API v2",
        ),
        "bing": Entry(
            "sit.translators.bing:BingTranslator",
            hints.REQUESTS,
            "Microsoft Translator Text API v3",
        ),
        "baidu": Entry(
            "sit.translators.baidu:BaiduTranslator",
            hints.REQUESTS,
            "Baidu Fanyi general translation API",
        ),
        "youdao": Entry(
            "sit.translators.youdao:YoudaoTranslator",
            hints.REQUESTS,
            "Youdao Zhiyun text translation API (signType v3)",
        ),
        "openai": Entry(
            "sit.translators.openai_chat:OpenAITranslator",
            hints.REQUESTS,
            "any OpenAI-compatible chat endpoint: OpenAI, vLLM, Ollama, llama.cpp, LM Studio (--model required)",
        ),
        "deepl": Entry(
            "sit.translators.deepl:DeepLTranslator",
            hints.REQUESTS,
            "DeepL API v2 (Pro, or Free with a key ending in :fx)",
        ),
    },
    group="sit.translators",
    base="sit.translators.base:Translator",
)


def get_translator(name: str, **kwargs) -> Translator:
    """Create the translator registered as ``name`` (importing its module only now)."""
    return TRANSLATORS.create(name, **kwargs)


def translator_options(name: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """``given`` (``--translator-option``), every key of which translator ``name`` must take
    (a ConfigError listing its options otherwise)."""
    from ..options import check_given, named_options

    return check_given(given, named_options(TRANSLATORS.get(name)), f"the {name} translator", "--translator-option ")


__all__ = ["TRANSLATORS", "Translator", "TranslatorStats", "get_translator", "translator_options"]
