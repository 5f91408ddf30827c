"""``sit run``: the conductor. Read the sentences, let every relation of the run build its test
cases, translate the texts of all relations once (de-duplicated, through the cache), let each
relation check its cases, write the run directory. Knows no provider or relation details."""

from __future__ import annotations

import logging
import shlex
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from .cache import Cache
from .errors import MissingDependencyError
from .plan import CASE_OPTIONS, OLD_SETTINGS, RUN_OPTION, case_options, checked_numbers, checked_settings, run_wide_values  # noqa: F401 (their old home)
from .records import Issue, RelationCounts, RunCounts, RunSignature, package_versions
from .runmeta import RunMeta
from .relations import DEFAULT_RELATIONS
from .rundir import RunData, check_same_run, check_writable, write_json_atomic

log = logging.getLogger("sit.pipeline")

@dataclass
class RunConfig:
    dataset: Optional[str] = None
    input: Optional[str] = None
    translator: str = "apertium"
    model: Optional[str] = None  # translator model (Marian path/id, Apertium pair)
    source_lang: str = "en"
    target_lang: Optional[str] = None
    perturber: str = "auto"  # auto | mlm | wordnet | any registered perturber
    perturber_options: dict[str, Any] = field(default_factory=dict)
    translator_options: dict[str, Any] = field(default_factory=dict)  # --translator-option
    parser: str = "auto"
    parser_model: Optional[str] = None
    relations: tuple[str, ...] = DEFAULT_RELATIONS
    relation_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # relation -> options
    #: the run-wide options of the run's components (``--set NAME=VALUE``; sit's ``--distance``,
    #: ``--discount-substitute``, ``--num-perturb`` and ``--mlm-model`` are old spellings that land
    #: here): name -> value, given to every component that declares it (:class:`sit.options.Option`)
    options: dict[str, Any] = field(default_factory=dict)
    # the run's own options take their defaults from their declarations (sit.plan.RUN_OPTIONS)
    threshold: float = RUN_OPTION["threshold"].default
    top_k: int = RUN_OPTION["top_k"].default
    seed: int = RUN_OPTION["seed"].default
    cache_dir: Optional[str] = None
    out: Optional[str] = None
    force: bool = False  # write over a run directory that holds another run
    batch_size: Optional[int] = None
    qps: Optional[float] = None
    timeout: Optional[float] = None
    concurrency: Optional[int] = None  # requests in flight (network translators)
    device: Optional[str] = None
    jobs: Optional[int] = None  # --engine local: threads for overlapping stages (default: the cores)
    max_line_chars: int = RUN_OPTION["max_line_chars"].default
    limit: Optional[int] = None  # only the first N sentences
    progress: bool = True
    report_formats: tuple[str, ...] = ("text", "html")
    command: str = ""
    # where the batched stages run (sit.engine); recorded in run.json, not in the signature: the
    # results do not depend on it
    engine: str = "local"
    ray_address: Optional[str] = None  # else RAY_ADDRESS, else a local Ray instance
    gpus_per_worker: float = RUN_OPTION["gpus_per_worker"].default
    workers: Optional[int] = None  # actors per stage (default: what the cluster holds)
    cases: Optional[str] = None  # a file of test cases (`sit export`): run exactly those (sit.regression)
    #: sentences checked at a time where the run's relations allow it (sit.blocks); not in the
    #: signature: the findings do not depend on it
    block: int = RUN_OPTION["block"].default
    #: the ignore file whose suppressions are left out of the run's findings (sit.ignorefile); None: none read
    ignore_file: Optional[str] = None

    def setting(self, key: str, default: Any = None) -> Any:
        """The run-wide option ``key``: as given (:attr:`options`), else its old default where it
        was a field of its own (:data:`OLD_SETTINGS`), else ``default`` (its declaration's)."""
        return self.options.get(key, OLD_SETTINGS.get(key, default))

    @property
    def mlm_model(self) -> str:
        """The mlm perturber's model (``--mlm-model``, ``--set mlm_model=``)."""
        return self.setting("mlm_model")

    @property
    def num_perturb(self) -> int:
        """Replacements or variants per sentence (``--num-perturb``, ``--set num_perturb=``)."""
        return self.setting("num_perturb")

    @property
    def distance(self) -> str:
        """The sit relation's distance (``--distance``, ``--set distance=``)."""
        return self.setting("distance")

    @property
    def discount(self) -> bool:
        """The sit relation's discount of the substitute's arcs (``--discount-substitute``)."""
        return self.setting("discount")


