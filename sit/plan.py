"""A run resolved once: :func:`plan_run` turns a run's configuration (the command line, ``--set``,
the run.json of the run already in ``--out``) into one frozen :class:`RunPlan`, and everything
that acts on a run reads the plan, not the configuration:

* the pipeline builds and runs what the plan names (:func:`sit.pipeline.run`);
* ``sit download`` and the missing-model error fetch or name :attr:`RunPlan.needs`;
* the re-run check compares the plan's inputs (:class:`Inputs`) with the earlier run's.

The plan holds the relations with their checked options, the translator's options, the perturber
and parser chosen (``auto`` resolved once, honouring the choices of the run already in ``--out``,
with the reason), the run-wide values each component takes, the inputs' identity and what the run
needs that the package does not carry. :mod:`sit.models` fetches; it does not decide.
"""

from __future__ import annotations

import hashlib
import shlex
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Mapping, Optional

from .blocks import BLOCK
from .errors import ConfigError, MissingDependencyError
from .inputs import MAX_LINE_CHARS
from .options import Option
from .records import Need

#: the run-wide options that were fields of ``RunConfig`` once, with their defaults (the same
#: as their declarations': the sit relation's ``distance``/``discount``, the perturbers'
#: ``num_perturb``, the mlm perturber's ``mlm_model``): a run reads them even where no component of
#: it declares them (a relation of old that names them in ``run_options``)
OLD_SETTINGS: dict[str, Any] = {"mlm_model": "bert-base-uncased", "num_perturb": 10, "distance": "relation",
                                "discount": True}

#: the run's own options (fields of ``RunConfig``), each declared once here: the flag ``sit run``
#: and ``sit download`` take, its help, type, rule and default. The command line adds its flags from
#: these declarations and checks what they are given by them, ``RunConfig`` takes its defaults from
#: them, the plan checks a library caller's values by them (:func:`checked_numbers`) and ``sit list
#: -v`` lists them; a component's run-wide options are declared on the component
#: (:attr:`sit.options.Option.run_wide`)
RUN_OPTIONS = (
    Option("threshold", float, 0.0, "report pairs with distance above this (default 0)", flag="--threshold"),
    Option("top_k", int, 3, "issues kept per source sentence (default 3; 0 keeps all)", minimum=0, what="0 keeps all",
           flag="--top-k"),
    Option("seed", int, 0, "seed of the random perturbers (default 0)", flag="--seed"),
    Option("batch_size", int, None, "texts per translator call", minimum=1, flag="--batch-size"),
    Option("block", int, BLOCK, "sentences perturbed, translated and checked at a time where every relation of the "
           f"run allows it (default {BLOCK}): memory follows the block, not the input", minimum=1, flag="--block-size"),
    Option("qps", float, None, "at most this many requests per second (cloud translators)", above=0,
           what="requests per second", flag="--qps"),
    Option("timeout", float, None, "seconds per translator request", above=0, what="seconds per request",
           flag="--timeout"),
    Option("concurrency", int, None, "requests in flight at once, under the --qps limit (network translators; "
           "default 1)", minimum=1, what="requests in flight", flag="--concurrency"),
    Option("limit", int, None, "test only the first N sentences", minimum=1, flag="--limit"),
    Option("max_line_chars", int, MAX_LINE_CHARS, f"refuse input lines longer than this (default {MAX_LINE_CHARS})",
           minimum=1, flag="--max-line-chars"),
    Option("gpus_per_worker", float, 0.0, "--engine ray: GPUs of each worker of a model stage (masked LM, Marian, "
           "Stanza); default 0", minimum=0, flag="--gpus-per-worker"),
    Option("workers", int, None, "--engine ray: workers per stage (default: what the cluster holds)", minimum=1,
           flag="--workers"),
    Option("jobs", int, None, "--engine local: with 2 or more, translation runs beside the perturber, batch by batch "
           "(default: the machine's cores; 1 runs the stages one after the other)", minimum=1, flag="--jobs"),
)
#: :data:`RUN_OPTIONS` by name (``RunConfig``'s field)
RUN_OPTION = {spec.name: spec for spec in RUN_OPTIONS}

