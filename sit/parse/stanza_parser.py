"""Dependency parsing with Stanza (the default where its models are installed or can be fetched).

Models live where Stanza keeps them: ``--parser-model`` (a directory), ``$STANZA_RESOURCES_DIR``,
else Stanza's own default (``~/.cache/stanza/<version>/resources``; models an older Stanza left
in ``~/stanza_resources`` are still used). A language whose models are missing is downloaded there
by Stanza's own ``stanza.download`` (index from ``$STANZA_RESOURCES_URL``, files from the model hub)
where the hub is reachable; offline it is a one-line error naming the command that fetches it.
Chinese is segmented by jieba, then parsed by Stanza as pre-tokenized text.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Optional

from ..errors import MissingDependencyError, ModelError
from ..records import Tree
from ..stage import Need
from .base import Parser, segment_chinese

log = logging.getLogger("sit.parse")

_STANZA_LANG = {"zh": "zh-hans", "zh-CN": "zh-hans", "zh-TW": "zh-hant"}
#: the processors a parse needs (Stanza adds their dependencies: word vectors, character LMs)
PROCESSORS = ("tokenize", "pos", "lemma", "depparse")
DEFAULT_RESOURCES_URL = "https://raw.githubusercontent.com/stanfordnlp/stanza-resources/main"


def stanza_code(lang: str) -> str:
    """Stanza's language code for sit's (``zh`` -> ``zh-hans``)."""
    return _STANZA_LANG.get(lang, lang)


def _stanza_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("stanza")
    except metadata.PackageNotFoundError:
        return ""


def stanza_default_dir() -> Path:
    """Stanza's own default resources directory (``stanza.resources.common.DEFAULT_MODEL_DIR``),
    worked out without importing Stanza (which imports torch)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("stanza", "StanfordNLP", _stanza_version() or None)) / "resources"


def stanza_dir(explicit: Optional[str] = None, lang: Optional[str] = None) -> Path:
    """The Stanza resources directory: ``explicit``, ``$STANZA_RESOURCES_DIR``, else Stanza's
    default; with ``lang``, ``~/stanza_resources`` (older Stanza's default) where it holds that
    language's models and the default does not."""
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get("STANZA_RESOURCES_DIR"):
        return Path(os.environ["STANZA_RESOURCES_DIR"]).expanduser()
    default = stanza_default_dir()
    legacy = Path.home() / "stanza_resources"
    if lang and stanza_missing(lang, default) != [] and stanza_missing(lang, legacy) == []:
        return legacy
    return default


def stanza_missing(lang: str, directory: Path) -> Optional[list[str]]:
    """The model files of ``lang``'s parse (its default packages and their dependencies, as the
    directory's ``resources.json`` names them) missing from ``directory``: ``[]`` when all are
    there; None when the directory has no index or the index does not know the language."""
    try:
        with open(directory / "resources.json", encoding="utf-8") as fh:
            resources = json.load(fh)
    except (OSError, ValueError):
        return None
    code = stanza_code(lang)
    while isinstance(resources.get(code), dict) and "alias" in resources[code]:
        code = resources[code]["alias"]
    entry = resources.get(code)
    if not isinstance(entry, dict) or "default" not in entry.get("packages", {}):
        return None
    files = []
    for proc in PROCESSORS:
        package = entry["packages"]["default"].get(proc)
        if package is None:
            continue
        files.append(f"{code}/{proc}/{package}.pt")
        deps = entry.get(proc, {}).get(package, {}).get("dependencies", [])
        files += [f"{code}/{d['model']}/{d['package']}.pt" for d in deps]
    return [f for f in dict.fromkeys(files) if not (directory / f).is_file()]


def stanza_models_present(lang: str, model_dir: Optional[str] = None) -> bool:
    return stanza_missing(lang, stanza_dir(model_dir, lang)) == []


def stanza_resources_url() -> str:
    return os.environ.get("STANZA_RESOURCES_URL") or DEFAULT_RESOURCES_URL


def stanza_fetchable(lang: str) -> tuple[bool, str]:
    """Whether Stanza's models for ``lang`` can be downloaded now: Stanza installed, its index
    (``$STANZA_RESOURCES_URL``) and the model hub reachable, and a parser for the language among
    Stanza's default models. Returns (fetchable, why not / from where)."""
    import importlib.util

    from ..models import hub_reachable, url_reachable

    if importlib.util.find_spec("stanza") is None:
        return False, "Stanza is not installed (pip install stanza)"
    if not (url_reachable(stanza_resources_url()) and hub_reachable()):
        return False, "Stanza's model index or the model hub is unreachable"
    from stanza.resources.default_packages import default_treebanks

    if stanza_code(lang) not in default_treebanks:
        return False, f"Stanza has no parser for {lang!r}"
    return True, f"Stanza's {stanza_code(lang)} models can be fetched"


