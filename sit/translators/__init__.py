"""Translator adapters, looked up by name without importing their dependencies."""

from __future__ import annotations

from ..registry import TORCH_INSTALL_HINT, Entry, Registry
from .base import Translator, TranslatorStats

TRANSLATORS = Registry(
    "translator",
    {
        "apertium": Entry(
            "sit.translators.apertium:ApertiumTranslator",
            "apt-get install apertium apertium-eng-spa apertium-eng-cat",
            "Apertium rule-based MT, local and offline (en->es, en->ca, ...)",
        ),
        "marian": Entry(
            "sit.translators.marian:MarianTranslator",
            TORCH_INSTALL_HINT,
            "MarianMT (opus-mt) through transformers, local",
        ),
        "google": Entry(
            "sit.translators.google:GoogleTranslator",
            "pip install requests",
            "Google Cloud Translation API v2",
        ),
        "bing": Entry(
            "sit.translators.bing:BingTranslator",
            "pip install requests",
            "Microsoft Translator Text API v3",
        ),
        "baidu": Entry(
            "sit.translators.baidu:BaiduTranslator",
            "pip install requests",
            "Baidu Fanyi general translation API",
        ),
        "youdao": Entry(
            "sit.translators.youdao:YoudaoTranslator",
            "pip install requests",
            "Youdao Zhiyun text translation API (signType v3)",
        ),
    },
)


def get_translator(name: str, **kwargs) -> Translator:
    """Create the translator registered as ``name`` (importing its module only now)."""
    return TRANSLATORS.create(name, **kwargs)


__all__ = ["TRANSLATORS", "Translator", "TranslatorStats", "get_translator"]