@dataclass
class RunResult:
    """What :func:`run` did: its directory, what run.json says of it (:attr:`meta`), its findings
    (as issues.jsonl orders them: worst first; read from it when asked, :class:`sit.rundir.IssueFile`),
    the warnings it printed and, where texts were left untranslated, why."""

    run_dir: Path
    meta: RunMeta
    issues: Sequence[Issue]
    warnings: list[str]
    #: why the run is incomplete (texts left untranslated), else None; in run.json's warnings
    incomplete: Optional[str] = None

    @property
    def signature(self) -> RunSignature:
        return self.meta.signature

    @property
    def counts(self) -> RunCounts:
        return self.meta.counts

    @property
    def relations(self) -> dict[str, RelationCounts]:
        """relation -> its counts."""
        return self.meta.counts.relations

    @property
    def timings(self) -> dict[str, float]:
        return self.meta.timings

    @property
    def perturber_reason(self) -> str:
        return self.meta.perturber_reason

    @property
    def cache(self) -> str:
        """Which cache the run used (its file; entries imported from JSONL files)."""
        return self.meta.cache


class _Timer:
    def __init__(self):
        self.timings: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings[name] = round(self.timings.get(name, 0.0) + time.perf_counter() - start, 4)


def choose_perturber(config: RunConfig, cache: Cache, kept: Optional[str] = None):
    """The perturber of a run of ``config`` (its plan's choice: ``auto`` is the masked LM where it
    loads, else WordNet; ``kept``: the reason of a perturber chosen by the run already in --out).

    Returns (perturber, reason)."""
    from .plan import perturber_options_of, plan_perturber

    choice = plan_perturber(config, kept)
    return build_perturber(choice, perturber_options_of(config, choice.name), cache, config.progress)


def build_perturber(choice, options: Mapping[str, Any], cache: Cache, progress: bool):
    """The perturber ``choice`` (:class:`sit.plan.Choice`) names, built with ``options`` (its
    plan's): (perturber, its reason and description)."""
    from .perturb import PERTURBERS

    perturber = PERTURBERS.create(choice.name, cache=cache, progress=progress, **dict(options))
    return perturber, f"{choice.reason}; {perturber.describe()}"


def _default_out(config: RunConfig) -> Path:
    stem = config.dataset or (Path(config.input).stem if config.input else "input")
    return Path("runs") / f"{stem}-{config.translator}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


def run(config: RunConfig) -> RunResult:
    """Run the relations of ``config`` over one translator end to end, the batched stages on
    ``config.engine``; write the run directory. ``config`` goes once into the run's plan
    (:func:`sit.plan.plan_run`), which is what the run executes."""
    from .engine import create_engine
    from .models import checked_device
    from .plan import plan_run

    timer = _Timer()
    checked_device(config.device)  # an unknown --device fails before any work, whichever models run
    out = check_writable(config.out if config.out else _default_out(config), "--out", directory=True)
    with timer.stage("read"):
        plan = plan_run(config, out)
    run_on = plan.execution
    engine = create_engine(run_on.engine, address=run_on.ray_address, gpus_per_worker=run_on.gpus_per_worker,
                           workers=run_on.workers, jobs=run_on.jobs)
    try:
        return execute(plan, engine, timer)
    finally:
        engine.close()


