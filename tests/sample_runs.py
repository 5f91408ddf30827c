"""Synthetic run directories, for the report's tests and its benchmark (a test fixture: it names
relations, so it lives beside the tests, not in the package).

:func:`write_sample_run` writes ``run.json``, ``pairs.jsonl``, ``translations.jsonl`` and
``issues.jsonl`` with :mod:`sit.rundir`'s writers, from real :mod:`sit.records` records, so a
report can be built without translating anything.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Optional, Sequence

from sit.records import Edit, Issue, Pair, RunCounts, RunSignature
from sit.rundir import write_json_atomic, write_jsonl_atomic
from sit.runmeta import RunMeta

_SUBJECTS = ["The minister", "The committee", "A senator", "The president", "The court", "The governor",
             "The party", "A reporter", "The council", "The mayor"]
_VERBS = ["approved", "rejected", "discussed", "announced", "criticised", "delayed", "supported", "signed"]
_OBJECTS = ["budget", "law", "treaty", "proposal", "report", "reform", "plan", "deal", "bill", "agreement"]
_ADJ = ["new", "controversial", "annual", "final", "important", "secret", "national", "local"]
_SUBST = {"budget": "plan", "law": "rule", "treaty": "pact", "proposal": "offer", "report": "study",
          "reform": "change", "plan": "scheme", "deal": "bargain", "bill": "motion", "agreement": "accord"}
_ES = {"The minister": "El ministro", "The committee": "El comité", "A senator": "Un senador",
       "The president": "El presidente", "The court": "El tribunal", "The governor": "El gobernador",
       "The party": "El partido", "A reporter": "Un periodista", "The council": "El consejo", "The mayor": "El alcalde",
       "approved": "aprobó", "rejected": "rechazó", "discussed": "discutió", "announced": "anunció",
       "criticised": "criticó", "delayed": "retrasó", "supported": "apoyó", "signed": "firmó"}
_RELATIONS = ["nsubj", "obj", "amod", "det", "obl", "case", "advmod", "conj", "cc", "nmod", "mark", "aux", "punct"]


def sample_signature(**overrides) -> RunSignature:
    fields = dict(
        translator="apertium", translator_model="eng-spa", source_lang="en", target_lang="es",
        perturber="wordnet", perturber_model="wordnet-3.0", parser="spacy",
        parser_model="es_core_news_sm", threshold=1.0, top_k=3, seed=0,
        versions={"sit": "0.1.0", "python": "3.11"},
    )
    fields.update(overrides)
    return RunSignature(**fields)


def _sentence(rng: random.Random) -> tuple[str, str, str]:
    subj, verb, adj, obj = rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_ADJ), rng.choice(_OBJECTS)
    return f"{subj} {verb} the {adj} {obj} on Monday.", f"{_ES[subj]} {_ES[verb]} el {obj} {adj} el lunes.", obj


def sample_issues(
    n_sentences: int = 20,
    issues_per_sentence: int = 3,
    seed: int = 0,
    extra: Sequence[tuple[str, str, str, str, str, str]] = (),
) -> list[Issue]:
    """Ranked issues over ``n_sentences`` generated sentences, plus ``extra`` ones given as
    ``(original, perturbed, before, after, original_translation, perturbed_translation)``."""
    rng = random.Random(seed)
    issues: list[Issue] = []
    rows = []
    for sid in range(n_sentences):
        original, translation, obj = _sentence(rng)
        for _ in range(issues_per_sentence):
            after = _SUBST[obj] if rng.random() < 0.5 else rng.choice(list(_SUBST.values()))
            rows.append((sid, original, original.replace(obj, after, 1), obj, after, translation,
                         translation.replace(f"el {obj}", f"la {after} de", 1) + rng.choice(["", " Muy bien.", " Sin embargo."])))
    for n, row in enumerate(extra):
        rows.append((n_sentences + n, *row))
    by_source: dict[int, list[Issue]] = {}
    for sid, original, perturbed, before, after, t_orig, t_pert in rows:
        start = perturbed.find(after) if after else -1
        edit = Edit(position=max(0, original[:max(start, 0)].count(" ")), before=before, after=after, perturber="wordnet",
                    char_start=start, char_end=start + len(after) if start >= 0 else -1)
        diff = {}
        for rel in rng.sample(_RELATIONS, rng.randint(1, 4)):
            a = rng.randint(0, 2)
            b = max(0, a + rng.choice([-2, -1, 1, 2]))
            if b == a:
                b = a + 1
            diff[rel] = (a, b)
        distance = float(sum(abs(b - a) for a, b in diff.values()))
        scores = {"s_src": round(rng.uniform(0.6, 1.0), 4), "s_tgt": round(rng.uniform(0.2, 1.0), 4)} if rng.random() < 0.8 else {}
        by_source.setdefault(sid, []).append(Issue(Pair(sid, original, perturbed, edit, relation="sit"), t_orig, t_pert,
                                                   distance, diff, 0, scores))
    for sid, group in sorted(by_source.items()):
        group.sort(key=lambda i: -i.distance)
        for rank, issue in enumerate(group, start=1):
            issues.append(Issue(issue.pair, issue.original_translation, issue.perturbed_translation,
                                issue.distance, issue.relation_diff, rank, issue.scores))
    return issues


def sample_relation_issues(n_sentences: int = 6, seed: int = 0) -> list[Issue]:
    """:func:`sample_issues` (``sit``) plus, on the same source sentences (so ids and ranks
    repeat across groups), two ``rti`` findings and one ``patinv`` finding per sentence and one
    ``sit.untranslated`` finding on the first."""
    issues = sample_issues(n_sentences, 2, seed=seed)
    first = {}
    for issue in issues:
        first.setdefault(issue.pair.source_id, issue)
    for sid, base in sorted(first.items()):
        original, translation = base.pair.original, base.original_translation
        words = original.rstrip(".").split()
        for rank, phrase in enumerate((" ".join(words[-4:-2]), " ".join(words[:2])), start=1):
            edit = Edit(position=0, before=phrase, after=phrase, perturber="rti", level="phrase")
            issues.append(Issue(Pair(sid, original, phrase, edit, relation="rti"), translation,
                                f"{phrase} traducido", float(3 - rank), {}, rank, evidence={"missing": ["traducido"]}))
        word = words[-4]  # the adjective
        changed = original.replace(f" {word} ", " ", 1)
        edit = Edit(position=len(words) - 4, before=word, after="", perturber="patinv-remove", level="constituent")
        issues.append(Issue(Pair(sid, original, changed, edit, relation="patinv"), translation, translation, 1.0, {}, 1,
                            evidence={"translation": translation}))
    base = first[min(first)]
    edit = Edit(position=base.pair.edit.position, before=base.pair.edit.before, after="zeppelin", perturber="wordnet")
    issues.append(Issue(Pair(base.pair.source_id, base.pair.original,
                             base.pair.original.replace(base.pair.edit.before, "zeppelin", 1), edit, relation="sit"),
                        base.original_translation, base.original_translation + " zeppelin", 1.0, {}, 1,
                        kind="untranslated", evidence={"word": "zeppelin"}))
    return issues


def write_sample_run(
    path: str | os.PathLike,
    issues: Optional[list[Issue]] = None,
    signature: Optional[RunSignature] = None,
    **meta_overrides,
) -> Path:
    """Write a run directory holding ``issues`` (default: :func:`sample_issues`)."""
    root = Path(path)
    root.mkdir(parents=True, exist_ok=True)
    issues = sample_issues() if issues is None else issues
    signature = signature or sample_signature()
    sources: dict[int, tuple[str, str]] = {}
    pairs = []
    translations = []
    for issue in issues:
        sources.setdefault(issue.pair.source_id, (issue.pair.original, issue.original_translation))
        pairs.append(issue.pair.to_dict())
        translations.append({"source_id": issue.pair.source_id, "role": "perturbed", "text": issue.pair.perturbed,
                             "translation": issue.perturbed_translation})
    translations = [{"source_id": sid, "role": "original", "text": text, "translation": tr}
                    for sid, (text, tr) in sorted(sources.items())] + translations
    flagged = len(sources)
    from sit.relations import RELATIONS

    figures = {"teapot": {"success_rate": 0.42, "n": len(pairs),
                          "s_src": {"mean": 0.83, "std": 0.07, "p5": 0.7, "p95": 0.95}}}
    told = {name: RELATIONS.get(name).telling(figures if name == "sit" else {})  # as sit's check gave them
            for name in dict.fromkeys(i.relation for i in issues)}
    meta = RunMeta(
        signature=signature,
        signature_line=signature.format(),
        counts=RunCounts(sentences=flagged + 5, perturbations=len(pairs) + 7, cases=len(pairs) + 7,
                         translations=len(translations) + 12, translated=len(translations) + 8,
                         translator_calls=3, cache_hits=4).with_findings(issues),
        timings={"perturb": 0.52, "translate": 3.25, "parse": 1.4, "rank": 0.01},
        perturber_reason="wordnet: masked LM not installed",
        relations_told=told,
        created="2024-05-01T12:00:00+00:00",
        command="sit run --dataset politics --translator apertium",
        figures=figures,
    )
    write_json_atomic(root / "run.json", {**meta.to_dict(), **meta_overrides})  # overrides: raw, old or hostile
    write_jsonl_atomic(root / "pairs.jsonl", pairs)
    write_jsonl_atomic(root / "translations.jsonl", translations)
    write_jsonl_atomic(root / "issues.jsonl", [i.to_dict(told[i.relation].sides, told[i.relation].kind)
                                               for i in issues])
    from sit.errors import SitError
    from sit.report.clusters import write_clusters
    from sit.rundir import load_run

    try:
        run = load_run(root)
    except SitError:  # a run.json made damaged on purpose: no clusters, as no run wrote it
        return root
    write_clusters(run)  # as a run writes them, by its relations' declarations
    return root


# Inputs that try to break out of the page: markup, quotes, entities, script end tags, bidi
# controls, very long unbroken lines, right-to-left and CJK text. Each row is an ``extra`` of
# :func:`sample_issues`: (original, perturbed, before, after, original translation, perturbed translation).
HOSTILE_ROWS: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("<script>window.__pwned=1</script> The cat sat.", "<script>window.__pwned=1</script> The dog sat.",
     "cat", "dog", "</td></tr></table><b>El gato</b>", "</script><img src=x onerror=\"window.__pwned=2\"> El perro"),
    ("He said \"stop\" & 'go' <!-- now", "He said \"halt\" & 'go' <!-- now", "stop", "halt",
     "Dijo \"para\" &amp; 've' ]]> `code` *star* | pipe", "Dijo \"alto\" &amp; 've' ]]> `code` *star* | pipe"),
    ("x" * 4000 + " cat", "x" * 4000 + " dog", "cat", "dog", "y" * 4000, "z" * 4000),
    ("The bank is near.", "The shore is near.", "bank", "shore", "البنك قريب.", "الشاطئ قريب جدا."),
    ("The river is long.", "The road is long.", "river", "road", "这条河很长。", "这条路很长。"),
    ("Price \u202eevil\u202c here.", "Cost \u202eevil\u202c here.", "Price", "Cost", "Precio aquí.", "Coste aquí."),
)
