"""``sit check``: the single-translation checks on translations that already exist, with no
translator (docs/check.md). Each (source, translation) pair of a file goes through ``numbers``,
``passthrough``, ``language``, ``length`` and ``punctuation`` by itself, exactly as a ``sit run``
checks every text it translated (:mod:`sit.relations.every`), and the findings are written to a
run directory as ``sit run`` writes one (``issues.jsonl`` with ``source_id`` the 1-based line,
``run.json``, the reports).
"""

from __future__ import annotations

import shlex
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ConfigError
from ..records import Issue, RunCounts, RunSignature, package_versions
from ..runmeta import RunMeta
from ..textcheck.software import translator_note
from .files import MAX_TEXT_CHARS, Segment, read_segments

def all_checks() -> tuple[str, ...]:
    """The checks of one translation by itself, in the order they run: the relations that declare
    they can check a translation alone (:attr:`sit.relations.base.Relation.alone`)."""
    from ..relations import alone_checks

    return alone_checks()


def default_checks() -> tuple[str, ...]:
    """The checks ``sit check`` runs unless ``--checks`` names others
    (:attr:`sit.relations.base.Relation.alone_default`)."""
    from ..relations import default_alone_checks

    return default_alone_checks()


def check_needs() -> dict[str, str]:
    """Check -> the language data it needs, as each declares it (docs/check.md says the same)."""
    from ..relations import RELATIONS

    return {name: RELATIONS.get(name).info().alone_needs for name in all_checks()}


@dataclass
class CheckConfig:
    """What ``sit check`` is asked: the files, the languages, the checks and where to write."""

    source: str
    translation: Optional[str] = None
    source_lang: str = "en"
    target_lang: str = "es"
    out: Optional[str] = None
    format: str = "auto"
    checks: tuple[str, ...] = field(default_factory=default_checks)
    relation_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    cache_dir: Optional[str] = None
    force: bool = False
    report_formats: tuple[str, ...] = ("text", "html")
    command: str = ""
    #: the ignore file whose suppressions are left out (sit.ignorefile); None: none read
    ignore_file: Optional[str] = None
    #: characters in one text, at most (a longer one is refused: --max-line-chars)
    max_line_chars: int = MAX_TEXT_CHARS


@dataclass
class CheckResult:
    """What :func:`check` did: its directory, run.json's record, the findings, the warnings."""

    run_dir: Path
    meta: RunMeta
    issues: list[Issue]
    warnings: list[str]
    segments: int
    #: the findings the ignore file left out
    ignored: int = 0


def check(config: CheckConfig) -> CheckResult:
    """Read the segments of ``config``, check each translation by itself, write the run directory."""
    from ..cache import Cache
    from ..plan import plan_check
    from ..rundir import check_same_run, check_writable

    start = time.perf_counter()
    out = check_writable(config.out or _default_out(config), "--out", directory=True)
    plan = plan_check(config)
    checks, warnings = plan.names(), list(plan.warnings)
    segments = read_segments(config.source, config.translation, config.format, config.max_line_chars)
    segments = [s for s in segments if not translator_note(s.source)]  # a note to translators is no message
    if not segments:
        raise ConfigError(f"{config.source}: no segment with a source text to check; give a file with translations")
    signature = _signature(config, plan)
    source_name = str(Path(config.source).resolve())
    check_same_run(out, signature, source_name, force=config.force)
    cache = Cache(config.cache_dir)
    relations, checked = _run_checks(config, plan, segments, cache)
    issues = _file_terms(_kept_terms(relations, [i for name in checks for i in checked[name]]), segments)
    issues, ignored = _singular_counts(issues, segments, config.target_lang), []
    if config.ignore_file:
        from ..ignorefile import IgnoreFile

        issues, ignored = IgnoreFile.load(config.ignore_file).split(issues)
        if ignored:
            warnings.append(f"{len(ignored)} finding(s) left out: suppressed in {config.ignore_file}")
    counts = RunCounts(sentences=len(segments), translations=len(segments), compared=len(segments),
                       relations={name: c for name, c in _counts(relations, checked, segments).items()})
    meta = RunMeta(signature=signature, signature_line=signature.format(), input=source_name,
                   counts=counts.with_findings(issues),
                   relations_reason="; ".join(r.describe() for r in relations.values()),
                   relations_told={n: r.telling() for n, r in relations.items()},
                   warnings=tuple(warnings + cache.problems), cache=cache.describe(),
                   created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   command=config.command or " ".join(shlex.quote(a) for a in sys.argv),
                   config={"source": source_name, "translation": str(Path(config.translation).resolve())
                           if config.translation else None, "format": config.format, "checks": list(checks)},
                   timings={"check": round(time.perf_counter() - start, 4)})
    ranked = _write(out, meta, segments, issues, config.report_formats)
    return CheckResult(out, meta, ranked, warnings, len(segments), len(ignored))