def download_command(lang: str, model_dir: Optional[str] = None) -> str:
    return (f"sit download --only parser --parser stanza --target-lang {lang}"
            + (f" --parser-model {model_dir}" if model_dir else ""))


def download_stanza(lang: str, model_dir: Optional[str] = None) -> Path:
    """Download Stanza's models for parsing ``lang`` (and their dependencies) with Stanza's own
    ``stanza.download`` into :func:`stanza_dir`, saying so on the log; returns the directory."""
    target = stanza_dir(model_dir)
    code = stanza_code(lang)
    try:
        import stanza
        from stanza.resources.common import UnknownLanguageError
    except ImportError as exc:
        raise MissingDependencyError("the stanza parser needs: pip install stanza") from exc
    log.info("downloading Stanza's %s models (%s) into %s", code, ", ".join(PROCESSORS), target)
    try:
        stanza.download(code, model_dir=str(target), processors=",".join(PROCESSORS), logging_level="WARN")
    except UnknownLanguageError:
        raise MissingDependencyError(f"Stanza has no models for {lang!r}; use --parser spacy with a spaCy pipeline "
                                     "for it") from None
    except Exception as exc:  # network, a file that fails its checksum...
        raise ModelError(f"downloading Stanza's {code} models into {target} failed ({type(exc).__name__}: "
                         f"{str(exc)[:160]}); run the same command again, or `{download_command(lang, model_dir)}`"
                         ) from exc
    if stanza_missing(lang, target):
        raise ModelError(f"Stanza's {code} index names no complete parse pipeline ({', '.join(stanza_missing(lang, target) or [])} "
                         f"missing in {target}); use --parser spacy")
    return target


def stanza_need(lang: str, model_dir: Optional[str] = None) -> Need:
    """Stanza's models for parsing ``lang`` as a :class:`~sit.stage.Need`: here, fetchable, or nowhere."""
    what = f"Stanza's {stanza_code(lang)} parser models"
    if stanza_models_present(lang, model_dir):
        return Need("parser", what, True, "local", f"in {stanza_dir(model_dir, lang)}", fetch="stanza", spec=lang)
    ok, why = stanza_fetchable(lang)
    if ok:
        return Need("parser", what, True, "hub", why, fetch="stanza", spec=lang)
    return Need("parser", what, True, None, f"not in {stanza_dir(model_dir, lang)} ({why})", fetch="stanza", spec=lang)


class StanzaParser(Parser):
    name = "stanza"
    uses_gpu = True  # an engine gives its workers --gpus-per-worker
    batch_size = 32

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list[Need]:
        """Stanza's models for the target language (``--parser-model``: in that directory)."""
        return [stanza_need(target_lang, model)]

    @classmethod
    def fetch(cls, need: Need, source_lang: str, target_lang: str, model: Optional[str] = None) -> str:
        """Stanza's models, by Stanza's own ``stanza.download``; where they are."""
        if stanza_models_present(target_lang, model):
            return str(stanza_dir(model, target_lang))
        return str(download_stanza(target_lang, model))

    def __init__(self, lang: str, *, model: Optional[str] = None, device: Optional[str] = None, **kwargs):
        from ..models import resolve_device

        super().__init__(lang, model=model, device=resolve_device(device, "Stanza's models"), **kwargs)
        self.code = stanza_code(lang)
        directory = stanza_dir(model, lang)
        if stanza_missing(lang, directory) != []:
            ok, why = stanza_fetchable(lang)
            if not ok:
                raise MissingDependencyError(
                    f"no Stanza models for {lang!r} in {directory} ({why}); fetch them where the hub is reachable: "
                    f"`{download_command(lang, model)}`, or use --parser spacy"
                )
            directory = download_stanza(lang, model)
        try:
            import stanza
        except ImportError as exc:
            raise MissingDependencyError("the stanza parser needs: pip install stanza") from exc
        self._stanza = stanza
        self.directory = directory
        self.pretokenized = lang.startswith("zh")
        self.nlp = stanza.Pipeline(
            self.code,
            dir=str(directory),
            processors=",".join(PROCESSORS),
            download_method=None,
            tokenize_pretokenized=self.pretokenized,
            device=self.device,
            logging_level="WARN",
        )

    def model_id(self) -> str:
        return f"stanza-{self.code}-{getattr(self._stanza, '__version__', '')}"

    def _parse_batch(self, texts: list[str]) -> list[Tree]:
        if self.pretokenized:
            texts = [" ".join(segment_chinese(t)) for t in texts]
        docs = self.nlp.bulk_process([self._stanza.Document([], text=t) for t in texts])
        trees = []
        for doc in docs:
            tokens, heads, rels = [], [], []
            offset = 0
            for sent in doc.sentences:
                for w in sent.words:
                    tokens.append(w.text)
                    heads.append(w.head + offset if w.head else 0)
                    rels.append((w.deprel or "dep").lower())
                offset += len(sent.words)
            trees.append(Tree(tuple(tokens), tuple(heads), tuple(rels)))
        return trees
