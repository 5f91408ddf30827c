"""``sit run``: structure-invariant testing of a translator, end to end."""

from __future__ import annotations

import argparse
import re
import sys

from .. import hints
from ..relations import DEFAULT_RELATIONS


#: the exit status of ``--cases --fail-on`` when more findings failed an exported case again than allowed (as sit check's)
EXIT_FAILED_AGAIN = 7

EXIT_STATUS = """exit status:
  0    the run finished; every text was translated
  2    bad input or options
  3    a missing dependency, model or credentials
  4    the cache or the run directory cannot be read or written
  5    a translator failed before the run could write its reports
  6    the run finished but left texts untranslated: the reports are written, the error is
       printed; run the same command again to resume (only the missing texts are sent)
  7    --cases with --fail-on: more findings failed an exported case again than allowed (the run is
       written first)
  130  interrupted (what was finished is kept in the cache)"""


class RunHelp(argparse.RawDescriptionHelpFormatter):
    """``sit run --help``: ``--set`` lists the run-wide options the components declare (sit's and
    the plugins'), read from their declarations when the help is shown (:func:`run_wide_lines`)."""

    def _get_help_string(self, action):
        text = super()._get_help_string(action)
        if "--set" not in action.option_strings:
            return text
        return f"{text}. Declared: " + "; ".join(line.replace("%", "%%") for line in run_wide_lines())


def declared_settings() -> dict[str, tuple]:
    """:attr:`sit.options.Option.key` -> (its first declaration, the components that declare it)
    of each run-wide option a component declares (:attr:`sit.options.Option.run_wide`), sit's
    and the plugins': what ``--set`` takes, and the flags they name (:func:`_setting_flags`)."""
    from ..errors import SitError
    from ..options import run_wide
    from ..perturb import PERTURBERS
    from ..relations import RELATIONS
    from ..translators import TRANSLATORS

    found: dict[str, tuple] = {}
    for registry in (RELATIONS, PERTURBERS, TRANSLATORS):
        for name in registry.names():
            try:
                specs = run_wide(registry.get(name), frozenset({"ctx"}))
            except SitError:  # a plugin that does not load here: `sit list` says why
                continue
            for spec in specs:
                found.setdefault(spec.key, (spec, []))[1].append(name)
    return found


def run_wide_lines() -> list[str]:
    """Each run-wide option a component declares, once by its name, with the components that take
    it (:func:`declared_settings`)."""
    from ..options import described

    return [f"{described(spec).replace(spec.name + ' (', spec.key + ' (', 1)} [{', '.join(owners)}]"
            for key, (spec, owners) in sorted(declared_settings().items())]


#: where the flag of a component's run-wide option puts its value (``args.setting_<key>``)
SETTING_DEST = "setting_"


def _metavar(flag: str) -> str:
    return flag.lstrip("-").upper().replace("-", "_")


def _setting_flags(p) -> None:
    """A flag for each run-wide option a component declares with one (:attr:`sit.options.Option.flag`:
    sit's ``--distance``, ``--num-perturb``, a plugin's own), its help the declaration's; a flag
    that is malformed or taken already is left out (``--set KEY=VALUE`` sets it all the same)."""
    for key, (spec, _owners) in sorted(declared_settings().items()):
        if not spec.flag or not re.fullmatch(r"--[a-z0-9][a-z0-9-]*", spec.flag):
            continue
        how = ({"action": argparse.BooleanOptionalAction} if spec.type is bool else {"metavar": _metavar(spec.flag)})
        how.update(_typed(spec))
        try:
            p.add_argument(spec.flag, dest=SETTING_DEST + key, help=spec.help.replace("%", "%%"), **how)
        except argparse.ArgumentError:  # another option has the flag
            continue


def _run_flags(p, *names: str) -> None:
    """The flags of the run's own options ``names`` (:data:`sit.plan.RUN_OPTIONS`: their flag and
    help as declared there; their values checked by the declarations, :func:`checked_args`)."""
    from ..plan import RUN_OPTION

    for name in names:
        spec = RUN_OPTION[name]
        p.add_argument(spec.flag, dest=name, metavar=_metavar(spec.flag), help=spec.help.replace("%", "%%"),
                       **_typed(spec))


def _typed(spec) -> dict:
    """argparse's ``type`` of a number option: a value that is no number is refused as argparse
    refuses it; one that breaks the declared rule, by the declaration (:meth:`sit.options.Option.check`)."""
    return {"type": spec.type} if spec.type in (int, float) else {}


