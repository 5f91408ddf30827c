"""What a ``sit run`` command line needs that is not in the package, whether each is here, and
fetching it. The run's components declare it themselves (:meth:`sit.stage.Declares.needs`: the
translator's model, the perturber's masked LM, English tagger and WordNet, the parser's Stanza
models or spaCy pipeline, a relation's data); this module asks the components the command line
would build, and never names one.

* :func:`run_needs`: each piece, with where it would load from: here, its source (a model hub, the
  package index, NLTK's index, Debian's files), or nowhere. ``auto`` choices are made as a run
  makes them: the masked LM where it can be had, else WordNet; Stanza where its models can be had,
  else a spaCy pipeline.
* :func:`check_needs`: before any work, one error naming **every** piece that is nowhere, each with
  the command that fetches it (``sit download ...``).
* :func:`download`: ``sit download``: fetch each piece through the component that loads it
  (:meth:`~sit.stage.Declares.fetch`: ``from_pretrained``, ``stanza.download``, pip for spaCy's
  pipelines, NLTK's downloader or Debian's files for WordNet) and say where it went.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Optional

from ..errors import MissingDependencyError, ModelError
from ..stage import Need

PARTS = ("translator", "mlm", "parser", "spacy", "wordnet")


def _opt(name: str, value: Any, default: Any = None) -> list[str]:
    return [name, str(value)] if value not in (None, "", default) else []


def download_command(config, target: str, only: Optional[str] = None) -> str:
    """The ``sit download`` command line that fetches what ``config`` needs (``only`` one part)."""
    args = ["sit", "download"] + (["--only", only] if only else [])
    if only in (None, "translator"):
        args += ["--translator", config.translator] + _opt("--model", config.model)
        args += _opt("--source-lang", config.source_lang, "en")
    if only in (None, "spacy", "wordnet"):
        args += _opt("--perturber", config.perturber, "auto") + _opt("--parser", config.parser, "auto")
    if only in (None, "mlm"):
        args += _opt("--mlm-model", config.mlm_model, None if only else "bert-base-uncased")
    if only in (None, "parser"):
        args += _opt("--parser-model", config.parser_model)
    if only in (None, "translator", "parser", "spacy"):
        args += ["--target-lang", target]
    return " ".join(shlex.quote(a) for a in args)


#: what a run can do instead of each part, said with what is missing
INSTEAD = {"translator": "or use --translator apertium, which works offline", "mlm": "or use --perturber wordnet",
           "parser": "or use --parser spacy with a spaCy pipeline for the language",
           "spacy": "or use --parser stanza where Stanza has the language",
           "wordnet": "or use --perturber mlm (which needs WordNet only for patinv)"}


@dataclass(frozen=True)
class Planned:
    """A need and the component that declared it, with the languages and model it would be
    built with (the component fetches it: :meth:`sit.stage.Declares.fetch`)."""

    need: Need
    component: type
    source_lang: str
    target_lang: str
    model: Optional[str]

    def fetch(self) -> str:
        return self.component.fetch(self.need, self.source_lang, self.target_lang, self.model)


def _declared(component: type, config, target: str, model: Optional[str]) -> list[Planned]:
    return [Planned(need, component, config.source_lang, target, model)
            for need in component.needs(config.source_lang, target, model)]


def _auto(first: list[Planned], fallback: list[Planned]) -> list[Planned]:
    """What ``auto`` takes, as a run chooses: the first choice where all it needs can be had;
    else the fallback (the first's pieces kept, not required: said not fetched); with neither,
    the first choice's pieces, required (what the error names)."""
    if all(p.need.where is not None for p in first):
        return first
    optional = [replace(p, need=replace(p.need, required=False)) for p in first]
    if all(p.need.where is not None for p in fallback):
        return optional + fallback
    return [replace(p, need=replace(p.need, required=True)) for p in first]


def _perturber(config, target: str) -> list[Planned]:
    import importlib.util

    from ..perturb import PERTURBERS

    name = config.perturber
    model = config.mlm_model if name in ("auto", "mlm") else None
    if name != "auto":
        return _declared(PERTURBERS.get(name), config, target, model)
    wordnet = _declared(PERTURBERS.get("wordnet"), config, target, None)
    if any(importlib.util.find_spec(m) is None for m in ("torch", "transformers")):
        return wordnet  # auto is WordNet without them
    return _auto(_declared(PERTURBERS.get("mlm"), config, target, model), wordnet)


def _parser(config, target: str) -> list[Planned]:
    from ..parse import PARSERS

    if config.parser != "auto":
        return _declared(PARSERS.get(config.parser), config, target, config.parser_model)
    return _auto(_declared(PARSERS.get("stanza"), config, target, config.parser_model),
                 _declared(PARSERS.get("spacy"), config, target, None))


def planned(config, target: str) -> list[Planned]:
    """Every piece the components of a run of ``config`` (into ``target``) declare, once each
    (required where any asks for it), with its ``sit download`` command."""
    from ..relations import RELATIONS, parse_relations
    from ..translators import TRANSLATORS

    relations = [RELATIONS.get(name) for name in parse_relations(config.relations)]
    uses = set().union(*(r.uses for r in relations))
    out = _declared(TRANSLATORS.get(config.translator), config, target, config.model)
    out += [p for r in relations for p in _declared(r, config, target, None)]
    out += _perturber(config, target) if "perturber" in uses else []
    out += _parser(config, target) if "parser" in uses else []
    seen: dict[tuple[str, str, str], Planned] = {}
    for p in out:
        key = (p.need.part, p.need.fetch, p.need.spec or p.need.what)
        required = p.need.required or (key in seen and seen[key].need.required)
        seen.setdefault(key, p)
        seen[key] = replace(seen[key], need=replace(seen[key].need, required=required,
                                                    fix=download_command(config, target, p.need.part)))
    return list(seen.values())


def run_needs(config, target: str, only: tuple[str, ...] = PARTS) -> list[Need]:
    """What a run of ``config`` (translating into ``target``) needs, piece by piece (``only``: these parts)."""
    return [p.need for p in planned(config, target) if p.need.part in only]


def missing_error(missing: list[Need], config, target: str) -> MissingDependencyError:
    """One error naming every piece of ``missing``, each with the command that fetches it."""
    from .hub import ABSENT

    if len(missing) == 1:
        n = missing[0]
        if ABSENT in n.why or n.fetch in ("pip", "wordnet"):  # no download will bring it
            return MissingDependencyError(f"this command needs {n.what}: {n.why}, {INSTEAD[n.part]}")
        return MissingDependencyError(f"this command needs {n.what}: {n.why}; fetch it where the hub is reachable: "
                                      f"`{n.fix}`, {INSTEAD[n.part]}")
    lines = [f"{len(missing)} models this command needs are missing; fetch them where the hub is reachable:"]
    lines += [f"  {n.what}: {n.why}; fetch it: `{n.fix}`" for n in missing]
    lines.append(f"  or all at once: `{download_command(config, target)}`")
    return MissingDependencyError("\n".join(lines))


def check_needs(config, target: str, only: tuple[str, ...] = PARTS) -> list[Need]:
    """Raise :func:`missing_error` for every piece the run cannot go without that is neither here
    nor fetchable; else return the needs."""
    needs = run_needs(config, target, only)
    missing = [n for n in needs if n.where is None and n.required]
    if missing:
        raise missing_error(missing, config, target)
    return needs


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


def download(config, target: str, only: tuple[str, ...] = PARTS, on_done=None, on_start=None) -> list[Fetched]:
    """``sit download``: fetch every piece a run of ``config`` needs (``only`` these parts) that is
    not here; :class:`MissingDependencyError` first, naming each, where some cannot be fetched.
    ``on_start(need)`` hears of each piece before it is fetched, ``on_done(fetched)`` as it is done."""
    plan = [p for p in planned(config, target) if p.need.part in only]
    nowhere = [p.need for p in plan if p.need.where is None and p.need.required]
    if nowhere:
        raise missing_error(nowhere, config, target)
    out = []
    for p in plan:
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