def execute(plan, engine, timer: Optional[_Timer] = None) -> RunResult:
    """Run ``plan`` (:class:`sit.plan.RunPlan`) on ``engine``: build what it names, test its
    sentences, write its run directory (the reports are the caller's: :func:`report`)."""
    run_on, out, inputs = plan.execution, plan.out, plan.inputs
    timer, warnings = timer or _Timer(), list(inputs.warnings)
    ignore = _ignore_file(run_on.ignore_file)  # a damaged file is refused before any work
    cache = Cache(run_on.cache_dir)
    with timer.stage("setup"):  # every component before any work: missing credentials, pairs or models fail now
        translator, ctx, relations = _build(plan, engine, cache)
    signature = _signature(plan, translator, ctx, relations)
    check_same_run(out, signature, inputs.name, force=run_on.force, inputs=inputs)
    from .blocks import RunRecords

    records = RunRecords(out, relations, list(inputs.texts), ignore=ignore)
    try:
        _test_blocks(timer, engine, translator, ctx, relations, list(inputs.ids), list(inputs.texts), inputs.given,
                     records, run_on.block)
        counts = _counts(records, ctx, translator)
        warnings.extend(cache.problems)
        if records.suppressed:
            warnings.append(f"{records.suppressed} finding(s) left out: suppressed in {run_on.ignore_file}")
        meta = _meta(plan, signature, inputs, counts, ctx, relations, warnings + _note(counts, translator),
                     engine, cache, records.extra)
        with timer.stage("write"):
            records.write()
            _write_meta(out, meta.with_timings(timer.timings))
    finally:
        records.close()
    incomplete = (f"{counts.untranslated} of {counts.translations} text(s) were left untranslated by "
                  f"{plan.translator} (its error is above); run the same command again to resume"
                  ) if counts.untranslated else None
    del relations, records  # written: the reports read the run directory
    ctx.release()
    data = _written(out, meta)
    with timer.stage("report"):
        from .report import write_reports

        write_reports(replace(data, meta=meta.with_timings(timer.timings)), formats=run_on.report_formats)
    meta = meta.with_timings(timer.timings)
    _write_meta(out, meta)
    translator.close()
    return RunResult(out, meta, data.issues, warnings, incomplete)


def _ignore_file(path: Optional[str]):
    """The suppressions of the ignore file at ``path`` (:class:`sit.ignorefile.IgnoreFile`), None without one."""
    if not path:
        return None
    from .ignorefile import IgnoreFile

    return IgnoreFile.load(path)


def _written(out: Path, meta: RunMeta) -> RunData:
    """The run as its reports read it: its findings left in issues.jsonl (checked once as
    :func:`sit.rundir.load_run` checks them, then read when a report asks:
    :class:`sit.rundir.IssueFile`), its translations left in translations.jsonl until a report
    asks for one."""
    from .rundir import load_run

    return replace(load_run(out, with_pairs=False, check_issues=False), meta=meta, translations=None)


def _note(counts: RunCounts, translator) -> list[str]:
    """run.json's warning on the texts left untranslated, if any."""
    if not counts.untranslated:
        return []
    return [f"{counts.untranslated} of {counts.translations} text(s) were left untranslated "
            f"({'; '.join(translator.stats.errors[-1:])}); run the same command again to resume"]


def _build(plan, engine, cache: Cache):
    """The run's translator, its RunContext and its relations, as ``plan`` names them, each
    checked as it is built."""
    from .relations import RunContext, create_relation
    from .stage import declares_needs
    from .translators import TRANSLATORS

    run_on = plan.execution
    # every model that is neither here nor fetchable, in one message; a translator that declares
    # no model (Apertium, cloud APIs) says first what it lacks (a pair, credentials)
    first = not declares_needs(TRANSLATORS.get(plan.translator))
    translator = engine.attach(_translator(plan, cache)) if first else None
    plan.check_needs()
    translator = translator or engine.attach(_translator(plan, cache))
    ctx = RunContext(cache, plan.source_lang, plan.target_lang, seed=plan.seed, top_k=plan.top_k,
                     threshold=plan.threshold, progress=run_on.progress, translator=translator,
                     make_perturber=lambda: _attached(engine, build_perturber(plan.perturber, plan.perturber_options,
                                                                              cache, run_on.progress)),
                     make_parser=lambda: _attached(engine, _parser(plan, cache)))
    return translator, ctx, [create_relation(r.name, ctx, dict(r.options)) for r in plan.relations]


