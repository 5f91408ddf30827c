"""Perturbers, looked up by name without importing their dependencies."""

from __future__ import annotations

from ..registry import Entry, Registry
from .base import Perturber

PERTURBERS = Registry(
    "perturber",
    {
        "mlm": Entry(
            "sit.perturb.mlm:MaskedLMPerturber",
            "pip install torch==2.13.0 transformers",
            "SIT: a masked LM replaces one noun/adjective at a time with a same-POS word",
        ),
        "wordnet": Entry(
            "sit.perturb.wordnet:WordNetPerturber",
            "apt-get install wordnet-base wordnet-sense-index (or nltk.download('wordnet'))",
            "same-POS WordNet neighbours of nouns and adjectives (offline)",
        ),
    },
)

__all__ = ["PERTURBERS", "Perturber"]
