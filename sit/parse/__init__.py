"""Dependency parsers, looked up by name; ``auto`` picks Stanza where its models are installed or
can be fetched, else spaCy."""

from __future__ import annotations

from typing import Optional

from .. import hints
from ..errors import MissingDependencyError
from ..registry import Entry, Registry
from .base import Parser

PARSERS = Registry(
    "parser",
    {
        "spacy": Entry("sit.parse.spacy_parser:SpacyParser", f"{hints.SPACY} (and a pipeline: {hints.spacy_hint('es')})",
                       "spaCy pipelines (offline where pip-installed)"),
        "stanza": Entry("sit.parse.stanza_parser:StanzaParser", f"{hints.STANZA} (and its models: `sit download`)",
                        "Stanza (default where its models are installed)"),
    },
    group="sit.parsers",
    base="sit.parse.base:Parser",
)


def choose_parser(lang: str, name: str = "auto", model: Optional[str] = None,
                  translator: Optional[str] = None) -> tuple[str, str]:
    """Resolve ``auto`` to a concrete parser name for ``lang``; returns (name, reason). ``auto``
    is Stanza where its models are installed or can be fetched (Stanza downloads them when the
    parser is built), else an installed spaCy pipeline. With none, the error says what to fetch
    (``translator``: the run's, for its ``sit download``)."""
    if name != "auto":
        PARSERS.entry(name)
        return name, f"{name} (chosen)"
    from ..models import find_spacy_model
    from .stanza_parser import stanza_dir, stanza_fetchable, stanza_models_present

    if stanza_models_present(lang, model):
        return "stanza", f"stanza: its {lang} models are installed"
    fetchable, why = stanza_fetchable(lang)
    if fetchable:
        return "stanza", f"stanza: {why} into {stanza_dir(model)}"
    if find_spacy_model(lang):
        return "spacy", f"spacy: no Stanza {lang} models in {stanza_dir(model, lang)}, using spaCy's {find_spacy_model(lang)}"
    raise MissingDependencyError(
        f"no dependency parser for {lang!r} is installed; {hints.parser_hint(lang, translator)}"
    )


def get_parser(name: str, lang: str, **kwargs) -> Parser:
    return PARSERS.create(name, lang=lang, **kwargs)


__all__ = ["PARSERS", "Parser", "choose_parser", "get_parser"]