def _test_blocks(timer: _Timer, engine, translator, ctx, relations, ids, texts, given, records, size: int) -> None:
    """Perturb, build every relation's cases, translate them all once and check them, a block of
    sentences at a time where the run's relations allow it (:func:`sit.blocks.block_size`), each
    block handed to ``records`` once checked. With several blocks, the perturber first makes the
    pairs of every block (into the cache: it is let go before the parser loads), then each block
    reads its pairs back, with the same seeds."""
    import random

    from .blocks import block_size, blocks

    parts = blocks(ids, texts, block_size(len(texts), relations, given is not None, size))
    ahead = len(parts) > 1 and ctx.built_perturber is not None
    if ahead:
        with timer.stage("perturb"):
            ctx.rng = random.Random(ctx.seed)
            for block_ids, block_texts in parts:
                ctx.substitutions(block_ids, block_texts)
                ctx.cases_made()
            _let_go_of_perturber(ctx)
        records.perturbation_cache_hits = ctx.built_perturber.cache_hits
        ctx.rng = random.Random(ctx.seed)  # the same seeds again, sentence by sentence
    for block_ids, block_texts in parts:
        cases, translation, checked = _test(timer, engine, translator, ctx, relations, block_ids, block_texts,
                                            given.pairs if given else None, ahead=ahead,
                                            met_before=records.met_before if len(parts) > 1 else None)
        perturber = ctx.built_perturber
        if perturber is not None and not ahead:
            records.perturbation_cache_hits = perturber.cache_hits
        with timer.stage("write"):
            records.add(block_ids, block_texts, cases, translation, checked, perturbations=ctx.perturbation_count,
                        dropped=getattr(perturber, "dropped", None) or {})
        del cases, translation, checked
        if len(parts) > 1:
            ctx.release()
            for r in relations:
                r.forget()


def _let_go_of_perturber(ctx) -> None:
    """The perturber's models let go once its pairs are made (its encoder and WordNet are not
    needed beside the parser)."""
    ctx.built_perturber.release()
    if ctx.built_perturber.computed:  # its models loaded (a re-run from the cache loads none)
        from .models import give_back_memory

        give_back_memory()  # so that the next stages' models load in the pages they freed