#: the options of a run that decide its inputs and test cases, recorded in run.json's ``config``
#: so that ``sit run --baseline`` can run another translator on the same cases
CASE_OPTIONS = ("dataset", "input", "limit", "max_line_chars", "source_lang", "perturber", "perturber_options",
                "relations", "relation_options", "parser", "parser_model", "options", "threshold", "top_k", "seed")


def case_options(config) -> dict[str, Any]:
    """``config``'s :data:`CASE_OPTIONS` as JSON (the input file's path made absolute)."""
    out = {name: getattr(config, name) for name in CASE_OPTIONS}
    out["relations"] = list(config.relations)
    out["options"] = {**{key: config.setting(key) for key in OLD_SETTINGS}, **config.options}
    if config.input:
        out["input"] = str(Path(config.input).resolve())
    return out


#: where a choice kept from the run already in --out is said to come from
KEPT = "auto's choice for the run already in --out (its run.json), kept so that this run matches it"


@dataclass(frozen=True)
class Choice:
    """A component chosen for the run (``auto`` resolved), and why; ``name`` empty: none can be
    had, ``reason`` says why (the error the run raises where it builds the component)."""

    name: str
    reason: str


@dataclass(frozen=True)
class PlannedRelation:
    """A relation of the run and its options, checked by its declarations (the run-wide values
    it declares, then its own ``--relation-option``\\ s)."""

    name: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class CheckPlan:
    """``sit check`` resolved once (:func:`plan_check`): the checks the languages' data allow, in
    the order they run, each with its options (those it declares for ``sit check``, under the
    user's; checked as it is built), and a warning for each check left out."""

    checks: tuple[PlannedRelation, ...]
    warnings: tuple[str, ...]

    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.checks)

    def options(self, name: str) -> dict[str, Any]:
        return dict(next(c.options for c in self.checks if c.name == name))


@dataclass(frozen=True)
class Inputs:
    """The sentences a run tests and their identity: where they come from (a file, a bundled
    corpus, a cases file), ``--limit`` and a digest of the sentences themselves, so that a re-run
    into the same ``--out`` on other sentences is told apart (:meth:`differences`)."""

    name: str
    limit: Optional[int]
    digest: str
    ids: tuple[int, ...] = ()
    texts: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    given: Any = None  # the cases of ``--cases`` (:mod:`sit.regression`), else None

    def identity(self) -> dict[str, Any]:
        """What run.json records of the inputs (``inputs``)."""
        return {"name": self.name, "limit": self.limit, "sentences": len(self.ids), "digest": self.digest}

    def differences(self, recorded: Mapping[str, Any], name: str) -> list[str]:
        """``field: OLD there, NEW now`` of each part of the identity that differs from
        ``recorded`` (an earlier run.json's ``inputs``; ``name``: its input, for a run.json of
        before ``inputs``, which is compared by name and ``--limit`` only)."""
        now = self.identity()
        then = dict(recorded) if recorded else {"name": name}
        out = []
        for key in ("name", "limit", "sentences", "digest"):
            if key in then and then[key] != now[key]:
                label = {"name": "input", "digest": "input's sentences", "sentences": "input's sentence count",
                         "limit": "--limit"}[key]
                said = (lambda v: str(v)[:12]) if key == "digest" else _said
                out.append(f"{label}: {said(then[key])} there, {said(now[key])} now")
        return out


def _said(value: Any) -> str:
    return "none" if value is None else str(value)


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


@dataclass(frozen=True)
class Execution:
    """How a run's stages run, as its options say (checked): the engine and its workers, the
    device, the translator's requests, the cache, the progress bars, the block size, the report
    formats, and whether it may write over another run. The pipeline reads these here, never
    from the configuration."""

    engine: str = "local"
    ray_address: Optional[str] = None
    gpus_per_worker: float = 0.0
    workers: Optional[int] = None
    jobs: Optional[int] = None
    device: Optional[str] = None
    batch_size: Optional[int] = None
    qps: Optional[float] = None
    timeout: Optional[float] = None
    concurrency: Optional[int] = None
    progress: bool = True
    cache_dir: Optional[str] = None
    block: int = BLOCK
    report_formats: tuple[str, ...] = ("text", "html")
    force: bool = False
    #: the ignore file whose suppressions are left out of the run's findings (sit.ignorefile); None: none read
    ignore_file: Optional[str] = None

    @classmethod
    def of(cls, config) -> "Execution":
        """The execution ``config`` (a checked :class:`sit.pipeline.RunConfig`) asks for."""
        return cls(**{f.name: getattr(config, f.name) for f in fields(cls)})