def checked_args(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with the values of the run's own options checked (and typed) by their declarations
    (:data:`sit.plan.RUN_OPTIONS`): a one-line ConfigError naming the flag, before any work."""
    from ..plan import RUN_OPTIONS

    for spec in RUN_OPTIONS:
        if getattr(args, spec.name, None) is not None:
            setattr(args, spec.name, spec.check(getattr(args, spec.name), spec.flag))
    return args


def configure(p: argparse.ArgumentParser) -> None:
    from ..ignorefile import add_option

    p.epilog = EXIT_STATUS
    p.formatter_class = RunHelp
    src = p.add_mutually_exclusive_group()
    src.add_argument("--dataset", help="a bundled corpus: politics or business (see `sit list`)")
    src.add_argument("--input", metavar="FILE", help="UTF-8 text, one English sentence per line")
    src.add_argument("--cases", metavar="CASES", help="run exactly the test cases of a file `sit export` wrote (a "
                     "regression suite), with their relations and options; the run says which still fail "
                     "(regression.jsonl)")
    p.add_argument("--fail-on", metavar="GROUPS[:N]",
                   help="with --cases: exit 7 when more than N (default 0) findings fail an exported case again, "
                        "in GROUPS: any, a relation (sit) or a group (language.copied), comma-separated (as in sit check)")
    add_option(p, "findings suppressed there (`sit mark RUN ID --as not_bug` writes them) are left out of the run "
                  "directory, its reports and --cases --fail-on")
    _systems_options(p)
    p.add_argument("--model", help="translator model: a MarianMT/NLLB/M2M100 directory or hub id (default "
                   "Helsinki-NLP/opus-mt-en-zh for marian), a CTranslate2 model directory, the chat model "
                   "an OpenAI-compatible endpoint serves (required for openai), or an Apertium pair such as eng-cat")
    p.add_argument("--translator-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the translator (repeatable): openai prompt=FILE, temperature=0, mode=batch, "
                        "batch_items=10; deepl formality=more; nllb/m2m100 beam_size=4; ctranslate2 "
                        "compute_type=int8, beam_size=4 (docs/translators.md)")
    p.add_argument("--source-lang", help="source language (default en)")
    p.add_argument("--target-lang", help="target language (default: es for apertium, zh for marian)")
    _case_options(p.add_argument_group("test cases (what a --baseline run takes from its base)"))
    _output_options(p.add_argument_group("input, cache and output"))
    _engine_options(p.add_argument_group("translator requests, devices and engines"))


def _case_options(p) -> None:
    """What decides a run's test cases: the perturber, the relations, the parser and the ranking."""
    from .flags import spelled
    from ..relations import RELATIONS

    spelled(p, "--perturber", "--perturbation", dest="perturber",
            help="auto (masked LM where it loads, else WordNet), mlm, wordnet, or a noise perturber "
                 "(--perturbation is the old spelling)")
    p.add_argument("--perturber-option", action="append", metavar="KEY=VALUE",
                   help="an option of the perturber, e.g. rate=0.2 or skip_entities=true (repeatable; see `sit perturb --help`)")
    p.add_argument("--relation", metavar="NAMES",
                   help=f"metamorphic relations to test, comma-separated, of: {', '.join(RELATIONS.names())} "
                        f"or all (`sit list relations` says what each tests; docs/relations.md); default {','.join(DEFAULT_RELATIONS)}. All share one translation "
                        "pass and one cache")
    p.add_argument("--relation-option", action="append", metavar="REL.KEY=VALUE",
                   help="an option of one relation, e.g. rti.compare=all-words, rti.max_words=7, "
                        "patinv.remove=false (repeatable; see docs/relations.md)")
    p.add_argument("--parser", help="auto (Stanza where its models are here or can be fetched, else an installed spaCy "
                   "pipeline), spacy, stanza")
    p.add_argument("--parser-model", help="spaCy pipeline name, or Stanza resources directory")
    _setting_flags(p)  # --mlm-model, --num-perturb, --distance, --discount-substitute: their components'
    p.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="a run-wide option of the run's components (repeatable): sit's distance, discount, num_perturb, "
                        "mlm_model, or one a plugin declares (docs/plugins.md); --distance, --discount-substitute, "
                        "--num-perturb and --mlm-model are old spellings of the first four")
    _run_flags(p, "threshold", "top_k", "seed")