def _test(timer: _Timer, engine, translator, ctx, relations, ids, texts, given=None, ahead: bool = False,
          met_before=None):
    """Perturb, build every relation's cases, translate them all once, check: (cases,
    {text: translation}, {relation: Checked}). ``given`` (relation -> pairs, from a cases file):
    exactly those cases, nothing perturbed; ``ahead``: the perturber has made the pairs already
    (read back from the cache as the relations make their cases); ``met_before(texts)``: those of
    ``texts`` an earlier block of the run met (:func:`first_met`)."""
    early = None  # with a spare core, translate each batch of substitutions as the perturber finishes it
    if (engine.jobs > 1 and translator.batch_independent and not ahead
            and any(r.translates_substitutions for r in relations)):
        early = Prefetch(translator, engine, parser=ctx.built_parser[0] if ctx.built_parser else None)
    if ctx.built_perturber is not None and given is None and not ahead:
        with timer.stage("perturb"):
            ctx.substitutions(ids, texts, on_texts=early.feed if early else None)
            _let_go_of_perturber(ctx)
            if early is not None:
                early.parse_all()  # the parser loads now, beside the translate stage, not the perturber
    with timer.stage("cases"):
        cases = {r.name: r.cases(ids, texts) if given is None else list(given.get(r.name, [])) for r in relations}
        from .relations.every import merge_untranslated, text_origins

        ctx.cases_made()  # the relations hold their cases: the perturber's pairs are let go
        ctx.origins_from(lambda: text_origins(ids, texts, cases, {r.name: r.sources(cases[r.name]) for r in relations}))
    with timer.stage("translate"):
        translation = _translate(translator, texts, cases, relations, early)
        if early is not None:
            ctx.early_trees = early.parsed()
    with timer.stage("check"):
        # a translator's empty answer (kept as its answer: Translator.translate) is a finding of
        # the relations that look at every translation (length.empty); to the others it is a text
        # left untranslated, which makes no comparison
        answered = {x: (y if y or not x.strip() else None) for x, y in translation.items()}
        seen = seen_by(relations, cases, texts)
        if met_before is not None:
            seen = first_met(seen, cases, met_before(list(translation)))
        checked = {r.name: r.check(cases[r.name], seen(r, translation if r.sees_empty else answered)) for r in relations}
        merge_untranslated(checked)  # sit.untranslated and language.copied on one word: one finding
    return cases, translation, checked


def _meta(plan, signature, inputs, counts, ctx, relations, warnings, engine, cache,
          extra: Mapping[str, dict[str, Any]]) -> RunMeta:
    """What ``run.json`` says of the run (its timings are added as it is written: :func:`_write_meta`);
    ``extra``: each relation's run-level figures (:attr:`sit.relations.base.Checked.extra`)."""
    figures: dict[str, Any] = {}
    for e in extra.values():  # run-level figures of the relations (sit's "teapot")
        figures.update(e)
    return RunMeta(
        signature=signature,
        signature_line=signature.format(),
        input=inputs.name,
        inputs=inputs.identity(),
        counts=counts,
        perturber_reason=ctx.reasons.get("perturber", ""),
        parser_reason=ctx.reasons.get("parser", ""),
        relations_reason="; ".join(r.describe() for r in relations),
        relations_told={r.name: r.telling(extra[r.name]) for r in relations},
        warnings=tuple(warnings),
        engine=engine.describe(),
        cache=cache.describe(),
        created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        command=plan.command or " ".join(shlex.quote(a) for a in sys.argv),
        config=dict(plan.recorded),
        figures=figures,
    )


def _write_meta(out: Path, meta: RunMeta) -> None:
    """``run.json`` (written before the reports, which the CLI and ``sit report`` read, and again
    after them with their time)."""
    write_json_atomic(out / "run.json", meta.to_dict())


def _attached(engine, built: tuple):
    """``built`` (a stage and why it was chosen) with its stage attached to ``engine``."""
    engine.attach(built[0])
    return built


def _translator(plan, cache: Cache):
    from .translators import TRANSLATORS

    run_on = plan.execution
    return TRANSLATORS.create(
        plan.translator, source_lang=plan.source_lang, target_lang=plan.target_lang, model=plan.model,
        cache=cache, batch_size=run_on.batch_size, progress=run_on.progress, qps=run_on.qps,
        timeout=run_on.timeout, concurrency=run_on.concurrency, device=run_on.device, **plan.translator_options,
    )


def _parser(plan, cache: Cache):
    """The target-language parser the plan chose: (parser, name, why it was chosen)."""
    from .parse import get_parser

    choice, run_on = plan.parser, plan.execution
    if not choice.name:
        raise MissingDependencyError(choice.reason)
    parser = get_parser(choice.name, plan.target_lang, model=plan.parser_model, progress=run_on.progress,
                        cache=cache, device=run_on.device)
    return parser, choice.name, choice.reason