def _singular_counts(issues: list[Issue], segments: Sequence[Segment], target_lang: str) -> list[Issue]:
    """``issues`` less the format specifiers a PO unit's singular translation leaves out where the
    target language uses that form for the number 1 alone (CLDR's plural rule for "one": German,
    Spanish ``i = 1 and v = 0``; not Russian's 21, 31 ..., nor French's 0 and 1): gettext allows
    "ein Byte" for "%lu byte" there, and, in any language, those it adds ("%d файл" for "one file";
    what each check may leave out or add: its
    :meth:`~sit.relations.base.Relation.without_counts`); its plural forms are checked as any message."""
    from ..relations import RELATIONS

    singular = {s.source for s in segments if s.plural == "one"}
    if not singular:
        return issues
    one_alone, out = _one_is_one(target_lang), []
    for issue in issues:
        kept = (RELATIONS.get(issue.relation).without_counts(issue, one_alone) if issue.pair.original in singular
                else issue)
        if kept is not None:
            out.append(kept)
    return out


def _file_terms(issues: list[Issue], segments: Sequence[Segment]) -> list[Issue]:
    """``issues`` less what the file's translated messages show to be its terms, kept as their
    sources write them (:func:`sit.textcheck.targetword.kept_terms`; what each check leaves out
    for them: its :meth:`~sit.relations.base.Relation.without_file_terms`)."""
    from ..relations import RELATIONS
    from ..textcheck.targetword import kept_terms

    if not issues:
        return issues
    kept = kept_terms((s.source, s.translation) for s in segments)
    return [k for i in issues if (k := RELATIONS.get(i.relation).without_file_terms(i, kept)) is not None]


def _kept_terms(relations, issues: list[Issue]) -> list[Issue]:
    """``issues`` less what a do-not-translate list keeps (each gate check's
    :meth:`sit.relations.gate.TermsCheck.without_kept`)."""
    from ..relations.gate import TermsCheck

    for relation in relations.values():
        if isinstance(relation, TermsCheck):
            issues = [kept for issue in issues if (kept := relation.without_kept(issue)) is not None]
    return issues


def _one_is_one(lang: str) -> bool:
    # whether CLDR's plural category "one" of ``lang`` holds the number 1 alone
    from babel import Locale, UnknownLocaleError

    try:
        rule = Locale.parse(lang.replace("-", "_")).plural_form.rules.get("one", "")
    except (UnknownLocaleError, ValueError):
        return False
    return bool(rule) and not any(w in rule.split() for w in ("mod", "or")) and not any(c in rule for c in "%,.")


def usable_checks(config: CheckConfig) -> tuple[tuple[str, ...], list[str]]:
    """The checks of ``config`` that the languages' data allow, and a warning for each left out,
    as the check's plan has them (:func:`sit.plan.plan_check`)."""
    from ..plan import plan_check

    plan = plan_check(config)
    return plan.names(), list(plan.warnings)


def _run_checks(config: CheckConfig, plan, segments: Sequence[Segment], cache):
    """Each check over every segment: ({name: relation}, {name: its ranked findings}). A source
    that stands on several lines with several translations is checked once per translation
    (the segments are taken in layers, each source once a layer; the singular forms of plural
    units in layers of their own)."""
    from ..relations import RunContext, create_relation
    from ..relations.every import Origin

    layers: list[list[Segment]] = []
    for part in ([s for s in segments if s.plural != "one"], [s for s in segments if s.plural == "one"]):
        # a plural unit's singular apart: its findings and its plural form's share a line, and one
        # check merges the findings of a line (sit.relations.every.merged)
        seen: dict[str, int] = {}
        start = len(layers)
        for seg in part:
            n = seen[seg.source] = seen.get(seg.source, -1) + 1
            if start + n == len(layers):
                layers.append([])
            layers[start + n].append(seg)
    checks = plan.names()
    relations, checked = _input_checks(config, plan, segments, cache)
    whole = set(checked)
    checked.update({name: [] for name in checks if name not in whole})
    for layer in layers:
        ctx = RunContext(cache, config.source_lang, config.target_lang, top_k=0, progress=False)
        ctx.origins = {s.source: Origin(s.line) for s in layer}
        translation = {s.source: s.translation for s in layer}
        for name in checks:
            if name in whole:  # a check of the whole file, done
                continue
            relation = relations.get(name) or create_relation(name, ctx, plan.options(name))
            relation.ctx = ctx
            relations[name] = relation
            checked[name].extend(relation.check([], translation).issues)
    return {name: relations[name] for name in checks}, {name: checked[name] for name in checks}