@dataclass(frozen=True)
class RunPlan:
    """Everything a run will use, resolved once (:func:`plan_run`): the pipeline reads the plan,
    never the configuration.

    ``config`` is the run's configuration with its values checked, kept for what the plan itself
    says of it (the ``sit download`` command of a missing model); ``recorded`` is what run.json
    records of it (``config``: the options a ``--baseline`` run takes)."""

    config: Any  # sit.pipeline.RunConfig, checked
    out: Optional[Path]
    translator: str
    model: Optional[str]  # the translator's
    source_lang: str
    target_lang: str
    execution: Execution
    #: the ranking of the findings: distance above ``threshold``, the ``top_k`` per sentence; and
    #: the seed the random perturbers draw from
    threshold: float
    top_k: int
    seed: int
    parser_model: Optional[str]
    recorded: Mapping[str, Any]
    command: str
    translator_options: Mapping[str, Any]
    relations: tuple[PlannedRelation, ...]
    perturber: Optional[Choice]  # None: no relation of the run perturbs
    perturber_options: Mapping[str, Any]
    parser: Optional[Choice]  # None: no relation of the run parses
    needs: tuple[Planned, ...]
    inputs: Optional[Inputs]  # None: a plan without sentences (sit download)

    def needed(self, only: tuple[str, ...] = ()) -> list[Need]:
        """What the run needs, piece by piece (``only``: these parts)."""
        return [p.need for p in self.needs if not only or p.need.part in only]

    def missing(self, only: tuple[str, ...] = ()) -> list[Need]:
        """The pieces the run cannot go without that are neither here nor fetchable."""
        return [n for n in self.needed(only) if n.where is None and n.required]

    def check_needs(self, only: tuple[str, ...] = ()) -> list[Need]:
        """Raise :func:`missing_error` naming every missing piece; else the needs."""
        missing = self.missing(only)
        if missing:
            raise missing_error(missing, self.config, self.target_lang)
        return self.needed(only)

    def relation_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.relations)


def plan_run(config, out: Optional[Path] = None, *, read: bool = True) -> RunPlan:
    """``config`` (a :class:`sit.pipeline.RunConfig`) resolved once into a :class:`RunPlan` for a
    run into ``out`` (None: no run directory, as ``sit download``): its values checked (a
    ConfigError naming the option, before any work), the target language, the relations and
    their options, ``auto`` resolved (the perturber and parser the run already in ``out`` chose
    are kept where still available), the needs, and the inputs read (``read``; not without
    --dataset, --input or --cases)."""
    from .translators import TRANSLATORS, translator_options
    from .validate import check_language

    config = checked_settings(checked_numbers(config))
    for lang, option in ((config.source_lang, "--source-lang"), (config.target_lang, "--target-lang")):
        check_language(lang, option)
    target = config.target_lang or TRANSLATORS.get(config.translator).default_target
    inputs = read_inputs(config) if read and (config.dataset or config.input or config.cases) else None
    config, kept = keep_auto_choices(config, out, target) if out is not None else (config, {})
    relations = _planned_relations(config)
    uses = _uses(config, relations)
    perturber = plan_perturber(config, kept.get("perturber")) if "perturber" in uses else None
    parser = _parser_choice(config, target, kept.get("parser")) if "parser" in uses else None
    needs = tuple(_needs(config, target, relations, perturber, parser))
    if any(p.need.where is None and p.need.required for p in needs):
        parser = None  # the missing-model error is said first
    return RunPlan(config=config, out=out, translator=config.translator, model=config.model,
                   source_lang=config.source_lang, target_lang=target, execution=Execution.of(config),
                   threshold=config.threshold, top_k=config.top_k, seed=config.seed, parser_model=config.parser_model,
                   recorded=case_options(config), command=config.command,
                   translator_options=translator_options(config.translator, config.translator_options),
                   relations=relations, perturber=perturber,
                   perturber_options=perturber_options_of(config, perturber.name) if perturber else {},
                   parser=parser, needs=needs, inputs=inputs)


