"""``sit run``: structure-invariant testing of a translator, end to end."""

from __future__ import annotations

import argparse
import sys

from ..inputs import MAX_LINE_CHARS


EXIT_STATUS = """exit status:
  0    the run finished; every text was translated
  2    bad input or options
  3    a missing dependency, model or credentials
  4    the cache or the run directory cannot be read or written
  5    a translator failed before the run could write its reports
  6    the run finished but left texts untranslated: the reports are written, the error is
       printed; run the same command again to resume (only the missing texts are sent)
  130  interrupted (what was finished is kept in the cache)"""


def configure(p: argparse.ArgumentParser, *, source_required: bool = True) -> None:
    p.epilog = EXIT_STATUS
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    src = p.add_mutually_exclusive_group(required=source_required)
    src.add_argument("--dataset", help="a bundled corpus: politics or business (see `sit list`)")
    src.add_argument("--input", metavar="FILE", help="UTF-8 text, one English sentence per line")
    p.add_argument("--translator", default="apertium",
                   help="apertium (offline default), marian, nllb, m2m100, ctranslate2, openai, deepl, google, "
                        "bing, baidu, youdao (see `sit list` and docs/translators.md)")
    p.add_argument("--model", help="translator model: a MarianMT/NLLB/M2M100 directory or hub id (default "
                   "Helsinki-NLP/opus-mt-en-zh for marian), a CTranslate2 model directory, the chat model "
                   "an OpenAI-compatible endpoint serves (required for openai), or an Apertium pair such as eng-cat")
    p.add_argument("--translator-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the translator (repeatable): openai prompt=FILE, temperature=0, mode=batch, "
                        "batch_items=10; deepl formality=more; nllb/m2m100 beam_size=4; ctranslate2 "
                        "compute_type=int8, beam_size=4 (docs/translators.md)")
    p.add_argument("--source-lang", default="en", help="source language (default en)")
    p.add_argument("--target-lang", help="target language (default: es for apertium, zh for marian)")
    p.add_argument("--perturber", default="auto",
                   help="auto (masked LM where it loads, else WordNet), mlm, wordnet, or a noise perturber")
    p.add_argument("--mlm-model", default="bert-base-uncased",
                   help="masked LM for --perturber mlm (directory or hub id; the SIT paper used bert-large-uncased)")
    p.add_argument("--num-perturb", type=int, default=10,
                   help="replacements proposed per word (mlm, wordnet) or variants per sentence (noise perturbers); default 10")
    p.add_argument("--perturber-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the perturber, e.g. rate=0.2 or skip_entities=true (repeatable; see `sit perturb --help`)")
    p.add_argument("--relation", default="sit", metavar="NAMES",
                   help="metamorphic relations to test, comma-separated: sit (structure under a similar word), "
                        "rti (a noun phrase alone vs in its container), patinv (different meaning, same "
                        "translation); default sit. All share one translation pass and one cache")
    p.add_argument("--relation-option", action="append", default=[], metavar="REL.KEY=VALUE",
                   help="an option of one relation, e.g. rti.compare=all-words, rti.max_words=7, "
                        "patinv.remove=false (repeatable; see docs/relations.md)")
    p.add_argument("--parser", default="auto", help="auto (Stanza where its models are here or can be fetched, else an installed spaCy "
                   "pipeline), spacy, stanza")
    p.add_argument("--parser-model", help="spaCy pipeline name, or Stanza resources directory")
    p.add_argument("--distance", default="relation", help="relation (SIT's relation-count distance) or head-relation")
    p.add_argument("--discount-substitute", action=argparse.BooleanOptionalAction, default=True,
                   help="sit: leave out of the relation counts the arcs of the tokens the two translations "
                        "replaced one-for-one (the translated substitute), so a parser labelling just the new "
                        "word differently is no structure change (default); --no-discount-substitute counts "
                        "every arc, as the SIT paper does")
    p.add_argument("--threshold", type=float, default=0.0, help="report pairs with distance above this (default 0)")
    p.add_argument("--top-k", type=int, default=3, help="issues kept per source sentence (default 3; 0 keeps all)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random perturbers (default 0)")
    p.add_argument("--cache-dir", help="translation cache (default $SIT_CACHE_DIR or ./cache)")
    p.add_argument("--out", help="run directory (default runs/<dataset>-<translator>-<time>)")
    p.add_argument("--batch-size", type=int, help="texts per translator call")
    p.add_argument("--qps", type=float, help="at most this many requests per second (cloud translators)")
    p.add_argument("--timeout", type=float, help="seconds per translator request")
    p.add_argument("--concurrency", type=int, help="requests in flight at once, under the --qps limit "
                   "(network translators; default 1)")
    p.add_argument("--device", help="device for the models (masked LM, sentence encoder, Marian/NLLB/M2M100, "
                   "CTranslate2, Stanza): cpu, cuda, cuda:N or mps (default cuda where available, else cpu)")
    p.add_argument("--limit", type=int, help="test only the first N sentences")
    p.add_argument("--max-line-chars", type=int, default=MAX_LINE_CHARS,
                   help=f"refuse input lines longer than this (default {MAX_LINE_CHARS})")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--engine", default="local", choices=("local", "ray"),
                   help="where the model stages run: local (this process, default) or ray (a Ray cluster; "
                        'pip install "sit-mt[ray]"; see docs/scale.md). The results do not depend on it')
    p.add_argument("--ray-address", help="the Ray cluster of --engine ray (default $RAY_ADDRESS, else one `ray start` ran on "
                        "this machine, else a new local instance; `local` always starts a new one)")
    p.add_argument("--gpus-per-worker", type=float, default=0.0,
                   help="--engine ray: GPUs of each worker of a model stage (masked LM, Marian, Stanza); default 0")
    p.add_argument("--workers", type=int, help="--engine ray: workers per stage (default: what the cluster holds)")
    p.add_argument("--jobs", type=int, help="--engine local: with 2 or more, translation runs beside the perturber, "
                        "batch by batch (default: the machine's cores; 1 runs the stages one after the other)")


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


