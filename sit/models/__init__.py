"""Finding, fetching and loading models and data: the face of :mod:`sit.models`.

Code outside this package imports from here; each name loads its module on first use (PEP 562), so
``import sit.models`` costs nothing and a cached run loads no model library.

* :mod:`.hub`: whether the Hugging Face hub is reachable, and where a model is;
* :mod:`.hf`: loading and running Hugging Face models;
* :mod:`.devices`: torch and the device a model runs on;
* :mod:`.imports`: importing a library without the optional packages it needs not here;
* :mod:`.memory`: handing the memory of released models back to the system;
* :mod:`.wordnetdb`: WordNet's database and NLTK's reader of it;
* :mod:`.spacymodels`: spaCy pipelines;
* :mod:`.downloads`: fetching what a run needs (``sit download``; :mod:`sit.plan` says what).
"""

from __future__ import annotations

import importlib

#: each public name, and the module of this package that defines it
NAMES = {
    "ABSENT": "hub",
    "AUTO_DEVICES": "devices",
    "FALLBACK": "downloads",
    "PARTS": "downloads",
    "WORDNET_FILES": "wordnetdb",
    "checked_device": "devices",
    "data_dir": "wordnetdb",
    "download": "downloads",
    "fetch_data": "downloads",
    "fetch_wordnet": "wordnetdb",
    "forget_wordnet": "wordnetdb",
    "give_back_memory": "memory",
    "find_spacy_model": "spacymodels",
    "hf_cached_file": "hub",
    "hf_location": "downloads",
    "hf_model_location": "hub",
    "hub_reachable": "hub",
    "hub_url": "hub",
    "import_transformers": "hf",
    "lexnames_text": "wordnetdb",
    "load_spacy": "spacymodels",
    "nltk_module": "wordnetdb",
    "pip_install": "downloads",
    "resolve_device": "devices",
    "spacy_model_version": "spacymodels",
    "spacy_need": "spacymodels",
    "url_reachable": "hub",
    "wordnet": "wordnetdb",
    "wordnet_need": "wordnetdb",
    "wordnet_root": "wordnetdb",
    "wordnet_version": "wordnetdb",
}


def __getattr__(name: str):
    if name not in NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{NAMES[name]}", __name__), name)


def __dir__():
    return sorted(NAMES)
