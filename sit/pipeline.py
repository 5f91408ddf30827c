"""``sit run``: the stages in order — read, perturb, translate (through the cache), parse,
compare, rank, score, write the run directory. Knows no provider details."""

from __future__ import annotations

import logging
import random
import shlex
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional

from .cache import Cache
from .distance import DISTANCES, relation_diff
from .errors import ConfigError
from .inputs import MAX_LINE_CHARS, Sentences, read_sentences
from .records import Issue, Pair, RunSignature, package_versions
from .rank import rank_issues
from .rundir import check_writable, write_json_atomic, write_jsonl_atomic

log = logging.getLogger("sit.pipeline")

# what each translator translates into when --target-lang is not given
DEFAULT_TARGET = {"apertium": "es", "marian": "zh"}


@dataclass
class RunConfig:
    dataset: Optional[str] = None
    input: Optional[str] = None
    translator: str = "apertium"
    model: Optional[str] = None  # translator model (Marian path/id, Apertium pair)
    source_lang: str = "en"
    target_lang: Optional[str] = None
    perturber: str = "auto"  # auto | mlm | wordnet | any registered perturber
    mlm_model: str = "bert-base-uncased"
    num_perturb: int = 10
    perturber_options: dict[str, Any] = field(default_factory=dict)
    parser: str = "auto"
    parser_model: Optional[str] = None
    distance: str = "relation"
    threshold: float = 0.0
    top_k: int = 3
    seed: int = 0
    cache_dir: Optional[str] = None
    out: Optional[str] = None
    batch_size: Optional[int] = None
    qps: Optional[float] = None
    timeout: Optional[float] = None
    device: Optional[str] = None
    max_line_chars: int = MAX_LINE_CHARS
    limit: Optional[int] = None  # only the first N sentences
    progress: bool = True
    report_formats: tuple[str, ...] = ("text", "html")
    command: str = ""


@dataclass
class RunResult:
    run_dir: Path
    signature: RunSignature
    counts: dict[str, int]
    timings: dict[str, float]
    issues: list[Issue]
    perturber_reason: str
    warnings: list[str]
    #: why the run is incomplete (texts left untranslated), else None; in run.json's warnings
    incomplete: Optional[str] = None


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


def choose_perturber(config: RunConfig, cache: Cache):
    """Create the perturber; ``auto`` is the masked LM where it loads, else WordNet.

    Returns (perturber, reason)."""
    from .perturb import PERTURBERS

    name = config.perturber
    if name == "auto":
        from .perturb.mlm import mlm_available

        ok, why = mlm_available(config.mlm_model)
        if ok:
            name, reason = "mlm", f"mlm: {why}"
        else:
            name, reason = "wordnet", f"wordnet: the masked LM is unavailable ({why})"
    else:
        reason = f"{name}: chosen with --perturber"
    import inspect

    accepted = inspect.signature(PERTURBERS.get(name).__init__).parameters
    opts: dict[str, Any] = {}
    if name == "mlm":
        opts["model"] = config.mlm_model
    if "num_perturb" in accepted:
        opts["num_perturb"] = config.num_perturb
    if "device" in accepted and config.device:
        opts["device"] = config.device
    opts.update(config.perturber_options)
    unknown = [k for k in opts if k not in accepted and not any(p.kind == p.VAR_KEYWORD for p in accepted.values())]
    if unknown:
        raise ConfigError(
            f"the {name} perturber has no option {', '.join(map(repr, unknown))}; its options: "
            + ", ".join(k for k in accepted if k not in ("self", "cache", "progress", "kwargs"))
        )
    perturber = PERTURBERS.create(name, cache=cache, progress=config.progress, **opts)
    return perturber, f"{reason}; {perturber.describe()}"


def _default_out(config: RunConfig) -> Path:
    stem = config.dataset or (Path(config.input).stem if config.input else "input")
    return Path("runs") / f"{stem}-{config.translator}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