def config_from_args(args: argparse.Namespace):
    """The :class:`sit.pipeline.RunConfig` of ``sit run``'s options (``sit download`` takes them too)."""
    from ..options import parse_key_values
    from ..pipeline import RunConfig

    return RunConfig(
        dataset=args.dataset,
        input=args.input,
        translator=args.translator,
        model=args.model,
        source_lang=args.source_lang,
        target_lang=args.target_lang,
        perturber=args.perturber,
        mlm_model=args.mlm_model,
        num_perturb=args.num_perturb,
        perturber_options=parse_key_values(args.perturber_option, "--perturber-option"),
        translator_options=parse_key_values(args.translator_option, "--translator-option"),
        relations=tuple(args.relation.split(",")),
        relation_options=parse_relation_options(args.relation_option),
        parser=args.parser,
        parser_model=args.parser_model,
        distance=args.distance,
        discount=args.discount_substitute,
        threshold=args.threshold,
        top_k=args.top_k,
        seed=args.seed,
        cache_dir=args.cache_dir,
        out=args.out,
        batch_size=args.batch_size,
        qps=args.qps,
        timeout=args.timeout,
        concurrency=args.concurrency,
        device=args.device,
        limit=args.limit,
        max_line_chars=args.max_line_chars,
        progress=not args.no_progress and sys.stderr.isatty(),
        engine=args.engine,
        ray_address=args.ray_address,
        gpus_per_worker=args.gpus_per_worker,
        workers=args.workers,
        jobs=args.jobs,
    )


def run(args: argparse.Namespace) -> int:
    from ..pipeline import run as run_pipeline

    result = run_pipeline(config_from_args(args))
    _print_summary(result)
    if result.incomplete:
        from ..errors import IncompleteRunError

        raise IncompleteRunError(f"{result.incomplete}; the reports are in {result.run_dir}")
    return 0


def _print_summary(result) -> None:
    """What the run did, on stderr; the run directory on stdout."""
    c = result.counts
    err = sys.stderr
    if result.perturber_reason:  # no perturber when no relation of the run substitutes words
        print(f"sit: perturber: {result.perturber_reason}", file=err)
    for w in result.warnings:
        print(f"sit: warning: {w}", file=err)
    print(
        f"sit: {c['sentences']} sentences, {c['perturbations']} perturbations, {c['translations']} texts to translate: "
        f"{c['translated']} translated in {c['translator_calls']} translator call(s), {c['cache_hits']} cache hit(s)"
        + (f", {c['untranslated']} left untranslated" if c["untranslated"] else ""),
        file=err,
    )
    for name, rc in result.relations.items():
        extra = f" (+{rc['untranslated_issues']} untranslated word(s))" if rc.get("untranslated_issues") else ""
        print(f"sit: {name}: {rc.get('cases', 0)} test case(s), {rc.get('issues', 0)} issue(s){extra} in "
              f"{rc.get('flagged_sentences', 0)} sentence(s)", file=err)
    print(f"sit: {c['issues']} issue(s) in {c['flagged_sentences']} flagged sentence(s); "
          f"{sum(result.timings.values()):.1f} s", file=err)
    print(f"sit: report: {result.run_dir / 'report.txt'}", file=err)
    print(result.run_dir)
