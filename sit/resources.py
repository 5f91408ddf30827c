"""The old home of the model and resource helpers, kept as a re-export for code that imports it
(``sit/pipeline.py`` does, and plugins may). New code imports the focused modules:

- :mod:`sit.wordnetdb`: WordNet for NLTK (:func:`wordnet`, :func:`wordnet_root`);
- :mod:`sit.spacymodels`: spaCy pipelines (:func:`find_spacy_model`, :func:`load_spacy`);
- :mod:`sit.hub`: the Hugging Face hub and its local cache (:func:`hf_model_location`,
  :func:`hf_load_kwargs`, :func:`hub_reachable`);
- :mod:`sit.devices`: torch and its devices (:func:`import_torch_transformers`,
  :func:`resolve_device`, :func:`checked_device`).
"""

from __future__ import annotations

from .devices import AUTO_DEVICES, checked_device, import_torch_transformers, resolve_device
from .hints import spacy_hint
from .hub import (HF_TOKENIZER_FILES, HF_WEIGHTS, hf_cache_missing, hf_cached_file, hf_load_kwargs,
                  hf_model_location, hub_reachable, hub_url, url_reachable)
from .spacymodels import SPACY_MODELS, find_spacy_model, load_spacy, spacy_model_version
from .wordnetdb import (LEXNAMES, WORDNET_FILES, WORDNET_SYSTEM_DIRS, data_dir, lexnames_text, nltk_data_dirs,
                        wordnet, wordnet_root, wordnet_version)

__all__ = [
    "AUTO_DEVICES", "HF_TOKENIZER_FILES", "HF_WEIGHTS", "LEXNAMES", "SPACY_MODELS", "WORDNET_FILES",
    "WORDNET_SYSTEM_DIRS", "checked_device", "data_dir", "find_spacy_model", "hf_cache_missing", "hf_cached_file",
    "hf_load_kwargs", "hf_model_location", "hub_reachable", "hub_url", "import_torch_transformers",
    "lexnames_text", "load_spacy", "nltk_data_dirs", "resolve_device", "spacy_hint", "spacy_model_version",
    "url_reachable", "wordnet", "wordnet_root", "wordnet_version",
]
