"""The models a ``sit run`` command line needs from a hub, whether each is here, and fetching them.

* :func:`run_needs`: the translator's model (MarianMT, NLLB, M2M100), the masked LM (``--perturber
  mlm``, or ``auto``, which falls back to WordNet without it) and the target language's Stanza
  models (``--parser stanza``, or ``auto``, which falls back to an installed spaCy pipeline), each
  with where it would load from: here, the hub, or nowhere.
* :func:`check_needs`: before any work, one error naming **every** piece that is nowhere, each with
  the command that fetches it (``sit download ...``).
* :func:`download`: ``sit download``: fetch each piece through the very code that loads it in a run
  (``from_pretrained``, ``stanza.download``) and say where it went.
"""

from __future__ import annotations

import shlex
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Optional

from .errors import MissingDependencyError

PARTS = ("translator", "mlm", "parser")


@dataclass(frozen=True)
class Need:
    """One model a command needs: ``part`` (translator, mlm, parser), what it is, whether the run
    cannot go without it, where it would load from (``local``, ``hub`` or None: nowhere), why,
    and the command that fetches it."""

    part: str
    what: str
    required: bool
    where: Optional[str]
    why: str
    fix: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Need":
        return cls(**d)


def _opt(name: str, value: Any, default: Any = None) -> list[str]:
    return [name, str(value)] if value not in (None, "", default) else []


def download_command(config, target: str, only: Optional[str] = None) -> str:
    """The ``sit download`` command line that fetches what ``config`` needs (``only`` one part)."""
    args = ["sit", "download"] + (["--only", only] if only else [])
    if only in (None, "translator"):
        args += ["--translator", config.translator] + _opt("--model", config.model)
        args += _opt("--source-lang", config.source_lang, "en")
    if only is None:
        args += _opt("--perturber", config.perturber, "auto") + _opt("--parser", config.parser, "auto")
    if only in (None, "mlm"):
        args += _opt("--mlm-model", config.mlm_model, None if only else "bert-base-uncased")
    if only in (None, "parser"):
        args += _opt("--parser-model", config.parser_model)
    if only in (None, "translator", "parser"):
        args += ["--target-lang", target]
    return " ".join(shlex.quote(a) for a in args)


def hub_translator(name: str):
    """The class of translator ``name`` where it loads a model from a hub (MarianMT, NLLB,
    M2M100), else None (Apertium, cloud APIs, CTranslate2 directories: nothing to fetch)."""
    from .translators import TRANSLATORS
    from .translators.seq2seq import Seq2SeqTranslator

    cls = TRANSLATORS.get(name)
    return cls if isinstance(cls, type) and issubclass(cls, Seq2SeqTranslator) else None


#: what a run can do instead of each part, said with what is missing
INSTEAD = {"translator": "or use --translator apertium, which works offline", "mlm": "or use --perturber wordnet",
           "parser": "or use --parser spacy with a spaCy pipeline for the language"}


def _translator_need(config, target: str) -> Optional[Need]:
    from .hub import hf_model_location

    cls = hub_translator(config.translator)
    if cls is None:
        return None
    model = cls.hub_model(config.source_lang, target, config.model)
    where, why = hf_model_location(model)
    return Need("translator", f"the {config.translator} translator's model {model}", True, where, why,
                download_command(config, target, "translator"))


def _mlm_need(config, target: str) -> Optional[Need]:
    import importlib.util

    from .hub import hf_model_location

    if config.perturber == "auto" and any(importlib.util.find_spec(m) is None for m in ("torch", "transformers")):
        return None  # auto is WordNet without them
    where, why = hf_model_location(config.mlm_model)
    return Need("mlm", f"the masked LM {config.mlm_model}", config.perturber == "mlm", where, why,
                download_command(config, target, "mlm"))


def _parser_need(config, target: str) -> Optional[Need]:
    from .parse.stanza_parser import stanza_code, stanza_dir, stanza_fetchable, stanza_models_present
    from .spacymodels import find_spacy_model

    what = f"Stanza's {stanza_code(target)} parser models"
    fix = download_command(config, target, "parser")
    required = config.parser == "stanza" or not find_spacy_model(target)
    if stanza_models_present(target, config.parser_model):
        return Need("parser", what, required, "local", f"in {stanza_dir(config.parser_model, target)}", fix)
    ok, why = stanza_fetchable(target)
    if ok:
        return Need("parser", what, required, "hub", why, fix)
    return Need("parser", what, required, None, f"not in {stanza_dir(config.parser_model, target)} ({why})", fix)