def _output_options(p) -> None:
    p.add_argument("--cache-dir", help="the cache (default $SIT_CACHE_DIR, else $XDG_CACHE_HOME/sit or ~/.cache/sit; "
                   "a ./cache of earlier versions is imported)")
    p.add_argument("--out", metavar="DIR", help="run directory (default runs/<dataset>-<translator>-<time>); one "
                   "that holds another run (other settings or input) is refused unless --force")
    p.add_argument("--force", action="store_true", help="write over a run directory that holds another run")


def _engine_options(p) -> None:
    """How texts are sent and models run (the results do not depend on them)."""
    from ..engine import ENGINES

    _run_flags(p, "batch_size", "block", "qps", "timeout", "concurrency")
    p.add_argument("--device", help="device for the models (masked LM, sentence encoder, Marian/NLLB/M2M100, "
                   "CTranslate2, Stanza): cpu, cuda, cuda:N or mps (default cuda where available, else cpu)")
    _run_flags(p, "limit", "max_line_chars")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--engine", default="local", choices=ENGINES.names(),
                   help="where the model stages run: local (this process, default) or ray (a Ray cluster; "
                        f"{hints.RAY}; see docs/scale.md). The results do not depend on it")
    p.add_argument("--ray-address", help="the Ray cluster of --engine ray (default $RAY_ADDRESS, else one `ray start` ran on "
                        "this machine, else a new local instance; `local` always starts a new one)")
    _run_flags(p, "gpus_per_worker", "workers", "jobs")


def _systems_options(p: argparse.ArgumentParser) -> None:
    """--translator (one or several systems) and --baseline."""
    from ..translators import TRANSLATORS

    p.add_argument("--translator", action="append", metavar="NAME[:MODEL]",
                   help="the translator; repeat it (or give a comma list) to test several systems in one run: one run "
                        "directory per system under --out and the comparison of each with the first (compare.txt, "
                        f"compare.html); NAME:MODEL picks a model per system. {', '.join(TRANSLATORS.names())} "
                        "(apertium is the offline default; see `sit list` and docs/translators.md)")
    p.add_argument("--baseline", metavar="BASE_RUN",
                   help="run on BASE_RUN's inputs, relations and options (its run.json) with this translator and write "
                        "the comparison with BASE_RUN beside the report (compare.txt, compare.html); the options that "
                        "decide the test cases (--dataset, --relation, --perturber...) come from BASE_RUN")


def parse_relation_options(items: list[str]) -> dict[str, dict]:
    """``["rti.compare=all-words"]`` -> ``{"rti": {"compare": "all-words"}}``."""
    from ..errors import ConfigError
    from ..options import parse_key_values

    out: dict[str, dict] = {}
    for key, value in parse_key_values(items, "--relation-option").items():
        relation, dot, name = key.partition(".")
        if not dot or not relation or not name:
            raise ConfigError(f"--relation-option takes RELATION.KEY=VALUE (e.g. rti.compare=all-words), got {key!r}")
        out.setdefault(relation, {})[name] = value
    return out


#: the options that decide a run's inputs and test cases: config field -> (argument, option); where
#: not given, their values are RunConfig's defaults. With --baseline they come from the baseline's
#: run.json instead.
CASE_ARGS = {
    "dataset": ("dataset", "--dataset"),
    "input": ("input", "--input"),
    "limit": ("limit", "--limit"),
    "max_line_chars": ("max_line_chars", "--max-line-chars"),
    "source_lang": ("source_lang", "--source-lang"),
    "perturber": ("perturber", "--perturber"),
    "perturber_options": ("perturber_option", "--perturber-option"),
    "relations": ("relation", "--relation"),
    "relation_options": ("relation_option", "--relation-option"),
    "parser": ("parser", "--parser"),
    "parser_model": ("parser_model", "--parser-model"),
    "options": ("set", "--set"),
    "threshold": ("threshold", "--threshold"),
    "top_k": ("top_k", "--top-k"),
    "seed": ("seed", "--seed"),
}


def given_settings(args: argparse.Namespace) -> dict:
    """The run-wide options of the command line: their declared flags (:func:`_setting_flags`),
    then ``--set NAME=VALUE`` (a name given both ways with two values is an error)."""
    from ..errors import ConfigError
    from ..options import parse_key_values

    declared = declared_settings()
    flags = {key: declared[key][0].check(value, declared[key][0].flag)  # typed, so that --set's value compares
             for key, value in ((k[len(SETTING_DEST):], v) for k, v in vars(args).items() if k.startswith(SETTING_DEST))
             if value is not None}
    told = parse_key_values(getattr(args, "set", None) or [], "--set")
    told = {k: declared[k][0].check(v, f"--set {k}") if k in declared else v for k, v in told.items()}
    both = [k for k in told if k in flags and told[k] != flags[k]]
    if both:
        raise ConfigError(f"{_setting_flag(both[0])} and --set {both[0]} say two things; give one")
    return {**flags, **told}