def checked_numbers(config):
    """``config`` with its own options checked by their declarations (:data:`RUN_OPTIONS`; strings
    parsed): a value that is not finite, not an integer where one is needed or out of range is a
    ConfigError naming the option, before any work."""
    return replace(config, **{spec.name: spec.check(getattr(config, spec.name), spec.flag) for spec in RUN_OPTIONS})


def checked_settings(config):
    """``config`` with its run-wide options (``RunConfig.options``) checked by the
    declarations of the run's components (a ConfigError naming the flag or ``--set NAME``), before
    any work; a name that no component of the run declares is refused, listing those that do (the
    old settings of :data:`OLD_SETTINGS` aside: a run without a perturber ignores --num-perturb)."""
    from .options import run_wide_of

    declared = run_wide_of(_component_classes(config), frozenset({"ctx"}))
    checked = {}
    for key, value in config.options.items():
        spec = declared.get(key)
        if spec is None and key not in OLD_SETTINGS:
            raise ConfigError(f"--set {key}: no component of this run takes a run-wide option {key!r}; its run-wide "
                              f"options: {', '.join(sorted(declared)) or 'none'}")
        checked[key] = spec.check(value, spec.flag or f"--set {key}") if spec is not None else value
    return replace(config, options=checked)


def _component_classes(config) -> list[type]:
    """The classes of the run's relations, perturber (``auto``: both it may choose) and
    translator, whose declarations say which run-wide options the run takes."""
    from .perturb import PERTURBERS
    from .relations import RELATIONS, parse_relations
    from .translators import TRANSLATORS

    perturbers = ("mlm", "wordnet") if config.perturber == "auto" else (config.perturber,)
    return ([RELATIONS.get(n) for n in parse_relations(config.relations)] + [PERTURBERS.get(n) for n in perturbers]
            + [TRANSLATORS.get(config.translator)])


def run_wide_values(config, cls: type, old: Mapping[str, str], machinery: frozenset = frozenset()) -> dict[str, Any]:
    """The run-wide options component class ``cls`` declares (:class:`sit.options.Option`,
    ``run_wide``), at their values in this run, then its ``run_options`` of old (``old``: option ->
    RunConfig field, or a run-wide setting that was one)."""
    from .options import run_wide

    values = {spec.name: config.setting(spec.key, spec.default) for spec in run_wide(cls, machinery)}
    values.update({option: getattr(config, f) if hasattr(config, f) else config.setting(f) for option, f in old.items()})
    return values


def _planned_relations(config) -> tuple[PlannedRelation, ...]:
    """The run's relations, each with its options checked by its declarations: the run-wide
    options it declares (``Relation.run_options`` of old, by RunConfig field), then its own
    ``--relation-option``\\ s; an option for a relation the run does not test is refused."""
    from .options import check_given
    from .relations import RELATIONS, parse_relations, relation_options

    names = parse_relations(config.relations)
    _refuse_options_of_others(config.relation_options, names, f"which this run does not test (--relation {','.join(names)})")
    out = []
    for name in names:
        cls = RELATIONS.get(name)
        given = {**run_wide_values(config, cls, {f: f for f in cls.run_options}, frozenset({"ctx"})),
                 **config.relation_options.get(name, {})}
        out.append(PlannedRelation(name, check_given(given, relation_options(cls), f"the {name} relation")))
    return tuple(out)


def _refuse_options_of_others(relation_options: Mapping[str, Any], names, which: str) -> None:
    """A ``--relation-option`` for a relation that is not among ``names`` is a ConfigError."""
    unknown = [n for n in relation_options if n not in names]
    if unknown:
        raise ConfigError(f"--relation-option names {', '.join(unknown)}, {which}")


