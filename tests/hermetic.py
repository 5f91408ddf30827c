"""The test run's own folders: whatever the user has cached (models in ``~/.cache/huggingface``,
Stanza's models, NLTK's data, sit's cache, credentials), the suite sees none of it.

:func:`isolate` is called by conftest.py before anything imports huggingface_hub, transformers,
Stanza or NLTK (they read their folders from the environment when first imported). It points every
cache and data variable those libraries and sit read at a fresh folder of the run, drops the
variables that would send a request somewhere (``HF_ENDPOINT``, ``STANZA_RESOURCES_URL``, tokens)
or give sit credentials (``SIT_*``, but ``SIT_TEST_ARTIFACTS``), and forbids the model hub
(``HF_HUB_OFFLINE=1``): a test that wants a hub starts the fake one (tests/fakes/hub.py) and says so.

WordNet is the one piece of data the tests share with the machine: Debian's ``/usr/share/wordnet``
is copied into the run's ``NLTK_DATA`` (first in NLTK's search path), so a WordNet of the user's
own under ``~/nltk_data`` is never the one read.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import MutableMapping

#: environment variable -> the folder under the run's root it points at
FOLDERS = {
    "HF_HOME": "hf",
    "HF_HUB_CACHE": "hf/hub",
    "HUGGINGFACE_HUB_CACHE": "hf/hub",
    "TRANSFORMERS_CACHE": "hf/hub",
    "HF_ASSETS_CACHE": "hf/assets",
    "HF_XET_CACHE": "hf/xet",
    "HF_DATASETS_CACHE": "hf/datasets",
    "SENTENCE_TRANSFORMERS_HOME": "sentence-transformers",
    "TORCH_HOME": "torch",
    "XDG_CACHE_HOME": "xdg-cache",
    "XDG_DATA_HOME": "xdg-data",
    "XDG_CONFIG_HOME": "xdg-config",
    "SIT_CACHE_DIR": "sit-cache",
    "SIT_DATA_DIR": "sit-data",
    "STANZA_RESOURCES_DIR": "stanza_resources",
    "NLTK_DATA": "nltk_data",
}
#: variables that would send a request somewhere, or carry a secret, dropped for the run
DROPPED = ("HF_ENDPOINT", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH", "STANZA_RESOURCES_URL",
           "TRANSFORMERS_OFFLINE", "RAY_ADDRESS")
#: sit's variables the run keeps (where CI wants the test artefacts)
KEPT_SIT = ("SIT_TEST_ARTIFACTS",)
#: the system WordNet copied into the run's NLTK data (what scripts/setup.sh installs from apt)
SYSTEM_WORDNET = Path("/usr/share/wordnet")


def isolate(environ: MutableMapping[str, str], root: Path | None = None) -> Path:
    """Point ``environ``'s caches at folders under ``root`` (a fresh temporary folder by default)
    and drop what would leak; returns the root. The user's pip configuration (mirrors) is linked
    into the run's ``XDG_CONFIG_HOME``, since tests that build packages run pip."""
    user_config = Path(environ.get("XDG_CONFIG_HOME") or Path("~/.config").expanduser())
    root = Path(root) if root is not None else Path(tempfile.mkdtemp(prefix="sit-tests-"))
    for key in [k for k in environ if k.startswith("SIT_") and k not in KEPT_SIT] + list(DROPPED):
        environ.pop(key, None)
    for key, sub in FOLDERS.items():
        (root / sub).mkdir(parents=True, exist_ok=True)
        environ[key] = str(root / sub)
    environ["HF_HUB_OFFLINE"] = "1"  # never the real model hub
    if (user_config / "pip").is_dir() and not (root / FOLDERS["XDG_CONFIG_HOME"] / "pip").exists():
        (root / FOLDERS["XDG_CONFIG_HOME"] / "pip").symlink_to(user_config / "pip")
    copy_system_wordnet(root / FOLDERS["NLTK_DATA"])
    return root


def copy_system_wordnet(nltk_data: Path) -> None:
    """Debian's WordNet, as NLTK reads it, into ``nltk_data/corpora/wordnet`` (with the
    ``lexnames`` file Debian lacks); nothing where the system has none."""
    from sit.models import WORDNET_FILES, lexnames_text

    if not all((SYSTEM_WORDNET / f).is_file() for f in WORDNET_FILES):
        return
    target = nltk_data / "corpora" / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for f in SYSTEM_WORDNET.iterdir():
        if f.is_file():
            shutil.copyfile(f, target / f.name)
    if not (target / "lexnames").exists():
        (target / "lexnames").write_text(lexnames_text(), encoding="utf-8")


def remove(root: Path) -> None:
    """Remove the run's folders (at the end of the session)."""
    shutil.rmtree(root, ignore_errors=True)