def _input_checks(config: CheckConfig, plan, segments: Sequence[Segment], cache):
    """The checks that read the whole file at once (:class:`sit.relations.gate.InputCheck`:
    consistency over its messages, a unit's codes and maxwidth), each run over every segment:
    ({name: relation}, {name: its findings})."""
    from ..relations import RELATIONS, RunContext, create_relation
    from ..relations.gate import InputCheck

    relations, checked = {}, {}
    for name in plan.names():
        if issubclass(RELATIONS.get(name), InputCheck):
            ctx = RunContext(cache, config.source_lang, config.target_lang, top_k=0, progress=False)
            relations[name] = create_relation(name, ctx, plan.options(name))
            checked[name] = list(relations[name].check_input(segments).issues)
    return relations, checked


def _counts(relations, checked, segments) -> dict:
    from ..records import RelationCounts

    return {name: RelationCounts(0, len(segments), len(found), len({i.pair.source_id for i in found}),
                                 {f"{k}_issues": sum(1 for i in found if i.kind == k) for k in r.kinds})
            for (name, r), found in zip(relations.items(), checked.values())}


def _signature(config: CheckConfig, plan) -> RunSignature:
    name = Path(config.translation or config.source).name
    return RunSignature(translator="file", translator_model=name, source_lang=config.source_lang,
                        target_lang=config.target_lang, perturber="none", perturber_model="none",
                        parser="none", parser_model="none", threshold=0.0, top_k=0, seed=0,
                        versions=package_versions(), relations={n: plan.options(n) for n in plan.names()})


def _default_out(config: CheckConfig) -> Path:
    return Path("runs") / f"check-{Path(config.source).stem}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


def _write(out: Path, meta: RunMeta, segments, issues, formats) -> list[Issue]:
    """pairs.jsonl (none: no case was made), translations.jsonl, issues.jsonl, run.json, reports."""
    from ..relations.rank import worst_first
    from ..report import write_reports
    from ..rundir import RunData, write_json_atomic, write_jsonl_atomic

    out.mkdir(parents=True, exist_ok=True)
    ranked = worst_first(issues)
    rows = [{"source_id": s.line, "role": "original", "text": s.source, "translation": s.translation}
            for s in segments]
    write_jsonl_atomic(out / "pairs.jsonl", [])
    write_jsonl_atomic(out / "translations.jsonl", rows)
    write_jsonl_atomic(out / "issues.jsonl", ({**i.to_dict(meta.sides(i.relation), meta.told(i.relation).kind),
                                               **_severity(i)} for i in ranked))
    write_json_atomic(out / "run.json", meta.to_dict())
    write_reports(RunData(out, meta, ranked, [], rows), formats=formats)
    return ranked


def _severity(issue: Issue) -> dict[str, str]:
    from ..ignorefile import issue_fingerprint
    from ..severity import severity_of

    found = severity_of(issue)
    return {"severity": found.level, "category": found.category, "fingerprint": issue_fingerprint(issue)}


def gate(issues: Sequence[Issue], spec: str) -> Optional[str]:
    """``--fail-on GROUPS[:N]``: why the gate fails (more than N findings in the named groups:
    ``any``, a check such as ``numbers``, a group such as ``language.untranslated``, or a severity,
    ``major`` counting major and critical findings; comma separated), else None."""
    from ..severity import SEVERITIES, severity_of

    names, colon, allowed = spec.rpartition(":") if ":" in spec else (spec, "", "0")
    if not names or not allowed.isdigit():
        raise ConfigError(f"--fail-on takes GROUPS or GROUPS:N (any, a check, a group such as numbers.missing, or a "
                          f"severity: {', '.join(SEVERITIES)}; comma-separated; N findings allowed), got {spec!r}")
    wanted = {n.strip() for n in names.split(",") if n.strip()}
    levels = [n for n in wanted if n in SEVERITIES]
    hits = [i for i in issues if "any" in wanted or i.relation in wanted or i.group in wanted
            or any(severity_of(i).at_least(level) for level in levels)]
    if len(hits) > int(allowed):
        return f"{len(hits)} finding(s) in {', '.join(sorted(wanted))}, more than the {allowed} --fail-on allows"
    return None


__all__ = ["CheckConfig", "CheckResult", "all_checks", "check", "check_needs", "default_checks", "gate", "usable_checks"]