def _setting_flag(key: str) -> str:
    """The flag run-wide option ``key`` is given by, as an error names it (else ``--set KEY``)."""
    spec = declared_settings().get(key, (None,))[0]
    return spec.flag if spec is not None and spec.flag else f"--set {key}"


def config_defaults() -> dict:
    """RunConfig's default of each of its fields (the dataclass's own)."""
    from dataclasses import MISSING, fields

    from ..pipeline import RunConfig

    return {f.name: f.default_factory() if f.default is MISSING else f.default for f in fields(RunConfig)}


def case_config(args: argparse.Namespace, *, source_required: bool = True) -> dict:
    """The RunConfig fields that decide the test cases: from the command line (defaults where not
    given) or, with --baseline, from BASE_RUN's run.json (then giving any of them is an error).
    ``source_required``: whether --dataset or --input must be given (``sit download`` reads none)."""
    from ..errors import ConfigError
    from ..options import parse_key_values

    given = {f: getattr(args, a) for f, (a, _o) in CASE_ARGS.items() if getattr(args, a, None) not in (None, [])}
    given.pop("options", None)
    settings = given_settings(args)
    if settings:
        given["options"] = settings
    if args.baseline and getattr(args, "cases", None):
        raise ConfigError("--cases runs the cases of its file with their own options; leave out --baseline and compare "
                          "the runs with `sit compare`")
    if args.baseline:
        if given:
            options = ", ".join([CASE_ARGS[f][1] for f in given if f != "options"]
                                + [_setting_flag(k) for k in settings])
            raise ConfigError(f"--baseline runs on BASE_RUN's inputs and options; leave out {options}")
        return baseline_config(args.baseline)
    if getattr(args, "cases", None):
        return _cases_config(args, given)
    if source_required and not given.get("dataset") and not given.get("input"):
        raise ConfigError("give the sentences to test: --dataset NAME or --input FILE (or --baseline BASE_RUN)")
    defaults = config_defaults()
    values = {f: given.get(f, defaults[f]) for f in CASE_ARGS}
    values["options"] = dict(given.get("options", {}))
    values["perturber_options"] = parse_key_values(given.get("perturber_options", []), "--perturber-option")
    values["relation_options"] = parse_relation_options(given.get("relation_options", []))
    values["relations"] = tuple(given["relations"].split(",")) if "relations" in given else tuple(defaults["relations"])
    return values


def _cases_config(args: argparse.Namespace, given: dict) -> dict:
    """The case options of ``--cases``: the file's relations and their options (where the command
    line names none), RunConfig's defaults for the rest."""
    from ..options import parse_key_values
    from ..regression import load_cases
    from ..relations import RELATIONS

    cases = load_cases(args.cases, *[n for n in (getattr(args, "max_line_chars", None),) if n])
    known = list(DEFAULT_RELATIONS) + [n for n in RELATIONS.names() if n not in DEFAULT_RELATIONS]
    in_order = tuple(sorted(cases.relations, key=lambda r: known.index(r) if r in known else len(known)))
    defaults = config_defaults()
    values = {f: given.get(f, defaults[f]) for f in CASE_ARGS}
    values["options"] = dict(given.get("options", {}))
    values["perturber_options"] = parse_key_values(given.get("perturber_options", []), "--perturber-option")
    told = parse_relation_options(given.get("relation_options", []))
    values["relations"] = tuple(given["relations"].split(",")) if "relations" in given else in_order
    values["relation_options"] = {name: {**cases.relation_options.get(name, {}), **told.get(name, {})}
                                  for name in values["relations"] if cases.relation_options.get(name) or told.get(name)}
    return values