def plan_check(config) -> CheckPlan:
    """``config`` (a :class:`sit.check.CheckConfig`) resolved once into a :class:`CheckPlan`: its
    checks known (a ConfigError listing them), its options for checks it runs, and the checks the
    languages' data allow (as each declares: :meth:`sit.relations.base.Relation.usable`)."""
    from .relations import RELATIONS, alone_checks

    known = alone_checks()
    unknown = [c for c in config.checks if c not in known]
    if unknown or not config.checks:
        raise ConfigError(f"--checks: choose among {', '.join(known)} (got {', '.join(config.checks) or 'none'})")
    _refuse_options_of_others(config.relation_options, config.checks, "which this check does not run")
    warnings, kept = [], []
    for name in config.checks:
        cls = RELATIONS.get(name)
        why = cls.usable(config.source_lang, config.target_lang)
        if why:
            warnings.append(why)
            continue
        kept.append(PlannedRelation(name, {**cls.info().alone_options, **config.relation_options.get(name, {})}))
    return CheckPlan(tuple(kept), tuple(warnings))


def _uses(config, relations: tuple[PlannedRelation, ...]) -> set[str]:
    """What the run's relations build from the run (``perturber``, ``parser``)."""
    from .relations import RELATIONS

    return set().union(*(RELATIONS.get(r.name).uses for r in relations))


def plan_perturber(config, kept: Optional[str] = None) -> Choice:
    """The perturber: ``auto`` is the masked LM where it loads, else WordNet; ``kept``: the
    reason of a perturber chosen by the run already in --out."""
    name = config.perturber
    if name != "auto":
        return Choice(name, kept or f"{name}: chosen with --perturber")
    from .perturb.mlm import mlm_available

    ok, why = mlm_available(config.mlm_model)
    if ok:
        return Choice("mlm", f"mlm: {why}")
    return Choice("wordnet", f"wordnet: the masked LM is unavailable ({why})")


def perturber_options_of(config, name: str) -> dict[str, Any]:
    """The options to build perturber ``name`` with: the run-wide values it takes, then its
    ``--perturber-option``\\ s (checked)."""
    from .perturb import PERTURBERS
    from .perturb.options import perturber_options

    cls = PERTURBERS.get(name)
    return perturber_options(name, config.perturber_options, run_wide_values(config, cls, cls.run_options))


def _parser_choice(config, target: str, kept: Optional[str] = None) -> Choice:
    """The target-language parser (``auto``: :func:`sit.parse.choose_parser`); ``kept``: the
    reason of a parser chosen by the run already in --out."""
    from .parse import choose_parser

    try:
        name, reason = choose_parser(target, config.parser, config.parser_model, translator=config.translator)
    except MissingDependencyError as exc:  # said where the run builds its parser, after the translator's errors
        return Choice("", str(exc))
    return Choice(name, kept or reason)


def read_inputs(config) -> Inputs:
    """The sentences of the run (``--cases``: its file's; else ``--dataset``/``--input``, the
    first ``--limit``), with their identity."""
    if config.cases:
        from .regression import load_cases

        given = load_cases(config.cases, config.max_line_chars)
        return Inputs(str(Path(config.cases).resolve()), config.limit, _digest(given.ids, given.texts),
                      tuple(given.ids), tuple(given.texts), given=given)
    from .inputs import read_sentences

    sentences = read_sentences(dataset=config.dataset, path=config.input, max_chars=config.max_line_chars)
    ids, texts = list(sentences.ids), list(sentences.texts)
    if config.limit:
        ids, texts = ids[: config.limit], texts[: config.limit]
    warnings = ((f"skipped {sentences.skipped_empty} empty line(s) of {sentences.name}",)
                if sentences.skipped_empty else ())
    return Inputs(sentences.name, config.limit, _digest(ids, texts), tuple(ids), tuple(texts), warnings)


