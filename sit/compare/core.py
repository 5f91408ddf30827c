"""Compare two run directories test case by test case.

A test case is matched across runs by its relation and its two source texts (:class:`CaseKey`),
never by ids. Per case and kind of finding: ``new`` (a finding in NEW only), ``fixed`` (in BASE
only), ``persisting`` (both); a case with no finding on either side is ``changed`` where a
translation of its texts differs (with TEAPOT's s_tgt between BASE's and NEW's translation) and
``unchanged`` otherwise. Runs of different inputs or relations are refused.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ConfigError, InputError
from ..records import Issue, Pair
from ..rundir import RunData, load_run
from .model import CaseKey, ClusterStatus, ComparedCase, Comparison, RunSide
from .stats import SAMPLES, count_intervals, score_deltas


def compare_runs(base: str | os.PathLike | RunData, new: str | os.PathLike | RunData, *,
                 references: Optional[str | os.PathLike] = None, cache_dir: Optional[str] = None,
                 samples: int = SAMPLES, judge=None, allow_different: bool = False) -> Comparison:
    """BASE and NEW compared case by case, with the aggregates (:mod:`sit.compare.stats`);
    ``references`` (a file, one reference translation per line of the runs' input) adds corpus
    score deltas. s_tgt scores are kept in the cache at ``cache_dir`` (sit's default cache when
    None), as a run keeps them. ``judge`` (a :class:`sit.judge.Judge`) gives every case whose
    translations changed a verdict on NEW's against BASE's (:func:`judge_cases`). Runs that built
    or judged their cases differently are refused (:func:`check_same_cases`) unless
    ``allow_different``; then the comparison warns of it."""
    base_run = base if isinstance(base, RunData) else load_run(base)
    new_run = new if isinstance(new, RunData) else load_run(new)
    # a comparison lists every case of both runs with its findings, and holds their pairs and
    # translations to do so: it holds their findings too, each issues.jsonl read once
    base_run, new_run = (replace(r, issues=list(r.issues)) for r in (base_run, new_run))
    sentences = check_comparable(base_run, new_run)
    if not allow_different:
        check_same_cases(base_run, new_run)
    base_cases, new_cases = _cases(base_run), _cases(new_run)
    if not base_cases and not new_cases:  # two `sit check` runs, which make no case: each finding is one
        base_cases = new_cases = _finding_cases([*base_run.issues, *new_run.issues])
    shared = [k for k in base_cases if k in new_cases]
    base_tr, new_tr = _translations(base_run), _translations(new_run)
    s_tgt = _s_tgt(shared, base_tr, new_tr, cache_dir)
    base_found, new_found = _findings(base_run.issues), _findings(new_run.issues)
    cases: list[ComparedCase] = []
    for key in shared:
        pair = base_cases[key]
        texts = (key.source, key.case)
        common = dict(key=key, source_id=pair.source_id, edit=pair.edit.to_dict(),
                      sides=base_run.meta.sides(key.relation),
                      base_translations=tuple(base_tr.get(t) for t in texts),
                      new_translations=tuple(new_tr.get(t) for t in texts),
                      s_tgt=tuple(s_tgt.get(t) for t in texts))
        cases.extend(_statuses(common, base_found.get(key, {}), new_found.get(key, {})))
    if judge is not None:
        cases = judge_cases(cases, judge)
    only_base, only_new = len(base_cases) - len(shared), sum(1 for k in new_cases if k not in base_cases)
    scores = _score_deltas(references, sentences, base_tr, new_tr, samples) if references else ()
    return Comparison(
        _side(base_run), _side(new_run), tuple(cases),
        count_intervals(list(sentences), base_run.issues, new_run.issues, samples=samples), scores,
        only_base, only_new, tuple(_warnings(base_run, new_run, only_base, only_new)),
        {"references": str(references) if references else None, "samples": samples,
         **({"judge": judge.name} if judge is not None else {})},
        match_clusters(base_run, new_run),
    )


def judge_cases(cases: Sequence[ComparedCase], judge) -> list[ComparedCase]:
    """``cases`` with the judge's verdict on each whose translations changed: every side (source,
    case) that both runs translated differently is judged once (a = BASE's, b = NEW's translation,
    each distinct triple once, in one batch); the case got ``worse`` where NEW's translation of a
    side is judged worse and of no side better, ``better`` the other way round, else ``tie``."""
    from dataclasses import replace

    def triples(c: ComparedCase) -> list[Optional[tuple[str, str, str]]]:
        pairs = zip((c.key.source, c.key.case), c.base_translations, c.new_translations)
        return [(t, b, n) if b is not None and n is not None and b != n else None for t, b, n in pairs]

    todo = list(dict.fromkeys(t for c in cases if c.translation_changed for t in triples(c) if t))
    verdicts = dict(zip(todo, judge.judge(todo))) if todo else {}
    out = []
    for c in cases:
        mine = [verdicts.get(t) if t else None for t in triples(c)]
        if not any(mine):
            out.append(c)
            continue
        said = {v.worse for v in mine if v is not None}
        judged = "worse" if said >= {"b"} and "a" not in said else "better" if said >= {"a"} and "b" not in said else "tie"
        out.append(replace(c, judged=judged, verdicts=tuple(v.to_dict() if v else None for v in mine)))
    return out


def match_clusters(base: RunData, new: RunData) -> tuple[ClusterStatus, ...]:
    """The root causes of both runs matched by cluster id (a hash of what the bug is): NEW's in
    its order (new or persisting), then those only BASE has (fixed); each with its mark."""
    from ..errors import InputError
    from ..report.clustermarks import load_marks
    from ..report.clusters import run_clusters

    before = {c.cluster_id: c for c in run_clusters(base)}
    after = {c.cluster_id: c for c in run_clusters(new)}
    try:
        marks = {**load_marks(base.path), **load_marks(new.path)}
    except InputError:
        marks = {}
    out = []
    for cid, c in after.items():
        old = before.get(cid)
        out.append(ClusterStatus(cid, c.title, "persisting" if old else "new", len(old.issues) if old else 0,
                                 len(c.issues), c.rank, (marks.get(cid) or {}).get("label")))
    out += [ClusterStatus(cid, c.title, "fixed", len(c.issues), 0, c.rank, (marks.get(cid) or {}).get("label"))
            for cid, c in before.items() if cid not in after]
    return tuple(out)


def _statuses(common: dict[str, Any], base: dict[str, Issue], new: dict[str, Issue]) -> list[ComparedCase]:
    """The records of one matched case: one per kind of finding in either run, or one with no
    finding (``changed`` or ``unchanged``)."""
    if not base and not new:
        changed = common["base_translations"] != common["new_translations"]
        return [ComparedCase("changed" if changed else "unchanged", kind="", **common)]
    out = []
    for kind in sorted(set(base) | set(new)):
        b, n = base.get(kind), new.get(kind)
        status = "persisting" if b and n else "new" if n else "fixed"
        out.append(ComparedCase(status, kind=kind, base=b, new=n, **common))
    return out


def check_comparable(base: RunData, new: RunData) -> dict[int, str]:
    """The source sentences both runs tested ({source id: text}); a ConfigError in one line
    saying what differs where the runs tested different inputs, languages or relations."""
    a, b = _sentences(base), _sentences(new)
    if a != b:
        diff = next((sid for sid in sorted(set(a) | set(b)) if a.get(sid) != b.get(sid)), None)
        raise ConfigError(f"BASE ({base.path}) and NEW ({new.path}) tested different inputs: {len(a)} and {len(b)} "
                          f"sentence(s) (from {base.meta.input or '?'} and {new.meta.input or '?'}), "
                          f"first difference at line {diff}; compare runs of the same input (sit run --baseline)")
    sa, sb = base.signature, new.signature
    if sa.source_lang != sb.source_lang:
        raise ConfigError(f"BASE and NEW translate from different languages ({sa.source_lang} and {sb.source_lang}); "
                          "compare runs of the same input")
    if sa.relations != sb.relations:
        what = (f"relations {'+'.join(sa.relations)} and {'+'.join(sb.relations)}"
                if set(sa.relations) != set(sb.relations) else
                "relation options " + "; ".join(f"{r}: {sa.relations[r]} and {sb.relations[r]}"
                                                for r in sa.relations if sa.relations[r] != sb.relations[r]))
        raise ConfigError(f"BASE and NEW tested different {what}; compare runs of the same relations "
                          "(sit run --baseline BASE_RUN takes BASE's)")
    return a


#: the signature's fields that decide which test cases a run builds and how it judges them: runs
#: that differ in one compare unlike with unlike (the translator is what a comparison may change;
#: the relations and their options, the sit relation's ``distance`` among them, must be the same:
#: :func:`check_inputs`)
CASE_FIELDS = ("perturber", "perturber_model", "perturber_options", "seed", "parser", "parser_model",
               "threshold", "top_k")


def check_same_cases(base: RunData, new: RunData) -> None:
    """A ConfigError naming each of :data:`CASE_FIELDS` in which BASE and NEW differ, and the
    test cases only one of them has, where any do."""
    sa, sb = base.signature, new.signature
    differ = [f"{f} ({getattr(sa, f)} and {getattr(sb, f)})" for f in CASE_FIELDS if getattr(sa, f) != getattr(sb, f)]
    if not differ:
        return
    a, b = set(_cases(base)), set(_cases(new))
    raise ConfigError(f"BASE and NEW are not comparable: they differ in {', '.join(differ)}, so "
                      f"{len(a - b)} test case(s) are only in BASE and {len(b - a)} only in NEW; run NEW with "
                      "`sit run --baseline BASE_RUN`, which takes BASE's choices, or pass --allow-different")


def _sentences(run: RunData) -> dict[int, str]:
    """{source id: sentence} of a run (its translations.jsonl's originals)."""
    return {int(t["source_id"]): t["text"] for t in run.translations if t.get("role") == "original"}


def _cases(run: RunData) -> dict[CaseKey, Pair]:
    """The run's test cases by key (the first where a relation built one twice)."""
    out: dict[CaseKey, Pair] = {}
    for p in run.pairs:
        out.setdefault(CaseKey(p.relation, p.original, p.perturbed), p)
    return out


def _finding_cases(issues: Sequence[Issue]) -> dict[CaseKey, Pair]:
    """The cases of runs that built none (``sit check``'s): each text with a finding in either run."""
    out: dict[CaseKey, Pair] = {}
    for i in issues:
        out.setdefault(CaseKey(i.relation, i.pair.original, i.pair.perturbed), i.pair)
    return out


def _translations(run: RunData) -> dict[str, Optional[str]]:
    return {t["text"]: t.get("translation") for t in run.translations}


def _findings(issues: Sequence[Issue]) -> dict[CaseKey, dict[str, Issue]]:
    out: dict[CaseKey, dict[str, Issue]] = {}
    for i in issues:
        out.setdefault(CaseKey(i.relation, i.pair.original, i.pair.perturbed), {}).setdefault(i.kind, i)
    return out


def _s_tgt(keys: Sequence[CaseKey], base: dict, new: dict, cache_dir: Optional[str]) -> dict[str, float]:
    """{text: chrF of NEW's translation against BASE's} for every text of ``keys`` that both runs
    translated, scored once each through the cache (1.0 where the translations are the same)."""
    from ..cache import Cache
    from ..eval import pair_scores

    texts = list(dict.fromkeys(t for k in keys for t in (k.source, k.case)))
    both = [t for t in texts if base.get(t) is not None and new.get(t) is not None]
    differ = [t for t in both if base[t] != new[t]]
    scores = pair_scores("chrf", [new[t] for t in differ], [base[t] for t in differ], cache=Cache(cache_dir)) \
        if differ else []
    return {**{t: 1.0 for t in both}, **dict(zip(differ, scores))}


def _score_deltas(path, sentences: dict[int, str], base: dict, new: dict, samples: int):
    """Corpus score deltas of the source sentences' translations against the references in
    ``path`` (line N is the reference of the input's line N)."""
    from ..inputs import decode_lines, read_file

    lines = decode_lines(read_file(path, "references"), str(path))
    ids = sorted(sentences)
    if len(lines) < ids[-1]:
        raise InputError(f"references {path} has {len(lines)} line(s), but the runs tested line {ids[-1]} of their "
                         "input; give one reference per input line")
    kept = [sid for sid in ids if base.get(sentences[sid]) is not None and new.get(sentences[sid]) is not None]
    if not kept:
        raise InputError("neither run translated any source sentence; nothing to score against the references")
    return score_deltas([base[sentences[s]] for s in kept], [new[sentences[s]] for s in kept],
                        [lines[s - 1] for s in kept], samples=samples)


def _side(run: RunData) -> RunSide:
    return RunSide(str(Path(run.path)), run.meta.signature.to_dict(), run.meta.signature_line or
                   run.signature.format(), len(_sentences(run)))


def _warnings(base: RunData, new: RunData, only_base: int, only_new: int) -> list[str]:
    out = []
    k = max(base.signature.top_k, new.signature.top_k)
    if k:
        out.append(f"the runs keep the top {k} finding(s) per sentence (--top-k {k}): a finding ranked out in one run "
                   "only shows as new or fixed; run both with --top-k 0 for exact statuses")
    sa, sb = base.signature, new.signature
    for field_name in ("threshold", "top_k"):
        if getattr(sa, field_name) != getattr(sb, field_name):
            out.append(f"BASE and NEW differ in {field_name} ({getattr(sa, field_name)} and {getattr(sb, field_name)}): "
                       "findings are judged differently")
    if only_base or only_new:
        out.append(f"{only_base} test case(s) only in BASE and {only_new} only in NEW (a different perturber, seed or "
                   "sit version) are left out; sit run --baseline BASE_RUN builds the same cases")
    return out
