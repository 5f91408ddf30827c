"""WordNet for NLTK: where its database is (:func:`wordnet_root`: NLTK's own data, or Debian's
``/usr/share/wordnet`` prepared once in ``SIT_DATA_DIR``, default ``$XDG_CACHE_HOME/sit`` or
``~/.cache/sit``), its version, and NLTK's reader of it (:func:`wordnet`, loaded once per
process). Paths resolve when called, from arguments or environment variables.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shutil
import sys
from functools import lru_cache
from pathlib import Path
from typing import Optional

from .. import hints
from ..errors import MissingDependencyError, ModelError
from ..records import Need


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

#: what ``import nltk`` imports whenever it is installed, for parts of NLTK sit never uses (its
#: scikit-learn classifier, statistics): about 1.9 s, 1,400 modules and 150 MB (benchmarks/bench_run.py)
NLTK_OPTIONAL = ("sklearn", "scipy")

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
    worked out without importing it: ``import nltk`` takes seconds, which a re-run answered from
    the cache never needs."""
    if "nltk.data" in sys.modules:
        return list(sys.modules["nltk.data"].path)
    dirs = [os.path.expanduser(d) for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if "APPENGINE_RUNTIME" not in os.environ and os.path.expanduser("~/") != "~/":
        dirs.append(os.path.expanduser("~/nltk_data"))
    if sys.platform.startswith("win"):  # NLTK's Windows folders: ask NLTK itself
        return list(nltk_module("nltk.data").path)
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
            try:
                return str(Path(str(nltk_module("nltk.data").find("corpora/wordnet"))).parent.parent)
            except LookupError:
                break
    if _complete(data_dir() / "nltk_data"):  # fetched by `sit download`, or prepared before
        return str(data_dir() / "nltk_data")
    for d in WORDNET_SYSTEM_DIRS:
        if all((Path(d) / f).exists() for f in WORDNET_FILES):
            return str(_prepare_nltk_wordnet(Path(d), data_dir() / "nltk_data"))
    raise MissingDependencyError(
        f"WordNet is not installed; install it with `{hints.WORDNET}` (offline) or `{hints.WORDNET_NLTK}`"
    )


def _complete(root: Path) -> bool:
    return all((root / "corpora" / "wordnet" / f).is_file() for f in WORDNET_FILES + ("lexnames",))


def _installed(system_dirs: tuple[str, ...]) -> tuple[Optional[str], str]:
    """Where WordNet is without fetching: (``local``, the NLTK data folder holding it), (``system``,
    a folder of Debian's files to copy), or (None, "")."""
    for d in nltk_data_dirs():
        if (Path(d) / "corpora" / "wordnet").is_dir() or (Path(d) / "corpora" / "wordnet.zip").is_file():
            return "local", d
    if _complete(data_dir() / "nltk_data"):
        return "local", str(data_dir() / "nltk_data")
    for d in system_dirs:
        if all((Path(d) / f).exists() for f in WORDNET_FILES):
            return "system", d
    return None, ""


def wordnet_need(*, required: bool = True, system_dirs: tuple[str, ...] = WORDNET_SYSTEM_DIRS) -> Need:
    """WordNet as a :class:`~sit.stage.Need`: here (NLTK's data, or a copy sit made), Debian's files
    to copy, or fetchable with NLTK's downloader (``hub``) where NLTK is installed."""
    what = "WordNet (NLTK's data)"
    where, folder = _installed(system_dirs)
    if where == "local":
        return Need("wordnet", what, required, "local", f"in {folder}", fetch="wordnet")
    if where == "system":
        return Need("wordnet", what, required, "hub", f"Debian's WordNet in {folder} is copied into "
                    f"{data_dir() / 'nltk_data'}", fetch="wordnet")
    if importlib.util.find_spec("nltk") is None:
        return Need("wordnet", what, required, None, f"NLTK is not installed ({hints.pip('nltk')})", fetch="wordnet")
    return Need("wordnet", what, required, "hub", f"NLTK's downloader fetches it into {data_dir() / 'nltk_data'}",
                fetch="wordnet")


def fetch_wordnet(*, url: Optional[str] = None, system_dirs: tuple[str, ...] = WORDNET_SYSTEM_DIRS) -> tuple[str, bool]:
    """WordNet where sit reads it: (the NLTK data folder, whether it was fetched now). Debian's
    files are copied (:func:`wordnet_root`); with neither them nor NLTK's data, NLTK's downloader
    fetches ``wordnet`` (unpacked) into ``$SIT_DATA_DIR/nltk_data`` from its index (``url``, else
    ``$NLTK_DOWNLOAD_URL``, else NLTK's own)."""
    where, folder = _installed(system_dirs)
    if where == "local":
        return folder, False
    target = data_dir() / "nltk_data"
    if where == "system":
        return str(_prepare_nltk_wordnet(Path(folder), target)), True
    downloader = nltk_module("nltk.downloader").Downloader(server_index_url=url or os.environ.get("NLTK_DOWNLOAD_URL")
                                                           or None)
    index = downloader.url
    try:
        downloader.download("wordnet", download_dir=str(target), quiet=True, raise_on_error=True, extract=True)
    except Exception as exc:  # the index or the file unreachable, a file that fails its checksum ...
        said = " ".join(str(exc).split())[:160]
        raise ModelError(f"NLTK's downloader could not fetch WordNet from {index} ({type(exc).__name__}: "
                         f"{said}); run the same command again where it is reachable, or `{hints.WORDNET}`"
                         ) from exc
    if not _complete(target):
        raise ModelError(f"NLTK's downloader fetched no complete WordNet into {target} (from {index}); "
                         f"install it with `{hints.WORDNET}`")
    return str(target), True


def wordnet_version(root: Optional[str | os.PathLike] = None) -> str:
    """WordNet's version as its ``data.adj`` header states it, without loading the database."""
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


def nltk_module(name: str):
    """NLTK's module ``name`` (``nltk.stem``, ``nltk.corpus.reader.wordnet`` ...), imported as
    usual except that NLTK does not see the packages of :data:`NLTK_OPTIONAL` that are not loaded
    yet: NLTK imports each in a ``try``, and goes on without it. They are seen again once NLTK is
    in (a later ``import sklearn`` works); where one is loaded already, NLTK gets it."""
    if name in sys.modules:
        return sys.modules[name]
    from .imports import hidden_modules

    with hidden_modules(NLTK_OPTIONAL):
        return importlib.import_module(name)


@lru_cache(maxsize=4)
def _wordnet(root: str):
    import warnings

    WordNetCorpusReader = nltk_module("nltk.corpus.reader.wordnet").WordNetCorpusReader
    SeekableUnicodeStreamReader = nltk_module("nltk.data").SeekableUnicodeStreamReader

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

    data = nltk_module("nltk.data")
    added = root not in data.path
    if added:  # NLTK's reader checks its folder against the data path once, as it is built
        data.path.append(root)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="The multilingual functions")
            return Reader(str(Path(root) / "corpora" / "wordnet"), None)
    finally:
        if added:  # NLTK's data path is left as it was
            data.path.remove(root)


def wordnet(root: Optional[str | os.PathLike] = None):
    """NLTK's WordNet reader (loaded once per process, until :func:`forget_wordnet`); see :func:`wordnet_root`."""
    return _wordnet(wordnet_root(str(root) if root else None))


def forget_wordnet() -> None:
    """Let go of the readers :func:`wordnet` keeps (about 100 MB: NLTK reads every lemma's index
    entry): a run calls it once its perturber is done with WordNet; the next :func:`wordnet`
    reads the database again."""
    _wordnet.cache_clear()