def baseline_config(path: str) -> dict:
    """The case options BASE_RUN's run.json records (``config``), and its target language."""
    from ..errors import ConfigError
    from ..plan import OLD_SETTINGS
    from ..rundir import load_run

    base = load_run(path, with_pairs=False)
    recorded = base.meta.config
    if not isinstance(recorded, dict) or not set(CASE_ARGS) - {"options"} <= set(recorded):
        raise ConfigError(f"{path}/run.json does not record the options of its run (an older sit wrote it); run it "
                          "again with this sit, or run both systems with the same options and use `sit compare`")
    values = {f: recorded[f] for f in CASE_ARGS if f != "options"}
    # a run.json of before --set records the run-wide options as fields of their own
    values["options"] = recorded.get("options", {k: recorded[k] for k in OLD_SETTINGS if k in recorded})
    if not isinstance(values["options"], dict):
        raise ConfigError(f"{path}/run.json's config.options is not a table; run the baseline again with this sit")
    for part in ("perturber", "parser"):  # what BASE's auto chose, not a fresh choice that may differ
        if values[part] == "auto" and getattr(base.signature, part) != "none":
            values[part] = getattr(base.signature, part)
    values["relations"] = tuple(values["relations"])
    values["target_lang"] = base.signature.target_lang
    return values