def _signature(plan, translator, ctx, relations) -> RunSignature:
    """The run's signature: a block for each component that ran, its options those it declares
    (``num_perturb`` is the perturber's, ``distance`` the sit relation's: a run of plugin
    relations alone names neither), then the run's own settings."""
    perturber = ctx.built_perturber
    parser = ctx.built_parser
    return RunSignature(
        translator=plan.translator,
        translator_model=translator.model_id(),
        source_lang=plan.source_lang,
        target_lang=plan.target_lang,
        perturber=perturber.name if perturber else "none",
        perturber_model=perturber.model_id() if perturber else "none",
        parser=parser[1] if parser else "none",
        parser_model=parser[0].model_id() if parser else "none",
        threshold=plan.threshold,
        top_k=plan.top_k,
        seed=plan.seed,
        perturber_options=perturber.options() if perturber else {},
        translator_options=translator.options(),
        versions={**package_versions(), **({"engine": engine} if (engine := translator.version()) else {}),
                  **_plugin_versions(plan.translator, perturber, parser, relations)},
        relations={r.name: r.signature() for r in relations},
    )


def _plugin_versions(translator: str, perturber, parser, relations) -> dict[str, str]:
    """``{"plugin <distribution>": version}`` of each plugin a component of the run came from
    (a plugin's upgrade then names another run, as sit's own does)."""
    from .parse import PARSERS
    from .perturb import PERTURBERS
    from .relations import RELATIONS
    from .translators import TRANSLATORS

    used = [(TRANSLATORS, translator), *((RELATIONS, r.name) for r in relations),
            *([(PERTURBERS, perturber.name)] if perturber else []), *([(PARSERS, parser[1])] if parser else [])]
    found = (registry.plugin_version(name) for registry, name in used if name in registry)
    return {f"plugin {dist}": version for dist, version in sorted(filter(None, found))}


class Prefetch:
    """Texts translated in the engine's background (:meth:`feed`, as the perturber finishes each
    batch) while the run goes on; the translate stage collects them (:meth:`results`) and
    translates only the rest. Each text is asked for once, so the translator's counts are those
    of one pass. Once the translator has left texts untranslated (bad credentials, a quota, an
    outage), nothing more is asked for, early or late, as in one pass, which stops at the first
    such error: a re-run resumes.

    With ``parser`` (the run's target-language parser), the translations are parsed there too,
    each once, batch by batch, in the background once :meth:`parse_all` is called (after the
    perturb stage, so that the parser's model loads once the perturber's models are let go, not
    beside them, while the translate stage translates the rest): :meth:`parsed` gives the trees,
    which the check stage takes instead of parsing them (``RunContext.early_trees``); a parse that
    fails here is only left to the check stage, which parses it again (and reports its error)."""

    def __init__(self, translator, engine, parser=None):
        from .parse.base import EarlyTrees

        self.translator, self.engine, self.parser = translator, engine, parser
        #: translation -> its tree, read back from the parser's cache when asked (not held)
        self.trees = EarlyTrees(parser) if parser is not None else {}
        self.sent: set[str] = set()
        self.futures: list = []
        self.parsing = None  # the background parse of the translations (parse_all)

    def feed(self, texts: list[str]) -> None:
        new = [t for t in dict.fromkeys(texts) if t not in self.sent]
        if new and not self.failed:
            self.sent.update(new)
            self.futures.append((new, self.engine.background(self._translate, new)))

    def _translate(self, texts: list[str]) -> list:
        return self.translator.translate(texts, strict=False)

    def parse_all(self) -> None:
        """Parse the translations of every batch fed so far, in the background (after the
        translations themselves: the background runs its calls in order)."""
        if self.parser is not None and self.parsing is None:
            self.parsing = self.engine.background(self._parse, [future for _, future in self.futures])

    def _parse(self, futures: list) -> None:
        for future in futures:
            todo = [t for t in dict.fromkeys(future.result()) if t and t not in self.trees]
            try:
                self.trees.parse(todo)
            except Exception as exc:  # the check stage parses these again and reports what fails
                log.debug("parsing early failed (%s); the check stage parses these translations", exc)

    def parsed(self):
        """The trees parsed early (:attr:`trees`), once the background parse is done."""
        if self.parsing is not None:
            self.parsing.result()
        return self.trees

    @property
    def failed(self) -> bool:
        """Whether the translator has left texts untranslated in this run."""
        return bool(self.translator.stats.failed)

    def results(self) -> dict[str, str]:
        """{text: translation} of every text fed that was translated (waits for the background)."""
        done: dict[str, str] = {}
        for texts, future in self.futures:
            done.update((t, out) for t, out in zip(texts, future.result()) if out is not None)
        return done