def run(config: RunConfig) -> RunResult:
    """Run structure-invariant testing end to end and write the run directory."""
    from .parse import choose_parser, get_parser
    from .translators import TRANSLATORS

    if config.distance not in DISTANCES:
        raise ConfigError(f"unknown distance {config.distance!r}; choose one of: {', '.join(DISTANCES)}")
    out = check_writable(config.out if config.out else _default_out(config), "--out", directory=True)
    timer = _Timer()
    warnings: list[str] = []
    cache = Cache(config.cache_dir)
    target = config.target_lang or DEFAULT_TARGET.get(config.translator, "es")

    with timer.stage("read"):
        sentences: Sentences = read_sentences(dataset=config.dataset, path=config.input, max_chars=config.max_line_chars)
        ids, texts = list(sentences.ids), list(sentences.texts)
        if config.limit:
            ids, texts = ids[: config.limit], texts[: config.limit]
        if sentences.skipped_empty:
            warnings.append(f"skipped {sentences.skipped_empty} empty line(s) of {sentences.name}")

    # Build every component before any work: missing credentials, pairs or models fail now.
    with timer.stage("setup"):
        translator = TRANSLATORS.create(
            config.translator,
            source_lang=config.source_lang,
            target_lang=target,
            model=config.model,
            cache=cache,
            batch_size=config.batch_size,
            progress=config.progress,
            qps=config.qps,
            timeout=config.timeout,
        )
        parser_name, parser_reason = choose_parser(target, config.parser, config.parser_model)
        parser = get_parser(parser_name, target, model=config.parser_model, progress=config.progress, cache=cache)
        perturber, perturber_reason = choose_perturber(config, cache)

    signature = RunSignature(
        translator=config.translator,
        translator_model=translator.model_id(),
        source_lang=config.source_lang,
        target_lang=target,
        perturber=perturber.name,
        perturber_model=perturber.model_id(),
        num_perturb=config.num_perturb,
        parser=parser_name,
        parser_model=parser.model_id(),
        distance=config.distance,
        threshold=config.threshold,
        top_k=config.top_k,
        seed=config.seed,
        perturber_options=perturber.options(),
        versions={**package_versions(), **({"engine": engine} if (engine := translator.version()) else {})},
    )

    with timer.stage("perturb"):
        rng = random.Random(config.seed)
        pairs: list[Pair] = [p for p in perturber.perturb(texts, rng, ids=ids) if p.perturbed != p.original]

    with timer.stage("translate"):
        all_texts = list(dict.fromkeys(texts + [p.perturbed for p in pairs]))
        translated = translator.translate(all_texts, strict=False)
        translation = dict(zip(all_texts, translated))
    untranslated = sum(1 for t in translated if t is None)
    # said once on the terminal (the translator logged its error when it happened), kept in full
    # in run.json's warnings for the reports
    incomplete = (f"{untranslated} of {len(all_texts)} text(s) were left untranslated by {config.translator} "
                  "(its error is above); run the same command again to resume") if untranslated else None
    untranslated_note = (f"{untranslated} of {len(all_texts)} text(s) were left untranslated "
                         f"({'; '.join(translator.stats.errors[-1:])}); run the same command again to resume")

    with timer.stage("parse"):
        done = [t for t in dict.fromkeys(translation.values()) if t is not None]
        trees = dict(zip(done, parser.parse(done)))

    with timer.stage("compare"):
        distance_fn = DISTANCES[config.distance]
        candidates = []
        for pair in pairs:
            y, y2 = translation.get(pair.original), translation.get(pair.perturbed)
            if y is None or y2 is None:
                continue
            a, b = trees[y], trees[y2]
            candidates.append(Issue(pair, y, y2, distance_fn(a, b), relation_diff(a, b)))
        issues = rank_issues(candidates, threshold=config.threshold, top_k=config.top_k)

    with timer.stage("score"):
        teapot, issues = _teapot(candidates, issues)

    counts = {
        "sentences": len(texts),
        "perturbations": len(pairs),
        "translations": len(all_texts),
        "translator_calls": translator.stats.calls,
        "translated": translator.stats.translated,
        "cache_hits": translator.stats.cache_hits,
        "untranslated": untranslated,
        "perturbation_cache_hits": perturber.cache_hits,
        "parse_cache_hits": parser.cache_hits,
        "compared": len(candidates),
        "flagged_sentences": len({i.pair.source_id for i in issues}),
        "issues": len(issues),
    }
    warnings.extend(cache.problems)
    with timer.stage("write"):
        meta = {
            "signature": signature.to_dict(),
            "signature_line": signature.format(),
            "input": sentences.name,
            "counts": counts,
            "timings": dict(timer.timings),
            "perturber_reason": perturber_reason,
            "parser_reason": parser_reason,
            "warnings": warnings + ([untranslated_note] if untranslated else []),
            "teapot": teapot,
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": config.command or " ".join(shlex.quote(a) for a in sys.argv),
        }
        out.mkdir(parents=True, exist_ok=True)
        write_jsonl_atomic(out / "pairs.jsonl", (p.to_dict() for p in pairs))
        rows = [{"source_id": sid, "role": "original", "text": text, "translation": translation.get(text)}
                for sid, text in zip(ids, texts)]
        seen = set()
        for p in pairs:
            if p.perturbed not in seen:
                seen.add(p.perturbed)
                rows.append({"source_id": p.source_id, "role": "perturbed", "text": p.perturbed,
                             "translation": translation.get(p.perturbed)})
        write_jsonl_atomic(out / "translations.jsonl", rows)
        write_jsonl_atomic(out / "issues.jsonl", (i.to_dict() for i in issues))
        write_json_atomic(out / "run.json", meta)
    with timer.stage("report"):
        from .report import write_reports

        write_reports(out, formats=config.report_formats)
    meta["timings"] = dict(timer.timings)
    write_json_atomic(out / "run.json", meta)
    translator.close()
    return RunResult(out, signature, counts, dict(timer.timings), issues, perturber_reason, warnings, incomplete)


def _teapot(candidates: list[Issue], issues: list[Issue]):
    """TEAPOT's reference-less scores: s_src (chrF of the perturbed vs the original source) and
    s_tgt (chrF of the two translations) on every compared pair; attach them to the issues."""
    from dataclasses import replace

    from .eval import reference_less_scores

    if not candidates:
        return {"n": 0, "success_rate": None}, issues
    res = reference_less_scores(
        [c.pair.original for c in candidates],
        [c.pair.perturbed for c in candidates],
        [c.original_translation for c in candidates],
        [c.perturbed_translation for c in candidates],
    )
    by_key = {
        (c.pair.source_id, c.pair.perturbed): (s, t) for c, s, t in zip(candidates, res["s_src"], res["s_tgt"])
    }
    scored = []
    for issue in issues:
        s, t = by_key[(issue.pair.source_id, issue.pair.perturbed)]
        scored.append(replace(issue, scores={**issue.scores, "s_src": s, "s_tgt": t}))
    return res["summary"], scored