def systems(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """(translator, model) of each system: --translator NAME[:MODEL], repeated or comma-separated;
    --model is the model of those that name none. Default: apertium."""
    from ..errors import ConfigError

    items = [x.strip() for value in (args.translator or ["apertium"]) for x in value.split(",") if x.strip()]
    out = []
    for item in items:
        name, colon, model = item.partition(":")
        out.append((name, model if colon and model else args.model))
    if len(set(out)) < len(out):
        raise ConfigError(f"--translator names a system twice ({', '.join(items)}); give each once")
    return out


def config_from_args(args: argparse.Namespace, *, source_required: bool = True):
    """The :class:`sit.pipeline.RunConfig` of ``sit run``'s options, for the first system
    (``sit download`` takes them too, without --dataset or --input)."""
    from ..options import parse_key_values
    from ..pipeline import RunConfig
    from .flags import progress_bars

    from ..plan import RUN_OPTIONS

    values = case_config(checked_args(args), source_required=source_required)
    recorded = values.pop("target_lang", None)  # --baseline: the baseline's
    target = recorded if args.target_lang is None else args.target_lang  # "" is refused by the run, not dropped
    translator, model = systems(args)[0]
    # the run's own options that decide no test case (those that do are in values), where given
    engine = {s.name: getattr(args, s.name) for s in RUN_OPTIONS
              if s.name not in CASE_ARGS and getattr(args, s.name, None) is not None}
    return RunConfig(
        translator=translator, model=model,
        translator_options=parse_key_values(args.translator_option, "--translator-option"),
        target_lang=target, cache_dir=args.cache_dir, device=args.device, progress=progress_bars(args.no_progress),
        engine=args.engine, ray_address=args.ray_address, force=args.force, cases=getattr(args, "cases", None),
        ignore_file=getattr(args, "ignore_file", "") or None,
        **engine, **values,
    )


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..pipeline import run as run_pipeline

    fail_on = _fail_on(args)
    config = config_from_args(args)
    chosen = systems(args)
    outs = _outs(config, chosen, args.out)
    if len(chosen) > 1:
        config = _same_target(config, chosen)
    results, gated = [], []
    for (name, model), out in zip(chosen, outs):
        results.append(run_pipeline(replace(config, translator=name, model=model, out=out)))
        _print_summary(results[-1])
        if config.cases:
            again = _regression(config.cases, results[-1])
            gated += [f"{name}: {why}"] if fail_on and (why := fail_on(again)) else []
    _compare(args.baseline or (results[0].run_dir if len(results) > 1 else None), results, config.cache_dir)
    incomplete = [r for r in results if r.incomplete]
    if incomplete:
        from ..errors import IncompleteRunError

        raise IncompleteRunError("; ".join(f"{r.incomplete}; the reports are in {r.run_dir}" for r in incomplete))
    for why in gated:
        print(f"sit: regression: {why}", file=sys.stderr)
    return EXIT_FAILED_AGAIN if gated else 0



def _fail_on(args: argparse.Namespace):
    """``--fail-on GROUPS[:N]`` (with ``--cases`` only) as a function of the findings that fail an
    exported case again -> why the gate fails, or None; checked before any work. None without it."""
    spec = getattr(args, "fail_on", None)
    if spec is None:
        return None
    from ..check import gate
    from ..errors import ConfigError

    if not getattr(args, "cases", None):
        raise ConfigError("--fail-on gates a regression suite: give it with --cases FILE (to gate a new run against "
                          "a baseline, use `sit compare BASE NEW --fail-on new`)")
    gate([], spec)  # a bad spec is refused here
    if not getattr(args, "ignore_file", ""):
        return lambda again: gate(again, spec)
    from ..ignorefile import IgnoreFile

    suppressed = IgnoreFile.load(args.ignore_file)  # a damaged file is refused before any work
    return lambda again: gate(suppressed.split(again)[0], spec)


def _same_target(config, chosen: list[tuple[str, str | None]]):
    """Several systems translate into one language: --target-lang, else the first system's
    default (Apertium's es for ``apertium,marian:MODEL``, not MarianMT's zh); and every system's
    models are checked before the first one runs, so that none fails half-way through."""
    from dataclasses import replace

    from ..plan import plan_run
    from ..translators import TRANSLATORS

    target = config.target_lang or TRANSLATORS.get(chosen[0][0]).default_target
    config = replace(config, target_lang=target)
    for name, model in chosen:
        plan_run(replace(config, translator=name, model=model), read=False).check_needs()
    return config


def _outs(config, chosen: list[tuple[str, str | None]], out: str | None) -> list[str | None]:
    """The run directory of each system: --out itself for one system (None: the default), else
    one folder per system under --out (default runs/<input>-<A+B>-<time>), named after it."""
    import re
    from datetime import datetime
    from pathlib import Path

    if len(chosen) == 1:
        return [out]
    stem = config.dataset or (Path(config.input).stem if config.input else "input")
    root = Path(out) if out else Path("runs") / f"{stem}-{'+'.join(n for n, _ in chosen)}-{datetime.now():%Y%m%d-%H%M%S}"
    names = [name if sum(1 for n, _ in chosen if n == name) == 1 else f"{name}-{model}" for name, model in chosen]
    return [str(root / re.sub(r"[^\w.+-]+", "_", n)) for n in names]


def _compare(reference, results, cache_dir) -> None:
    """Compare each run with ``reference`` (the baseline, or the first system); write the
    comparison beside its report (compare.txt, compare.html)."""
    if reference is None:
        return
    from ..compare import compare_runs, write_comparison

    for result in results:
        if str(result.run_dir) == str(reference):
            continue
        comparison = compare_runs(reference, result.run_dir, cache_dir=cache_dir)
        written = write_comparison(comparison, result.run_dir)
        c = comparison.status_counts()
        print(f"sit: compare with {reference}: {c['new']} new, {c['fixed']} fixed, {c['persisting']} persisting, "
              f"{c['changed']} changed: {written['text']}", file=sys.stderr)


def _regression(cases_path: str, result) -> list:
    """Which exported cases still fail on this run (regression.jsonl in its directory), on stderr;
    returns the findings that fail a case again (what --fail-on counts)."""
    from ..regression import load_cases, regression_check, summary_line, write_results

    results, again = regression_check(load_cases(cases_path), result.issues)
    path = write_results(result.run_dir, results)
    print(f"sit: regression: {summary_line(results)}: {path}", file=sys.stderr)
    for r in results[:20]:
        state = "FAIL" if r["still_fails"] else "pass"
        print(f"  {state} {r['relation']} [{r['source_id']}] {'; '.join(r['bugs'])[:100]}", file=sys.stderr)
    if len(results) > 20:
        print(f"  ... {len(results) - 20} more in {path}", file=sys.stderr)
    return again


def perturber_choice(reason: str) -> str:
    """The perturber a run used and why, without its settings (``wordnet: chosen with --perturber``;
    ``wordnet: the masked LM is unavailable (...)``): the perturber's description that follows
    (``; wordnet (WordNet 3.0 ...)``, hundreds of characters) is in run.json and the reports."""
    name = reason.partition(":")[0]
    cut = reason.rfind(f"; {name} (")
    return reason[:cut] if cut > 0 else reason


def _print_summary(result) -> None:
    """What the run did, on stderr, in the words and numbers of the reports' summary
    (:mod:`sit.report.summary`); the run directory on stdout."""
    from ..report.summary import summary_text

    err = sys.stderr
    for w in result.warnings:
        print(f"sit: warning: {w}", file=err)
    print(f"sit: finished in {sum(result.timings.values()):.1f} s:", file=err)
    for line in summary_text(result.meta, indent="  "):
        print(line, file=err)
    if result.perturber_reason:  # no perturber when no relation of the run substitutes words
        print(f"sit: perturber: {perturber_choice(result.perturber_reason)}", file=err)
    if result.cache:
        print(f"sit: cache: {result.cache}", file=err)
    print(f"sit: report: {result.run_dir / 'report.html'} (also report.txt)", file=err)
    print(result.run_dir)