def run_needs(config, target: str, only: tuple[str, ...] = PARTS) -> list[Need]:
    """What a run of ``config`` (translating into ``target``) needs from a hub, part by part."""
    from .relations import RELATIONS, parse_relations

    uses = set().union(*(RELATIONS.get(name).uses for name in parse_relations(config.relations)))
    needs = []
    if "translator" in only:
        needs.append(_translator_need(config, target))
    if "mlm" in only and "perturber" in uses and config.perturber in ("auto", "mlm"):
        needs.append(_mlm_need(config, target))
    if "parser" in only and "parser" in uses and config.parser in ("auto", "stanza"):
        needs.append(_parser_need(config, target))
    return [n for n in needs if n is not None]


def missing_error(missing: list[Need], config, target: str) -> MissingDependencyError:
    """One error naming every piece of ``missing``, each with the command that fetches it."""
    from .hub import ABSENT

    if len(missing) == 1:
        n = missing[0]
        if ABSENT in n.why:  # no download will bring it
            return MissingDependencyError(f"this command needs {n.what}: {n.why}, {INSTEAD[n.part]}")
        return MissingDependencyError(f"this command needs {n.what}: {n.why}; fetch it where the hub is reachable: "
                                      f"`{n.fix}`, {INSTEAD[n.part]}")
    lines = [f"{len(missing)} models this command needs are missing; fetch them where the hub is reachable:"]
    lines += [f"  {n.what}: {n.why}; fetch it: `{n.fix}`" for n in missing]
    lines.append(f"  or all at once: `{download_command(config, target)}`")
    return MissingDependencyError("\n".join(lines))


def check_needs(config, target: str) -> list[Need]:
    """Raise :func:`missing_error` for every model the run cannot go without that is neither here
    nor fetchable; else return the needs."""
    needs = run_needs(config, target)
    missing = [n for n in needs if n.where is None and n.required]
    if missing:
        raise missing_error(missing, config, target)
    return needs


#: what ``sit run`` uses instead of an optional part it cannot have (``auto``'s fallbacks)
FALLBACK = {"mlm": "sit run perturbs with WordNet instead (--perturber auto)",
            "parser": "sit run parses with the installed spaCy pipeline instead (--parser auto)"}


@dataclass(frozen=True)
class Fetched:
    """A piece :func:`download` made sure of: the need, and where its files are (``path`` empty:
    not fetched, since it cannot be and the run does without it, :data:`FALLBACK`)."""

    need: Need
    path: str
    fetched: bool  # False: it was here already

    def to_dict(self) -> dict[str, Any]:
        return {"need": self.need.to_dict(), "path": self.path, "fetched": self.fetched}


def _hf_location(model: str) -> str:
    from .hub import hf_cached_file

    if Path(model).expanduser().is_dir():
        return str(Path(model).expanduser())
    config = hf_cached_file(model, "config.json")
    return str(Path(config).parent) if config else model


def _fetch(need: Need, config, target: str) -> str:
    """Load ``need`` the way a run does (which downloads what is missing); where it is."""
    if need.part == "translator":
        from .translators import TRANSLATORS

        translator = TRANSLATORS.create(config.translator, source_lang=config.source_lang, target_lang=target,
                                        model=config.model, device="cpu")
        translator.load()
        return _hf_location(str(translator.model))
    if need.part == "mlm":
        from .perturb.mlm import MaskedLMPerturber

        MaskedLMPerturber(model=config.mlm_model, device="cpu").load()
        return _hf_location(config.mlm_model)
    from .parse.stanza_parser import download_stanza, stanza_dir, stanza_models_present

    if stanza_models_present(target, config.parser_model):
        return str(stanza_dir(config.parser_model, target))
    return str(download_stanza(target, config.parser_model))


def download(config, target: str, only: tuple[str, ...] = PARTS, on_done=None) -> list[Fetched]:
    """``sit download``: fetch every model a run of ``config`` needs (``only`` these parts) that is
    not here; :class:`MissingDependencyError` first, naming each, where some cannot be fetched.
    ``on_done(fetched)`` hears of each piece as it is done."""
    needs = run_needs(config, target, only)
    nowhere = [n for n in needs if n.where is None and n.required]
    if nowhere:
        raise missing_error(nowhere, config, target)
    out = []
    for need in needs:
        # what a run does without (auto: WordNet for the masked LM, spaCy for Stanza), sit download does too
        done = (Fetched(need, "", False) if need.where is None else
                Fetched(need, _fetch(need, config, target), need.where != "local"))
        out.append(done)
        if on_done is not None:
            on_done(done)
    return out