def _digest(ids, texts) -> str:
    """sha256 of the sentences (their ids and texts), as hex."""
    h = hashlib.sha256()
    for i, text in zip(ids, texts):
        h.update(f"{i}\t{text}\n".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def keep_auto_choices(config, out: Path, target: str) -> tuple[Any, dict[str, str]]:
    """``config`` with its ``auto`` perturber and parser set to what the run already in ``out``
    chose, where that is still available (not with ``--force``, which chooses afresh), and
    {part: reason} for each kept."""
    from .rerun import earlier_signature

    earlier = None if config.force else earlier_signature(out)
    if earlier is None or earlier.target_lang != target:
        return config, {}
    changes, kept = {}, {}
    for part, name in (("perturber", earlier.perturber), ("parser", earlier.parser)):
        if getattr(config, part) == "auto" and name != "none" and _still_available(part, name, config, target):
            changes[part] = name
            kept[part] = f"{name}: {KEPT}"
    return (replace(config, **changes) if changes else config), kept


def _still_available(part: str, name: str, config, target: str) -> bool:
    if part == "perturber":
        if name == "wordnet":
            return True
        from .perturb.mlm import mlm_available

        return name == "mlm" and mlm_available(config.mlm_model)[0]
    if name == "spacy":
        from .models import find_spacy_model

        return bool(find_spacy_model(target))
    from .parse.stanza_parser import stanza_fetchable, stanza_models_present

    return name == "stanza" and (stanza_models_present(target, config.parser_model) or stanza_fetchable(target)[0])


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
        args += _opt("--mlm-model", config.mlm_model, None if only else OLD_SETTINGS["mlm_model"])
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


def missing_error(missing: list[Need], config, target: str) -> MissingDependencyError:
    """One error naming every piece of ``missing``, each with the command that fetches it."""
    from .models import ABSENT

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


def _declared(component: type, config, target: str, model: Optional[str]) -> list[Planned]:
    return [Planned(need, component, config.source_lang, target, model)
            for need in component.needs(config.source_lang, target, model)]


def _as_chosen(chosen: str, first: tuple[str, list[Planned]], fallback: list[Planned]) -> list[Planned]:
    """The pieces of what ``auto`` chose (``chosen``: the plan's own choice, :func:`plan_perturber`
    or :func:`_parser_choice`; this decides nothing): the first choice's where it was chosen; else
    the fallback's, with the first's kept, not required (``sit download`` says them not fetched);
    where the fallback cannot be had either, the first choice's, required (what the error names)."""
    name, pieces = first
    if chosen == name:
        return pieces
    if all(p.need.where is not None for p in fallback):
        return [replace(p, need=replace(p.need, required=False)) for p in pieces] + fallback
    return [replace(p, need=replace(p.need, required=True)) for p in pieces]


def _perturber_needs(config, target: str, choice: Choice) -> list[Planned]:
    import importlib.util

    from .perturb import PERTURBERS

    name = config.perturber
    model = config.mlm_model if name in ("auto", "mlm") else None
    if name != "auto":
        return _declared(PERTURBERS.get(name), config, target, model)
    wordnet = _declared(PERTURBERS.get("wordnet"), config, target, None)
    if any(importlib.util.find_spec(m) is None for m in ("torch", "transformers")):
        return wordnet  # auto is WordNet without them
    return _as_chosen(choice.name, ("mlm", _declared(PERTURBERS.get("mlm"), config, target, model)), wordnet)


def _parser_needs(config, target: str, choice: Choice) -> list[Planned]:
    from .parse import PARSERS

    if config.parser != "auto":
        return _declared(PARSERS.get(config.parser), config, target, config.parser_model)
    return _as_chosen(choice.name, ("stanza", _declared(PARSERS.get("stanza"), config, target, config.parser_model)),
                      _declared(PARSERS.get("spacy"), config, target, None))


def _needs(config, target: str, relations: tuple[PlannedRelation, ...], perturber: Optional[Choice],
           parser: Optional[Choice]) -> list[Planned]:
    """Every piece the components of the run (into ``target``) declare, once each (required
    where any asks for it), with its ``sit download`` command: the perturber's and parser's as
    the plan chose them (None: the run has none)."""
    from .relations import RELATIONS
    from .translators import TRANSLATORS

    out = _declared(TRANSLATORS.get(config.translator), config, target, config.model)
    out += [p for r in relations for p in _declared(RELATIONS.get(r.name), config, target, None)]
    out += _perturber_needs(config, target, perturber) if perturber is not None else []
    out += _parser_needs(config, target, parser) if parser is not None else []
    seen: dict[tuple[str, str, str], Planned] = {}
    for p in out:
        key = (p.need.part, p.need.fetch, p.need.spec or p.need.what)
        required = p.need.required or (key in seen and seen[key].need.required)
        seen.setdefault(key, p)
        seen[key] = replace(seen[key], need=replace(seen[key].need, required=required,
                                                    fix=download_command(config, target, p.need.part)))
    return list(seen.values())