def seen_by(relations, cases, texts):
    """``seen(relation, translation)``: ``translation`` less the texts other relations translated
    only to read themselves (:meth:`~sit.relations.base.Relation.probes`) and that are no text of
    the run, so that a relation's probes never reach another relation's check."""
    probes = {r.name: set(r.probes(cases[r.name])) for r in relations}
    if not any(probes.values()):
        return lambda relation, translation: translation
    run = set(texts).union(*(r.sources(cases[r.name]) for r in relations))
    hidden = {r.name: set().union(*(p for n, p in probes.items() if n != r.name)) - run - probes[r.name]
              for r in relations}
    return lambda relation, translation: ({x: y for x, y in translation.items() if x not in hidden[relation.name]}
                                          if hidden[relation.name] else translation)


def first_met(seen, cases, before: set[str]):
    """``seen(relation, translation)`` (:func:`seen_by`) less the texts an earlier block of the run
    met (``before``), but the relation's own texts: a text by itself is checked once in a run, in
    the first block that met it, as one pass checks it once."""
    if not before:
        return seen

    def first(relation, translation):
        mine = cases[relation.name]
        own = {*relation.sources(mine), *relation.probes(mine), *(t for p in mine for t in (p.original, p.perturbed))}
        return {x: y for x, y in seen(relation, translation).items() if x in own or x not in before}

    return first


def _translate(translator, texts, cases, relations, early: Optional[Prefetch] = None) -> dict[str, Optional[str]]:
    """Translate the sentences and every relation's texts once (those ``early`` has translated
    are taken from it): {text: translation, or None where it was left untranslated}. Once the
    translator has left texts untranslated in this run (an earlier block, or ``early``), nothing
    more is asked for: a re-run resumes."""
    needed = list(texts)
    for r in relations:
        needed.extend(r.sources(cases[r.name]))
    for r in relations:
        needed.extend(r.probes(cases[r.name]))
    needed = list(dict.fromkeys(needed))
    done = early.results() if early is not None else {}
    rest = [t for t in needed if t not in done]
    if rest and not translator.stats.failed:
        done.update(zip(rest, translator.translate(rest, strict=False)))
    return {t: done.get(t) for t in needed}


def _counts(records, ctx, translator) -> RunCounts:
    """The run's counts (:class:`sit.records.RunCounts`, each defined once in docs/report.md), as
    ``records`` (:class:`sit.blocks.RunRecords`) added them up over the run's blocks."""
    totals = records.totals
    groups, flagged = records.tally()
    return RunCounts(
        sentences=records.sentence_count,
        perturbations=totals.perturbations,
        cases=totals.cases,
        translations=totals.translations,
        translator_calls=translator.stats.calls,
        translated=translator.stats.translated,
        cache_hits=translator.stats.cache_hits - totals.repeated,
        untranslated=totals.untranslated,
        empty=totals.empty,
        perturbation_cache_hits=records.perturbation_cache_hits,
        candidates_dropped=dict(totals.dropped),
        parse_cache_hits=ctx.built_parser[0].cache_hits if ctx.built_parser else 0,
        compared=sum(c.compared for c in records.relation_counts.values()),
        relations=dict(records.relation_counts),
        issues=records.issues,
        groups=groups,
        flagged_sentences=flagged,
    )
